/* The kernel probes' panel of the Tasks screen (tasks-probes.c). */
#ifndef PAGETOP_TASKS_PROBES_H
#define PAGETOP_TASKS_PROBES_H

#include "views/view.h"

/* The rows the panel takes at the bottom of avail rows: up to half, or
 * up to spare, what the list above leaves unused, when that is more. */
int tasks_probes_height(const struct view_ctx *ctx, int avail, int spare);
/* The panel in rows lines from y. */
void tasks_probes_draw(const struct view_ctx *ctx, int y, int rows);

#endif
