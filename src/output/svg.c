/*
 * The line charts, the time axis and the marks (svg.h). Coordinates are
 * written with one decimal: a chart is at most SVG_BINS points a series.
 */
#include "output/svg.h"

#include <math.h>
#include <string.h>

#include "util/arith.h"
#include "util/fmt.h"
#include "util/text.h"

#define CHART_TOP	16
#define CHART_H		200	/* the plot */
#define AXIS_H		22	/* time labels under it */
#define LEGEND_ROW	18
#define MARK_LABEL	28	/* bytes of a mark's text drawn; the tooltip has all */

static const char *const palette[SVG_COLORS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
};

void
svg_bins_init(struct svg_bins *b, int n, double x0, double x1)
{
	memset(b, 0, sizeof(*b));
	b->n = n < 1 ? 1 : n > SVG_BINS ? SVG_BINS : n;
	b->x0 = x0;
	b->x1 = x1;
}

int
svg_bin_of(int n, double x0, double x1, double x)
{
	int i;

	if (!(x >= x0 && x <= x1))
		return -1;
	if (!(x1 > x0))
		return 0;
	i = (int)((x - x0) / (x1 - x0) * n);
	return i >= n ? n - 1 : i;
}

void
svg_bins_add(struct svg_bins *b, double x, double v)
{
	int i = svg_bin_of(b->n, b->x0, b->x1, x);

	if (i < 0 || !isfinite(v))
		return;
	if (b->count[i] == 0 || v < b->lo[i])
		b->lo[i] = v;
	if (b->count[i] == 0 || v > b->hi[i])
		b->hi[i] = v;
	b->sum[i] += v;
	b->count[i]++;
}

void
svg_text(FILE *out, const char *s, size_t max)
{
	size_t n = strlen(s), used = 0;

	while (n > 0) {
		uint32_t cp;
		size_t k = text_utf8_next(s, n, &cp);

		if (max && used + (k ? k : 1) > max) {
			fputs("...", out);
			return;
		}
		if (k == 0) {
			fprintf(out, "\\x%02x", (unsigned char)*s);
			k = 1;
		} else if (cp < 0x20 || cp == 0x7f) {
			fprintf(out, "\\x%02x", (unsigned)cp);
		} else if (cp >= 0x80 && cp <= 0x9f) {
			fprintf(out, "\\u%04x", (unsigned)cp);
		} else if (cp == 0xfffe || cp == 0xffff) {
			/* Not characters XML allows. */
			fprintf(out, "\\u%04x", (unsigned)cp);
		} else if (cp == '&') {
			fputs("&amp;", out);
		} else if (cp == '<') {
			fputs("&lt;", out);
		} else if (cp == '>') {
			fputs("&gt;", out);
		} else if (cp == '"') {
			fputs("&quot;", out);
		} else if (cp == '\'') {
			fputs("&#39;", out);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
		used += k;
	}
}

double
svg_x(const struct svg_frame *fr, double x)
{
	double span = fr->x1 - fr->x0;

	return SVG_LEFT + (span > 0 ? (x - fr->x0) / span : 0.5) * SVG_PLOT_W;
}

/* A step between time labels that gives at most 8 of them. */
static double
time_step(double span)
{
	static const double steps[] = {
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
		21600, 43200, 86400, 172800, 604800,
	};

	for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
		if (span / steps[k] <= 8)
			return steps[k];
	return arith_ceil(span / 8 / 604800) * 604800;
}

static void
time_label(const struct svg_frame *fr, double x, double step, char *dst, size_t size)
{
	char buf[FMT_MOMENT_SIZE];

	if (fr->elapsed) {
		fmt_duration(x < 0 ? -x : x, buf, sizeof(buf));
		snprintf(dst, size, "%s%s", x < 0 ? "-" : x > 0 ? "+" : "", buf);
		return;
	}
	fmt_moment(fr->origin + x, step >= 86400 ? FMT_DAY : FMT_CLOCK, buf, sizeof(buf));
	/* Whole seconds: the milliseconds say nothing on a tick. */
	buf[strcspn(buf, ".")] = '\0';
	if (step >= 60 && step < 86400)
		buf[5] = '\0';	/* HH:MM */
	snprintf(dst, size, "%s", buf);
}

void
svg_time_axis(FILE *out, const struct svg_frame *fr, double y0, double y1)
{
	double span = fr->x1 - fr->x0, step = time_step(span), base, t;
	char label[FMT_MOMENT_SIZE + 8];

	fprintf(out, "<g class=\"axis\">\n<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		SVG_LEFT, y1, SVG_W - SVG_RIGHT, y1);
	/* Ticks on whole steps of the clock (or of the elapsed time). */
	base = fr->elapsed ? 0 : fr->origin;
	for (t = arith_ceil((fr->x0 + base) / step) * step - base; t <= fr->x1 + 1e-9; t += step) {
		double x = svg_x(fr, t);

		time_label(fr, t, step, label, sizeof(label));
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x, y0, x, y1 + 4);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, y1 + 16);
		svg_text(out, label, 0);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

void
svg_marks(FILE *out, const struct svg_frame *fr, double y0, double y1)
{
	for (int k = 0; k < fr->n_marks; k++) {
		const struct svg_mark *m = &fr->marks[k];
		/* Just outside (a mark before the sample it opens): at the edge. */
		double x = svg_x(fr, m->x < fr->x0 ? fr->x0 : m->x > fr->x1 ? fr->x1 : m->x);

		fprintf(out, "<g class=\"mark\"><title>mark \"");
		svg_text(out, m->text, 0);
		fputs("\" at ", out);
		svg_text(out, m->when ? m->when : "", 0);
		fprintf(out, "</title>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>\n",
			x, y0, x, y1, m->dashed ? " stroke-dasharray=\"4 3\"" : "");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" transform=\"rotate(-90 %.1f %.1f)\" "
			"text-anchor=\"end\">", x - 3, y0 + 2, x - 3, y0 + 2);
		svg_text(out, m->text, MARK_LABEL);
		fputs("</text></g>\n", out);
	}
}

/* A round number at or above v whose quarters are round too: 1, 2, 4
 * or 8 times a power of ten. */
static double
nice_ceil(double v)
{
	double p = 1, m;

	if (!(v > 0))
		return 1;
	/* Without libm: the power of ten at or below v. */
	while (p * 10 <= v)
		p *= 10;
	while (p > v)
		p /= 10;
	m = v / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : m <= 8 ? 8 : 10) * p;
}

