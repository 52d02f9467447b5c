/*
 * Fragmentation: one zone at a time. A zone list (or, when the screen is
 * tall, a zone table) to choose it; a table with one row per order of the
 * free blocks from buddyinfo, the unusable and fragmentation indices
 * derived from them and the free blocks per migratetype from the
 * pagetypeinfo read in force, with the pageblocks per migratetype below;
 * then a heatmap of free pages per order over the history on screen
 * (frag-heatmap.c). The figures come from model/frag-zone.c.
 *
 * Every figure in the table is exact: VM developers compare them with
 * the files they post. Nothing is allocated: arrays are sized by caps.h.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/frag-zone.h"
#include "views/frag-heatmap.h"
#include "views/frag-fallbacks.h"
#include "views/view.h"

struct frag_state {
	bool picked;		/* zone was chosen (by us or the user) */
	int zone;		/* index into shape.zones[] */
	char why[160];		/* the last reason pagetypeinfo was missing */
};

/* Optional columns of the left part, dropped first when narrow. */
enum frag_extra { EXTRA_NONE, EXTRA_CHG, EXTRA_ALL };

struct frag_layout {
	int n;				/* orders */
	int tag_w;			/* "pb", "top", "pb,top" */
	int ord_w;			/* order and tag */
	int free_w, chg_w, pages_w, above_w;	/* 0: not shown */
	int bfree_w;			/* replay --compare: B's free blocks; 0 none */
	int left;			/* width of the buddyinfo part */
	int n_types;			/* type columns shown */
	int cut;			/* type names cut to this */
	int type_w[MAX_MTYPES];
};

static const char *const fragmentation_help[] = {
	"Up/Down     select the zone (\"/\" filters zones by name)",
	"            pb: the pageblock order; top: the highest order with a free block",
	"            chg: free blocks gained or lost since the heatmap's left edge;",
	"            pages: free pages in blocks of that order; pages>=o: in it or above;",
	"            chg, pages and pages>=o appear only on wide enough screens",
	"            zone table (tall screens): free, min, low and high in bytes, as",
	"            on the Overview",
	"            extfrag -1: would succeed; above 0.500 the kernel compacts",
	"            heatmap: free pages at each order over time, newest right",
	NULL
};

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

