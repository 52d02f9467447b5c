/*
 * Tasks: the blocked tasks grouped by how they wait, with the reason in
 * plain words and how long the longest has waited. Enter opens a group to
 * its tasks, and a task to its whole kernel stack. The task list is the
 * latest scan's; paused on an older sample, the screen shows the group
 * summary the history kept for it.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/history.h"
#include "model/taskgroups.h"
#include "model/tasks.h"
#include "views/tasks-compare.h"
#include "views/tasks-delays.h"
#include "views/tasks-probes.h"
#include "views/view.h"

#define MAX_OPEN	32

struct tasks_state {
	struct task_groups sorted;	/* this draw's groups, in the chosen order */
	enum task_groups_order order;
	unsigned long open[MAX_OPEN];	/* signatures of the groups opened */
	int n_open;
	int cursor;			/* row of the list under the cursor */
	int top;			/* first row shown */
	int detail_tid;			/* the task whose stack is shown, 0 none */
	int rows;			/* rows in the list at the last draw */
	int list_h;			/* rows the list had room for */
	/* What each row of the list is, from the last draw. */
	int row_group[TASKS_MAX_BLOCKED * 2];
	int row_task[TASKS_MAX_BLOCKED * 2];	/* -1 on a group's row */
};

static bool
group_open(const struct tasks_state *st, unsigned long sig)
{
	for (int i = 0; i < st->n_open; i++)
		if (st->open[i] == sig)
			return true;
	return false;
}

static void
toggle_open(struct tasks_state *st, unsigned long sig)
{
	for (int i = 0; i < st->n_open; i++)
		if (st->open[i] == sig) {
			st->open[i] = st->open[--st->n_open];
			return;
		}
	if (st->n_open < MAX_OPEN)
		st->open[st->n_open++] = sig;
}

static bool
task_matches(const struct tasks *t, int i, const char *filter)
{
	return !filter[0] || strcasestr(t->b[i].comm, filter) ||
	    strcasestr(t->b[i].cmdline, filter);
}

static void
fmt_blocked(double s, bool at_least, char *dst, size_t size)
{
	char d[24];

	fmt_duration(s, d, sizeof(d));
	snprintf(dst, size, "%s%.20s", at_least ? (draw_utf8() ? "\u2265" : ">=") : "", d);
}

static enum style
category_style(enum wait_category c)
{
	switch (c) {
	case WAIT_RECLAIM:
	case WAIT_COMPACTION:
		return ST_BAD;
	case WAIT_JOURNAL:
	case WAIT_WRITEBACK:
	case WAIT_PAGE_IO:
	case WAIT_BLOCK:
		return ST_WARN;
	default:
		return ST_NORMAL;
	}
}

/* The state counts line, from the history (so it follows pause). */
static int
draw_states(const struct view_ctx *ctx, int y)
{
	const struct hist_entry *e = ctx->e;
	static const char *const names[TS_COUNT] = {
		[TS_RUNNING] = "running", [TS_BLOCKED] = "blocked (D)",
		[TS_SLEEPING] = "sleeping", [TS_IDLE] = "idle", [TS_STOPPED] = "stopped",
		[TS_ZOMBIE] = "zombie",
	};
	int x = ctx->x;

	x += draw_text(y, x, ctx->cols, ST_TITLE, "Tasks ");
	if (!e || !(e->valid & SRC_BIT(SRC_TASKS))) {
		char why[200];

		if (view_missing(ctx, SRC_TASKS, why, sizeof(why)))
			draw_text(y, x, ctx->x + ctx->cols - x, ST_WARN, " %s", why);
		else
			draw_text(y, x, ctx->x + ctx->cols - x, ST_DIM, " not scanned");
		return y + 1;
	}
	for (int f = 0; f < TS_COUNT; f++) {
		if (f != TS_BLOCKED && f != TS_RUNNING && !e->tasks.state[f])
			continue;
		x += draw_text(y, x, ctx->x + ctx->cols - x,
			       f == TS_BLOCKED && e->tasks.state[f] ? ST_BAD : ST_NORMAL, " %u",
			       e->tasks.state[f]);
		x += draw_text(y, x, ctx->x + ctx->cols - x, ST_DIM, " %s ", names[f]);
	}
	draw_text(y, x, ctx->x + ctx->cols - x, ST_DIM, " of %u threads", e->tasks.total);
	return y + 1;
}

