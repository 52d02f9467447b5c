/*
 * Events: what the kernel log said about memory pressure (allocation
 * failures, hung tasks, OOM kills; data/kmsg-events) since pagetop
 * started, oldest first, up to the sample shown. Enter opens an event to
 * the kernel's whole message with its continuation lines, and what
 * pagetop read at that moment when it did (model/capture.h). A line the
 * kernel printed again within a second is one row, "x50" before it.
 * Without the log, the screen says why.
 */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/capture.h"
#include "model/events.h"
#include "util/fmt.h"
#include "parse/kmsg.h"
#include "views/view.h"

struct events_state {
	bool pinned;			/* the cursor stays on sel (else: the newest) */
	uint64_t sel;			/* the event under the cursor */
	bool detail;			/* showing sel's whole message */
	int detail_top;			/* its first row shown */
	int detail_rows;		/* rows it had at the last draw */
	int page;			/* rows of the list or message shown */
	int n;				/* rows in the list at the last draw */
	int cursor;			/* the cursor's row in it */
	int top;			/* the first row shown */
	uint64_t rows[EVENTS_KEPT];	/* event number of each row, oldest first */
};

static bool
event_matches(const struct event_entry *e, const char *filter)
{
	return !filter[0] || strcasestr(e->ev.text, filter) ||
	    strcasestr(kmsg_kind_name(e->ev.kind), filter);
}

/* The list: events up to the entry shown that pass the filter. */
static void
list_build(const struct view_ctx *ctx, struct events_state *st)
{
	uint64_t first, last;

	st->n = 0;
	if (!ctx->events || !events_range(ctx->events, &first, &last))
		return;
	for (uint64_t i = first; i <= last && st->n < EVENTS_KEPT; i++) {
		const struct event_entry *e = events_get(ctx->events, i);

		if (e->hseq <= ctx->seq && event_matches(e, ctx->filter))
			st->rows[st->n++] = i;
	}
	st->cursor = st->n ? st->n - 1 : 0;
	for (int r = 0; st->pinned && r < st->n; r++)
		if (st->rows[r] == st->sel) {
			st->cursor = r;
			return;
		}
	st->pinned = false;
}

/* The first line: how many, since when, and why there are none. */
static int
draw_status_line(const struct view_ctx *ctx, int y)
{
	const struct kmsg_sample *k = ctx->kmsg;
	int x = ctx->x;
	char why[160];

	x += draw_text(y, x, ctx->cols, ST_TITLE, "Kernel log ");
	if (!k || !k->read) {
		draw_text(y, x, ctx->x + ctx->cols - x, ST_DIM, " not read (captured files, or a "
			  "recording without it)");
		return y + 1;
	}
	if (k->err) {
		kmsg_reason(k->err, why, sizeof(why));
		draw_text(y, x, ctx->x + ctx->cols - x, ST_WARN, " %s%s",
			  k->err == EPERM || k->err == EACCES ? "" : "cannot be read: ", why);
		return y + 1;
	}
	draw_text(y, x, ctx->x + ctx->cols - x, ST_DIM, " since pagetop started: the messages "
		  "data/kmsg-events lists");
	return y + 1;
}

/* What pagetop read at the event: the verdict, each zone's watermarks and
 * its free blocks at and above the failed order per migratetype. */
static int
draw_capture(const struct view_ctx *ctx, const struct capture *c, int y, int end)
{
	char line[1024];

	if (y < end)
		y = view_title(y, ctx->x, ctx->cols, "read at the event");
	if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_WARN, "%s",
			  capture_verdict(c, line, sizeof(line)));
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES && y < end; i++) {
		draw_text(y++, ctx->x, ctx->cols, capture_zone_eligible(c, &c->zones[i]) ?
			  ST_NORMAL : ST_DIM, "%s", capture_zone_line(c, i, line, sizeof(line)));
		for (int t = 0; t < c->n_types && t < MAX_MTYPES && y < end; t++)
			if (c->zones[i].has & CZ_PTI)
				draw_text(y++, ctx->x + 2, ctx->cols - 2, t == capture_type_index(c) ?
					  ST_TITLE : ST_NORMAL, "%s",
					  capture_free_line(c, i, t, line, sizeof(line)));
	}
	return y;
}

