/* The dashboard's state: what the shell (dashboard.c) and its chrome
 * (chrome.c) share. The feed brings samples, live or recorded; the replay
 * control, when the feed is a recording, owns where replay stands. */
#ifndef PAGETOP_DASHBOARD_INT_H
#define PAGETOP_DASHBOARD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dashboard/dashboard.h"
#include "dashboard/replay-control.h"
#include "model/events.h"
#include "model/feed.h"
#include "model/history.h"
#include "output/recording.h"
#include "views/view.h"

#define MAX_HISTORY	(4u << 20)	/* entries: a month at 1 s */
#define FILTER_LEN	64
#define PROMPT_MAX	255		/* a mark's text, or a time to go to */

struct dashboard {
	const struct dashboard_opts *o;
	struct feed *f;
	struct replay_control *rc;	/* NULL live */
	struct history *h;
	struct hist_entry shown;	/* the entry views read, unpacked */
	struct events *ev;		/* the kernel log events seen, beside the history */
	bool paused;			/* live: not following the newest */
	uint64_t seq;			/* live: shown when paused */
	int view;			/* index into view_table */
	int prev_view;			/* to go back from help */
	void *state[VIEW_COUNT];
	bool filtering;			/* typing a "/" filter */
	char filter[FILTER_LEN];
	int tab_x[VIEW_COUNT + 1];	/* where each tab starts, for mouse clicks */
	double next_tick;
	long ticks;
	char message[256];		/* a passing note on the status line */
	int prompt;			/* 'g' (go to), 'm' (mark) or 'f' (n/N kinds), else 0 */
	char prompt_text[PROMPT_MAX + 1];
	struct recording rec;		/* live: R records the session */
	/* replay --compare: the other recording (B), kept at the moment of
	 * the sample shown plus o->compare_offset. */
	struct replay_control *rcb;
	struct history *hb;
	struct events *evb;
	struct hist_entry shown_b;
	struct view_ctx ctx_b;		/* what views read of B */
	int b_where;			/* 0 in step; -1 before B's start, 1 past its end */
};

/* The entry on screen: the newest, the pinned one while paused, or the
 * replay's. */
uint64_t dashboard_shown(struct dashboard *d);

/* chrome.c: the header, the tabs and the status line. */
void chrome_header(struct dashboard *d, uint64_t seq);
void chrome_tabs(struct dashboard *d);
void chrome_status(struct dashboard *d);
/* "recording stopped: why (FILE)" from err, "FILE: why" or other. */
void chrome_rec_error(const char *path, const char *err, char *dst, size_t size);

/* terminal.c: curses, colours, keys and the signals that quit. */
struct screen;
struct screen *terminal_open(const struct dashboard_opts *o, char *err, size_t size);
void terminal_close(struct screen *scr);

#endif