/* Paused on an older sample: what the history kept. */
static void
draw_summary(const struct view_ctx *ctx, int y)
{
	const struct hist_entry *e = ctx->e;
	char d[32];

	if (!e || !(e->valid & SRC_BIT(SRC_TASKS)))
		return;
	y++;
	draw_text(y++, ctx->x, ctx->cols, ST_TITLE, "%6s %8s  %-11s %s", "tasks", "longest",
		  "category", "reason");
	for (int k = 0; k < HIST_TASK_GROUPS && k < e->tasks.n_groups; k++) {
		const struct hist_task_group *g = &e->tasks.top[k];

		fmt_blocked(g->longest, g->at_least, d, sizeof(d));
		draw_text(y, ctx->x, ctx->cols, ST_NORMAL, "%6u %8s  ", g->count, d);
		draw_text(y, ctx->x + 17, 12, category_style(g->category), "%-11s",
			  wait_category_name(g->category));
		draw_text(y++, ctx->x + 29, ctx->cols - 29, ST_NORMAL, "%s", g->reason);
	}
	if (e->tasks.n_groups > HIST_TASK_GROUPS)
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%6s and %u more groups", "",
			  e->tasks.n_groups - HIST_TASK_GROUPS);
	if (e->tasks.n_groups == 0)
		draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "no task blocked");
	y++;
	draw_text(y, ctx->x, ctx->cols, ST_DIM,
		  "the history keeps the biggest groups of each sample; End shows the tasks now");
}

/* A task's whole story: stack, command line, user, time blocked. */
static void
draw_detail(const struct view_ctx *ctx, struct tasks_state *st, int y)
{
	const struct tasks *t = ctx->tasks;
	const struct blocked_task *b = NULL;
	int end = ctx->y + ctx->rows, i;
	char d[32];

	for (i = 0; i < t->n_blocked; i++)
		if (t->b[i].tid == st->detail_tid) {
			b = &t->b[i];
			break;
		}
	if (!b) {
		draw_text(y, ctx->x, ctx->cols, ST_DIM,
			  "task %d is no longer blocked (Esc goes back)", st->detail_tid);
		return;
	}
	fmt_blocked(task_blocked_for(t, i, ctx->now), b->since_start, d, sizeof(d));
	draw_text(y++, ctx->x, ctx->cols, ST_TITLE, "task %d (%s), process %d, user %s", b->tid,
		  b->comm, b->tgid, b->user[0] ? b->user : "?");
	draw_text(y++, ctx->x, ctx->cols, ST_NORMAL, "blocked %s%s in state %c, wchan %s", d,
		  b->since_from == SINCE_SCHED ? " (since it last ran)" :
		  b->since_from == SINCE_START ? " (since pagetop started)" : "",
		  b->state, b->wchan[0] ? b->wchan : draw_unknown());
	draw_text(y++, ctx->x, ctx->cols, ST_NORMAL, "command: %s",
		  b->cmdline[0] ? b->cmdline : "(kernel thread)");
	{
		const struct task_group *g = &st->sorted.g[st->sorted.of_task[i]];

		draw_text(y, ctx->x, ctx->cols, ST_NORMAL, "reason: ");
		draw_text(y++, ctx->x + 8, ctx->cols - 8, category_style(g->category), "%s: %s",
			  wait_category_name(g->category), g->reason);
	}
	y = view_title(y, ctx->x, ctx->cols, "kernel stack, innermost first");
	if (b->stack < 0) {
		draw_text(y, ctx->x + 1, ctx->cols - 1, ST_WARN, "none: %s",
			  task_stack_missing_text(b->stack_why));
		return;
	}
	static struct stack sc;
	const struct stack *ks = tasks_stack(t, b->stack, &sc);

	for (int f = 0; ks != NULL && f < ks->n && y < end; f++) {
		const struct stack_frame *fr = &ks->f[f];

		draw_text(y++, ctx->x + 1, ctx->cols - 1, ST_NORMAL, "%s%s%s%s", fr->func,
			  fr->module[0] ? " [" : "", fr->module, fr->module[0] ? "]" : "");
	}
}

