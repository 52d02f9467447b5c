/*
 * Migratetype fallbacks from the kernel probes, under the free lists:
 * the orders that fell back, this tick and over the probes' window, and a
 * row per (asked -> taken) pair, the busiest over the window first, with
 * the free lists of the type it took from in the zone the screen shows
 * (its memory, and its blocks at or above the pageblock order, which a
 * steal prefers) and its chart over the entries before.
 * Types are named as pagetypeinfo names them, by the kernel's number.
 * With replay --compare, B's orders under A's, from B's own history.
 */
#include "views/frag-fallbacks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/frag-zone.h"
#include "model/history-probes.h"
#include "views/reclaim-probes.h"

#define PAIRS_MAX	6
#define SPARK_MAX	64

int
frag_fallbacks_height(const struct view_ctx *ctx, int rows)
{
	char line[160];

	if (!probes_panel_on(ctx, line, sizeof(line)))
		return rows >= 4 ? 2 : 0;
	if (rows < 8)
		return 0;
	return rows >= 40 ? 3 + PAIRS_MAX : 4;
}

static void
type_name(const struct view_ctx *ctx, int mt, char *dst, size_t size)
{
	const struct hist_shape *sh = &ctx->h->shape;

	if (sh->pti_known && mt < sh->pti_n_types)
		snprintf(dst, size, "%s", sh->pti_types[mt]);
	else
		snprintf(dst, size, "type %d", mt);
}

/* The free lists a fallback takes from: type mt's free memory in zone z
 * and its free blocks at or above the pageblock order (what a steal would
 * rather take), "-" when no pagetypeinfo read is held. */
static void
free_of(const struct view_ctx *ctx, const struct frag_zone_pti *p, int mt, char *dst,
	size_t size)
{
	const struct hist_shape *sh = &ctx->h->shape;
	int pb = sh->pageblock_order;
	uint64_t pages = 0, big = 0;
	char mem[16];

	if (!p->ok || mt >= sh->pti_n_types || !p->free[mt]) {
		snprintf(dst, size, "free -");
		return;
	}
	for (int o = 0; o < sh->n_orders; o++) {
		pages += (uint64_t)p->free[mt][o] << o;
		if (pb >= 0 && o >= pb)
			big += p->free[mt][o];
	}
	if (ctx->page_size > 0)
		fmt_kib(pages * (uint64_t)ctx->page_size / 1024, mem, sizeof(mem));
	else
		snprintf(mem, sizeof(mem), "%llup", (unsigned long long)pages);
	if (pb >= 0)
		snprintf(dst, size, "free %s, %llu >=o%d", mem, (unsigned long long)big, pb);
	else
		snprintf(dst, size, "free %s", mem);
}

/* The busiest (asked, taken) pairs over the window, most first. */
static int
busiest_pairs(const struct hist_probe_sum *w, int top[PAIRS_MAX][2])
{
	int n_top = 0;

	for (int k = 0; k < PAIRS_MAX; k++) {
		uint64_t best = 0;
		int ba = -1, bt = -1;

		for (int i = 0; i < PROBE_MIGRATETYPES; i++)
			for (int j = 0; j < PROBE_MIGRATETYPES; j++) {
				bool taken = false;

				for (int q = 0; q < n_top; q++)
					taken |= top[q][0] == i && top[q][1] == j;
				if (!taken && w->fb_pair[i][j] > best) {
					best = w->fb_pair[i][j];
					ba = i;
					bt = j;
				}
			}
		if (ba < 0)
			break;
		top[n_top][0] = ba;
		top[n_top++][1] = bt;
	}
	return n_top;
}

/* "by order (tick/window)" and each order that fell back in the window;
 * whole cells only. */
static void
draw_orders(const struct view_ctx *ctx, int y, const struct hist_probe_sum *t, bool tick,
	    const struct hist_probe_sum *w, const char *label)
{
	int x = ctx->x + draw_text(y, ctx->x, ctx->cols, ST_DIM, "%s", label);
	bool any = false;

	for (int o = 0; o < PROBE_ORDERS; o++) {
		char cell[48];
		int n;

		if (!w->fb_order[o])
			continue;
		any = true;
		n = snprintf(cell, sizeof(cell), " %d: %llu/%llu ", o,
			     tick ? (unsigned long long)t->fb_order[o] : 0ull,
			     (unsigned long long)w->fb_order[o]);
		if (x + n > ctx->x + ctx->cols)
			break;
		draw_text(y, x, n, tick && t->fb_order[o] ? ST_WARN : ST_NORMAL, "%s", cell);
		x += n;
	}
	if (!any)
		draw_text(y, x, ctx->x + ctx->cols - x, ST_GOOD, "none");
}

