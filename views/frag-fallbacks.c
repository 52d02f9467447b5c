/*
 * Migratetype fallbacks from the kernel probes, under the free lists:
 * per order this tick, and a row per (asked -> taken) pair, the busiest
 * over the probes' window first, with its chart over the entries before.
 * Types are named as pagetypeinfo names them, by the kernel's number.
 */
#include "views/frag-fallbacks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

void
frag_fallbacks_draw(const struct view_ctx *ctx, int y, int rows)
{
	struct hist_probe_sum t, w;
	int end = y + rows, x, order_end, top[PAIRS_MAX][2], n_top = 0;
	char line[160], span[32], a[NAME_LEN + 8], b[NAME_LEN + 8];
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
	fmt_duration(w.seconds, span, sizeof(span));
	for (int o = 0; o < PROBE_ORDERS; o++)
		all += w.fb_order[o];
	snprintf(line, sizeof(line), "Migratetype fallbacks  this tick by order; window %s: %llu,"
		 " %llu fragmenting", span, (unsigned long long)all,
		 (unsigned long long)w.fb_fragmenting);
	y = view_title(y, ctx->x, ctx->cols, line);
	if (y >= end)
		return;
	/* Orders up to the last one the free lists have, each "o:count". */
	order_end = ctx->h->shape.n_orders > 0 && ctx->h->shape.n_orders <= PROBE_ORDERS ?
	    ctx->h->shape.n_orders : PROBE_ORDERS;
	x = ctx->x + draw_text(y, ctx->x, ctx->cols, ST_DIM, "by order ");
	for (int o = 0; o < order_end; o++) {
		char cell[32];
		int n = snprintf(cell, sizeof(cell), "%d:%llu ", o,
				 tick ? (unsigned long long)t.fb_order[o] : 0ull);

		if (x + n > ctx->x + ctx->cols)
			break;
		draw_text(y, x, n, tick && t.fb_order[o] ? ST_WARN : ST_DIM, "%s", cell);
		x += n;
	}
	y++;
	/* The busiest pairs over the window. */
	for (int k = 0; k < PAIRS_MAX; k++) {
		uint64_t best = 0;
		int ba = -1, bt = -1;

		for (int i = 0; i < PROBE_MIGRATETYPES; i++)
			for (int j = 0; j < PROBE_MIGRATETYPES; j++) {
				bool taken = false;

				for (int q = 0; q < n_top; q++)
					taken |= top[q][0] == i && top[q][1] == j;
				if (!taken && w.fb_pair[i][j] > best) {
					best = w.fb_pair[i][j];
					ba = i;
					bt = j;
				}
			}
		if (ba < 0)
			break;
		top[n_top][0] = ba;
		top[n_top++][1] = bt;
	}
	if (n_top == 0 && y < end)
		draw_text(y++, ctx->x, ctx->cols, ST_GOOD, "no fallback in the window");
	for (int k = 0; k < n_top && y < end; k++) {
		double v[SPARK_MAX];
		int sw = ctx->cols - 58, n = 0;
		uint64_t s0;

		type_name(ctx, top[k][0], a, sizeof(a));
		type_name(ctx, top[k][1], b, sizeof(b));
		if (sw > SPARK_MAX)
			sw = SPARK_MAX;
		snprintf(line, sizeof(line), "%s -> %s", a, b);
		draw_text(y, ctx->x, ctx->cols, ST_NORMAL, "%-30.30s %6llu now %8llu win",
			  line, tick ? (unsigned long long)t.fb_pair[top[k][0]][top[k][1]] : 0ull,
			  (unsigned long long)w.fb_pair[top[k][0]][top[k][1]]);
		if (sw >= 8) {
			s0 = ctx->seq >= (uint64_t)sw ? ctx->seq - (uint64_t)sw + 1 : 1;
			for (uint64_t s = s0; s <= ctx->seq && n < SPARK_MAX; s++) {
				struct hist_probe_sum p;

				v[n++] = history_probe_sum(ctx->h, s - 1, s, &p) ?
				    (double)p.fb_pair[top[k][0]][top[k][1]] : NAN;
			}
			draw_spark(y, ctx->x + 56, sw, v, n, 0, ST_HEAT3);
		}
		y++;
	}
}