static double
bin_center(const struct svg_bins *b, int i)
{
	return b->x0 + (i + 0.5) * (b->x1 - b->x0) / b->n;
}

static void
draw_series(FILE *out, const struct svg_frame *fr, const struct svg_series *s, double ymax,
	    double top)
{
	const struct svg_bins *b = s->b;
	const char *color = palette[s->color % SVG_COLORS];
	bool band = false, first = true;

#define Y(v)	(top + CHART_H - (v) / ymax * CHART_H)
	for (int i = 0; i < b->n; i++)
		if (b->count[i] && b->hi[i] > b->lo[i])
			band = true;
	fprintf(out, "<g class=\"series\"><title>");
	svg_text(out, s->name, 0);
	fputs("</title>\n", out);
	if (band) {
		/* The least..most of each bin: out along the top, back along the bottom. */
		fprintf(out, "<polygon fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" points=\"",
			color);
		for (int i = 0; i < b->n; i++)
			if (b->count[i])
				fprintf(out, "%.1f,%.1f ", svg_x(fr, bin_center(b, i)), Y(b->hi[i]));
		for (int i = b->n - 1; i >= 0; i--)
			if (b->count[i])
				fprintf(out, "%.1f,%.1f ", svg_x(fr, bin_center(b, i)), Y(b->lo[i]));
		fputs("\"/>\n", out);
	}
	fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s d=\"", color,
		s->dashed ? " stroke-dasharray=\"5 3\"" : "");
	for (int i = 0; i < b->n; i++) {
		if (!b->count[i])
			continue;
		fprintf(out, "%s%.1f,%.1f", first ? "M" : " L", svg_x(fr, bin_center(b, i)),
			Y(b->sum[i] / b->count[i]));
		first = false;
	}
	fputs("\"/></g>\n", out);
#undef Y
}

void
svg_line_chart(FILE *out, const struct svg_frame *fr, const char *unit,
	       const struct svg_series *s, int n)
{
	double ymax = 0, top = CHART_TOP, bottom = CHART_TOP + CHART_H;
	int rows = (n + 2) / 3, h = CHART_TOP + CHART_H + AXIS_H + rows * LEGEND_ROW + 6;
	char label[32];

	for (int k = 0; k < n; k++)
		for (int i = 0; i < s[k].b->n; i++)
			if (s[k].b->count[i] && s[k].b->hi[i] > ymax)
				ymax = s[k].b->hi[i];
	ymax = nice_ceil(ymax);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">\n", SVG_W, h, SVG_W, h);
	fprintf(out, "<rect class=\"plot\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		SVG_LEFT, top, SVG_PLOT_W, CHART_H);
	/* The y axis: 0, a quarter, ..., the top, in the unit. */
	fputs("<g class=\"axis\">\n", out);
	for (int k = 0; k <= 4; k++) {
		double v = ymax * k / 4, y = bottom - (double)CHART_H * k / 4;

		fmt_count(v, label, sizeof(label));
		fprintf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			SVG_LEFT, y, SVG_W - SVG_RIGHT, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", SVG_LEFT - 4, y + 4);
		svg_text(out, label, 0);
		svg_text(out, unit, 0);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	svg_time_axis(out, fr, top, bottom);
	for (int k = 0; k < n; k++)
		draw_series(out, fr, &s[k], ymax, top);
	svg_marks(out, fr, top, bottom);
	/* The legend, three to a row. */
	fputs("<g class=\"legend\">\n", out);
	for (int k = 0; k < n; k++) {
		double x = SVG_LEFT + (k % 3) * 270.0;
		double y = bottom + AXIS_H + (k / 3) * LEGEND_ROW + 12;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"3\"%s/>", x, y - 4, x + 22, y - 4,
			palette[s[k].color % SVG_COLORS],
			s[k].dashed ? " stroke-dasharray=\"5 3\"" : "");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 28, y);
		svg_text(out, s[k].name, 40);
		fputs("</text>\n", out);
	}
	fputs("</g>\n</svg>\n", out);
}
