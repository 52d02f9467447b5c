/*
 * The second recording's blocked tasks at its sample, as its history kept
 * them (the biggest groups of each sample, with their wait reasons): what
 * a comparison needs beside the first recording's list, without the
 * second's stacks; and, where B has the kernel probes, the task that
 * stalled longest in reclaim or compaction over B's probe window.
 */
#include "views/tasks-compare.h"
#include "model/history-probes.h"
#include "model/reasons.h"
#include "util/text.h"
#include "views/reclaim-probes.h"

#include <stdio.h>
#include <string.h>

/* B's probes are on at its entry. */
static bool
tasks_compare_probes(const struct view_ctx *b)
{
	return b->e && history_probes_state(b->h, b->seq, NULL, NULL) == PROBES_ON;
}

int
tasks_compare_height(const struct view_ctx *ctx, int avail)
{
	const struct hist_entry *e;
	int want;

	if (!ctx->b || avail < 3)
		return 0;
	e = ctx->b->e;
	want = 3 + 2 * tasks_compare_probes(ctx->b);
	if (e && (e->valid & SRC_BIT(SRC_TASKS)))
		want = 2 + 2 * tasks_compare_probes(ctx->b) + (e->tasks.n_groups < HIST_TASK_GROUPS ? e->tasks.n_groups :
			    HIST_TASK_GROUPS) + (e->tasks.n_groups > HIST_TASK_GROUPS);
	return want < avail ? want : avail;
}

/* "B D sleeps: 40 under 3 stacks, the most time 1.2s (12): waiting for the
 * ext4 journal to commit", over B's probe window. */
static void
tasks_compare_dsleeps(const struct view_ctx *b, const struct view_ctx *a, int y, int end,
		      uint64_t first)
{
	struct hist_probe_dstack d;
	enum wait_category cat;
	const char *frame, *why;
	char esc[4 * REASON_TEXT_LEN], tot[16];
	int n, more = 0;

	if (y >= end || (n = history_probe_dstacks(b->h, first, b->seq, &d, 1, &more)) <= 0)
		return;
	why = d.stack >= 0 ? history_stack_reason(b->h, d.stack, &cat, &frame) : "";
	text_escape(esc, sizeof(esc), why, strlen(why));
	probes_fmt_ns((double)d.total_ns, tot, sizeof(tot));
	draw_text(y, a->x, a->cols, ST_HEAT3, "B D sleeps: %d stack%s, the most time %s (%llu): %s",
		  n + more, n + more == 1 ? "" : "s", tot, (unsigned long long)d.count,
		  esc[0] ? esc : "(no stack)");
}

/* "B stalled: 3 tasks, the longest cc1 (4242) 1.2s in 40" on line y of
 * a's area, over B's probe window, from B's own history. */
static void
tasks_compare_stalled(const struct view_ctx *b, const struct view_ctx *a, int y, int end)
{
	struct hist_probe_task t;
	char comm[64], tot[16];
	uint64_t first;
	int more = 0, n;

	if (y >= end || !tasks_compare_probes(b) || !history_probe_window(b->h, b->seq, &first))
		return;
	n = history_probe_tasks(b->h, first, b->seq, &t, 1, &more);
	if (n <= 0) {
		draw_text(y, a->x, a->cols, ST_GOOD, "B stalled: no task in reclaim or compaction");
		return;
	}
	text_escape(comm, sizeof(comm), t.comm, strnlen(t.comm, sizeof(t.comm)));
	probes_fmt_ns((double)t.total_ns, tot, sizeof(tot));
	draw_text(y++, a->x, a->cols, ST_HEAT3, "B stalled: %d task%s, the longest %s (%d) %s in %llu",
		  n + more, n + more == 1 ? "" : "s", comm, (int)t.tid, tot,
		  (unsigned long long)t.count);
	tasks_compare_dsleeps(b, a, y, end, first);
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
			draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "no task blocked in B");
		tasks_compare_stalled(ctx->b, ctx, y, end);
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
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%6s and %u more groups", "",
			  e->tasks.n_groups - HIST_TASK_GROUPS);
	tasks_compare_stalled(ctx->b, ctx, y, end);
}