/* One event's whole message, wrapped to the width. */
static void
draw_detail(const struct view_ctx *ctx, struct events_state *st, const struct event_entry *e,
	    int y)
{
	const struct kmsg_event *ev = &e->ev;
	int end = ctx->y + ctx->rows, row = 0, w = ctx->cols - 1;
	char t[16], f[320];
	size_t n = 0;
	const char *p;

	fmt_moment(e->wall, FMT_CLOCK, t, sizeof(t));
	draw_text(y++, ctx->x, ctx->cols, view_kmsg_style(ev->kind), "%s  %s", t,
		  kmsg_kind_name(ev->kind));
	draw_text(y - 1, ctx->x + (int)strlen(t) + 2 + (int)strlen(kmsg_kind_name(ev->kind)),
		  ctx->cols, ST_DIM, "  kernel time %llu.%06llu, record %llu, level %d",
		  (unsigned long long)(ev->ts_us / 1000000), (unsigned long long)(ev->ts_us % 1000000),
		  (unsigned long long)ev->seq, ev->level);
#define ADD(...) do { if (n < sizeof(f)) n += (size_t)snprintf(f + n, sizeof(f) - n, __VA_ARGS__); } while (0)
	f[0] = '\0';
	if (ev->has & KF_COMM)
		ADD("command %s  ", ev->comm);
	if (ev->has & KF_PID)
		ADD("pid %d  ", ev->pid);
	if (ev->has & KF_ORDER)
		ADD("order %d  ", ev->order);
	if (ev->has & KF_GFP)
		ADD("GFP mode %#x  ", ev->gfp);
	if (ev->has & KF_SECONDS)
		ADD("%us  ", ev->seconds);
	if (ev->has & KF_ANON)
		ADD("anon-rss %llukB  ", (unsigned long long)ev->anon_kb);
	if (ev->has & KF_FILE)
		ADD("file-rss %llukB  ", (unsigned long long)ev->file_kb);
	if (ev->has & KF_SHMEM)
		ADD("shmem-rss %llukB  ", (unsigned long long)ev->shmem_kb);
	if (ev->has & KF_DEV)
		ADD("device %s  ", ev->dev);
	if (kmsg_event_count(ev) > 1)
		ADD("printed %u times within %gs", kmsg_event_count(ev), KMSG_MERGE_US / 1e6);
#undef ADD
	if (f[0] && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_NORMAL, "%s", f);
	/* Allocation failures only: a hung task's or an OOM's message comes
	 * first (dump shows their captures). */
	if (ev->kind != KMSG_ALLOC_FAILURE)
		;
	else if (ctx->events && events_capture(ctx->events, ev->seq))
		y = draw_capture(ctx, events_capture(ctx->events, ev->seq), y, end);
	else if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_DIM, "nothing read at the event (within the "
			  "floor of the one before, or an older recording)");
	{
		char title[120];

		snprintf(title, sizeof(title), "the kernel's message, %u line%s%s", ev->lines,
			 ev->lines == 1 ? "" : "s", ev->truncated ? " (the first ones kept)" : "");
		if (y < end)
			y = view_title(y, ctx->x, ctx->cols, title);
	}
	st->page = end - y;
	if (w < 10)
		return;
	/* Rows of the message: each line, wrapped; the rest indented by two. */
	for (p = ev->text; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), at = 0;

		do {
			size_t take = len - at > (size_t)(at ? w - 2 : w) ? (size_t)(at ? w - 2 : w) :
			    len - at;

			if (row >= st->detail_top && y < end)
				draw_text(y++, ctx->x + (at ? 3 : 1), ctx->cols - 1, ST_NORMAL, "%.*s",
					  (int)take, p + at);
			row++;
			at += take;
		} while (at < len);
		p += len + (nl ? 1 : 0);
	}
	st->detail_rows = row;
	if (st->detail_top > row - st->page)
		st->detail_top = row - st->page > 0 ? row - st->page : 0;
	if (st->detail_top + st->page < row && end > ctx->y)
		draw_text(end - 1, ctx->x + ctx->cols - 27, 27, ST_DIM, " more: Down/PgDn, Esc back");
}