static void
tasks_draw_list(const struct view_ctx *ctx, void *state)
{
	struct tasks_state *st = state;
	const struct tasks *t = ctx->tasks;
	int y = ctx->y, end = ctx->y + ctx->rows, rows = 0;
	char d[32];

	y = draw_states(ctx, y);
	if (!t || ctx->seq != ctx->latest) {
		st->rows = 0;
		draw_summary(ctx, y);
		return;
	}
	if (t->note[0] && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "%s", t->note);
	if (t->stack_err && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_WARN, "kernel stacks need root: reasons "
			  "come from wchan alone, which is often 0 on recent kernels");
	if (st->detail_tid) {
		task_groups_copy(&st->sorted, ctx->groups);
		draw_detail(ctx, st, y);
		return;
	}
	task_groups_copy(&st->sorted, ctx->groups);
	task_groups_sort(&st->sorted, st->order);
	if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_TITLE, "%6s %8s  %-11s %s", "tasks",
			  st->order == GROUPS_BY_LONGEST ? "LONGEST" : "longest", "category",
			  "reason (s: sort by count or longest; Enter: open)");
	if (t->n_blocked == 0 && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "%6s no task is blocked", "");
	if (t->truncated && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_WARN, "%6s more than %d blocked tasks: "
			  "the first %d are shown", "", TASKS_MAX_BLOCKED, TASKS_MAX_BLOCKED);

	/* The list: each group, then its tasks when open. */
	for (int g = 0; g < st->sorted.n; g++) {
		const struct task_group *gr = &st->sorted.g[g];
		int shown = 0;

		for (int i = 0; i < t->n_blocked; i++)
			shown += st->sorted.of_task[i] == g && task_matches(t, i, ctx->filter);
		if (!shown)
			continue;
		st->row_group[rows] = g;
		st->row_task[rows] = -1;
		rows++;
		if (group_open(st, gr->sig))
			for (int i = 0; i < t->n_blocked; i++)
				if (st->sorted.of_task[i] == g && task_matches(t, i, ctx->filter) &&
				    rows < TASKS_MAX_BLOCKED * 2) {
					st->row_group[rows] = g;
					st->row_task[rows] = i;
					rows++;
				}
	}
	st->rows = rows;
	st->list_h = end - y;
	if (st->cursor >= rows)
		st->cursor = rows ? rows - 1 : 0;
	if (st->cursor < st->top)
		st->top = st->cursor;
	if (st->list_h > 0 && st->cursor >= st->top + st->list_h)
		st->top = st->cursor - st->list_h + 1;
	for (int r = st->top; r < rows && y < end; r++, y++) {
		const struct task_group *gr = &st->sorted.g[st->row_group[r]];
		bool sel = r == st->cursor;
		int i = st->row_task[r];

		if (i < 0) {
			fmt_blocked(gr->longest, gr->at_least, d, sizeof(d));
			draw_clear_line(y, ctx->x, ctx->cols, sel ? ST_SELECTED : ST_NORMAL);
			draw_text(y, ctx->x, ctx->cols, sel ? ST_SELECTED : ST_NORMAL, "%s%5d %8s  ",
				  group_open(st, gr->sig) ? "-" : "+", gr->count, d);
			draw_text(y, ctx->x + 17, 12, sel ? ST_SELECTED : category_style(gr->category),
				  "%-11s", wait_category_name(gr->category));
			draw_text(y, ctx->x + 29, ctx->cols - 29, sel ? ST_SELECTED : ST_NORMAL, "%s",
				  gr->reason);
		} else {
			const struct blocked_task *b = &t->b[i];

			fmt_blocked(task_blocked_for(t, i, ctx->now), b->since_start, d, sizeof(d));
			draw_clear_line(y, ctx->x, ctx->cols, sel ? ST_SELECTED : ST_NORMAL);
			draw_text(y, ctx->x, ctx->cols, sel ? ST_SELECTED : ST_DIM,
				  "%6s %8s    %7d %-15s %-22s %s", "", d, b->tid, b->comm,
				  b->wchan[0] ? b->wchan : draw_unknown(), b->cmdline);
		}
	}
}