/* For the first choice: managed pages, else free pages. */
static uint64_t
zone_size(const struct view_ctx *ctx, int z)
{
	uint64_t wm[WM_COUNT];
	struct frag_zone fz;

	if (history_wmark(ctx->h, ctx->seq, z, wm) && wm[WM_MANAGED] != UINT64_MAX)
		return wm[WM_MANAGED];
	frag_zone_get(ctx->h, ctx->seq, z, &fz);
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

/* Zone z's pagetypeinfo figures, or in msg why there are none. */
static void
frag_pti_get(const struct view_ctx *ctx, struct frag_state *st, int z, struct frag_zone_pti *p,
	     char *msg, size_t size)
{
	const struct hist_shape *sh = &ctx->h->shape;
	char why[160];

	/* Most ticks do not read pagetypeinfo: keep the reason of the last try. */
	if (view_missing(ctx, SRC_PAGETYPEINFO, why, sizeof(why)))
		snprintf(st->why, sizeof(st->why), "%s", why);
	else if (ctx->status && ctx->status[SRC_PAGETYPEINFO].err == 0)
		st->why[0] = '\0';
	msg[0] = '\0';
	if (frag_zone_pti(ctx->h, ctx->seq, ctx->e, z, p))
		return;
	if (st->why[0])
		snprintf(msg, size, "%s", st->why);
	else if (sh->pti_known)
		/* Paused before the first read, or the read has left its ring. */
		snprintf(msg, size, "pagetypeinfo: no read held for this time");
	else if (ctx->status && ctx->status[SRC_PAGETYPEINFO].err == 0)
		snprintf(msg, size, "pagetypeinfo: its orders differ from buddyinfo");
	else
		snprintf(msg, size, "pagetypeinfo: none read yet");
}

/* A type name cut to n characters. */
static void
type_name(const struct view_ctx *ctx, int t, int cut, char *dst, size_t size)
{
	snprintf(dst, size, "%.*s", cut, ctx->h->shape.pti_types[t]);
}

static int
type_width(const struct view_ctx *ctx, const struct frag_zone_pti *p, int t, int cut)
{
	char name[NAME_LEN];
	int w;

	type_name(ctx, t, cut, name, sizeof(name));
	w = (int)strlen(name);
	for (int o = 0; p->free[t] && o < ctx->h->shape.n_orders; o++) {
		int l = draw_uint_width(p->free[t][o]) + ((p->capped[t] >> o) & 1);

		if (l > w)
			w = l;
	}
	if (p->blocks && draw_uint_width(p->blocks[t]) > w)
		w = draw_uint_width(p->blocks[t]);
	return w;
}

/* Widths for one choice of extra columns and cut of type names; true when
 * everything fits in cols. chg needs the entry at the window's left edge. */
static bool
frag_fit(const struct view_ctx *ctx, const struct frag_zone_pti *p, const char *msg,
	 const struct frag_zone *now, const struct frag_zone *then, const struct frag_zone *nowb,
	 enum frag_extra extra, int cut, struct frag_layout *l)
{
	int tw, total;

	l->bfree_w = 0;
	if (nowb && nowb->have) {
		l->bfree_w = 6;
		for (int o = 0; o < l->n; o++)
			if (draw_uint_width(nowb->free[o]) > l->bfree_w)
				l->bfree_w = draw_uint_width(nowb->free[o]);
	}
	l->free_w = 4;
	l->pages_w = l->above_w = l->chg_w = 0;
	for (int o = 0; o < l->n; o++)
		if (draw_uint_width(now->free[o]) > l->free_w)
			l->free_w = draw_uint_width(now->free[o]);
	if (extra >= EXTRA_CHG && then->have) {
		l->chg_w = 3;
		for (int o = 0; o < l->n; o++) {
			uint64_t a = now->free[o], b = then->free[o];
			int w = 1 + draw_uint_width(a > b ? a - b : b - a);

			if (w > l->chg_w)
				l->chg_w = w;
		}
	}
	if (extra >= EXTRA_ALL) {
		l->pages_w = 5;
		l->above_w = 8;
		for (int o = 0; o < l->n && o < MAX_ORDERS; o++)
			if (draw_uint_width(now->free[o] << o) > l->pages_w)
				l->pages_w = draw_uint_width(now->free[o] << o);
		if (draw_uint_width(now->f.free_pages) > l->above_w)
			l->above_w = draw_uint_width(now->f.free_pages);
	}
	l->left = l->ord_w + 2 + l->free_w + (l->bfree_w ? 2 + l->bfree_w : 0) +
	    (l->chg_w ? 2 + l->chg_w : 0) +
	    (l->pages_w ? 2 + l->pages_w : 0) + (l->above_w ? 2 + l->above_w : 0) +
	    2 + 8 + 2 + 7;
	l->cut = cut;
	l->n_types = 0;
	total = l->left;
	/* Without pagetypeinfo its area must hold the reason. */
	if (!p->ok) {
		int need = (int)strlen(msg) < 46 ? (int)strlen(msg) : 46;

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
frag_layout(const struct view_ctx *ctx, const struct frag_zone_pti *p, const char *msg,
	    const struct frag_zone *now, const struct frag_zone *then,
	    const struct frag_zone *nowb, struct frag_layout *l)
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
		if (frag_fit(ctx, p, msg, now, then, nowb, tries[i].extra, tries[i].cut, l))
			return;
	/* Too narrow for every type: show those that fit at the shortest cut. */
	frag_fit(ctx, p, msg, now, then, nowb, EXTRA_NONE, 3, l);
}

static enum style
count_style(uint64_t v)
{
	return v ? ST_NORMAL : ST_DIM;
}

/* The first header line: where the figures come from. */
static void
frag_table_groups(const struct view_ctx *ctx, const struct draw_area *a,
		  const struct frag_state *st, int row, const struct frag_layout *l,
		  const struct frag_zone_pti *p, const char *msg,
		  const struct frag_heatmap_window *w)
{
	char every[24], age[24], text[160];
	int x = l->left + 2, room = ctx->cols - x, used, len = 0;

	if (l->chg_w)
		used = draw_area_text(a, row, 0, l->left, ST_DIM, "buddyinfo; chg since %s",
				      w->left);
	else
		used = draw_area_text(a, row, 0, l->left, ST_DIM, "buddyinfo");
	if (!p->ok) {
		/* The migratetype area says why it is empty. */
		row += draw_wrapped(a, row, x, room, 1 + l->n, ST_WARN, msg);
		draw_wrapped(a, row + 1, x, room, l->n - 1, ST_DIM,
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
		draw_area_text(a, row, x, room, ST_WARN, "%s (%s)", text, st->why);
	else
		draw_area_text(a, row, x, room, ST_DIM, "%s", text);
}

static void
frag_table_header(const struct view_ctx *ctx, const struct draw_area *a, int row,
		  const struct frag_layout *l, const struct frag_zone_pti *p)
{
	char name[NAME_LEN];
	int x = 0;

	x += draw_area_text(a, row, x, l->ord_w, ST_TITLE, "%-*s", l->ord_w, "ord");
	x += draw_area_text(a, row, x, 2 + l->free_w, ST_TITLE, "  %*s", l->free_w, "free");
	if (l->bfree_w)
		x += draw_area_text(a, row, x, 2 + l->bfree_w, ST_HEAT3, "  %*s", l->bfree_w,
				    "B free");
	if (l->chg_w)
		x += draw_area_text(a, row, x, 2 + l->chg_w, ST_TITLE, "  %*s", l->chg_w,
				    "chg");
	if (l->pages_w)
		x += draw_area_text(a, row, x, 2 + l->pages_w, ST_TITLE, "  %*s", l->pages_w,
				    "pages");
	if (l->above_w)
		x += draw_area_text(a, row, x, 2 + l->above_w, ST_TITLE, "  %*s", l->above_w,
				    "pages>=o");
	x += draw_area_text(a, row, x, 10, ST_TITLE, "  %8s", "unusable");
	x += draw_area_text(a, row, x, 9, ST_TITLE, "  %7s", "extfrag");
	if (!p->ok)
		return;
	x += draw_area_text(a, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		type_name(ctx, t, l->cut, name, sizeof(name));
		x += draw_area_text(a, row, x, 1 + l->type_w[t], ST_TITLE, " %*s", l->type_w[t],
				    name);
	}
}

static void
frag_table_row(const struct view_ctx *ctx, const struct draw_area *a, int row, int o,
	       const struct frag_layout *l, const struct frag_zone *now,
	       const struct frag_zone *then, const struct frag_zone *nowb,
	       const struct frag_zone_pti *p)
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
	x += draw_area_text(a, row, x, 3, ST_NORMAL, "%2d ", o);
	if (l->tag_w)
		x += draw_area_text(a, row, x, l->tag_w, ST_DIM, "%-*s", l->tag_w, tag);
	x += draw_area_text(a, row, x, 2 + l->free_w, count_style(blocks), "  %*llu", l->free_w,
			    (unsigned long long)blocks);
	if (l->bfree_w)
		x += draw_area_text(a, row, x, 2 + l->bfree_w, ST_HEAT3, "  %*llu", l->bfree_w,
				    (unsigned long long)nowb->free[o]);
	if (l->chg_w) {
		if (blocks == b0)
			snprintf(num, sizeof(num), "0");
		else
			snprintf(num, sizeof(num), "%c%llu", blocks > b0 ? '+' : '-',
				 (unsigned long long)(blocks > b0 ? blocks - b0 : b0 - blocks));
		x += draw_area_text(a, row, x, 2 + l->chg_w, blocks != b0 ? ST_NORMAL : ST_DIM,
				    "  %*s", l->chg_w, num);
	}
	if (l->pages_w)
		x += draw_area_text(a, row, x, 2 + l->pages_w, count_style(blocks), "  %*llu",
				    l->pages_w, (unsigned long long)(blocks << o));
	if (l->above_w)
		x += draw_area_text(a, row, x, 2 + l->above_w, count_style(f->free_at_or_above[o]),
				    "  %*llu", l->above_w,
				    (unsigned long long)f->free_at_or_above[o]);
	fmt_index(f->unusable[o], num, sizeof(num));
	x += draw_area_text(a, row, x, 10, f->unusable[o] ? ST_NORMAL : ST_DIM, "  %8s", num);
	fmt_index(f->extfrag[o], num, sizeof(num));
	/* Above vm.extfrag_threshold (500) the kernel compacts rather than reclaims. */
	x += draw_area_text(a, row, x, 9, f->extfrag[o] > 500 ? ST_WARN :
			    f->extfrag[o] > 0 ? ST_NORMAL : ST_DIM, "  %7s", num);
	if (!p->ok)
		return;
	x += draw_area_text(a, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		if (!p->free[t])
			snprintf(num, sizeof(num), "-");
		else if ((p->capped[t] >> o) & 1)
			snprintf(num, sizeof(num), ">%u", p->free[t][o]);
		else
			snprintf(num, sizeof(num), "%u", p->free[t][o]);
		x += draw_area_text(a, row, x, 1 + l->type_w[t], p->free[t] && p->free[t][o] ?
				    ST_NORMAL : ST_DIM, " %*s", l->type_w[t], num);
	}
}

static void
frag_blocks_row(const struct draw_area *a, int row, const struct frag_layout *l,
		const struct frag_zone_pti *p)
{
	int x = l->left;

	draw_area_text(a, row, 0, l->left, ST_DIM, "%*s", l->left, "pageblocks");
	x += draw_area_text(a, row, x, 2, ST_DIM, " %s", draw_utf8() ? "\u2502" : "|");
	for (int t = 0; t < l->n_types; t++) {
		if (p->blocks)
			x += draw_area_text(a, row, x, 1 + l->type_w[t], count_style(p->blocks[t]),
					    " %*u", l->type_w[t], p->blocks[t]);
		else
			x += draw_area_text(a, row, x, 1 + l->type_w[t], ST_DIM, " %*s",
					    l->type_w[t], "-");
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
frag_zone_line(const struct view_ctx *ctx, const struct draw_area *a, int row, const int *list,
	       int n, int sel, const struct frag_zone *fz)
{
	char item[NAME_LEN + 32], sum[96], mem[16];
	int x, start = 0, end, width;

	x = draw_area_text(a, row, 0, ctx->cols, ST_TITLE, "Zone:");
	if (n == 0) {
		draw_area_text(a, row, x, ctx->cols - x, ST_WARN, " no zone matches \"%s\"",
			       ctx->filter);
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
		x += draw_area_text(a, row, x, 2, ST_DIM, " <");
	x += draw_area_text(a, row, x, 1, ST_NORMAL, " ");
	for (end = start; end < n; end++) {
		int w = zone_item(ctx, list[end], end == sel, item, sizeof(item));

		if (x + w + (end + 1 < n ? 2 : 0) > ctx->cols && end > sel)
			break;
		x += draw_area_text(a, row, x, w, end == sel ? ST_SELECTED : ST_NORMAL, "%s", item);
		x += draw_area_text(a, row, x, 1, ST_NORMAL, " ");
	}
	if (end < n)
		x += draw_area_text(a, row, x, 1, ST_DIM, ">");
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
			draw_area_text(a, row, ctx->cols - (int)strlen(sum), (int)strlen(sum),
				       ST_NORMAL, "%s", sum);
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
frag_zone_table(const struct view_ctx *ctx, const struct draw_area *a, int row, const int *list,
		int n, int sel)
{
	int ko = frag_key_order(ctx), name_w = 4;
	char line[256], un[16], ex[16], wm[3][16], mem[16];

	for (int i = 0; i < n; i++)
		if ((int)strlen(ctx->h->shape.zones[list[i]].name) > name_w)
			name_w = (int)strlen(ctx->h->shape.zones[list[i]].name);
	snprintf(line, sizeof(line),
		 "  %4s %-*s %11s %7s %7s %7s %7s %4s  %11s%d  %10s%d", "node", name_w, "zone",
		 "free pages", "free", "min", "low", "high", "top", "unusable@", ko, "extfrag@",
		 ko);
	draw_area_text(a, row++, 0, ctx->cols, ST_TITLE, "%s", line);
	if (n == 0)
		draw_area_text(a, row++, 0, ctx->cols, ST_WARN, "  no zone matches \"%s\"",
			       ctx->filter);
	for (int i = 0; i < n; i++, row++) {
		uint64_t wbuf[WM_COUNT];
		const uint64_t *w = history_wmark(ctx->h, ctx->seq, list[i], wbuf) ? wbuf : NULL;
		const struct hist_zone *hz = &ctx->h->shape.zones[list[i]];
		struct frag_zone fz;
		int len;

		len = snprintf(line, sizeof(line), "%s %4d %-*s", i == sel ? ">" : " ", hz->node,
			       name_w, hz->name);
		frag_zone_get(ctx->h, ctx->seq, list[i], &fz);
		if (fz.have) {
			fmt_index(fz.f.unusable[ko], un, sizeof(un));
			fmt_index(fz.f.extfrag[ko], ex, sizeof(ex));
			if (ctx->page_size > 0)
				fmt_kib(fz.f.free_pages * (uint64_t)ctx->page_size / 1024, mem,
					sizeof(mem));
			else
				snprintf(mem, sizeof(mem), "-");
			/* In bytes, as free beside them and the Overview's. ASCII
			 * "-" for unknown: the widths below count bytes. */
			for (int k = 0; k < 3; k++)
				if (!w || w[WM_MIN + k] == UINT64_MAX || ctx->page_size <= 0)
					snprintf(wm[k], sizeof(wm[k]), "-");
				else
					fmt_kib(w[WM_MIN + k] * (uint64_t)ctx->page_size / 1024,
						wm[k], sizeof(wm[k]));
			snprintf(line + len, sizeof(line) - (size_t)len,
				 " %11llu %7s %7s %7s %7s %4d  %*s  %*s",
				 (unsigned long long)fz.f.free_pages, mem, wm[0], wm[1], wm[2],
				 fz.f.highest_free_order, 9 + draw_uint_width((uint64_t)ko), un,
				 8 + draw_uint_width((uint64_t)ko), ex);
		} else {
			snprintf(line + len, sizeof(line) - (size_t)len, " %11s", "-");
		}
		draw_area_text(a, row, 0, ctx->cols, i == sel ? ST_SELECTED : ST_NORMAL, "%s",
			       line);
	}
	return row;
}

/* The zone of the second recording with zone's node and name; -1 none. */
static int
frag_zone_in(const struct view_ctx *b, const struct hist_zone *zone)
{
	for (int z = 0; z < b->h->shape.n_zones; z++)
		if (b->h->shape.zones[z].node == zone->node &&
		    strcmp(b->h->shape.zones[z].name, zone->name) == 0)
			return z;
	return -1;
}

static void
fragmentation_draw_lists(const struct view_ctx *ctx, void *state)
{
	struct frag_state *st = state;
	const struct hist_shape *sh = &ctx->h->shape;
	int list[MAX_ZONES], n_list, sel, z, row = 0, n = sh->n_orders;
	int table_rows, heat_rows, zone_rows;
	const struct draw_area area = { ctx->y, ctx->x, ctx->rows, ctx->cols }, *a = &area;
	struct frag_zone now, then, nowb;
	struct frag_zone_pti p;
	struct frag_layout l;
	struct frag_heatmap_window w;
	bool tall;
	char why[160], msg[200];
	int zb;

	if (sh->n_zones == 0 || n == 0) {
		if (view_missing(ctx, SRC_BUDDYINFO, why, sizeof(why)))
			draw_area_text(a, 0, 0, ctx->cols, ST_WARN, "%s", why);
		else
			draw_area_text(a, 0, 0, ctx->cols, ST_WARN, "buddyinfo: no zones");
		return;
	}
	n_list = zones_listed(ctx, list);
	sel = frag_select(ctx, st, list, n_list);
	z = sel >= 0 ? list[sel] : -1;
	frag_zone_get(ctx->h, ctx->seq, z, &now);
	frag_pti_get(ctx, st, z, &p, msg, sizeof(msg));

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
	frag_heatmap_window(ctx, heat_rows >= n ? 2 : 5, &w);
	memset(&then, 0, sizeof(then));
	if (w.n > 1)
		frag_zone_get(ctx->h, w.first, z, &then);
	/* With a second recording, its free blocks of the same zone. */
	memset(&nowb, 0, sizeof(nowb));
	zb = ctx->b && z >= 0 ? frag_zone_in(ctx->b, &sh->zones[z]) : -1;
	if (zb >= 0)
		frag_zone_get(ctx->b->h, ctx->b->seq, zb, &nowb);
	frag_layout(ctx, &p, msg, &now, &then, &nowb, &l);

	if (tall)
		row = frag_zone_table(ctx, a, row, list, n_list, sel) + 1;
	else
		frag_zone_line(ctx, a, row++, list, n_list, sel, &now);
	if (z < 0)
		return;
	if (!now.have) {
		if (view_missing(ctx, SRC_BUDDYINFO, why, sizeof(why)))
			draw_area_text(a, row, 0, ctx->cols, ST_WARN, "%s", why);
		else
			draw_area_text(a, row, 0, ctx->cols, ST_WARN,
				       "buddyinfo: not in this sample");
		row++;
	} else {
		frag_table_groups(ctx, a, st, row++, &l, &p, msg, &w);
		frag_table_header(ctx, a, row++, &l, &p);
		for (int o = 0; o < n; o++)
			frag_table_row(ctx, a, row++, o, &l, &now, &then, &nowb, &p);
		if (p.ok)
			frag_blocks_row(a, row++, &l, &p);
	}

	/* A blank line between table and heatmap when it costs no order row. */
	if (ctx->rows - row > heat_rows + 1)
		row++;
	/* With a second recording, its heatmap of the same zone under A's:
	 * the rows shared when they are few. */
	if (zb >= 0 && heat_rows >= 2 && !(heat_rows == n && ctx->rows - row >= 2 * (1 + n) + 1))
		heat_rows = (heat_rows - 1) / 2;
	/* Even one row (all orders: the zone's free pages) tells a story. */
	if (heat_rows >= 1 && w.n > 0) {
		frag_heatmap(ctx, a, row, heat_rows, z, &w, HEAT_FREE, zb >= 0 ? "A" : NULL);
		row += 1 + heat_rows;
	} else if (row < ctx->rows) {
		draw_area_text(a, row, 0, ctx->cols, ST_DIM, "(no room for the heatmap)");
	}
	if (zb >= 0 && heat_rows >= 1 && ctx->rows - row >= 1 + heat_rows) {
		struct frag_heatmap_window wb;

		frag_heatmap_window(ctx->b, w.label_w, &wb);
		if (wb.n > 0)
			frag_heatmap(ctx->b, a, row, heat_rows, zb, &wb, HEAT_FREE, "B");
		row += 1 + heat_rows;
	}
	/* Tall screens: the unusable index over the same window, below, and
	 * B's under it when there is room for it whole. */
	if (heat_rows == n && w.n > 0 && ctx->rows - row >= 2 + n) {
		frag_heatmap(ctx, a, row + 1, n, z, &w, HEAT_UNUSABLE, zb >= 0 ? "A" : NULL);
		row += 2 + n;
		if (zb >= 0 && ctx->rows - row >= 1 + n) {
			struct frag_heatmap_window wb;

			frag_heatmap_window(ctx->b, w.label_w, &wb);
			if (wb.n > 0)
				frag_heatmap(ctx->b, a, row, n, zb, &wb, HEAT_UNUSABLE, "B");
		}
	}
}

/* The free lists, and under them the fallbacks that came out of them. */
static void
fragmentation_draw(const struct view_ctx *ctx, void *state)
{
	struct view_ctx lists = *ctx;
	struct frag_state *st = state;
	int fh = frag_fallbacks_height(ctx, ctx->rows);

	lists.rows -= fh;
	fragmentation_draw_lists(&lists, state);
	frag_fallbacks_draw(ctx, st->picked ? st->zone : -1, ctx->y + lists.rows, fh);
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