void
frag_fallbacks_draw(const struct view_ctx *ctx, int zone, int y, int rows)
{
	struct hist_probe_sum t, w;
	struct frag_zone_pti p;
	int end = y + rows, top[PAIRS_MAX][2], n_top;
	char line[200], span[32], a[NAME_LEN + 8], b[NAME_LEN + 8], fr[64];
	uint64_t first, all = 0;
	bool tick;

	if (rows <= 0)
		return;
	if (!probes_panel_on(ctx, line, sizeof(line))) {
		y = view_title(y, ctx->x, ctx->cols, "Migratetype fallbacks");
		if (y < end)
			draw_text(y, ctx->x + 1, ctx->cols - 1, ST_DIM, "%s", line);
		return;
	}
	tick = ctx->seq > 0 && history_probe_sum(ctx->h, ctx->seq - 1, ctx->seq, &t);
	if (!history_probe_window(ctx->h, ctx->seq, &first) ||
	    !history_probe_sum(ctx->h, first, ctx->seq, &w)) {
		y = view_title(y, ctx->x, ctx->cols, "Migratetype fallbacks");
		if (y < end)
			draw_text(y, ctx->x + 1, ctx->cols - 1, ST_DIM, "probes: one tick so far");
		return;
	}
	memset(&p, 0, sizeof(p));
	if (zone >= 0)
		frag_zone_pti(ctx->h, ctx->seq, ctx->e, zone, &p);
	fmt_duration(w.seconds, span, sizeof(span));
	for (int o = 0; o < PROBE_ORDERS; o++)
		all += w.fb_order[o];
	snprintf(line, sizeof(line), "Migratetype fallbacks  last %s: %llu, %llu fragmenting%s%s",
		 span, (unsigned long long)all, (unsigned long long)w.fb_fragmenting,
		 zone >= 0 ? "; free in " : "", zone >= 0 ? ctx->h->shape.zones[zone].name : "");
	y = view_title(y, ctx->x, ctx->cols, line);
	if (y >= end)
		return;
	draw_orders(ctx, y++, &t, tick, &w, "by order, this tick/window ");
	if (ctx->b && y < end && probes_panel_on(ctx->b, line, sizeof(line))) {
		const struct view_ctx *cb = ctx->b;
		struct hist_probe_sum tb, wb;
		bool tick_b = cb->seq > 0 && history_probe_sum(cb->h, cb->seq - 1, cb->seq, &tb);
		uint64_t fb;

		/* Drawn in A's area: only the figures are B's. */
		if (history_probe_window(cb->h, cb->seq, &fb) &&
		    history_probe_sum(cb->h, fb, cb->seq, &wb))
			draw_orders(ctx, y++, &tb, tick_b, &wb, "B by order, tick/window   ");
	}
	n_top = busiest_pairs(&w, top);
	/* Each pair: the tick's and the window's count, the free lists of the
	 * type it took from, then its chart over the ticks before. */
	for (int k = 0; k < n_top && y < end; k++) {
		double v[SPARK_MAX];
		int sw, n = 0, used;
		uint64_t s0;

		type_name(ctx, top[k][0], a, sizeof(a));
		type_name(ctx, top[k][1], b, sizeof(b));
		free_of(ctx, &p, top[k][1], fr, sizeof(fr));
		snprintf(line, sizeof(line), "%s -> %s", a, b);
		used = draw_text(y, ctx->x, ctx->cols, tick && t.fb_pair[top[k][0]][top[k][1]] ?
				 ST_WARN : ST_NORMAL, "%-23.23s %5llu now %6llu win  %-24s", line,
				 tick ? (unsigned long long)t.fb_pair[top[k][0]][top[k][1]] : 0ull,
				 (unsigned long long)w.fb_pair[top[k][0]][top[k][1]], fr);
		sw = ctx->cols - used - 1;
		if (sw > SPARK_MAX)
			sw = SPARK_MAX;
		if (sw >= 6) {
			s0 = ctx->seq >= (uint64_t)sw ? ctx->seq - (uint64_t)sw + 1 : 1;
			for (uint64_t s = s0; s <= ctx->seq && n < SPARK_MAX; s++) {
				struct hist_probe_sum q;

				v[n++] = history_probe_sum(ctx->h, s - 1, s, &q) ?
				    (double)q.fb_pair[top[k][0]][top[k][1]] : NAN;
			}
			draw_spark(y, ctx->x + used + 1, sw, v, n, 0, ST_HEAT3);
		}
		y++;
	}
}
