/*
 * The second recording's blocked tasks at its sample, as its history kept
 * them (the biggest groups of each sample, with their wait reasons): what
 * a comparison needs beside the first recording's list, without the
 * second's stacks.
 */
#include "views/tasks-compare.h"
#include "model/reasons.h"

#include <stdio.h>

int
tasks_compare_height(const struct view_ctx *ctx, int avail)
{
	const struct hist_entry *e;
	int want = 3;

	if (!ctx->b || avail < 3)
		return 0;
	e = ctx->b->e;
	if (e && (e->valid & SRC_BIT(SRC_TASKS)))
		want = 2 + (e->tasks.n_groups < HIST_TASK_GROUPS ? e->tasks.n_groups :
			    HIST_TASK_GROUPS) + (e->tasks.n_groups > HIST_TASK_GROUPS);
	return want < avail ? want : avail;
}

void
tasks_compare_draw(const struct view_ctx *ctx, int y, int rows)
{
	const struct hist_entry *e = ctx->b ? ctx->b->e : NULL;
	int end = y + rows;
	char d[32];

	if (rows < 1)
		return;
	view_title(y++, ctx->x, ctx->cols, "B: blocked tasks at its sample, biggest groups");
	if (!e || !(e->valid & SRC_BIT(SRC_TASKS))) {
		if (y < end)
			draw_text(y, ctx->x, ctx->cols, ST_DIM, "B has no task scan here");
		return;
	}
	if (e->tasks.n_groups == 0) {
		if (y < end)
			draw_text(y, ctx->x, ctx->cols, ST_GOOD, "no task blocked in B");
		return;
	}
	if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_TITLE, "%6s %8s  %-11s %s", "tasks",
			  "longest", "category", "reason");
	for (int k = 0; k < HIST_TASK_GROUPS && k < e->tasks.n_groups && y < end; k++) {
		const struct hist_task_group *g = &e->tasks.top[k];

		fmt_duration(g->longest, d, sizeof(d));
		draw_text(y, ctx->x, ctx->cols, ST_HEAT3, "%6u %7s%s  ", g->count, d,
			  g->at_least ? "+" : " ");
		draw_text(y, ctx->x + 17, 12, ST_NORMAL, "%-11s",
			  wait_category_name((enum wait_category)g->category));
		draw_text(y++, ctx->x + 29, ctx->cols - 29, ST_NORMAL, "%s", g->reason);
	}
	if (e->tasks.n_groups > HIST_TASK_GROUPS && y < end)
		draw_text(y, ctx->x, ctx->cols, ST_DIM, "%6s and %u more groups", "",
			  e->tasks.n_groups - HIST_TASK_GROUPS);
}
