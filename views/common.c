/* Pieces shared by the screens' panels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "derive.h"
#include "view.h"

int
view_title(int y, int x, int w, const char *title)
{
	int n = draw_text(y, x, w, ST_TITLE, "%s", title);

	/* A thin rule after the title helps the eye across wide screens. */
	for (int i = x + n + 1; i < x + w; i++)
		draw_text(y, i, 1, ST_DIM, "%s", draw_utf8() ? "\u2500" : "-");
	return y + 1;
}

bool
view_missing(const struct view_ctx *ctx, enum source src, char *dst, size_t size)
{
	char why[160];

	if (!ctx->status || ctx->status[src].err == 0 || ctx->status[src].err == SRC_NOT_READ)
		return false;
	source_reason(&ctx->status[src], why, sizeof(why));
	snprintf(dst, size, "%s: %s", source_name(src), why);
	return true;
}

int
view_rates(const struct view_ctx *ctx, enum counter c, double *out, int n)
{
	uint64_t first, last;
	int k = 0;

	if (!history_range(ctx->h, &first, &last) || ctx->seq < first)
		return 0;
	if (ctx->seq + 1 - first < (uint64_t)n)
		n = (int)(ctx->seq + 1 - first);
	for (uint64_t s = ctx->seq + 1 - (uint64_t)n; s <= ctx->seq; s++)
		out[k++] = derive_rate(ctx->h, s, c);
	return k;
}