/* replay --compare: the second recording's newest events up to its
 * sample, newest first, in the rows from y to end (a title first). */
static void
events_draw_b(const struct view_ctx *b, int y, int end)
{
	uint64_t i, first, last;
	char t[FMT_MOMENT_SIZE];

	view_title(y++, b->x, b->cols, "B: its kernel log events up to its sample, newest first");
	if (!b->events || !events_range(b->events, &first, &last) ||
	    !events_last_at(b->events, b->seq, &i)) {
		if (y < end)
			draw_text(y, b->x, b->cols, ST_DIM, "%s", b->kmsg && b->kmsg->read ?
				  "no event so far" : "no kernel log in B");
		return;
	}
	for (; y < end && i >= first; i--, y++) {
		const struct event_entry *e = events_get(b->events, i);
		int x = b->x;

		if (!e)
			break;
		fmt_moment(e->wall, FMT_CLOCK, t, sizeof(t));
		x += draw_text(y, x, b->cols, ST_NORMAL, "%-12s  ", t);
		x += draw_text(y, x, b->x + b->cols - x, view_kmsg_style(e->ev.kind), "%-13s  ",
			       kmsg_kind_name(e->ev.kind));
		draw_text(y, x, b->x + b->cols - x, ST_NORMAL, "%.*s",
			  (int)kmsg_event_first_line(&e->ev), e->ev.text);
		if (i == first)
			break;
	}
}

static void
events_draw(const struct view_ctx *ctx, void *state)
{
	struct events_state *st = state;
	const struct events *evs = ctx->events;
	int y = ctx->y, end = ctx->y + ctx->rows;
	char t[16];

	/* The second recording's events take the bottom third. */
	if (ctx->b && ctx->rows >= 9) {
		end -= ctx->rows / 3;
		events_draw_b(ctx->b, end, ctx->y + ctx->rows);
	}
	y = draw_status_line(ctx, y);
	list_build(ctx, st);
	if (st->detail) {
		const struct event_entry *e = evs ? events_get(evs, st->sel) : NULL;

		if (!e) {
			draw_text(y, ctx->x, ctx->cols, ST_DIM, "the event is no longer kept (Esc goes back)");
			return;
		}
		draw_detail(ctx, st, e, y);
		return;
	}
	if (y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_TITLE, "%-8s  %-13s  %s", "time", "kind",
			  "the kernel's first line (Enter: the whole message)");
	if (evs && (evs->lost || evs->dropped) && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_WARN, "%llu kernel log records overwritten "
			  "before they were read, %llu events past %d in one tick not kept",
			  (unsigned long long)evs->lost, (unsigned long long)evs->dropped,
			  KMSG_MAX_EVENTS);
	if (st->n == 0) {
		if (y < end && ctx->kmsg && ctx->kmsg->read && !ctx->kmsg->err)
			draw_text(y, ctx->x, ctx->cols, ST_GOOD, "%s", ctx->filter[0] ?
				  "no event matches the filter" : "no event so far");
		return;
	}
	st->page = end - y;
	if (st->cursor < st->top)
		st->top = st->cursor;
	if (st->page > 0 && st->cursor >= st->top + st->page)
		st->top = st->cursor - st->page + 1;
	if (st->top > 0 && st->n - st->top < st->page)
		st->top = st->n - st->page > 0 ? st->n - st->page : 0;
	for (int r = st->top; r < st->n && y < end; r++, y++) {
		const struct event_entry *e = events_get(evs, st->rows[r]);
		const struct kmsg_event *ev = &e->ev;
		bool sel = r == st->cursor;
		int x = ctx->x;

		fmt_moment(e->wall, FMT_CLOCK, t, sizeof(t));
		draw_clear_line(y, ctx->x, ctx->cols, sel ? ST_SELECTED : ST_NORMAL);
		x += draw_text(y, x, ctx->cols, sel ? ST_SELECTED : ST_NORMAL, "%-12s  ", t);
		x += draw_text(y, x, ctx->x + ctx->cols - x, sel ? ST_SELECTED : view_kmsg_style(ev->kind),
			       "%-13s  ", kmsg_kind_name(ev->kind));
		/* A line the kernel printed again and again: how many times, first. */
		if (kmsg_event_count(ev) > 1)
			x += draw_text(y, x, ctx->x + ctx->cols - x, sel ? ST_SELECTED : ST_WARN, "%s%u ",
				       draw_utf8() ? "\xc3\x97" : "x", kmsg_event_count(ev));
		draw_text(y, x, ctx->x + ctx->cols - x, sel ? ST_SELECTED : ST_NORMAL, "%.*s",
			  (int)kmsg_event_first_line(ev), ev->text);
	}
}

