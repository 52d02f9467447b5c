/*
 * The HTML pictures' accumulators: html-acc.c reads one run's samples
 * into bins, html.c draws them.
 */
#ifndef PAGETOP_HTML_INT_H
#define PAGETOP_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/counters.h"
#include "model/feed.h"
#include "model/probe-derive.h"
#include "model/sample.h"
#include "output/html.h"
#include "output/svg.h"
#include "util/fmt.h"

/* The line charts, a section each. */
enum html_chart {
	HC_PSI,
	HC_RECLAIM,
	HC_COMPACT,
	HC_FALLBACK,
	HC_LATENCY,
	HC_COUNT
};

#define HTML_SERIES	5	/* at most, in one chart of one run */
#define HTML_MARKS	64	/* a run's marks drawn; the others are counted */

/* What a chart is: its section, its unit and its series' names. */
struct html_chart_def {
	const char *id, *title, *unit, *note;
	int n;
	const char *series[HTML_SERIES];
};

extern const struct html_chart_def html_charts[HC_COUNT];

struct html_zone {
	int node;
	char name[NAME_LEN];
	int n_orders;
	double value[MAX_ORDERS * SVG_HEAT_BINS];	/* unusable index, summed */
	uint32_t count[SVG_HEAT_BINS];
};

struct html_mark {
	double x;
	const char *text;	/* the feed's */
	char when[FMT_MOMENT_SIZE];
};

struct html_acc {
	double shift;		/* x = wall - shift */
	double x0, x1;		/* the frame */
	int heat_n;		/* heatmap columns in use */
	double first, last;	/* wall times of the range's ends */
	size_t samples, lost;
	struct svg_bins bins[HC_COUNT][HTML_SERIES];
	bool have[HC_COUNT];	/* the run recorded what the chart draws */
	int n_zones;
	struct html_zone *zones[MAX_ZONES];
	int n_marks;
	size_t marks_total;
	struct html_mark marks[HTML_MARKS];

	/* Between samples. */
	struct counters_map map;
	struct counters ctr;
	double ctr_mono;
	bool have_ctr;
	struct psi last_psi[PSI_COUNT];
	double psi_mono[PSI_COUNT];
	bool have_psi[PSI_COUNT];
	struct probe_tick pt;
};

/* An accumulator (NULL: out of memory) for r over frame [x0, x1] with x
 * = wall - shift, bins bins a line and heat_bins a heatmap. */
struct html_acc *html_acc_new(double shift, double x0, double x1, int bins, int heat_bins);
void html_acc_free(struct html_acc *a);
/* Reads r's samples and marks in, the samples once and in order (r->lost
 * says how many could not be read): 0, or -ENOMEM (a zone's bins). */
int html_acc_feed(struct html_acc *a, struct html_run *r);

#endif
