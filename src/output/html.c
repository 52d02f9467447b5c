/*
 * The HTML document (html.h): XHTML that a browser and an XML parser both
 * take, one <section> per figure holding one chart. The runs are read
 * into accumulators first (html-acc.c), then drawn (svg.c, svg-heat.c).
 */
#include "output/html.h"
#include "output/html-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/host.h"
#include "util/fmt.h"

#define RUNS	2

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:960px}\n"
	"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}\n"
	"h3{font-size:1.05em;margin-bottom:0.2em}\n"
	"section{margin:0 0 1.5em 0}\n"
	"svg.chart{max-width:100%;height:auto;display:block}\n"
	"svg text{font-size:11px;fill:#333}\n"
	"svg .plot{fill:#fff;stroke:#bbb}\n"
	"svg .grid,svg .axis line{stroke:#e4e4e4}\n"
	"svg .mark line{stroke:#c0392b;stroke-width:1}\n"
	"svg .mark text{fill:#c0392b;font-size:10px}\n"
	"svg text.panel{font-weight:bold}\n"
	"p.note,p.facts{font-size:0.9em;color:#555}\n"
	"table{border-collapse:collapse;font-size:0.9em}\n"
	"td,th{padding:0.1em 0.8em 0.1em 0;text-align:left}\n";

static void
put(FILE *out, const char *s)
{
	svg_text(out, s, 0);
}

void
html_begin(struct html_doc *d, FILE *out, const char *title)
{
	d->out = out;
	d->parts = 0;
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	      "<head>\n<meta charset=\"utf-8\"/>\n<title>", out);
	put(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	put(out, title);
	fputs("</h1>\n", out);
}

int
html_end(struct html_doc *d)
{
	fprintf(d->out, "<p class=\"note\">Written by pagetop. A line is the mean of the "
		"samples in each of at most %d points; the light band around it spans their "
		"least to their most.</p>\n</body>\n</html>\n", SVG_BINS);
	return fflush(d->out) != 0 || ferror(d->out) ? -EIO : 0;
}

/* One run's facts: its name, host, time range and samples. */
static void
run_facts(FILE *out, const struct html_run *r, const struct html_acc *a, const char *label)
{
	char host[400], from[FMT_MOMENT_SIZE], to[FMT_MOMENT_SIZE], span[32];

	host_facts(&r->f->host, host, sizeof(host));
	fmt_moment(a->first, FMT_DATE, from, sizeof(from));
	fmt_moment(a->last, FMT_DATE, to, sizeof(to));
	fmt_duration(a->last - a->first, span, sizeof(span));
	fputs("<p class=\"facts\">", out);
	if (label) {
		fputs("<b>", out);
		put(out, label);
		fputs("</b> ", out);
	}
	put(out, r->name);
	fputs("<br/>", out);
	put(out, host);
	fprintf(out, "<br/>%s to %s (%s), %zu samples, one every %gs", from, to, span,
		a->samples, r->f->interval);
	if (a->lost)
		fprintf(out, "; %zu could not be read", a->lost);
	fputs("</p>\n", out);
}

