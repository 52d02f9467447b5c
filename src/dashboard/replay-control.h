/*
 * Where a replay stands: the sample shown, playing or not, the speed, and
 * the history around the shown sample that the charts draw from. It moves
 * through a recording's feed and fills the history and the events; it
 * never calls into the dashboard shell, which calls it.
 */
#ifndef PAGETOP_REPLAY_CONTROL_H
#define PAGETOP_REPLAY_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/events.h"
#include "model/feed.h"
#include "model/history.h"

#define REPLAY_BEFORE	300	/* samples decoded before a seek's target, for the charts */

struct replay_control {
	struct feed *f;
	struct history *h;
	struct events *ev;
	size_t n;		/* samples in the recording */
	size_t hist_base;	/* the recording's index of history seq 0 */
	uint64_t seq;		/* the history entry shown */
	bool playing;
	double speed;		/* x0.25 .. x64 */
	unsigned kinds;		/* what n and N stop at: enum replay_stop */
	char message[256];	/* for the status line; "" when none */
};

void replay_control_init(struct replay_control *rc, struct feed *f, struct history *h,
			 struct events *ev);
/* The recording's index of the sample shown. */
size_t replay_control_shown(const struct replay_control *rc);
/* The shown sample into the feed's tick, for the views. */
void replay_control_load_shown(struct replay_control *rc);
/* Shows sample target with the samples before it in the history. */
void replay_control_goto(struct replay_control *rc, size_t target);
/* Shows sample target: a step within the history or one past it, else
 * a seek (replay --compare keeps the other recording in step so). */
void replay_control_show(struct replay_control *rc, size_t target);
/* While playing: one sample on; returns the seconds until the next. */
double replay_control_play(struct replay_control *rc);
/* Replay keys (space, arrows, Home, End, speed, n N ' "); false when the
 * key is not one of them. */
bool replay_control_key(struct replay_control *rc, int ch);
/* Goes to the time typed at the g prompt; a message when it is not one. */
void replay_control_go(struct replay_control *rc, const char *text);
/* The line of marks (|), gaps (!), bursts (=) and where the replay stands. */
void replay_control_timeline(const struct replay_control *rc, int y, int cols);

#endif
