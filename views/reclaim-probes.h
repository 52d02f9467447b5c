/* The kernel probes' panels, shared by the screens that show them: the
 * one line a panel shows instead when the probes are off, and the Reclaim
 * screen's lines (reclaim-probes.c). */
#ifndef PAGETOP_RECLAIM_PROBES_H
#define PAGETOP_RECLAIM_PROBES_H

#include <stdbool.h>
#include <stddef.h>

#include "views/view.h"

/* False with the line to show instead in dst ("probes: needs root ...",
 * "no kernel probes in this recording") when the probes are not on at
 * the entry shown. */
bool probes_panel_on(const struct view_ctx *ctx, char *dst, size_t size);
/* "not attached: memcg reclaim, kswapd" when some probe did not attach;
 * false when all did. */
bool probes_panel_missing(const struct view_ctx *ctx, char *dst, size_t size);
/* Nanoseconds in at most 6 columns: "850us", "12ms", "1.2s". */
void probes_fmt_ns(double ns, char *dst, size_t size);

/* The Reclaim screen's probe lines at the entry shown, and line i of them. */
int reclaim_probes_lines(const struct view_ctx *ctx);
void reclaim_probes_draw(const struct view_ctx *ctx, int i, int y);

#endif
