/* Placeholder until the real screen lands (being written now). */
#include "view.h"

static void
sensors_draw(const struct view_ctx *ctx, void *state)
{
	(void)state;
	draw_text(ctx->y, ctx->x, ctx->cols, ST_DIM, "not written yet");
}

const struct view view_sensors = {
	.name = "sensors",
	.title = "sensors",
	.key = 0,
	.draw = sensors_draw,
};
