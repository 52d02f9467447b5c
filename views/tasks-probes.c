/*
 * The kernel probes on the Tasks screen, under the blocked tasks: the
 * tasks that stalled in reclaim or compaction over the probes' window
 * (they run, in R, so the scan of D tasks never sees them), and the short
 * D sleeps grouped by stack with the wait reason of the same table the
 * blocked tasks get. Names come from the machine: escaped.
 */
#include "views/tasks-probes.h"

#include <stdio.h>
#include <string.h>

#include "model/history-probes.h"
#include "util/text.h"
#include "views/reclaim-probes.h"

/* The rows the panel would use, its titles too. */
static int
panel_rows(const struct view_ctx *ctx, int *n_tasks, int *n_stacks)
{
	static struct hist_probe_task t[HIST_PROBE_TASKS];
	static struct hist_probe_dstack d[HIST_PROBE_DSTACKS];
	char line[160];
	uint64_t first;

	*n_tasks = *n_stacks = 0;
	if (!probes_panel_on(ctx, line, sizeof(line)))
		return 2;
	if (!history_probe_window(ctx->h, ctx->seq, &first))
		return 2;
	*n_tasks = history_probe_tasks(ctx->h, first, ctx->seq, t, HIST_PROBE_TASKS, NULL);
	*n_stacks = history_probe_dstacks(ctx->h, first, ctx->seq, d, HIST_PROBE_DSTACKS, NULL);
	return 2 + (*n_tasks ? *n_tasks : 1) + 2 + (*n_stacks ? *n_stacks : 1);
}

int
tasks_probes_height(const struct view_ctx *ctx, int avail, int spare)
{
	int nt, ns, want = panel_rows(ctx, &nt, &ns), cap = avail / 2;

	if (cap < 6)
		cap = avail < 6 ? avail : 6;
	/* What the blocked tasks leave unused is the panel's too. */
	if (spare > cap)
		cap = spare < avail ? spare : avail;
	return want < cap ? want : cap;
}

void
tasks_probes_draw(const struct view_ctx *ctx, int y, int rows)
{
	static struct hist_probe_task t[HIST_PROBE_TASKS];
	static struct hist_probe_dstack d[HIST_PROBE_DSTACKS];
	int end = y + rows, nt, ns, more_t, more_s, room;
	char line[200], span[32], a[16], b[16], comm[64], kinds[32];
	uint64_t first;

	if (rows <= 0)
		return;
	if (!probes_panel_on(ctx, line, sizeof(line))) {
		y = view_title(y, ctx->x, ctx->cols, "Stalled in reclaim or compaction");
		if (y < end)
			draw_text(y, ctx->x + 1, ctx->cols - 1, ST_DIM, "%s", line);
		return;
	}
	if (!history_probe_window(ctx->h, ctx->seq, &first)) {
		y = view_title(y, ctx->x, ctx->cols, "Stalled in reclaim or compaction");
		if (y < end)
			draw_text(y, ctx->x + 1, ctx->cols - 1, ST_DIM, "probes: one tick so far");
		return;
	}
	fmt_duration(history_mono(ctx->h, ctx->seq) - history_mono(ctx->h, first), span,
		     sizeof(span));
	nt = history_probe_tasks(ctx->h, first, ctx->seq, t, HIST_PROBE_TASKS, &more_t);
	ns = history_probe_dstacks(ctx->h, first, ctx->seq, d, HIST_PROBE_DSTACKS, &more_s);
	/* The stacks get at least two rows when there are any. */
	room = end - y - 2 - 2 - (ns ? (ns < 2 ? ns : 2) : 1);
	snprintf(line, sizeof(line), "Stalled in reclaim or compaction, last %s (in R)", span);
	y = view_title(y, ctx->x, ctx->cols, line);
	if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%7s %-16s %-20s %6s %7s %7s", "tid",
			  "comm", "kinds", "count", "total", "max");
	if (nt == 0 && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "%7s no task stalled", "");
	for (int i = 0; i < nt && y < end && room > 0; i++, room--) {
		text_esc(comm, sizeof(comm), t[i].comm);
		probe_stall_kinds_text(t[i].kinds, kinds, sizeof(kinds));
		probes_fmt_ns((double)t[i].total_ns, a, sizeof(a));
		probes_fmt_ns((double)t[i].max_ns, b, sizeof(b));
		if (room == 1 && i < nt - 1) {
			draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%7s %d more", "",
				  nt - i + more_t);
			break;
		}
		draw_text(y++, ctx->x, ctx->cols, ST_WARN, "%7d %-16.16s %-20s %6llu %7s %7s",
			  t[i].tid, comm, kinds, (unsigned long long)t[i].count, a, b);
	}
	if (y >= end)
		return;
	snprintf(line, sizeof(line), "Short D sleeps by stack, last %s", span);
	y = view_title(y, ctx->x, ctx->cols, line);
	if (ns && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%6s %7s %7s %-10s %-16s %s", "count",
			  "total", "max", "category", "last task", "wait reason");
	if (ns == 0 && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "%7s none", "");
	for (int i = 0; i < ns && y < end; i++) {
		enum wait_category cat;
		const char *frame, *why = history_stack_reason(ctx->h, d[i].stack, &cat, &frame);
		char reason[2 * REASON_TEXT_LEN], esc[4 * REASON_TEXT_LEN], fit[4 * REASON_TEXT_LEN];

		if (y == end - 1 && i < ns - 1) {
			draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%7s %d more stacks", "",
				  ns - i + more_s);
			break;
		}
		probes_fmt_ns((double)d[i].total_ns, a, sizeof(a));
		probes_fmt_ns((double)d[i].max_ns, b, sizeof(b));
		if (d[i].stack < 0)
			snprintf(reason, sizeof(reason), "(other stacks: the table is full)");
		else
			snprintf(reason, sizeof(reason), "%s", why[0] ? why : "(no stack)");
		text_esc(esc, sizeof(esc), reason);
		text_esc(comm, sizeof(comm), d[i].last_comm);
		/* The reason last: a narrow screen cuts words, never a figure. */
		view_fit(esc, ctx->cols - 51, fit, sizeof(fit));
		draw_text(y++, ctx->x, ctx->cols, ST_NORMAL, "%6llu %7s %7s %-10s %-16.16s %s",
			  (unsigned long long)d[i].count, a, b, wait_category_name(cat), comm, fit);
	}
}