static void
move_cursor(struct events_state *st, int to)
{
	if (st->n == 0)
		return;
	if (to < 0)
		to = 0;
	if (to >= st->n)
		to = st->n - 1;
	st->cursor = to;
	st->sel = st->rows[to];
	/* At the newest, follow the events that come. */
	st->pinned = to != st->n - 1;
}

static bool
events_key(const struct view_ctx *ctx, void *state, int key)
{
	struct events_state *st = state;
	int page = st->page > 1 ? st->page - 1 : 1;

	if (st->detail) {
		switch (key) {
		case 27:
		case KEY_BACKSPACE:
		case 127:
		case KEY_LEFT:
		case '\n':
		case '\r':
		case KEY_ENTER:
			st->detail = false;
			return true;
		case KEY_DOWN:
			if (st->detail_top + st->page < st->detail_rows)
				st->detail_top++;
			return true;
		case KEY_UP:
			if (st->detail_top > 0)
				st->detail_top--;
			return true;
		case KEY_NPAGE:
			st->detail_top += page;
			if (st->detail_top > st->detail_rows - st->page)
				st->detail_top = st->detail_rows > st->page ? st->detail_rows - st->page : 0;
			return true;
		case KEY_PPAGE:
			st->detail_top = st->detail_top > page ? st->detail_top - page : 0;
			return true;
		}
		return false;
	}
	/* The list as it is now: keys may come before the screen was drawn. */
	list_build(ctx, st);
	switch (key) {
	case KEY_UP:
		move_cursor(st, st->cursor - 1);
		return true;
	case KEY_DOWN:
		move_cursor(st, st->cursor + 1);
		return true;
	case KEY_PPAGE:
		move_cursor(st, st->cursor - page);
		return true;
	case KEY_NPAGE:
		move_cursor(st, st->cursor + page);
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (st->n == 0)
			return true;
		st->sel = st->rows[st->cursor];
		st->pinned = true;
		st->detail = true;
		st->detail_top = 0;
		return true;
	}
	return false;
}

static const char *const events_help[] = {
	"Up/Down     move; PgUp/PgDn a page",
	"Enter       the kernel's whole message (Up/Down scroll it; Esc back)",
	"            and the free lists read at the event, with the verdict",
	"/text       only events whose message or kind contains text",
	"            kernel messages need root, or sysctl kernel.dmesg_restrict=0",
	NULL
};

const struct view view_events = {
	.name = "events",
	.title = "Events",
	.key = '5',
	.alt_key = 'e',
	.draw = events_draw,
	.handle_key = events_key,
	.state_size = sizeof(struct events_state),
	.help = events_help,
};
