/* Delay accounting's panel of the Tasks screen (tasks-delays.c). */
#ifndef PAGETOP_TASKS_DELAYS_H
#define PAGETOP_TASKS_DELAYS_H

#include "views/view.h"

/* The rows the panel wants, at most avail (0: nothing to show). */
int tasks_delays_height(const struct view_ctx *ctx, int avail);
/* The panel in rows lines from y. */
void tasks_delays_draw(const struct view_ctx *ctx, int y, int rows);

#endif
