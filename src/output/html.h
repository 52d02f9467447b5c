/*
 * The HTML pictures: one self-contained XHTML file (inline SVG and CSS,
 * nothing fetched, no script) of a recording, or of two overlaid, for a
 * bug tracker or a web page. A part is a section per figure, each one
 * chart: pressure (PSI), reclaim and compaction rates, the order x time
 * heatmap of each zone, and, where the kernel probes were recorded,
 * migratetype fallbacks and stall latencies; marks are vertical lines
 * with their text in every chart.
 *
 * Each run's samples are read once, in order, into bins (output/svg.h):
 * a day's recording costs what a minute's does.
 */
#ifndef PAGETOP_HTML_H
#define PAGETOP_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "model/feed.h"

/* A recording, or the part of it, drawn. */
struct html_run {
	struct feed *f;
	size_t from, to;	/* samples, both included */
	/* A comparison's: the wall time in this recording that is elapsed 0
	 * (its start, or a mark's time). A report ignores it. */
	double align;
	const char *name;	/* how the text names it: its path */
	size_t lost;		/* out: samples in range that could not be read */
};

struct html_doc {
	FILE *out;
	int parts;
};

/* The head of the document and its heading (title, raw: escaped here). */
void html_begin(struct html_doc *d, FILE *out, const char *title);
/*
 * A part: r's samples from..to against the clock, under heading (NULL:
 * none; the text report's phase title). 0, or -ENOMEM.
 */
int html_report_part(struct html_doc *d, struct html_run *r, const char *heading);
/* A part with a drawn over b, each against its elapsed time from its
 * align (b's series dashed, in the same colours). 0, or -ENOMEM. */
int html_compare_part(struct html_doc *d, struct html_run *a, struct html_run *b,
		      const char *heading);
/* Ends the document: 0, or -EIO when anything could not be written. */
int html_end(struct html_doc *d);

/* The whole comparison document, for `pagetop compare A B --html`:
 * html_begin, html_compare_part, html_end. 0, -ENOMEM or -EIO. */
int html_compare_write(FILE *out, struct html_run *a, struct html_run *b);

#endif