static void
marks_table(FILE *out, struct html_acc *const *acc, const char *const *label, int n_runs)
{
	size_t total = 0;

	for (int k = 0; k < n_runs; k++)
		total += acc[k]->marks_total;
	if (total == 0)
		return;
	fputs("<table class=\"marks\">\n<tr><th>mark</th><th>at</th>", out);
	fputs(n_runs > 1 ? "<th>in</th></tr>\n" : "</tr>\n", out);
	for (int k = 0; k < n_runs; k++) {
		for (int m = 0; m < acc[k]->n_marks; m++) {
			fputs("<tr><td>", out);
			put(out, acc[k]->marks[m].text);
			fputs("</td><td>", out);
			put(out, acc[k]->marks[m].when);
			fputs("</td>", out);
			if (n_runs > 1) {
				fputs("<td>", out);
				put(out, label[k]);
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
		if (acc[k]->marks_total > (size_t)acc[k]->n_marks)
			fprintf(out, "<tr><td>and %zu more</td></tr>\n",
				acc[k]->marks_total - (size_t)acc[k]->n_marks);
	}
	fputs("</table>\n", out);
}

static void
section_open(FILE *out, int part, const char *id, const char *title)
{
	fprintf(out, "<section id=\"p%d-", part);
	put(out, id);
	fputs("\">\n<h3>", out);
	put(out, title);
	fputs("</h3>\n", out);
}

/* The most samples one bin of these holds. */
static uint32_t
most_per_bin(const struct svg_series *s, int n)
{
	uint32_t most = 0;

	for (int k = 0; k < n; k++)
		for (int i = 0; i < s[k].b->n; i++)
			if (s[k].b->count[i] > most)
				most = s[k].b->count[i];
	return most;
}

static void
line_section(FILE *out, int part, const struct svg_frame *fr, enum html_chart c,
	     struct html_acc *const *acc, const char *const *label, int n_runs)
{
	const struct html_chart_def *def = &html_charts[c];
	struct svg_series s[RUNS * HTML_SERIES];
	char names[RUNS * HTML_SERIES][100];
	int n = 0;
	uint32_t most;

	for (int r = 0; r < n_runs; r++)
		for (int k = 0; k < def->n; k++) {
			const struct svg_bins *b = &acc[r]->bins[c][k];
			bool any = false;

			for (int i = 0; i < b->n && !any; i++)
				any = b->count[i] > 0;
			if (!any)
				continue;
			if (n_runs > 1)
				snprintf(names[n], sizeof(names[n]), "%s: %s", label[r],
					 def->series[k]);
			else
				snprintf(names[n], sizeof(names[n]), "%s", def->series[k]);
			s[n] = (struct svg_series){ names[n], k, r > 0, b };
			n++;
		}
	section_open(out, part, def->id, def->title);
	svg_line_chart(out, fr, def->unit, s, n);
	most = most_per_bin(s, n);
	fputs("<p class=\"note\">", out);
	put(out, def->note);
	if (n == 0)
		fputs(" No interval with these figures in range.", out);
	else if (most > 1)
		fprintf(out, " Each point is the mean of up to %u samples; the band spans "
			"their least to their most.", (unsigned)most);
	if (n_runs > 1)
		fputs(" The second run is dashed.", out);
	fputs("</p>\n</section>\n", out);
}

/* A zone's section: its heatmap in each run that has it. */
static void
zone_section(FILE *out, int part, int idx, const struct svg_frame *fr, int node,
	     const char *zone, struct html_acc *const *acc, const char *const *label, int n_runs)
{
	struct svg_heat h[RUNS];
	char names[RUNS][120], id[32], title[100];
	int n = 0;

	for (int r = 0; r < n_runs; r++)
		for (int k = 0; k < acc[r]->n_zones; k++) {
			const struct html_zone *z = acc[r]->zones[k];

			if (z->node != node || strcmp(z->name, zone) != 0)
				continue;
			snprintf(names[n], sizeof(names[n]), "%s%sNode %d, zone %s",
				 n_runs > 1 ? label[r] : "", n_runs > 1 ? ": " : "", node, zone);
			h[n] = (struct svg_heat){ names[n], z->n_orders, acc[r]->heat_n, z->value,
						  z->count };
			n++;
		}
	snprintf(id, sizeof(id), "zone-%d", idx);
	snprintf(title, sizeof(title), "Fragmentation: node %d, zone %s", node, zone);
	section_open(out, part, id, title);
	svg_heatmap(out, fr, "unusable index (frag.c, as the kernel's debugfs gives it)", h, n);
	fputs("<p class=\"note\">Order by time: the unusable free space index at each order "
	      "(0: every free page could serve an allocation of that order; 1: none could), "
	      "the mean over the samples of each column.</p>\n</section>\n", out);
}

static bool
zone_seen_before(struct html_acc *const *acc, int r, int k)
{
	const struct html_zone *z = acc[r]->zones[k];

	for (int q = 0; q <= r; q++)
		for (int j = 0; j < (q == r ? k : acc[q]->n_zones); j++)
			if (acc[q]->zones[j]->node == z->node &&
			    strcmp(acc[q]->zones[j]->name, z->name) == 0)
				return true;
	return false;
}

static void
draw_part(struct html_doc *d, const char *heading, struct html_run *const *run,
	  struct html_acc *const *acc, int n_runs, struct svg_frame *fr)
{
	static const char *const labels[RUNS] = { "A", "B" };
	struct svg_mark marks[RUNS * HTML_MARKS];
	FILE *out = d->out;
	int part = ++d->parts, nz = 0;

	fprintf(out, "<div class=\"part\" id=\"p%d\">\n", part);
	if (heading) {
		fputs("<h2>", out);
		put(out, heading);
		fputs("</h2>\n", out);
	}
	for (int r = 0; r < n_runs; r++)
		run_facts(out, run[r], acc[r], n_runs > 1 ? labels[r] : NULL);
	marks_table(out, acc, labels, n_runs);
	fr->n_marks = 0;
	for (int r = 0; r < n_runs; r++)
		for (int m = 0; m < acc[r]->n_marks; m++)
			marks[fr->n_marks++] = (struct svg_mark){ acc[r]->marks[m].x,
				acc[r]->marks[m].text, acc[r]->marks[m].when, r > 0 };
	fr->marks = marks;
	for (int c = 0; c < HC_COUNT; c++) {
		bool have = false;

		for (int r = 0; r < n_runs; r++)
			have = have || acc[r]->have[c];
		/* Pressure, reclaim and compaction first; the zones; then the probes'. */
		if (have && c < HC_FALLBACK)
			line_section(out, part, fr, c, acc, labels, n_runs);
		if (c == HC_COMPACT)
			for (int r = 0; r < n_runs; r++)
				for (int k = 0; k < acc[r]->n_zones; k++)
					if (!zone_seen_before(acc, r, k))
						zone_section(out, part, nz++, fr, acc[r]->zones[k]->node,
							     acc[r]->zones[k]->name, acc, labels, n_runs);
		if (have && c >= HC_FALLBACK)
			line_section(out, part, fr, c, acc, labels, n_runs);
	}
	if (nz == 0)
		fputs("<p class=\"note\">No buddyinfo in range: no fragmentation heatmap.</p>\n",
		      out);
	fputs("</div>\n", out);
	fr->marks = NULL;
	fr->n_marks = 0;
}

static int
bins_for(double samples, int most)
{
	return samples < most ? (int)samples : most;
}

int
html_report_part(struct html_doc *d, struct html_run *r, const char *heading)
{
	double first = feed_time_of(r->f, r->from), last = feed_time_of(r->f, r->to);
	size_t n = r->to - r->from + 1;
	struct svg_frame fr = { .x0 = 0, .x1 = last - first, .origin = first };
	struct html_acc *a = html_acc_new(first, fr.x0, fr.x1, bins_for((double)n, SVG_BINS),
					  bins_for((double)n, SVG_HEAT_BINS));
	int st;

	if (!a)
		return -ENOMEM;
	if ((st = html_acc_feed(a, r)) == 0)
		draw_part(d, heading, &r, &a, 1, &fr);
	html_acc_free(a);
	return st;
}

int
html_compare_part(struct html_doc *d, struct html_run *a, struct html_run *b,
		  const char *heading)
{
	struct html_run *run[RUNS] = { a, b };
	struct html_acc *acc[RUNS] = { NULL, NULL };
	struct svg_frame fr = { .x0 = INFINITY, .x1 = -INFINITY, .elapsed = true };
	double most = 0;
	int st = 0;

	for (int r = 0; r < RUNS; r++) {
		double x0 = feed_time_of(run[r]->f, run[r]->from) - run[r]->align;
		double x1 = feed_time_of(run[r]->f, run[r]->to) - run[r]->align;

		fr.x0 = x0 < fr.x0 ? x0 : fr.x0;
		fr.x1 = x1 > fr.x1 ? x1 : fr.x1;
	}
	/* As many bins as the denser run has samples over the whole axis
	 * (its own span is less of it), up to the cap. */
	for (int r = 0; r < RUNS; r++) {
		double span = feed_time_of(run[r]->f, run[r]->to) -
		    feed_time_of(run[r]->f, run[r]->from);
		double n = (double)(run[r]->to - run[r]->from + 1);

		if (span > 0)
			n = n * (fr.x1 - fr.x0) / span + 1;
		most = n > most ? n : most;
	}
	for (int r = 0; r < RUNS && st == 0; r++) {
		acc[r] = html_acc_new(run[r]->align, fr.x0, fr.x1, bins_for(most, SVG_BINS),
				      bins_for(most, SVG_HEAT_BINS));
		st = acc[r] ? html_acc_feed(acc[r], run[r]) : -ENOMEM;
	}
	if (st == 0)
		draw_part(d, heading, run, acc, RUNS, &fr);
	for (int r = 0; r < RUNS; r++)
		html_acc_free(acc[r]);
	return st;
}

int
html_compare_write(FILE *out, struct html_run *a, struct html_run *b)
{
	struct html_doc d;
	char title[200];
	int st;

	snprintf(title, sizeof(title), "pagetop compare: A %s, B %s", a->name, b->name);
	html_begin(&d, out, title);
	st = html_compare_part(&d, a, b, NULL);
	if (st == 0)
		st = html_end(&d);
	return st;
}
