/*
 * The order x time heatmap (svg.h): a row per order, order 0 at the
 * bottom, a column per bin; ten shades from white to dark blue. A run of
 * columns of one shade is one rectangle, so a quiet zone costs a few.
 */
#include "output/svg.h"

#include "util/arith.h"

#define HEAT_TOP	8
#define ROW_H		12
#define LABEL_H		16	/* a panel's name above it */
#define PANEL_GAP	6
#define AXIS_H		22
#define LEGEND_H	22
#define SHADES		10

static void
shade(int level, char *dst, size_t size)
{
	/* #f7fbff (nothing) to #08306b (all), straight in RGB. */
	double t = (double)level / (SHADES - 1);
	int r = (int)arith_llround(0xf7 + (0x08 - 0xf7) * t);
	int g = (int)arith_llround(0xfb + (0x30 - 0xfb) * t);
	int b = (int)arith_llround(0xff + (0x6b - 0xff) * t);

	snprintf(dst, size, "#%02x%02x%02x", r, g, b);
}

static int
level_of(const struct svg_heat *h, int order, int bin)
{
	double v;

	if (!h->count[bin])
		return -1;
	v = h->value[order * SVG_HEAT_BINS + bin] / h->count[bin] / 1000.0;
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (int)arith_llround(v * (SHADES - 1));
}

static void
draw_panel(FILE *out, const struct svg_heat *h, double top)
{
	double w = (double)SVG_PLOT_W / h->n_bins;
	char color[8];

	fputs("<g class=\"heat\"><title>", out);
	svg_text(out, h->label, 0);
	fputs("</title>\n", out);
	fprintf(out, "<text class=\"panel\" x=\"%d\" y=\"%.1f\">", SVG_LEFT, top + LABEL_H - 4);
	svg_text(out, h->label, 80);
	fputs("</text>\n", out);
	top += LABEL_H;
	fprintf(out, "<rect class=\"plot\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		SVG_LEFT, top, SVG_PLOT_W, h->n_orders * ROW_H);
	for (int o = 0; o < h->n_orders; o++) {
		double y = top + (h->n_orders - 1 - o) * ROW_H;

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
			SVG_LEFT - 4, y + ROW_H - 2, o);
		for (int i = 0; i < h->n_bins;) {
			int lv = level_of(h, o, i), j = i + 1;

			while (j < h->n_bins && level_of(h, o, j) == lv)
				j++;
			if (lv >= 0) {
				shade(lv, color, sizeof(color));
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
					"fill=\"%s\"/>\n", SVG_LEFT + i * w, y, (j - i) * w, ROW_H,
					color);
			}
			i = j;
		}
	}
	fputs("</g>\n", out);
}

void
svg_heatmap(FILE *out, const struct svg_frame *fr, const char *legend,
	    const struct svg_heat *h, int n)
{
	double top = HEAT_TOP, height = HEAT_TOP;
	char color[8];

	for (int k = 0; k < n; k++)
		height += LABEL_H + h[k].n_orders * ROW_H + PANEL_GAP;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		"viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\">\n", SVG_W,
		height + AXIS_H + LEGEND_H, SVG_W, height + AXIS_H + LEGEND_H);
	for (int k = 0; k < n; k++) {
		draw_panel(out, &h[k], top);
		top += LABEL_H + h[k].n_orders * ROW_H + PANEL_GAP;
	}
	svg_time_axis(out, fr, HEAT_TOP + LABEL_H, height - PANEL_GAP);
	svg_marks(out, fr, HEAT_TOP + LABEL_H, height - PANEL_GAP);
	/* The scale: the ten shades, 0 to 1. */
	fputs("<g class=\"legend\">\n", out);
	for (int lv = 0; lv < SHADES; lv++) {
		shade(lv, color, sizeof(color));
		fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" "
			"stroke=\"#999\" stroke-width=\"0.5\"/>\n", SVG_LEFT + 22 + lv * 14,
			height + AXIS_H + 2, color);
	}
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">0</text><text x=\"%d\" y=\"%.1f\">1</text>\n",
		SVG_LEFT + 10, height + AXIS_H + 11, SVG_LEFT + 26 + SHADES * 14,
		height + AXIS_H + 11);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">", SVG_LEFT + 44 + SHADES * 14,
		height + AXIS_H + 11);
	svg_text(out, legend, 0);
	fputs("</text>\n</g>\n</svg>\n", out);
}
