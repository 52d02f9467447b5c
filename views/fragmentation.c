/*
 * Fragmentation: one zone at a time. A zone list (or, when the screen is
 * tall, a zone table) to choose it; a table with one row per order of the
 * free blocks from buddyinfo, the unusable and fragmentation indices
 * derived from them and the free blocks per migratetype from the
 * pagetypeinfo read in force, with the pageblocks per migratetype below;
 * then a heatmap of free pages per order over the history on screen.
 *
 * Every figure in the table is exact: VM developers compare them with
 * the files they post. Nothing is allocated: arrays are sized by caps.h.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/frag.h"
#include "util/arith.h"
#include "views/view.h"

struct frag_state {
	bool picked;		/* zone was chosen (by us or the user) */
	int zone;		/* index into shape.zones[] */
	char why[160];		/* the last reason pagetypeinfo was missing */
};

/* A zone's buddyinfo row at one entry and what frag_compute makes of it. */
struct frag_zone {
	bool have;
	uint64_t free[MAX_ORDERS];
	struct frag f;
};

/* The free blocks per migratetype of the zone shown. */
struct frag_pti {
	bool ok;
	int64_t at;			/* ring index of the read in force */
	const uint32_t *free[MAX_MTYPES];	/* by type; NULL: no row */
	uint32_t capped[MAX_MTYPES];
	const uint32_t *blocks;		/* by type; NULL: no row */
	double age;			/* seconds before the entry shown */
	char msg[200];			/* when !ok: why, for the migratetype area */
};

/* Optional columns of the left part, dropped first when narrow. */
enum frag_extra { EXTRA_NONE, EXTRA_CHG, EXTRA_ALL };

struct frag_layout {
	int n;				/* orders */
	int tag_w;			/* "pb", "top", "pb,top" */
	int ord_w;			/* order and tag */
	int free_w, chg_w, pages_w, above_w;	/* 0: not shown */
	int left;			/* width of the buddyinfo part */
	int n_types;			/* type columns shown */
	int cut;			/* type names cut to this */
	int type_w[MAX_MTYPES];
};

/* The heatmap's time window, shared by the table's "chg" column. */
struct frag_window {
	int label_w;			/* order labels */
	int x0;				/* first cell column */
	int cells;			/* columns for entries */
	int n;				/* entries shown, <= cells */
	uint64_t first;			/* seq of the oldest shown */
	char left[32], right[32];	/* time labels */
};

static const char *const fragmentation_help[] = {
	"Up/Down     select the zone (\"/\" filters zones by name)",
	"            pb: the pageblock order; top: the highest order with a free block",
	"            chg: free blocks gained or lost since the heatmap's left edge",
	"            extfrag -1: would succeed; above 0.500 the kernel compacts",
	"            heatmap: free pages at each order over time, newest right",
	NULL
};

/* draw_text clipped to the view's area as well as to the screen; row and
 * col count from the area's corner. */
static int __attribute__((format(printf, 6, 7)))
put(const struct view_ctx *ctx, int row, int col, int w, enum style st, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (row < 0 || row >= ctx->rows || col < 0 || col >= ctx->cols || w <= 0)
		return 0;
	if (w > ctx->cols - col)
		w = ctx->cols - col;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(ctx->y + row, ctx->x + col, w, st, "%s", buf);
}

/* text word-wrapped in w columns over at most rows lines; returns the
 * lines used. */
