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

#include "draw.h"
#include "history.h"
#include "sample.h"

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
	uint64_t latest;		/* the seq of the latest sample (tasks are its) */
	double now;			/* its monotonic time, for blocked durations */
	double pti_every;		/* seconds between pagetypeinfo reads */
	long page_size;			/* bytes: the kernel files count pages */
	const char *filter;		/* the "/" text, "" for none */
	int y, x, rows, cols;		/* the area to draw in */
};

struct view {
	const char *name;
	const char *title;		/* shown in the tab line */
	int key;			/* the key that shows it */
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
extern const struct view view_help;

/* Shared pieces of panels. */

/* A title line "── Title ─────" across w columns; returns the next row. */
int view_title(int y, int x, int w, const char *title);
/* The one-line reason a source is missing, e.g. "pagetypeinfo: permission
 * denied (needs root)"; false when the source is fine. */
bool view_missing(const struct view_ctx *ctx, enum source src, char *dst, size_t size);
/* Rates of counter c for the n entries ending at ctx->seq (oldest first);
 * NAN where unknown. Returns how many were filled (<= n). */
int view_rates(const struct view_ctx *ctx, enum counter c, double *out, int n);

#endif
