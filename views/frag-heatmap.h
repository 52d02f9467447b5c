/*
 * The Fragmentation screen's heatmap (frag-heatmap.c): free pages, or the
 * unusable index, at each order of the zone shown over the entries on
 * screen, newest right. The table's "chg" column counts from the same
 * window's left edge, so fragmentation.c computes the window once.
 */
#ifndef PAGETOP_FRAG_HEATMAP_H
#define PAGETOP_FRAG_HEATMAP_H

#include <stdint.h>

#include "views/draw.h"
#include "views/view.h"

/* The heatmap's time window, shared by the table's "chg" column. */
struct frag_heatmap_window {
	int label_w;			/* order labels */
	int x0;				/* first cell column */
	int cells;			/* columns for entries */
	int n;				/* entries shown, <= cells */
	uint64_t first;			/* seq of the oldest shown */
	char left[32], right[32];	/* time labels */
};

/* What a heatmap shows. */
enum frag_heat {
	HEAT_FREE,		/* free pages at the order, log colour */
	HEAT_UNUSABLE		/* the unusable index, linear colour */
};

/* The entries that fit right of order labels label_w wide, ending at the
 * one shown. */
void frag_heatmap_window(const struct view_ctx *ctx, int label_w, struct frag_heatmap_window *w);
/* Zone z's heatmap in hr rows under a line with the times, from row of a;
 * who (NULL: none) names the recording in its title ("B", replay
 * --compare). */
void frag_heatmap(const struct view_ctx *ctx, const struct draw_area *a, int row, int hr, int z,
		  const struct frag_heatmap_window *w, enum frag_heat kind, const char *who);

#endif