/* The blocked tasks, and under them what the probes saw stall. */
static void
tasks_draw(const struct view_ctx *ctx, void *state)
{
	struct tasks_state *st = state;
	struct view_ctx list = *ctx;
	/* The list's rows at the last draw, its states and header lines, and
	 * one spare; a summary of the past (not the latest sample) gets 8. */
	int need = ctx->tasks && ctx->seq == ctx->latest && !st->detail_tid ?
	    4 + (st->rows > 0 ? st->rows : 1) : 8;
	/* Delay accounting under the probes, of the latest sample only. */
	int dh = ctx->seq == ctx->latest ? tasks_delays_height(ctx, (ctx->rows - need) / 2) : 0;
	int ph = tasks_probes_height(ctx, ctx->rows - 3 - dh, ctx->rows - need - dh);

	/* replay --compare: the second recording's groups last. */
	int bh = tasks_compare_height(ctx, (ctx->rows - need - dh) / 2);

	if (ph < 0)
		ph = 0;
	if (bh && ph > ctx->rows - need - dh - bh)
		ph = ctx->rows - need - dh - bh > 0 ? ctx->rows - need - dh - bh : 0;
	list.rows -= ph + dh + bh;
	tasks_draw_list(&list, state);
	tasks_probes_draw(ctx, ctx->y + list.rows, ph);
	tasks_delays_draw(ctx, ctx->y + list.rows + ph, dh);
	tasks_compare_draw(ctx, ctx->y + list.rows + ph + dh, bh);
}

static bool
tasks_key(const struct view_ctx *ctx, void *state, int key)
{
	struct tasks_state *st = state;

	if (st->detail_tid) {
		if (key == 27 || key == KEY_BACKSPACE || key == 127 || key == KEY_LEFT ||
		    key == '\n' || key == '\r' || key == KEY_ENTER) {
			st->detail_tid = 0;
			return true;
		}
		return false;
	}
	switch (key) {
	case KEY_UP:
		if (st->cursor > 0)
			st->cursor--;
		return true;
	case KEY_DOWN:
		if (st->cursor + 1 < st->rows)
			st->cursor++;
		return true;
	case KEY_NPAGE:
		st->cursor += st->list_h > 1 ? st->list_h - 1 : 1;
		if (st->cursor >= st->rows)
			st->cursor = st->rows ? st->rows - 1 : 0;
		return true;
	case KEY_PPAGE:
		st->cursor -= st->list_h > 1 ? st->list_h - 1 : 1;
		if (st->cursor < 0)
			st->cursor = 0;
		return true;
	case 's':
		st->order = st->order == GROUPS_BY_COUNT ? GROUPS_BY_LONGEST : GROUPS_BY_COUNT;
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!ctx->tasks || st->cursor >= st->rows || ctx->seq != ctx->latest)
			return true;
		if (st->row_task[st->cursor] < 0)
			toggle_open(st, st->sorted.g[st->row_group[st->cursor]].sig);
		else
			st->detail_tid = ctx->tasks->b[st->row_task[st->cursor]].tid;
		return true;
	}
	return false;
}

static const char *const tasks_help[] = {
	"Up/Down     move; PgUp/PgDn a page",
	"Enter       open a group to its tasks; on a task, its whole stack",
	"Esc         back from a task's stack",
	"s           sort groups by count or by longest wait",
	"/text       only tasks whose command contains text",
	"            >= before a time: blocked before pagetop started watching",
	NULL
};

const struct view view_tasks = {
	.name = "tasks",
	.title = "Tasks",
	.key = '4',
	.draw = tasks_draw,
	.handle_key = tasks_key,
	.state_size = sizeof(struct tasks_state),
	.help = tasks_help,
};