static int
put_wrapped(const struct view_ctx *ctx, int row, int col, int w, int rows, enum style st,
	    const char *text)
{
	int used = 0;

	while (*text && used < rows && w > 0) {
		int len = (int)strlen(text), cut = len;

		if (len > w) {
			/* Break at the last space that fits, or mid-word if none. */
			for (cut = w; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w;
		}
		put(ctx, row + used++, col, w, st, "%.*s", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return used;
}

static int
ulen(uint64_t v)
{
	char buf[24];

	return snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
}

static bool
zone_listed(const struct view_ctx *ctx, int z)
{
	return !ctx->filter || !ctx->filter[0] ||
	    strcasestr(ctx->h->shape.zones[z].name, ctx->filter) != NULL;
}

/* The zones the filter lets through, in buddyinfo's order. */
static int
zones_listed(const struct view_ctx *ctx, int *out)
{
	int n = 0;

	for (int z = 0; z < ctx->h->shape.n_zones; z++)
		if (zone_listed(ctx, z))
			out[n++] = z;
	return n;
}

static bool
entry_has_buddy(const struct view_ctx *ctx, uint64_t seq)
{
	return (history_valid(ctx->h, seq) & SRC_BIT(SRC_BUDDYINFO)) != 0;
}

/* Zone z's buddyinfo row at seq and its indices; have is false if none. */
static void
zone_get(const struct view_ctx *ctx, uint64_t seq, int z, struct frag_zone *fz)
{
	const uint32_t *b;

	memset(fz, 0, sizeof(*fz));
	fz->f.highest_free_order = -1;
	if (z < 0 || !entry_has_buddy(ctx, seq) || !(b = history_buddy(ctx->h, seq, z)))
		return;
	for (int o = 0; o < ctx->h->shape.n_orders; o++)
		fz->free[o] = b[o];
	frag_compute(fz->free, ctx->h->shape.n_orders, &fz->f);
	fz->have = true;
}

/* For the first choice: managed pages, else free pages. */
static uint64_t
zone_size(const struct view_ctx *ctx, int z)
{
	uint64_t wm[WM_COUNT];
	struct frag_zone fz;

	if (history_wmark(ctx->h, ctx->seq, z, wm) && wm[WM_MANAGED] != UINT64_MAX)
		return wm[WM_MANAGED];
	zone_get(ctx, ctx->seq, z, &fz);
	return fz.f.free_pages;
}

/* Keeps the selection on a listed zone; the first time, the largest one
 * (Normal on most machines, not DMA). Returns the position in list. */
static int
frag_select(const struct view_ctx *ctx, struct frag_state *st, const int *list, int n)
{
	int best = 0;

	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (st->picked && list[i] == st->zone)
			return i;
	for (int i = 1; i < n; i++)
		if (zone_size(ctx, list[i]) > zone_size(ctx, list[best]))
			best = i;
	st->picked = true;
	st->zone = list[best];
	return best;
}

static void
frag_time_label(const struct view_ctx *ctx, uint64_t seq, char *dst, size_t size)
{
	double wall = history_wall(ctx->h, seq), now = history_wall(ctx->h, ctx->seq);
	char d[24];
	struct tm tm;
	time_t t;

	if (isnan(wall) || isnan(now)) {
		snprintf(dst, size, "%s", draw_unknown());
	} else if (ctx->paused) {
		/* Paused, the right edge is not "now": say when. */
		t = (time_t)wall;
		strftime(dst, size, "%H:%M:%S", localtime_r(&t, &tm));
	} else if (seq == ctx->seq) {
		snprintf(dst, size, "now");
	} else {
		fmt_duration(now - wall, d, sizeof(d));
		snprintf(dst, size, "-%s", d);
	}
}

static void
frag_window(const struct view_ctx *ctx, int label_w, struct frag_window *w)
{
	uint64_t first, last;

	memset(w, 0, sizeof(*w));
	w->label_w = label_w;
	w->x0 = label_w + 1;
	w->cells = ctx->cols - w->x0;
	w->first = ctx->seq;
	if (w->cells < 1 || !history_range(ctx->h, &first, &last) || ctx->seq < first)
		return;
	w->n = ctx->seq - first + 1 < (uint64_t)w->cells ? (int)(ctx->seq - first + 1) : w->cells;
	w->first = ctx->seq + 1 - (uint64_t)w->n;
	frag_time_label(ctx, w->first, w->left, sizeof(w->left));
	frag_time_label(ctx, ctx->seq, w->right, sizeof(w->right));
}

static void
frag_pti_get(const struct view_ctx *ctx, struct frag_state *st, int z, struct frag_pti *p)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const struct hist_entry *e = ctx->e;
	const struct hist_pti *hp;
	char why[160];

	memset(p, 0, sizeof(*p));
	/* Most ticks do not read pagetypeinfo: keep the reason of the last try. */
	if (view_missing(ctx, SRC_PAGETYPEINFO, why, sizeof(why)))
		snprintf(st->why, sizeof(st->why), "%s", why);
	else if (ctx->status && ctx->status[SRC_PAGETYPEINFO].err == 0)
		st->why[0] = '\0';
	p->at = history_pti_at(ctx->h, ctx->seq);
	if (!sh->pti_known || p->at < 0 || !e || !(hp = history_pti(ctx->h, p->at))) {
		if (st->why[0])
			snprintf(p->msg, sizeof(p->msg), "%s", st->why);
		else if (sh->pti_known)
			/* Paused before the first read, or the read has left its ring. */
			snprintf(p->msg, sizeof(p->msg),
				 "pagetypeinfo: no read held for this time");
		else if (ctx->status && ctx->status[SRC_PAGETYPEINFO].err == 0)
			snprintf(p->msg, sizeof(p->msg),
				 "pagetypeinfo: its orders differ from buddyinfo");
		else
			snprintf(p->msg, sizeof(p->msg), "pagetypeinfo: none read yet");
		return;
	}
	p->ok = true;
	p->age = e->wall - hp->wall;
	for (int r = 0; r < sh->pti_n_rows; r++) {
		int t = sh->pti_row_type[r];

		if (sh->pti_row_zone[r] == z && t >= 0 && t < sh->pti_n_types)
			p->free[t] = history_pti_free(ctx->h, p->at, r, &p->capped[t]);
	}
	for (int b = 0; b < sh->pti_n_blocks; b++)
		if (sh->pti_block_zone[b] == z)
			p->blocks = history_pti_blocks(ctx->h, p->at, b);
}

/* A type name cut to n characters. */
static void
type_name(const struct view_ctx *ctx, int t, int cut, char *dst, size_t size)
{
	snprintf(dst, size, "%.*s", cut, ctx->h->shape.pti_types[t]);
}

static int
type_width(const struct view_ctx *ctx, const struct frag_pti *p, int t, int cut)
{
	char name[NAME_LEN];
	int w;

	type_name(ctx, t, cut, name, sizeof(name));
	w = (int)strlen(name);
	for (int o = 0; p->free[t] && o < ctx->h->shape.n_orders; o++) {
		int l = ulen(p->free[t][o]) + ((p->capped[t] >> o) & 1);

		if (l > w)
			w = l;
	}
	if (p->blocks && ulen(p->blocks[t]) > w)
		w = ulen(p->blocks[t]);
	return w;
}

/* Widths for one choice of extra columns and cut of type names; true when
 * everything fits in cols. chg needs the entry at the window's left edge. */
static bool
frag_fit(const struct view_ctx *ctx, const struct frag_pti *p, const struct frag_zone *now,
	 const struct frag_zone *then, enum frag_extra extra, int cut, struct frag_layout *l)
{
	int tw, total;

	l->free_w = 4;
	l->pages_w = l->above_w = l->chg_w = 0;
	for (int o = 0; o < l->n; o++)
		if (ulen(now->free[o]) > l->free_w)
			l->free_w = ulen(now->free[o]);
	if (extra >= EXTRA_CHG && then->have) {
		l->chg_w = 3;
		for (int o = 0; o < l->n; o++) {
			uint64_t a = now->free[o], b = then->free[o];
			int w = 1 + ulen(a > b ? a - b : b - a);

			if (w > l->chg_w)
				l->chg_w = w;
		}
	}
	if (extra >= EXTRA_ALL) {
		l->pages_w = 5;
		l->above_w = 8;
		for (int o = 0; o < l->n && o < MAX_ORDERS; o++)
			if (ulen(now->free[o] << o) > l->pages_w)
				l->pages_w = ulen(now->free[o] << o);
		if (ulen(now->f.free_pages) > l->above_w)
			l->above_w = ulen(now->f.free_pages);
	}
	l->left = l->ord_w + 2 + l->free_w + (l->chg_w ? 2 + l->chg_w : 0) +
	    (l->pages_w ? 2 + l->pages_w : 0) + (l->above_w ? 2 + l->above_w : 0) +
	    2 + 8 + 2 + 7;
	l->cut = cut;
	l->n_types = 0;
	total = l->left;
	/* Without pagetypeinfo its area must hold the reason. */
	if (!p->ok) {
		int need = (int)strlen(p->msg) < 46 ? (int)strlen(p->msg) : 46;

		return total + 2 + need <= ctx->cols;
	}
	total += 2;
	for (int t = 0; t < ctx->h->shape.pti_n_types; t++) {
		tw = type_width(ctx, p, t, cut);
		if (total + 1 + tw > ctx->cols)
			return false;
		l->type_w[t] = tw;
		total += 1 + tw;
		l->n_types++;
	}
	return true;
}

static void
frag_layout(const struct view_ctx *ctx, const struct frag_pti *p, const struct frag_zone *now,
	    const struct frag_zone *then, struct frag_layout *l)
{
	static const struct {
		enum frag_extra extra;
		int cut;
	} tries[] = {
		{ EXTRA_ALL, NAME_LEN }, { EXTRA_CHG, NAME_LEN }, { EXTRA_NONE, NAME_LEN },
		{ EXTRA_NONE, 7 }, { EXTRA_NONE, 6 }, { EXTRA_NONE, 5 }, { EXTRA_NONE, 4 },
	};
	int pb = ctx->h->shape.pageblock_order, top = now->f.highest_free_order;

	memset(l, 0, sizeof(*l));
	l->n = ctx->h->shape.n_orders;
	l->tag_w = pb >= 0 && pb == top ? 6 : top >= 0 ? 3 : pb >= 0 ? 2 : 0;
	l->ord_w = l->tag_w ? 3 + l->tag_w : 3;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++)
		if (frag_fit(ctx, p, now, then, tries[i].extra, tries[i].cut, l))
			return;
	/* Too narrow for every type: show those that fit at the shortest cut. */
	frag_fit(ctx, p, now, then, EXTRA_NONE, 3, l);
}

static enum style
count_style(uint64_t v)
{
	return v ? ST_NORMAL : ST_DIM;
}

/* The first header line: where the figures come from. */
static void
frag_table_groups(const struct view_ctx *ctx, const struct frag_state *st, int row,
		  const struct frag_layout *l, const struct frag_pti *p,
		  const struct frag_window *w)
{
	char every[24], age[24], text[160];
	int x = l->left + 2, room = ctx->cols - x, used, len = 0;

	if (l->chg_w)
		used = put(ctx, row, 0, l->left, ST_DIM, "buddyinfo; chg since %s", w->left);
	else
		used = put(ctx, row, 0, l->left, ST_DIM, "buddyinfo");
	if (!p->ok) {
		/* The migratetype area says why it is empty. */
		row += put_wrapped(ctx, row, x, room, 1 + l->n, ST_WARN, p->msg);
		put_wrapped(ctx, row + 1, x, room, l->n - 1, ST_DIM,
			    "(the free blocks per migratetype and the pageblocks come from it)");
		return;
	}
	fmt_duration(p->age, age, sizeof(age));
	if (ctx->pti_every > 0 && !isnan(ctx->pti_every))
		fmt_duration(ctx->pti_every, every, sizeof(every));
	else
		every[0] = '\0';
	/* Above the migratetype columns if it fits, else further left: the
	 * cost of reading it matters more than the alignment. */
	for (int k = every[0] ? 0 : 2; k < 3; k++) {
		if (k == 0)
			len = snprintf(text, sizeof(text), "pagetypeinfo read %s ago (every %s: "
			    "it takes the zone lock)", age, every);
		else if (k == 1)
			len = snprintf(text, sizeof(text),
			    "pagetypeinfo %s ago (every %s: zone lock)", age, every);
		else
			len = snprintf(text, sizeof(text), "pagetypeinfo %s ago", age);
		if (len <= room)
			break;
		if (len <= ctx->cols - used - 2) {
			x = ctx->cols - len;
			break;
		}
	}
	room = ctx->cols - x;
	/* Older than two reads: the last reads failed; say why. */
	if (st->why[0] && ctx->pti_every > 0 && p->age > 2 * ctx->pti_every)
		put(ctx, row, x, room, ST_WARN, "%s (%s)", text, st->why);
	else
		put(ctx, row, x, room, ST_DIM, "%s", text);
}

static void
frag_table_header(const struct view_ctx *ctx, int row, const struct frag_layout *l,
		  const struct frag_pti *p)
{
	char name[NAME_LEN];
	int x = 0;

	x += put(ctx, row, x, l->ord_w, ST_TITLE, "%-*s", l->ord_w, "ord");
	x += put(ctx, row, x, 2 + l->free_w, ST_TITLE, "  %*s", l->free_w, "free");
	if (l->chg_w)
		x += put(ctx, row, x, 2 + l->chg_w, ST_TITLE, "  %*s", l->chg_w, "chg");
	if (l->pages_w)
		x += put(ctx, row, x, 2 + l->pages_w, ST_TITLE, "  %*s", l->pages_w, "pages");
	if (l->above_w)
		x += put(ctx, row, x, 2 + l->above_w, ST_TITLE, "  %*s", l->above_w, "pages>=o");
	x += put(ctx, row, x, 10, ST_TITLE, "  %8s", "unusable");
	x += put(ctx, row, x, 9, ST_TITLE, "  %7s", "extfrag");
	if (!p->ok)
		return;
	x += put(ctx, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		type_name(ctx, t, l->cut, name, sizeof(name));
		x += put(ctx, row, x, 1 + l->type_w[t], ST_TITLE, " %*s", l->type_w[t], name);
	}
}

static void
frag_table_row(const struct view_ctx *ctx, int row, int o, const struct frag_layout *l,
	       const struct frag_zone *now, const struct frag_zone *then, const struct frag_pti *p)
{
	const struct frag *f = &now->f;
	uint64_t blocks = now->free[o], b0 = then->free[o];
	int pb = ctx->h->shape.pageblock_order;
	const char *tag = "";
	char num[24];
	int x = 0;

	if (o == pb && o == f->highest_free_order)
		tag = "pb,top";
	else if (o == pb)
		tag = "pb";
	else if (o == f->highest_free_order)
		tag = "top";
	x += put(ctx, row, x, 3, ST_NORMAL, "%2d ", o);
	if (l->tag_w)
		x += put(ctx, row, x, l->tag_w, ST_DIM, "%-*s", l->tag_w, tag);
	x += put(ctx, row, x, 2 + l->free_w, count_style(blocks), "  %*llu", l->free_w,
		 (unsigned long long)blocks);
	if (l->chg_w) {
		if (blocks == b0)
			snprintf(num, sizeof(num), "0");
		else
			snprintf(num, sizeof(num), "%c%llu", blocks > b0 ? '+' : '-',
				 (unsigned long long)(blocks > b0 ? blocks - b0 : b0 - blocks));
		x += put(ctx, row, x, 2 + l->chg_w, blocks != b0 ? ST_NORMAL : ST_DIM, "  %*s",
			 l->chg_w, num);
	}
	if (l->pages_w)
		x += put(ctx, row, x, 2 + l->pages_w, count_style(blocks), "  %*llu", l->pages_w,
			 (unsigned long long)(blocks << o));
	if (l->above_w)
		x += put(ctx, row, x, 2 + l->above_w, count_style(f->free_at_or_above[o]),
			 "  %*llu", l->above_w, (unsigned long long)f->free_at_or_above[o]);
	fmt_index(f->unusable[o], num, sizeof(num));
	x += put(ctx, row, x, 10, f->unusable[o] ? ST_NORMAL : ST_DIM, "  %8s", num);
	fmt_index(f->extfrag[o], num, sizeof(num));
	/* Above vm.extfrag_threshold (500) the kernel compacts rather than reclaims. */
	x += put(ctx, row, x, 9, f->extfrag[o] > 500 ? ST_WARN : f->extfrag[o] > 0 ? ST_NORMAL :
		 ST_DIM, "  %7s", num);
	if (!p->ok)
		return;
	x += put(ctx, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		if (!p->free[t])
			snprintf(num, sizeof(num), "-");
		else if ((p->capped[t] >> o) & 1)
			snprintf(num, sizeof(num), ">%u", p->free[t][o]);
		else
			snprintf(num, sizeof(num), "%u", p->free[t][o]);
		x += put(ctx, row, x, 1 + l->type_w[t], p->free[t] && p->free[t][o] ?
			 ST_NORMAL : ST_DIM, " %*s", l->type_w[t], num);
	}
}

static void
frag_blocks_row(const struct view_ctx *ctx, int row, const struct frag_layout *l,
		const struct frag_pti *p)
{
	int x = l->left;

	put(ctx, row, 0, l->left, ST_DIM, "%*s", l->left, "pageblocks");
	x += put(ctx, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		if (p->blocks)
			x += put(ctx, row, x, 1 + l->type_w[t], count_style(p->blocks[t]), " %*u",
				 l->type_w[t], p->blocks[t]);
		else
			x += put(ctx, row, x, 1 + l->type_w[t], ST_DIM, " %*s", l->type_w[t], "-");
	}
}

/* One item of the zone line: "[0 Normal]" when selected, " 0 DMA " if not. */
static int
zone_item(const struct view_ctx *ctx, int z, bool selected, char *dst, size_t size)
{
	const struct hist_zone *hz = &ctx->h->shape.zones[z];

	return snprintf(dst, size, selected ? "[%d %s]" : " %d %s ", hz->node, hz->name);
}

/* One line: "Zone: [0 Normal]  0 DMA32   0 DMA", scrolled to keep the
 * selection in view, with the selected zone's totals at the right. */
static void
frag_zone_line(const struct view_ctx *ctx, int row, const int *list, int n, int sel,
	       const struct frag_zone *fz)
{
	char item[NAME_LEN + 32], sum[96], mem[16];
	int x, start = 0, end, width;

	x = put(ctx, row, 0, ctx->cols, ST_TITLE, "Zone:");
	if (n == 0) {
		put(ctx, row, x, ctx->cols - x, ST_WARN, " no zone matches \"%s\"", ctx->filter);
		return;
	}
	/* Scroll right until the selected item ends inside the line. */
	for (;;) {
		width = x + 1 + (start ? 2 : 0);
		for (int i = start; i <= sel; i++)
			width += zone_item(ctx, list[i], i == sel, item, sizeof(item)) + 1;
		if (width + 2 <= ctx->cols || start >= sel)
			break;
		start++;
	}
	if (start)
		x += put(ctx, row, x, 2, ST_DIM, " <");
	x += put(ctx, row, x, 1, ST_NORMAL, " ");
	for (end = start; end < n; end++) {
		int w = zone_item(ctx, list[end], end == sel, item, sizeof(item));

		if (x + w + (end + 1 < n ? 2 : 0) > ctx->cols && end > sel)
			break;
		x += put(ctx, row, x, w, end == sel ? ST_SELECTED : ST_NORMAL, "%s", item);
		x += put(ctx, row, x, 1, ST_NORMAL, " ");
	}
	if (end < n)
		x += put(ctx, row, x, 1, ST_DIM, ">");
	if (!fz->have)
		return;
	/* The longest summary that fits. */
	mem[0] = '\0';
	if (ctx->page_size > 0)
		fmt_kib(fz->f.free_pages * (uint64_t)ctx->page_size / 1024, mem, sizeof(mem));
	for (int k = mem[0] ? 0 : 1; k < 3; k++) {
		if (k == 0)
			snprintf(sum, sizeof(sum), "free %llu pages (%s), top order %d",
				 (unsigned long long)fz->f.free_pages, mem,
				 fz->f.highest_free_order);
		else if (k == 1)
			snprintf(sum, sizeof(sum), "free %llu pages, top order %d",
				 (unsigned long long)fz->f.free_pages, fz->f.highest_free_order);
		else
			snprintf(sum, sizeof(sum), "free %llu pages",
				 (unsigned long long)fz->f.free_pages);
		if (x + 2 + (int)strlen(sum) <= ctx->cols) {
			put(ctx, row, ctx->cols - (int)strlen(sum), (int)strlen(sum), ST_NORMAL,
			    "%s", sum);
			return;
		}
	}
}

/* The order the zone table reports indices at: the pageblock order (what
 * THP and compaction care about) or, without pagetypeinfo, the largest. */
static int
frag_key_order(const struct view_ctx *ctx)
{
	int pb = ctx->h->shape.pageblock_order;

	return pb >= 0 && pb < ctx->h->shape.n_orders ? pb : ctx->h->shape.n_orders - 1;
}

/* Tall screens: a zone table, one line a zone, instead of the zone line. */
static int
frag_zone_table(const struct view_ctx *ctx, int row, const int *list, int n, int sel)
{
	int ko = frag_key_order(ctx), name_w = 4;
	char line[256], un[16], ex[16], wm[3][24], mem[16];

	for (int i = 0; i < n; i++)
		if ((int)strlen(ctx->h->shape.zones[list[i]].name) > name_w)
			name_w = (int)strlen(ctx->h->shape.zones[list[i]].name);
	snprintf(line, sizeof(line),
		 "  %4s %-*s %11s %7s %10s %10s %10s %4s  %11s%d  %10s%d", "node", name_w, "zone",
		 "free pages", "free", "min", "low", "high", "top", "unusable@", ko, "extfrag@",
		 ko);
	put(ctx, row++, 0, ctx->cols, ST_TITLE, "%s", line);
	if (n == 0)
		put(ctx, row++, 0, ctx->cols, ST_WARN, "  no zone matches \"%s\"", ctx->filter);
	for (int i = 0; i < n; i++, row++) {
		uint64_t wbuf[WM_COUNT];
		const uint64_t *w = history_wmark(ctx->h, ctx->seq, list[i], wbuf) ? wbuf : NULL;
		const struct hist_zone *hz = &ctx->h->shape.zones[list[i]];
		struct frag_zone fz;
		int len;

		len = snprintf(line, sizeof(line), "%s %4d %-*s", i == sel ? ">" : " ", hz->node,
			       name_w, hz->name);
		zone_get(ctx, ctx->seq, list[i], &fz);
		if (fz.have) {
			fmt_index(fz.f.unusable[ko], un, sizeof(un));
			fmt_index(fz.f.extfrag[ko], ex, sizeof(ex));
			if (ctx->page_size > 0)
				fmt_kib(fz.f.free_pages * (uint64_t)ctx->page_size / 1024, mem,
					sizeof(mem));
			else
				snprintf(mem, sizeof(mem), "-");
			/* ASCII "-" for unknown: the widths below count bytes. */
			for (int k = 0; k < 3; k++)
				if (!w || w[WM_MIN + k] == UINT64_MAX)
					snprintf(wm[k], sizeof(wm[k]), "-");
				else
					snprintf(wm[k], sizeof(wm[k]), "%llu",
						 (unsigned long long)w[WM_MIN + k]);
			snprintf(line + len, sizeof(line) - (size_t)len,
				 " %11llu %7s %10s %10s %10s %4d  %*s  %*s",
				 (unsigned long long)fz.f.free_pages, mem, wm[0], wm[1], wm[2],
				 fz.f.highest_free_order, 9 + ulen((uint64_t)ko), un,
				 8 + ulen((uint64_t)ko), ex);
		} else {
			snprintf(line + len, sizeof(line) - (size_t)len, " %11s", "-");
		}
		put(ctx, row, 0, ctx->cols, i == sel ? ST_SELECTED : ST_NORMAL, "%s", line);
	}
	return row;
}

/* What a heatmap shows. */
enum frag_heat {
	HEAT_FREE,		/* free pages at the order, log colour */
	HEAT_UNUSABLE		/* the unusable index, linear colour */
};

/* The orders heatmap row i of hr covers: [lo, hi). */
static void
heat_orders(int i, int hr, int n, int *lo, int *hi)
{
	*lo = i * n / hr;
	*hi = (i + 1) * n / hr;
}

static uint64_t
heat_value(const struct frag_zone *fz, enum frag_heat kind, int lo, int hi)
{
	uint64_t v = 0;

	/* A group of orders shows its pages summed, or its worst index (the
	 * unusable index grows with the order). */
	if (hi < 1 || hi > MAX_ORDERS)
		return 0;
	if (kind == HEAT_UNUSABLE)
		return (uint64_t)fz->f.unusable[hi - 1];
	for (int o = lo < 0 ? 0 : lo; o < hi; o++)
		v += fz->free[o] << o;
	return v;
}

static void
heat_cell(const struct view_ctx *ctx, int row, int col, enum frag_heat kind, uint64_t v,
	  uint64_t max)
{
	double f;
	int level;

	if (v == 0 || max == 0)
		return;
	if (kind == HEAT_UNUSABLE) {
		f = (double)v / 1000;
		level = (int)(f * 5);
		put(ctx, row, col, 1, level >= 4 ? ST_HEAT5 : (enum style)(ST_HEAT1 + level),
		    "%s", draw_level_glyph(f));
		return;
	}
	/* The glyph follows the colour's log scale; any page shows. */
	f = arith_log_share((double)v, (double)max);
	put(ctx, row, col, 1, draw_heat_style(v, max), "%s", draw_level_glyph(f < 0.01 ? 0.01 : f));
}

/* Time across (one column an entry, newest right), orders down in hr
 * rows, under a line with the time at both ends. */
static void
frag_heatmap(const struct view_ctx *ctx, int row, int hr, int z, const struct frag_window *w,
	     enum frag_heat kind)
{
	const char *title = kind == HEAT_FREE ? "free pages at each order (colour: log scale)" :
	    "unusable free index at each order (0 to 1)";
	int n = ctx->h->shape.n_orders, lo, hi, x, gap, lw = (int)strlen(w->left);
	struct frag_zone fz;
	char label[32];
	uint64_t max = kind == HEAT_UNUSABLE ? 1000 : 0;

	x = w->x0 + (w->cells - w->n);
	/* A short history has room for one time label only: the newest. */
	if (x + lw + 1 > ctx->cols - (int)strlen(w->right))
		lw = 0;
	else
		put(ctx, row, x, lw, ST_DIM, "%s", w->left);
	put(ctx, row, ctx->cols - (int)strlen(w->right), (int)strlen(w->right), ST_DIM, "%s",
	    w->right);
	/* The title goes between the time labels or, while the history is
	 * short, before the left one. */
	gap = ctx->cols - (int)strlen(w->right) - (x + lw);
	for (int k = 0; k < 2; k++) {
		int tl = (int)strlen(title);

		if (gap >= tl + 4) {
			put(ctx, row, x + lw + (gap - tl) / 2, tl, ST_TITLE, "%s", title);
			break;
		}
		if (x - 2 >= tl) {
			put(ctx, row, 0, tl, ST_TITLE, "%s", title);
			break;
		}
		title = kind == HEAT_FREE ? "free pages by order" : "unusable index";
	}
	row++;

	for (int i = 0; i < hr; i++) {
		heat_orders(i, hr, n, &lo, &hi);
		if (hi - lo == 1)
			snprintf(label, sizeof(label), "%d", lo);
		else
			snprintf(label, sizeof(label), "%d-%d", lo, hi - 1);
		put(ctx, row + i, 0, w->label_w, ST_DIM, "%*s", w->label_w, label);
	}
	/* Colours are relative to the largest count in the window. */
	for (int c = 0; kind == HEAT_FREE && c < w->n; c++) {
		zone_get(ctx, w->first + (uint64_t)c, z, &fz);
		for (int i = 0; fz.have && i < hr; i++) {
			heat_orders(i, hr, n, &lo, &hi);
			if (heat_value(&fz, kind, lo, hi) > max)
				max = heat_value(&fz, kind, lo, hi);
		}
	}
	for (int c = 0; c < w->n; c++) {
		zone_get(ctx, w->first + (uint64_t)c, z, &fz);
		for (int i = 0; fz.have && i < hr; i++) {
			heat_orders(i, hr, n, &lo, &hi);
			heat_cell(ctx, row + i, x + c, kind, heat_value(&fz, kind, lo, hi), max);
		}
	}
}

static void
fragmentation_draw(const struct view_ctx *ctx, void *state)
{
	struct frag_state *st = state;
	const struct hist_shape *sh = &ctx->h->shape;
	int list[MAX_ZONES], n_list, sel, z, row = 0, n = sh->n_orders;
	int table_rows, heat_rows, zone_rows;
	struct frag_zone now, then;
	struct frag_pti p;
	struct frag_layout l;
	struct frag_window w;
	bool tall;
	char why[160];

	if (sh->n_zones == 0 || n == 0) {
		if (view_missing(ctx, SRC_BUDDYINFO, why, sizeof(why)))
			put(ctx, 0, 0, ctx->cols, ST_WARN, "%s", why);
		else
			put(ctx, 0, 0, ctx->cols, ST_WARN, "buddyinfo: no zones");
		return;
	}
	n_list = zones_listed(ctx, list);
	sel = frag_select(ctx, st, list, n_list);
	z = sel >= 0 ? list[sel] : -1;
	zone_get(ctx, ctx->seq, z, &now);
	frag_pti_get(ctx, st, z, &p);

	/* Rows: the zone chooser, two header lines, the orders, pageblocks,
	 * a blank, then the heatmap's time line and one row an order. A zone
	 * table replaces the zone line when all of that fits with it. */
	table_rows = 2 + n + (p.ok ? 1 : 0);
	tall = ctx->rows >= n_list + 2 + table_rows + 1 + 1 + n;
	zone_rows = tall ? n_list + (n_list ? 1 : 2) + 1 : 1;
	heat_rows = ctx->rows - zone_rows - table_rows - 1;
	if (heat_rows > n)
		heat_rows = n;
	/* Order labels line up with the table's unless orders are grouped. */
	frag_window(ctx, heat_rows >= n ? 2 : 5, &w);
	memset(&then, 0, sizeof(then));
	if (w.n > 1)
		zone_get(ctx, w.first, z, &then);
	frag_layout(ctx, &p, &now, &then, &l);

	if (tall)
		row = frag_zone_table(ctx, row, list, n_list, sel) + 1;
	else
		frag_zone_line(ctx, row++, list, n_list, sel, &now);
	if (z < 0)
		return;
	if (!now.have) {
		if (view_missing(ctx, SRC_BUDDYINFO, why, sizeof(why)))
			put(ctx, row, 0, ctx->cols, ST_WARN, "%s", why);
		else
			put(ctx, row, 0, ctx->cols, ST_WARN, "buddyinfo: not in this sample");
		row++;
	} else {
		frag_table_groups(ctx, st, row++, &l, &p, &w);
		frag_table_header(ctx, row++, &l, &p);
		for (int o = 0; o < n; o++)
			frag_table_row(ctx, row++, o, &l, &now, &then, &p);
		if (p.ok)
			frag_blocks_row(ctx, row++, &l, &p);
	}

	/* A blank line between table and heatmap when it costs no order row. */
	if (ctx->rows - row > heat_rows + 1)
		row++;
	/* Even one row (all orders: the zone's free pages) tells a story. */
	if (heat_rows >= 1 && w.n > 0) {
		frag_heatmap(ctx, row, heat_rows, z, &w, HEAT_FREE);
		row += 1 + heat_rows;
	} else if (row < ctx->rows) {
		put(ctx, row, 0, ctx->cols, ST_DIM, "(no room for the heatmap)");
	}
	/* Tall screens: the unusable index over the same window, below. */
	if (heat_rows == n && w.n > 0 && ctx->rows - row >= 2 + n)
		frag_heatmap(ctx, row + 1, n, z, &w, HEAT_UNUSABLE);
}

static bool
fragmentation_key(const struct view_ctx *ctx, void *state, int key)
{
	struct frag_state *st = state;
	int list[MAX_ZONES], n, i;

	if (key != KEY_UP && key != KEY_DOWN)
		return false;
	n = zones_listed(ctx, list);
	if ((i = frag_select(ctx, st, list, n)) < 0)
		return true;
	i = key == KEY_UP ? (i + n - 1) % n : (i + 1) % n;
	st->zone = list[i];
	return true;
}

const struct view view_fragmentation = {
	.name = "fragmentation",
	.title = "Fragmentation",
	.key = '2',
	.draw = fragmentation_draw,
	.handle_key = fragmentation_key,
	.state_size = sizeof(struct frag_state),
	.help = fragmentation_help,
};
