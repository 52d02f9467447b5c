/*
 * The reclaim screen: rates of the reclaim, compaction, fault, THP, swap
 * and OOM counters. One row per counter: its rate at the shown entry, a
 * chart of the entries that end there, and the chart's scale. Each chart
 * is scaled to its own maximum, because the series that matter most
 * (direct reclaim, allocation stalls) come in bursts that a shared scale
 * would flatten.
 *
 * The rows are laid out into a list of lines first, then the lines that
 * fit are drawn, so scrolling and the key handler agree on what is there.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/derive.h"
#include "views/reclaim-probes.h"
#include "views/view.h"

#define LABEL_W		18	/* "kswapd efficiency " */
#define VALUE_W		7	/* " 12.3k " */
#define SCALE_W		10	/* " max 45.6k" */
#define CHART_MIN	8	/* narrower than this is noise: no chart */
#define CHART_MAX	512	/* history columns; wider is never on screen */
#define NOCHART_WINDOW	60	/* entries behind "max" when there is no chart */
#define TALL_MIN	3	/* lines of a tall chart, however short the screen */
#define TALL_MAX	6	/* ... and however tall */
#define MAX_LINES	160
#define NOTE_SIZE	2048

enum group_id { G_RECLAIM, G_COMPACTION, G_FAULTS, G_THP, G_SWAP, G_COUNT };

enum row_kind {
	RK_RATE,		/* per second */
	RK_EFF_KSWAPD,		/* pages stolen per page scanned, percent */
	RK_EFF_DIRECT,
	RK_EVENTS		/* per interval: OOM kills are too rare for rates */
};

struct row_def {
	enum group_id group;
	const char *label;
	enum counter ctr;
	enum row_kind kind;
	bool alarm;		/* any activity is a sign of trouble */
	bool main;		/* a tall chart in tall mode */
};

struct group_def {
	const char *title;
	const char *absent;	/* said when the kernel has none of its counters */
};

/* In order of priority: what a short screen shows first. */
static const struct group_def groups[G_COUNT] = {
	[G_RECLAIM] = { "Reclaim", NULL },
	[G_COMPACTION] = { "Compaction",
	    "compaction counters absent (kernel without CONFIG_COMPACTION)" },
	[G_FAULTS] = { "Faults & refaults", NULL },
	[G_THP] = { "THP",
	    "THP counters absent (kernel without CONFIG_TRANSPARENT_HUGEPAGE)" },
	[G_SWAP] = { "Swap & OOM", NULL },
};

static const struct row_def rows[] = {
	{ G_RECLAIM, "kswapd scan", CTR_PGSCAN_KSWAPD, RK_RATE, false, true },
	{ G_RECLAIM, "kswapd steal", CTR_PGSTEAL_KSWAPD, RK_RATE, false, true },
	{ G_RECLAIM, "direct scan", CTR_PGSCAN_DIRECT, RK_RATE, true, true },
	{ G_RECLAIM, "direct steal", CTR_PGSTEAL_DIRECT, RK_RATE, true, true },
	{ G_RECLAIM, "kswapd efficiency", CTR_PGSTEAL_KSWAPD, RK_EFF_KSWAPD, false, false },
	{ G_RECLAIM, "direct efficiency", CTR_PGSTEAL_DIRECT, RK_EFF_DIRECT, false, false },
	{ G_RECLAIM, "allocstall", CTR_ALLOCSTALL, RK_RATE, true, true },
	{ G_RECLAIM, "direct throttle", CTR_PGSCAN_DIRECT_THROTTLE, RK_RATE, true, false },
	{ G_COMPACTION, "compact stall", CTR_COMPACT_STALL, RK_RATE, true, false },
	{ G_COMPACTION, "compact success", CTR_COMPACT_SUCCESS, RK_RATE, false, false },
	{ G_COMPACTION, "compact fail", CTR_COMPACT_FAIL, RK_RATE, true, false },
	{ G_COMPACTION, "migrate scanned", CTR_COMPACT_MIGRATE_SCANNED, RK_RATE, false, false },
	{ G_COMPACTION, "free scanned", CTR_COMPACT_FREE_SCANNED, RK_RATE, false, false },
	{ G_COMPACTION, "kcompactd wakes", CTR_COMPACT_DAEMON_WAKE, RK_RATE, false, false },
	{ G_FAULTS, "major faults", CTR_PGMAJFAULT, RK_RATE, false, false },
	{ G_FAULTS, "refaults", CTR_WORKINGSET_REFAULT, RK_RATE, false, false },
	{ G_FAULTS, "refault activate", CTR_WORKINGSET_ACTIVATE, RK_RATE, false, false },
	{ G_THP, "THP fault alloc", CTR_THP_FAULT_ALLOC, RK_RATE, false, false },
	{ G_THP, "THP fallback", CTR_THP_FAULT_FALLBACK, RK_RATE, true, false },
	{ G_THP, "THP collapse fail", CTR_THP_COLLAPSE_ALLOC_FAILED, RK_RATE, true, false },
	{ G_SWAP, "swap in", CTR_PSWPIN, RK_RATE, false, false },
	{ G_SWAP, "swap out", CTR_PSWPOUT, RK_RATE, false, false },
	{ G_SWAP, "OOM kills", CTR_OOM_KILL, RK_EVENTS, true, false },
};
#define N_ROWS	((int)(sizeof(rows) / sizeof(rows[0])))

