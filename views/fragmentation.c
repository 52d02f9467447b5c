/* Placeholder until the real screen lands (being written now). */
#include "view.h"

static void
fragmentation_draw(const struct view_ctx *ctx, void *state)
{
	(void)state;
	draw_text(ctx->y, ctx->x, ctx->cols, ST_DIM, "not written yet");
}

const struct view view_fragmentation = {
	.name = "fragmentation",
	.title = "fragmentation",
	.key = 0,
	.draw = fragmentation_draw,
};
