/*
 * Inline SVG for the HTML pictures (html.c): line charts of several series
 * over time and the order x time heatmap, with time axes and marks as
 * vertical lines. Everything is written as XML that a browser and an XML
 * parser both take; every text goes through svg_text().
 *
 * A series is binned as it is fed: at most SVG_BINS points whatever the
 * length of the recording (a day at 1 s is 86,400 samples), each bin
 * keeping the mean, the least and the most of the values that fell in it.
 * A chart draws the mean as the line and the least..most as a light band,
 * so that a one-sample spike still shows.
 */
#ifndef PAGETOP_SVG_H
#define PAGETOP_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SVG_BINS	300	/* points of a series in a line chart */
#define SVG_HEAT_BINS	150	/* columns of a heatmap */
#define SVG_COLORS	6	/* the palette; series cycle through it */

struct svg_bins {
	int n;			/* bins in use, 1..SVG_BINS */
	double x0, x1;		/* the span they cover, seconds */
	double sum[SVG_BINS], lo[SVG_BINS], hi[SVG_BINS];
	uint32_t count[SVG_BINS];
};

/* n bins (capped to 1..max) over [x0, x1]. */
void svg_bins_init(struct svg_bins *b, int n, double x0, double x1);
/* The bin of x among n over [x0, x1] (the last holds x1); -1 outside. */
int svg_bin_of(int n, double x0, double x1, double x);
/* A value at x; NAN (unknown) is left out. */
void svg_bins_add(struct svg_bins *b, double x, double v);

struct svg_series {
	const char *name;
	int color;		/* index into the palette */
	bool dashed;		/* the second run of a comparison */
	const struct svg_bins *b;
};

struct svg_mark {
	double x;		/* seconds on the frame's axis */
	const char *text;	/* the mark's text, raw (escaped here) */
	const char *when;	/* its time as printed, for the tooltip */
	bool dashed;		/* the second run's */
};

/* What every chart of a document shares: the time axis and the marks. */
struct svg_frame {
	double x0, x1;		/* seconds */
	bool elapsed;		/* labels "+1m30s" from 0; else clock times */
	double origin;		/* !elapsed: the wall time of x = 0 */
	const struct svg_mark *marks;
	int n_marks;
};

/* s as XML text (or an attribute's value): & < > " ' as entities, and
 * what is not printable valid UTF-8 as "\xNN" (C1 controls "\u00NN"), as
 * text_escape() shows it on a terminal; at most max bytes of s (0: all),
 * cut at a character and followed by "..." when cut. */
void svg_text(FILE *out, const char *s, size_t max);

/* A line chart of n series in unit ("%", "/s", "ms"), y from 0. */
void svg_line_chart(FILE *out, const struct svg_frame *fr, const char *unit,
		    const struct svg_series *s, int n);

/* One band of a heatmap: a zone in one run. value[order * SVG_HEAT_BINS +
 * bin] summed over count[bin] samples, each 0..1000 (thousandths). */
struct svg_heat {
	const char *label;
	int n_orders;
	int n_bins;		/* columns in use over the frame's span */
	const double *value;
	const uint32_t *count;
};

/* Panels stacked, one above the other, sharing the time axis; darker is
 * more. legend names what the value is. */
void svg_heatmap(FILE *out, const struct svg_frame *fr, const char *legend,
		 const struct svg_heat *h, int n);

/* Shared by the two drawings (svg.c). */
#define SVG_W		900	/* the drawing, in its own units */
#define SVG_LEFT	64	/* room for the y labels */
#define SVG_RIGHT	32	/* room for the last time label */
#define SVG_PLOT_W	(SVG_W - SVG_LEFT - SVG_RIGHT)

/* The x of axis seconds x, in the drawing. */
double svg_x(const struct svg_frame *fr, double x);
/* Time labels and ticks along the bottom of a plot from y0 to y1; the
 * marks as vertical lines over it, each with its text. */
void svg_time_axis(FILE *out, const struct svg_frame *fr, double y0, double y1);
void svg_marks(FILE *out, const struct svg_frame *fr, double y0, double y1);

#endif