struct reclaim_state {
	int top;		/* first line shown */
	bool flip;		/* 'c': tall charts where they do not fit, or none */
};

enum line_kind { LN_TITLE, LN_ROW, LN_NOTE, LN_PROBE };
#define PROBES_TITLE	(-1)	/* a title's idx: the kernel probes */

struct line {
	enum line_kind kind;
	int idx;		/* the group of a title, the row of a row */
	int part;		/* which line of a tall row */
	int parts;
	bool b;			/* a row of the second recording (replay --compare) */
	size_t off, len;	/* a note's text in layout.notes */
};

struct layout {
	int n;
	struct line l[MAX_LINES];
	char notes[NOTE_SIZE];
	size_t used;
};

/* Column positions, relative to ctx->x. */
struct columns {
	int value;		/* right edge of the value is value + VALUE_W - 1 */
	int chart, chart_w;	/* chart_w 0: no chart */
	int scale;		/* -1: no scale */
};

static bool
row_eff(const struct row_def *rd)
{
	return rd->kind == RK_EFF_KSWAPD || rd->kind == RK_EFF_DIRECT;
}

/* Width w at column x of the area, cut at its right edge. */
static int
area_w(const struct view_ctx *ctx, int x, int w)
{
	return x + w > ctx->cols ? ctx->cols - x : w;
}

static bool
row_present(const struct row_def *rd, const struct hist_entry *e)
{
	switch (rd->kind) {
	case RK_EFF_KSWAPD:
		return hist_counter_valid(e, CTR_PGSCAN_KSWAPD) &&
		    hist_counter_valid(e, CTR_PGSTEAL_KSWAPD);
	case RK_EFF_DIRECT:
		return hist_counter_valid(e, CTR_PGSCAN_DIRECT) &&
		    hist_counter_valid(e, CTR_PGSTEAL_DIRECT);
	default:
		return hist_counter_valid(e, rd->ctr);
	}
}

static bool
row_matches(const struct row_def *rd, const char *filter)
{
	if (filter == NULL || filter[0] == '\0')
		return true;
	if (strcasestr(rd->label, filter) || strcasestr(counter_name(rd->ctr), filter) ||
	    strcasestr(groups[rd->group].title, filter))
		return true;
	/* The efficiency rows are made of the scan counters too. */
	if (rd->kind == RK_EFF_KSWAPD)
		return strcasestr(counter_name(CTR_PGSCAN_KSWAPD), filter) != NULL;
	if (rd->kind == RK_EFF_DIRECT)
		return strcasestr(counter_name(CTR_PGSCAN_DIRECT), filter) != NULL;
	return false;
}

static void
layout_add(struct layout *lay, enum line_kind kind, int idx, int part, int parts)
{
	struct line *ln;

	if (lay->n >= MAX_LINES)
		return;
	ln = &lay->l[lay->n++];
	ln->kind = kind;
	ln->idx = idx;
	ln->part = part;
	ln->parts = parts;
	ln->b = false;
	ln->off = ln->len = 0;
}

