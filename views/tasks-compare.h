/* replay --compare: the second recording's blocked task groups on the
 * Tasks screen (tasks-compare.c), under the first's. */
#ifndef PAGETOP_TASKS_COMPARE_H
#define PAGETOP_TASKS_COMPARE_H

#include "views/view.h"

/* The rows the panel wants, at most avail (0: no second recording). */
int tasks_compare_height(const struct view_ctx *ctx, int avail);
/* The panel in rows lines from y. */
void tasks_compare_draw(const struct view_ctx *ctx, int y, int rows);

#endif
