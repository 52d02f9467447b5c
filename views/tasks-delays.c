/*
 * Who waited in the tick on screen, by the kernel's own delay accounting
 * (taskstats): a second view of the stalls that needs no BPF. The figures
 * are the tick's own, for the tasks that ran in it; with replay
 * --compare, B's totals of its own tick under A's.
 */
#include "views/tasks-delays.h"

#include <stdio.h>

#include "views/draw.h"
#include "views/reclaim-probes.h"
#include "util/text.h"

/* The columns, in the order a memory stall matters most. */
static const enum delay_kind cols[] = {
	DELAY_RECLAIM, DELAY_COMPACT, DELAY_THRASHING, DELAY_SWAPIN, DELAY_BLKIO,
};
#define NCOLS	(int)(sizeof(cols) / sizeof(cols[0]))

/* "reclaim 1.2ms  compact 0  ..." of a tick's totals into line. */
static void
tasks_delays_totals(const struct delays *dl, char *line, size_t size)
{
	char v[16];
	size_t n = 0;

	line[0] = '\0';
	for (int c = 0; c < NCOLS && n < size; c++) {
		if (dl->total_ns[cols[c]] == 0)
			snprintf(v, sizeof(v), "0");
		else
			probes_fmt_ns((double)dl->total_ns[cols[c]], v, sizeof(v));
		n += (size_t)snprintf(line + n, size - n, "%s%s %s", c ? "  " : "",
				      delay_kind_name(cols[c]), v);
	}
}

/* A second recording with delay accounting on. */
static bool
b_on(const struct view_ctx *ctx)
{
	return ctx->b && ctx->b->delays && ctx->b->delays->state == DELAYS_ON;
}

int
tasks_delays_height(const struct view_ctx *ctx, int avail)
{
	const struct delays *dl = ctx->delays;
	int want;

	if (dl == NULL || dl->state == DELAYS_NONE || avail <= 0)
		return 0;
	/* Title and why; or title, totals, header, a row per task. */
	want = dl->state == DELAYS_ON ? 3 + b_on(ctx) + (dl->n_top ? dl->n_top : 1) : 2;
	return want < avail ? want : avail;
}

void
tasks_delays_draw(const struct view_ctx *ctx, int y, int rows)
{
	const struct delays *dl = ctx->delays;
	int end = y + rows, x = ctx->x, w = ctx->cols;
	char line[256], v[NCOLS][16], why[TEXT_ESCAPED_SIZE(120)], comm[64];

	if (rows <= 0 || dl == NULL)
		return;
	y = view_title(y, x, w, "Waited in this tick, by delay accounting");
	if (y >= end)
		return;
	if (dl->state != DELAYS_ON) {
		draw_text(y, x + 1, w - 1, ST_DIM, "delay accounting %s: %s",
			  delays_state_name(dl->state), text_esc(why, sizeof(why), dl->why));
		return;
	}
	tasks_delays_totals(dl, line, sizeof(line));
	draw_text(y++, x + 1, w - 1, ST_NORMAL, "%s  (%u/%u tasks)", line, dl->answered,
		  dl->ran);
	/* replay --compare: B's totals of its own tick under A's. */
	if (b_on(ctx) && y < end) {
		const struct delays *db = ctx->b->delays;

		tasks_delays_totals(db, line, sizeof(line));
		draw_text(y++, x, w, ST_HEAT3, "B %s  (%u/%u tasks)", line, db->answered, db->ran);
	}
	if (y >= end)
		return;
	draw_text(y++, x, w, ST_DIM, "%7s %-16s %8s %8s %8s %8s %8s", "tid", "comm",
		  "reclaim", "compact", "thrash", "swapin", "blkio");
	if (dl->n_top == 0 && y < end)
		draw_text(y++, x, w, ST_GOOD, "%7s no task waited on memory or I/O", "");
	for (int i = 0; i < dl->n_top && i < DELAYS_TOP_TASKS && y < end; i++) {
		const struct delay_task *t = &dl->top[i];

		for (int c = 0; c < NCOLS; c++) {
			if (t->ns[cols[c]] == 0)
				snprintf(v[c], sizeof(v[c]), "-");
			else
				probes_fmt_ns((double)t->ns[cols[c]], v[c], sizeof(v[c]));
		}
		text_esc(comm, sizeof(comm), t->comm);
		draw_text(y++, x, w, delay_task_memory_ns(t) ? ST_WARN : ST_NORMAL,
			  "%7d %-16.16s %8s %8s %8s %8s %8s", t->tid, comm, v[0], v[1], v[2],
			  v[3], v[4]);
	}
}
