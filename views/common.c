/* Pieces shared by the screens' panels. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/derive.h"
#include "model/events.h"
#include "parse/kmsg.h"
#include "util/text.h"
#include "views/view.h"

/* Columns of a UTF-8 string: its bytes that start a character. */
static int
utf8_cols(const char *s)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n;
}

int
view_fit(const char *s, int w, char *dst, size_t size)
{
	const char *ell = draw_utf8() ? "\u2026" : "...";
	int ell_w = draw_utf8() ? 1 : 3;
	size_t next, n;

	if (size == 0)
		return 0;
	if (utf8_cols(s) <= w) {
		snprintf(dst, size, "%s", s);
		return utf8_cols(dst);
	}
	if (w <= ell_w) {
		dst[0] = '\0';
		return 0;
	}
	/* text_wrap counts bytes, never fewer than the columns: it never
	 * gives more than fits. */
	n = text_wrap(s, (size_t)(w - ell_w), &next, NULL);
	/* A word cut off leaves no ",", ":" or blank before the ellipsis. */
	while (n > 0 && (s[n - 1] == ',' || s[n - 1] == ':' || s[n - 1] == ' ' || s[n - 1] == ';'))
		n--;
	snprintf(dst, size, "%.*s%s", (int)n, s, ell);
	return utf8_cols(dst);
}

int
view_title(int y, int x, int w, const char *title)
{
	int n = draw_text(y, x, w, ST_TITLE, "%s", title);

	/* A thin rule after the title helps the eye across wide screens. */
	for (int i = x + n + 1; i < x + w; i++)
		draw_text(y, i, 1, ST_DIM, "%s", draw_utf8() ? "\u2500" : "-");
	return y + 1;
}

bool
view_missing(const struct view_ctx *ctx, enum source src, char *dst, size_t size)
{
	char why[160];

	if (!ctx->status || ctx->status[src].err == 0 || ctx->status[src].err == SRC_NOT_READ)
		return false;
	source_reason(&ctx->status[src], why, sizeof(why));
	snprintf(dst, size, "%s: %s", source_name(src), why);
	return true;
}

int
view_rates(const struct view_ctx *ctx, enum counter c, double *out, int n)
{
	uint64_t first, last;
	int k = 0;

	if (!history_range(ctx->h, &first, &last) || ctx->seq < first)
		return 0;
	if (ctx->seq + 1 - first < (uint64_t)n)
		n = (int)(ctx->seq + 1 - first);
	for (uint64_t s = ctx->seq + 1 - (uint64_t)n; s <= ctx->seq; s++)
		out[k++] = derive_rate(ctx->h, s, c);
	return k;
}

enum style
view_kmsg_style(int kind)
{
	switch (kind) {
	case KMSG_ALLOC_FAILURE:
	case KMSG_OOM_INVOKED:
	case KMSG_OOM_KILL:
	case KMSG_BAD_PAGE:
		return ST_BAD;
	case KMSG_OTHER:
	case KMSG_OOM_REAPED:
		return ST_NORMAL;
	default:
		return ST_WARN;
	}
}

void
view_clock(double wall, char *dst, size_t size)
{
	time_t t = (time_t)wall;
	struct tm tm;

	if (!strftime(dst, size, "%H:%M:%S", localtime_r(&t, &tm)) && size > 0)
		dst[0] = '\0';
}

/* The newest event up to the entry shown, if it is recent. */
static bool
recent_event(const struct view_ctx *ctx, uint64_t *i)
{
	double wall = history_wall(ctx->h, ctx->seq);

	return ctx->events && !isnan(wall) && events_last_at(ctx->events, ctx->seq, i) &&
	    events_get(ctx->events, *i)->wall >= wall - VIEW_EVENTS_RECENT;
}

bool
view_events_recent(const struct view_ctx *ctx)
{
	uint64_t i;

	return recent_event(ctx, &i);
}

int
view_events_inline(const struct view_ctx *ctx, int y, int x, int end)
{
	double wall = history_wall(ctx->h, ctx->seq);
	uint64_t i, first, last;
	int shown = 0;

	if (!recent_event(ctx, &i) || !events_range(ctx->events, &first, &last))
		return x;
	if (end - x < 20)
		return x;
	x += draw_text(y, x, end - x, ST_TITLE, "Events ");
	/* Newest first, as many as fit; the newest even when it does not,
	 * then cut at a word. */
	for (;; i--) {
		const struct event_entry *e = events_get(ctx->events, i);
		char t[16], brief[160], item[200];
		int need;

		view_clock(e->wall, t, sizeof(t));
		kmsg_event_brief(&e->ev, brief, sizeof(brief));
		need = snprintf(item, sizeof(item), "%s %s %s", t, kmsg_kind_name(e->ev.kind), brief);
		if (shown && (x + 3 + need > end || e->wall < wall - VIEW_EVENTS_RECENT))
			break;
		if (shown)
			x += draw_text(y, x, end - x, ST_DIM, "%s", draw_utf8() ? " \u00b7 " : " | ");
		if (!shown && x + need > end) {
			char cut[200];

			view_fit(item, end - x, cut, sizeof(cut));
			return x + draw_text(y, x, end - x, view_kmsg_style(e->ev.kind), "%s", cut);
		}
		x += draw_text(y, x, end - x, view_kmsg_style(e->ev.kind), "%s", item);
		shown++;
		if (i == first)
			break;
	}
	return x;
}

int
view_events_lines(const struct view_ctx *ctx, int y, int x, int w, int rows)
{
	double wall = history_wall(ctx->h, ctx->seq);
	uint64_t i, first, last;
	int n = 0;

	if (rows < 1 || w < 20 || !recent_event(ctx, &i) ||
	    !events_range(ctx->events, &first, &last))
		return 0;
	draw_text(y, x, w, ST_TITLE, "Events");
	for (; n < rows; i--) {
		const struct event_entry *e = events_get(ctx->events, i);
		char t[16], brief[160], item[200], cut[200];

		if (e->wall < wall - VIEW_EVENTS_RECENT)
			break;
		view_clock(e->wall, t, sizeof(t));
		kmsg_event_brief(&e->ev, brief, sizeof(brief));
		snprintf(item, sizeof(item), "%s %s %s", t, kmsg_kind_name(e->ev.kind), brief);
		view_fit(item, w - 7, cut, sizeof(cut));
		draw_text(y + n, x + 7, w - 7, view_kmsg_style(e->ev.kind), "%s", cut);
		n++;
		if (i == first)
			break;
	}
	return n;
}

void
view_chart_line(int y, int x, int w, const double *v, int n, double max, int part, int parts,
		enum style st)
{
	int first = n > w ? n - w : 0;
	int level = parts - 1 - part;

	for (int i = first, col = x + (w - (n - first)); i < n; i++, col++) {
		double f, fill;

		if (isnan(v[i]) || v[i] <= 0 || max <= 0)
			continue;
		f = v[i] / max;
		fill = f * parts - level;
		/* As in draw_spark, any activity shows at the bottom; above it,
		 * less than the lowest block is nothing. */
		if (level == 0 && fill < 0.01)
			fill = 0.01;
		if (level > 0 && fill < 0.125)
			continue;
		draw_text(y, col, 1, st, "%s", draw_level_glyph(fill > 1 ? 1 : fill));
	}
}
