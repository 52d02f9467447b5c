/* The kernel probes' migratetype fallbacks on the Fragmentation screen
 * (frag-fallbacks.c). */
#ifndef PAGETOP_FRAG_FALLBACKS_H
#define PAGETOP_FRAG_FALLBACKS_H

#include "views/view.h"

/* The rows the panel takes at the bottom of a screen of rows. */
int frag_fallbacks_height(const struct view_ctx *ctx, int rows);
void frag_fallbacks_draw(const struct view_ctx *ctx, int zone, int y, int rows);

#endif
