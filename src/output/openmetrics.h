/*
 * A metric set as text (output/metrics.h holds the set): the Prometheus
 * text format 0.0.4 and OpenMetrics 1.0, as `serve` renders the newest
 * sample and `export` writes a recording with timestamps.
 */
#ifndef PAGETOP_OPENMETRICS_H
#define PAGETOP_OPENMETRICS_H

#include <stddef.h>
#include <stdint.h>

struct metric_set;
struct metrics_input;

enum metrics_format {
	METRICS_TEXT,		/* Prometheus text format 0.0.4 */
	METRICS_OPENMETRICS,	/* OpenMetrics 1.0 text */
};

/* The last line of an OpenMetrics exposition. */
#define OPENMETRICS_EOF		"# EOF\n"
/* Bytes of a value as metrics_format_value() writes it, its NUL too. */
#define OPENMETRICS_VALUE_MAX	32
/* Bytes of a series' name with its labels, its NUL too (metric_family's
 * name, "_total" or "_created", metric_series' labels and the braces). */
#define OPENMETRICS_NAME_MAX	256

/* v / 10^decimals, exactly, without trailing zeros: "0.053", "-1", "17".
 * Returns the length; dst holds OPENMETRICS_VALUE_MAX bytes. */
int metrics_format_value(int64_t v, int decimals, char *dst);
/* The TYPE, UNIT (OpenMetrics only) and HELP lines of family f. Returns
 * the length as snprintf does. */
int metrics_format_header(const struct metric_set *m, int f, enum metrics_format fmt,
			  char *dst, size_t size);
/* The sample name of series i with its labels: name_total{a="b"}. Returns
 * the length as snprintf does. */
int metrics_format_name(const struct metric_set *m, int i, char *dst, size_t size);
/* One sample line of series i: name{labels} value[ timestamp]\n, with ts
 * NULL for none. Returns the length as snprintf does. */
int metrics_format_line(const struct metric_set *m, int i, int64_t v, const char *ts,
			char *dst, size_t size);
/*
 * The same line from its parts, with no printf (for every value of a long
 * export): name is the series' name with its labels (metrics_format_name),
 * ts the timestamp's text or NULL. dst holds name_len + ts_len +
 * OPENMETRICS_VALUE_MAX + 3 bytes. Returns the length; no NUL is written.
 */
size_t openmetrics_put_sample(char *dst, const char *name, size_t name_len, int64_t v,
			      int decimals, const char *ts, size_t ts_len);
/*
 * The whole exposition of in (no timestamps: the scraper stamps it),
 * "# EOF" included for OpenMetrics, into dst. Returns its length, or the
 * length it needs when that is size or more (nothing useful is in dst then).
 */
size_t metrics_render(struct metric_set *m, const struct metrics_input *in,
		      enum metrics_format fmt, char *dst, size_t size);

#endif
