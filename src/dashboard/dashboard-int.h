/* The dashboard's state, shared by the live loop (dashboard.c) and
 * replay (dashboard-replay.c). Nothing outside those two reads it. */
#ifndef PAGETOP_DASHBOARD_INT_H
#define PAGETOP_DASHBOARD_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dashboard/dashboard.h"
#include "model/events.h"
#include "model/history.h"
#include "source/host-read.h"
#include "source/kmsg-rules.h"
#include "source/kmsg-source.h"
#include "source/marks.h"
#include "model/reasons.h"
#include "output/recording.h"
#include "source/replay.h"
#include "model/sample.h"
#include "source/sampler.h"
#include "source/libsensors.h"
#include "model/taskgroups.h"
#include "source/taskscan.h"
#include "views/view.h"

#define MAX_HISTORY	(4u << 20)	/* entries: a month at 1 s */
#define REPLAY_BEFORE	300		/* samples decoded before a seek's target, for the charts */
#define EXIT_USAGE_DASHBOARD 2
#define FILTER_LEN	64
#define N_VIEWS		7

extern const struct view *const views[N_VIEWS];

struct dashboard {
	const struct dashboard_opts *o;
	struct host host;
	struct sampler sp;
	struct sample *s;		/* the latest sample */
	/* Its sources' status, but for a source not read on the latest tick
	 * (pagetypeinfo) the status of its last read. */
	struct source_status status[SRC_COUNT];
	struct sensors_source *sensors;
	struct taskscan *ts;		/* NULL under a proc root of captured files */
	struct reasons *rs;
	struct task_groups *groups;	/* the latest scan's blocked tasks, grouped */
	struct history *h;
	struct hist_entry shown;	/* the entry views read, unpacked */
	struct kmsg_rules *kmsg_rules;
	struct kmsg_source *kmsg;	/* NULL: no kernel log (captured files) */
	struct events *ev;		/* the kernel log events seen, beside the history */
	bool paused;
	uint64_t seq;			/* shown when paused */
	int view;			/* index into views[] */
	int prev_view;			/* to go back from help */
	void *state[N_VIEWS];
	bool filtering;			/* typing a "/" filter */
	char filter[FILTER_LEN];
	int tab_x[N_VIEWS + 1];		/* where each tab starts, for mouse clicks */
	double next_tick;
	double last_pti;
	long ticks;
	char message[256];		/* a passing note on the status line */
	/* Replay: samples come from a recording instead of the kernel. */
	struct replay *rp;
	size_t n_rec;			/* samples in the recording */
	size_t hist_base;		/* the recording's index of history seq 0 */
	bool playing;
	double speed;			/* x0.25 .. x64 */
	int prompt;			/* 'g' (go to) or 'm' (mark) while typing, else 0 */
	char prompt_text[MARK_TEXT_MAX + 1];
	/* Recording the live session (R), and marks from `pagetop mark`. */
	struct recording rec;
	int mark_fd;
	char mark_path[256];
	char cmdline[1024];
};

/* The newest sample read: the kernel's, or the recording's shown one. */
static inline struct sample *
dashboard_sample_now(struct dashboard *d)
{
	return d->rp ? d->rp->cur : d->s;
}

void dashboard_keep_status(struct dashboard *d);
void dashboard_load_reasons(struct dashboard *d);
/* Takes the terminal: curses, colours, keys, signals. NULL with err. */
SCREEN *dashboard_terminal(const struct dashboard_opts *o, char *err, size_t size);
int dashboard_loop(struct dashboard *d);

/* Replay (dashboard-replay.c). */
size_t replay_shown(struct dashboard *d);
bool replay_load(struct dashboard *d, size_t i);
void replay_forward(struct dashboard *d);
bool replay_key(struct dashboard *d, int ch);
void replay_prompt_key(struct dashboard *d, int ch);
void draw_timeline(struct dashboard *d, int y);
int dashboard_replay_run(struct dashboard *d);

#endif