/* Adds text as note lines of at most w columns (ASCII), broken at spaces. */
static void
layout_note(struct layout *lay, const char *text, int w)
{
	size_t len = strlen(text), off, end;

	if (w < 10)
		w = 10;
	if (lay->used + len + 1 > sizeof(lay->notes))
		return;
	off = lay->used;
	memcpy(lay->notes + off, text, len + 1);
	lay->used += len + 1;
	end = off + len;
	while (off < end && lay->n < MAX_LINES) {
		size_t cut = end - off;

		if (cut > (size_t)w) {
			cut = (size_t)w;
			while (cut > 0 && lay->notes[off + cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)w;
		}
		layout_add(lay, LN_NOTE, -1, 0, 1);
		lay->l[lay->n - 1].off = off;
		lay->l[lay->n - 1].len = cut;
		off += cut;
		while (off < end && lay->notes[off] == ' ')
			off++;
	}
}

static void
layout_build(const struct view_ctx *ctx, const struct hist_entry *e, int tall,
    struct layout *lay)
{
	char note[512];

	lay->n = 0;
	lay->used = 0;
	for (int g = 0; g < G_COUNT; g++) {
		bool any_match = false, any_present = false;
		int lacks;
		size_t nl;

		for (int r = 0; r < N_ROWS; r++) {
			if (rows[r].group != (enum group_id)g)
				continue;
			any_match |= row_matches(&rows[r], ctx->filter);
			any_present |= row_present(&rows[r], e);
		}
		if (!any_match)
			continue;
		layout_add(lay, LN_TITLE, g, 0, 1);
		if (!any_present && groups[g].absent) {
			layout_note(lay, groups[g].absent, ctx->cols - 2);
			continue;
		}
		for (int r = 0; r < N_ROWS; r++) {
			int parts = rows[r].main ? tall : 1;

			if (rows[r].group != (enum group_id)g ||
			    !row_matches(&rows[r], ctx->filter) || !row_present(&rows[r], e))
				continue;
			for (int p = 0; p < parts; p++)
				layout_add(lay, LN_ROW, r, p, parts);
			/* The second recording's row under it, as tall. */
			for (int p = 0; ctx->b && p < parts && lay->n < MAX_LINES; p++) {
				layout_add(lay, LN_ROW, r, p, parts);
				lay->l[lay->n - 1].b = true;
			}
		}
		/* One line for what this kernel lacks rather than rows of "n/a". */
		nl = (size_t)snprintf(note, sizeof(note), "not in this kernel:");
		lacks = 0;
		for (int r = 0; r < N_ROWS; r++) {
			if (rows[r].group != (enum group_id)g || row_eff(&rows[r]) ||
			    !row_matches(&rows[r], ctx->filter) || row_present(&rows[r], e) ||
			    nl >= sizeof(note))
				continue;
			nl += (size_t)snprintf(note + nl, sizeof(note) - nl, "%s %s",
			    lacks ? "," : "", counter_name(rows[r].ctr));
			lacks++;
		}
		if (lacks > 0)
			layout_note(lay, note, ctx->cols - 2);
		/* The probes say why reclaim was slow: next to its counters. */
		if (g == G_RECLAIM && (!ctx->filter[0] || strcasestr("kernel probes", ctx->filter))) {
			int n = reclaim_probes_lines(ctx);

			layout_add(lay, LN_TITLE, PROBES_TITLE, 0, 1);
			for (int i = 0; i < n; i++)
				layout_add(lay, LN_PROBE, -1, i, n);
		}
	}
}

/* Lays out the rows. The main rows get tall charts when they fit, sharing
 * the spare lines; 'c' asks for the other kind. */
static void
reclaim_layout(const struct view_ctx *ctx, const struct reclaim_state *st,
    const struct hist_entry *e, struct layout *lay)
{
	int mains = 0, spare, h;
	bool fits;

	layout_build(ctx, e, 1, lay);
	for (int i = 0; i < lay->n; i++)
		if (lay->l[i].kind == LN_ROW && rows[lay->l[i].idx].main)
			mains++;
	if (mains == 0)
		return;
	spare = ctx->rows - lay->n;
	fits = spare >= mains * (TALL_MIN - 1);
	if (fits == st->flip)
		return;
	h = fits ? 1 + spare / mains : TALL_MIN;
	layout_build(ctx, e, h > TALL_MAX ? TALL_MAX : h, lay);
}

static struct columns
reclaim_columns(int cols)
{
	struct columns c;

	c.value = LABEL_W;
	c.chart = LABEL_W + VALUE_W;
	c.chart_w = cols - c.chart - SCALE_W;
	c.scale = cols - SCALE_W;
	if (c.chart_w < CHART_MIN) {
		c.chart_w = 0;
		c.scale = c.chart - 1;
		if (c.scale + SCALE_W > cols)
			c.scale = -1;
	}
	if (c.chart_w > CHART_MAX)
		c.chart_w = CHART_MAX;
	return c;
}

/* The value of row rd over the interval that ends at entry seq. */
static double
row_value(const struct view_ctx *ctx, const struct row_def *rd, uint64_t seq)
{
	int64_t d;

	switch (rd->kind) {
	case RK_EFF_KSWAPD:
	case RK_EFF_DIRECT:
		return 100.0 * derive_efficiency(ctx->h, seq, rd->kind == RK_EFF_DIRECT);
	case RK_EVENTS:
		d = derive_delta(ctx->h, seq, rd->ctr);
		return d < 0 ? NAN : (double)d;
	default:
		return derive_rate(ctx->h, seq, rd->ctr);
	}
}

/* The values of row rd for the n entries ending at ctx->seq, oldest first. */
static int
row_series(const struct view_ctx *ctx, const struct row_def *rd, double *out, int n)
{
	uint64_t first, last;
	int k = 0;

	if (rd->kind == RK_RATE)
		return view_rates(ctx, rd->ctr, out, n);
	if (!history_range(ctx->h, &first, &last) || ctx->seq < first)
		return 0;
	if (ctx->seq + 1 - first < (uint64_t)n)
		n = (int)(ctx->seq + 1 - first);
	for (uint64_t s = ctx->seq + 1 - (uint64_t)n; s <= ctx->seq; s++)
		out[k++] = row_value(ctx, rd, s);
	return k;
}

/* Seconds covered by the last n intervals ending at ctx->seq; NAN if none. */
static double
reclaim_span(const struct view_ctx *ctx, int n)
{
	double a, b;
	uint64_t first, last, from;

	if (!history_range(ctx->h, &first, &last) || ctx->seq < first)
		return NAN;
	from = ctx->seq - first >= (uint64_t)n ? ctx->seq - (uint64_t)n : first;
	a = history_mono(ctx->h, from);
	b = history_mono(ctx->h, ctx->seq);
	if (isnan(a) || isnan(b) || b <= a)
		return NAN;
	return b - a;
}

static void
fmt_value(const struct row_def *rd, double v, char *dst, size_t size)
{
	if (!isnan(v) && row_eff(rd))
		snprintf(dst, size, "%.0f%%", v);
	else
		fmt_count(v, dst, size);
}

static enum style
value_style(const struct row_def *rd, double v)
{
	if (isnan(v) || v == 0)
		return ST_DIM;
	if (row_eff(rd))
		return v < 25 ? ST_BAD : v < 50 ? ST_WARN : ST_NORMAL;
	if (rd->kind == RK_EVENTS)
		return ST_BAD;
	return rd->alarm ? ST_WARN : ST_NORMAL;
}

/* s right-aligned in w columns; "%*s" would count the bytes of "–". */
static void
draw_right(int y, int x, int w, enum style st, const char *s)
{
	int cols = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			cols++;
	if (cols < w)
		x += w - cols;
	draw_text(y, x, w - (cols < w ? w - cols : 0), st, "%s", s);
}

/* The lines of row rd from y0 (its first line, maybe above ylo) that fall
 * in ylo..yhi-1; b: the second recording's (ctx is its), labelled B. */
static void
draw_row(const struct view_ctx *ctx, const struct row_def *rd, int parts, int y0,
    int ylo, int yhi, bool b)
{
	struct columns c = reclaim_columns(ctx->cols);
	double v[CHART_MAX], now = NAN, scale = NAN, max = 0, total = 0;
	bool eff = row_eff(rd);
	bool active = false;
	enum style chart_st = b ? ST_HEAT3 : eff ? ST_GOOD : rd->alarm ? ST_BAD : ST_HEAT2;
	char buf[32], sbuf[48];
	int n;

	n = row_series(ctx, rd, v, c.chart_w > 0 ? c.chart_w : NOCHART_WINDOW);
	if (n > 0)
		now = v[n - 1];
	for (int i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (v[i] > 0)
			active = true;
		if (v[i] > max)
			max = v[i];
		total += v[i];
		/* Efficiency has a fixed scale; its worst figure says more. */
		if (eff && (isnan(scale) || v[i] < scale))
			scale = v[i];
	}
	if (!eff)
		scale = rd->kind == RK_EVENTS ? total : max;
	for (int p = 0; p < parts; p++) {
		int y = y0 + p;

		if (y < ylo || y >= yhi)
			continue;
		if (p == 0) {
			if (b)
				draw_right(y, ctx->x, LABEL_W - 2, ST_HEAT3, "B");
			else
				draw_text(y, ctx->x, area_w(ctx, 0, LABEL_W - 1),
				    active ? ST_NORMAL : ST_DIM, "%s", rd->label);
			fmt_value(rd, now, buf, sizeof(buf));
			if (area_w(ctx, c.value, VALUE_W - 1) == VALUE_W - 1)
				draw_right(y, ctx->x + c.value, VALUE_W - 1, value_style(rd, now),
				    buf);
			/* An idle row needs no scale: blank reads faster than "max 0".
			 * An efficiency of 0% is news, though. */
			if (c.scale >= 0 && !isnan(scale) && (scale > 0 || eff)) {
				fmt_value(rd, scale, buf, sizeof(buf));
				snprintf(sbuf, sizeof(sbuf), "%s %s",
				    eff ? "min" : rd->kind == RK_EVENTS ? "sum" : "max", buf);
				draw_right(y, ctx->x + c.scale, SCALE_W, ST_DIM, sbuf);
			}
		} else if (p == 1 && !b && strcmp(rd->label, counter_name(rd->ctr)) != 0) {
			/* A tall row has room to name its counter. */
			draw_text(y, ctx->x + 1, area_w(ctx, 1, LABEL_W - 2), ST_DIM, "%s",
			    counter_name(rd->ctr));
		}
		if (c.chart_w == 0)
			continue;
		if (parts == 1)
			draw_spark(y, ctx->x + c.chart, c.chart_w, v, n, eff ? 100 : max,
			    chart_st);
		else
			view_chart_line(y, ctx->x + c.chart, c.chart_w, v, n, max, p, parts,
			    chart_st);
	}
}

static void
draw_title(const struct view_ctx *ctx, int y, int g, bool first)
{
	struct columns c = reclaim_columns(ctx->cols);
	char title[160], span[32];
	double s;

	if (g == PROBES_TITLE) {
		view_title(y, ctx->x, ctx->cols, "Kernel probes  stalls, throttling, kswapd, writes");
		return;
	}
	if (!first) {
		view_title(y, ctx->x, ctx->cols, groups[g].title);
		return;
	}
	/* The first title says what the figures and the charts are. */
	s = reclaim_span(ctx, c.chart_w > 0 ? c.chart_w : NOCHART_WINDOW);
	if (isnan(s)) {
		snprintf(title, sizeof(title), "%s  per second (rates need two samples)",
		    groups[g].title);
	} else {
		fmt_duration(s, span, sizeof(span));
		snprintf(title, sizeof(title), "%s  per second; %s %s, scale per row",
		    groups[g].title, c.chart_w > 0 ? "charts of the last" : "max over", span);
	}
	view_title(y, ctx->x, ctx->cols, title);
}

/* Lines of the layout shown at once: one less when the last line says
 * there is more. */
static int
reclaim_visible(const struct view_ctx *ctx, const struct layout *lay)
{
	if (lay->n <= ctx->rows || ctx->rows < 2)
		return ctx->rows;
	return ctx->rows - 1;
}

static void
reclaim_clamp(const struct view_ctx *ctx, struct reclaim_state *st,
    const struct layout *lay)
{
	int vis = reclaim_visible(ctx, lay);

	if (st->top > lay->n - vis)
		st->top = lay->n - vis;
	if (st->top < 0)
		st->top = 0;
}

/* False, with a line drawn, when there is nothing to lay out. */
static bool
reclaim_entry(const struct view_ctx *ctx, const struct hist_entry **ep, bool draw)
{
	const struct hist_entry *e = ctx->e;
	char why[200];

	*ep = e;
	if (e == NULL) {
		if (draw)
			draw_text(ctx->y, ctx->x, ctx->cols, ST_DIM, "no samples yet");
		return false;
	}
	if (!(e->valid & SRC_BIT(SRC_VMSTAT))) {
		if (!draw)
			return false;
		if (!ctx->paused && view_missing(ctx, SRC_VMSTAT, why, sizeof(why)))
			draw_text(ctx->y, ctx->x, ctx->cols, ST_WARN, "%s", why);
		else
			draw_text(ctx->y, ctx->x, ctx->cols, ST_WARN,
			    "vmstat was not read at this entry: no counters to show");
		return false;
	}
	return true;
}

static void
reclaim_draw(const struct view_ctx *ctx, void *state)
{
	struct reclaim_state *st = state;
	const struct hist_entry *e;
	struct layout lay;
	int vis, y;

	if (ctx->rows <= 0 || ctx->cols <= 0)
		return;
	for (int r = 0; r < ctx->rows; r++)
		draw_clear_line(ctx->y + r, ctx->x, ctx->cols, ST_NORMAL);
	if (!reclaim_entry(ctx, &e, true))
		return;
	reclaim_layout(ctx, st, e, &lay);
	if (lay.n == 0) {
		draw_text(ctx->y, ctx->x, ctx->cols, ST_DIM, "no row matches \"%s\"",
		    ctx->filter);
		return;
	}
	reclaim_clamp(ctx, st, &lay);
	vis = reclaim_visible(ctx, &lay);
	y = ctx->y;
	for (int i = st->top; i < st->top + vis && i < lay.n; i++, y++) {
		const struct line *ln = &lay.l[i];

		switch (ln->kind) {
		case LN_TITLE:
			draw_title(ctx, y, ln->idx, i == 0);
			break;
		case LN_NOTE:
			draw_text(y, ctx->x + 2, ctx->cols - 2, ST_DIM, "%.*s", (int)ln->len,
			    lay.notes + ln->off);
			break;
		case LN_PROBE:
			reclaim_probes_draw(ctx, ln->part, y);
			break;
		case LN_ROW:
			/* A tall row is drawn whole from its first line, or from the
			 * top of the area when scrolled into. */
			if ((ln->part == 0 || i == st->top) && (!ln->b || ctx->b))
				draw_row(ln->b ? ctx->b : ctx, &rows[ln->idx], ln->parts,
				    y - ln->part, ctx->y, ctx->y + vis, ln->b);
			break;
		}
	}
	if (vis < ctx->rows) {
		int below = lay.n - (st->top + vis);
		bool u = draw_utf8();

		if (below > 0)
			draw_text(ctx->y + ctx->rows - 1, ctx->x, ctx->cols, ST_DIM,
			    "more below: %s %d line%s (Up/Down, PgUp/PgDn)",
			    u ? "\u2193" : "v", below, below == 1 ? "" : "s");
		else
			draw_text(ctx->y + ctx->rows - 1, ctx->x, ctx->cols, ST_DIM,
			    "more above: %s (Up, PgUp)", u ? "\u2191" : "^");
	}
}

static bool
reclaim_handle_key(const struct view_ctx *ctx, void *state, int key)
{
	struct reclaim_state *st = state;
	const struct hist_entry *e;
	struct layout lay;
	int page = ctx->rows > 3 ? ctx->rows - 2 : 1;

	if (key == 'c') {
		st->flip = !st->flip;
		return true;
	}
	if (key != KEY_UP && key != KEY_DOWN && key != KEY_PPAGE && key != KEY_NPAGE)
		return false;
	if (!reclaim_entry(ctx, &e, false))
		return false;
	reclaim_layout(ctx, st, e, &lay);
	/* Leave the keys to the dashboard when everything fits. */
	if (lay.n <= ctx->rows) {
		st->top = 0;
		return false;
	}
	switch (key) {
	case KEY_UP:
		st->top--;
		break;
	case KEY_DOWN:
		st->top++;
		break;
	case KEY_PPAGE:
		st->top -= page;
		break;
	case KEY_NPAGE:
		st->top += page;
		break;
	}
	reclaim_clamp(ctx, st, &lay);
	return true;
}

static const char *const reclaim_help[] = {
	"Up/Down  scroll",
	"PgUp/PgDn  scroll a page",
	"c  tall or one-line charts of reclaim and allocstall",
	NULL
};

const struct view view_reclaim = {
	.name = "reclaim",
	.title = "Reclaim",
	.key = '3',
	.draw = reclaim_draw,
	.handle_key = reclaim_handle_key,
	.state_size = sizeof(struct reclaim_state),
	.help = reclaim_help,
};
