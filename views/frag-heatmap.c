/*
 * The Fragmentation screen's heatmap: time across (one column an entry,
 * newest right), orders down, grouped when the rows are fewer than the
 * orders; a group shows its pages summed, or its worst index. The window
 * of entries and its time labels are worked out here too, as the table's
 * "chg" column counts from its left edge.
 */
#include "views/frag-heatmap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/frag-zone.h"
#include "util/arith.h"

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

void
frag_heatmap_window(const struct view_ctx *ctx, int label_w, struct frag_heatmap_window *w)
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
heat_cell(const struct draw_area *a, int row, int col, enum frag_heat kind, uint64_t v,
	  uint64_t max)
{
	double f;
	int level;

	if (v == 0 || max == 0)
		return;
	if (kind == HEAT_UNUSABLE) {
		f = (double)v / 1000;
		level = (int)(f * 5);
		draw_area_text(a, row, col, 1, level >= 4 ? ST_HEAT5 :
			       (enum style)(ST_HEAT1 + level), "%s", draw_level_glyph(f));
		return;
	}
	/* The glyph follows the colour's log scale; any page shows. */
	f = arith_log_share((double)v, (double)max);
	draw_area_text(a, row, col, 1, draw_heat_style(v, max), "%s",
		       draw_level_glyph(f < 0.01 ? 0.01 : f));
}

/* Time across (one column an entry, newest right), orders down in hr
 * rows, under a line with the time at both ends. */
void
frag_heatmap(const struct view_ctx *ctx, const struct draw_area *a, int row, int hr, int z,
	     const struct frag_heatmap_window *w, enum frag_heat kind, const char *who)
{
	const char *title = kind == HEAT_FREE ? "free pages at each order (colour: log scale)" :
	    "unusable free index at each order (0 to 1)";
	int n = ctx->h->shape.n_orders, lo, hi, x, gap, lw = (int)strlen(w->left);
	struct frag_zone fz;
	char label[32], named[80];
	uint64_t max = kind == HEAT_UNUSABLE ? 1000 : 0;

	x = w->x0 + (w->cells - w->n);
	/* A short history has room for one time label only: the newest. */
	if (x + lw + 1 > ctx->cols - (int)strlen(w->right))
		lw = 0;
	else
		draw_area_text(a, row, x, lw, ST_DIM, "%s", w->left);
	draw_area_text(a, row, ctx->cols - (int)strlen(w->right), (int)strlen(w->right), ST_DIM,
		       "%s", w->right);
	/* The title goes between the time labels or, while the history is
	 * short, before the left one. */
	gap = ctx->cols - (int)strlen(w->right) - (x + lw);
	for (int k = 0; k < 2; k++) {
		int tl;

		if (who) {
			snprintf(named, sizeof(named), "%s: %s", who, title);
			title = named;
		}
		tl = (int)strlen(title);

		if (gap >= tl + 4) {
			draw_area_text(a, row, x + lw + (gap - tl) / 2, tl, ST_TITLE, "%s", title);
			break;
		}
		if (x - 2 >= tl) {
			draw_area_text(a, row, 0, tl, ST_TITLE, "%s", title);
			break;
		}
		title = kind == HEAT_FREE ? "free pages by order" : "unusable index";
		if (who && kind == HEAT_FREE)
			title = "free pages";
	}
	row++;

	for (int i = 0; i < hr; i++) {
		heat_orders(i, hr, n, &lo, &hi);
		if (hi - lo == 1)
			snprintf(label, sizeof(label), "%d", lo);
		else
			snprintf(label, sizeof(label), "%d-%d", lo, hi - 1);
		draw_area_text(a, row + i, 0, w->label_w, ST_DIM, "%*s", w->label_w, label);
	}
	/* Colours are relative to the largest count in the window. */
	for (int c = 0; kind == HEAT_FREE && c < w->n; c++) {
		frag_zone_get(ctx->h, w->first + (uint64_t)c, z, &fz);
		for (int i = 0; fz.have && i < hr; i++) {
			heat_orders(i, hr, n, &lo, &hi);
			if (heat_value(&fz, kind, lo, hi) > max)
				max = heat_value(&fz, kind, lo, hi);
		}
	}
	for (int c = 0; c < w->n; c++) {
		frag_zone_get(ctx->h, w->first + (uint64_t)c, z, &fz);
		for (int i = 0; fz.have && i < hr; i++) {
			heat_orders(i, hr, n, &lo, &hi);
			heat_cell(a, row + i, x + c, kind, heat_value(&fz, kind, lo, hi), max);
		}
	}
}
