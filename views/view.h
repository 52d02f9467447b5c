/*
 * A screen of the dashboard. Each file in views/ exports one const struct
 * view; the dashboard keeps them in a table, draws the current one and
 * passes it the keys it does not handle itself. Views only read: the
 * history, the status of the latest sample, and their own state.
 */
#ifndef PAGETOP_VIEW_H
#define PAGETOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "views/draw.h"
#include "model/history.h"
#include "model/sample.h"

struct events;
struct kmsg_sample;
struct sensors;
struct tasks;
struct task_groups;

struct view_ctx {
	const struct history *h;
	uint64_t seq;			/* the entry shown */
	const struct hist_entry *e;	/* it, unpacked; NULL when not held */
	bool paused;			/* not following the newest entry */
	const struct source_status *status;	/* of the latest sample, SRC_COUNT */
	const struct sensors *sensors;	/* the latest reading, or NULL */
	const struct tasks *tasks;	/* the latest task scan, or NULL */
	const struct task_groups *groups;	/* its blocked tasks grouped */
	const struct events *events;	/* the kernel log events seen, or NULL */
	const struct kmsg_sample *kmsg;	/* the latest sample's kernel log status */
	const struct delays *delays;	/* its delay accounting, or NULL */
	uint64_t latest;		/* the seq of the latest sample (tasks are its) */
	double now;			/* its monotonic time, for blocked durations */
	double pti_every;		/* seconds between pagetypeinfo reads */
	long page_size;			/* bytes: the kernel files count pages */
	const char *filter;		/* the "/" text, "" for none */
	int y, x, rows, cols;		/* the area to draw in */
	/* replay --compare: the other recording at the same moment, read as
	 * this one is (its own history and entry); NULL when none. */
	const struct view_ctx *b;
};

struct view {
	const char *name;
	const char *title;		/* shown in the tab line */
	int key;			/* the key that shows it */
	int alt_key;			/* another one (a letter), 0 for none */
	void (*draw)(const struct view_ctx *ctx, void *state);
	/* true when the key was used */
	bool (*handle_key)(const struct view_ctx *ctx, void *state, int key);
	size_t state_size;		/* allocated, zeroed, once at start-up */
	const char *const *help;	/* "KEY  what it does" lines, NULL-terminated */
};

extern const struct view view_overview;
extern const struct view view_fragmentation;
extern const struct view view_reclaim;
extern const struct view view_sensors;
extern const struct view view_tasks;
extern const struct view view_events;
extern const struct view view_help;

#define VIEW_COUNT	7
/* Every screen in tab order (views/table.c); view_help is the last. */
extern const struct view *const view_table[VIEW_COUNT];

/* Shared pieces of panels. */

/* A title line "── Title ─────" across w columns; returns the next row. */
int view_title(int y, int x, int w, const char *title);
/* The one-line reason a source is missing, e.g. "pagetypeinfo: permission
 * denied (needs root)"; false when the source is fine. */
bool view_missing(const struct view_ctx *ctx, enum source src, char *dst, size_t size);
/* The style of a kernel log event of this kind (enum kmsg_kind). */
enum style view_kmsg_style(int kind);
/* Wall-clock seconds as "14:03:10". */
void view_clock(double wall, char *dst, size_t size);
/* The newest kernel log events up to the entry shown and no older than
 * VIEW_EVENTS_RECENT seconds before it, newest first, as many as fit on
 * line y from x to end; returns where it stopped (x when there is none). */
#define VIEW_EVENTS_RECENT	600
int view_events_inline(const struct view_ctx *ctx, int y, int x, int end);
/* Whether there is such an event to show. */
bool view_events_recent(const struct view_ctx *ctx);
/* The same events one a line, "Events" before the first, each cut at a
 * word to w columns, at most rows of them; returns the lines used. */
int view_events_lines(const struct view_ctx *ctx, int y, int x, int w, int rows);
/* s in at most w columns into dst: whole when it fits, else cut at a word
 * with an ellipsis. Returns the columns it takes. */
int view_fit(const char *s, int w, char *dst, size_t size);
/* Line part (0 at the top) of a chart parts lines tall of the last w of
 * the n values v, scaled to max. */
void view_chart_line(int y, int x, int w, const double *v, int n, double max, int part,
		     int parts, enum style st);
/* Rates of counter c for the n entries ending at ctx->seq (oldest first);
 * NAN where unknown. Returns how many were filled (<= n). */
int view_rates(const struct view_ctx *ctx, enum counter c, double *out, int n);

#endif
