/*
 * A set as text: the Prometheus 0.0.4 text format and OpenMetrics 1.0,
 * family headers, series names and sample lines, with values written
 * exactly from their fixed point. `serve` renders the newest sample
 * (metrics_render); `export` writes every sample of a recording with its
 * timestamp from the same pieces (export-om.c).
 */
#include "output/openmetrics.h"
#include "output/metrics-int.h"
#include "util/fmt-num.h"

#include <stdio.h>
#include <string.h>

/* A series' name with its labels always fits the buffers sized by this. */
_Static_assert(sizeof(((struct metric_family *)0)->name) - 1 + 8 + 1 +
	       sizeof(((struct metric_series *)0)->labels) - 1 + 1 < OPENMETRICS_NAME_MAX,
	       "OPENMETRICS_NAME_MAX too small");

/* Called for every value of a long export: no printf. */
int
metrics_format_value(int64_t v, int decimals, char *dst)
{
	int n = fmt_num_fixed(v, decimals < 0 || decimals > 9 ? 0 : decimals, true, dst);

	dst[n] = '\0';
	return n;
}

int
metrics_format_header(const struct metric_set *m, int f, enum metrics_format fmt, char *dst,
		      size_t size)
{
	const struct metric_family *fa = &m->fam[f];
	const char *type = fa->type == METRIC_COUNTER ? "counter" :
	    fa->type == METRIC_HISTOGRAM ? "histogram" : "gauge";
	const char *total = fa->type == METRIC_COUNTER ? "_total" : "";

	if (fmt == METRICS_OPENMETRICS)
		return snprintf(dst, size, "# TYPE %s %s\n%s%s%s%s%s# HELP %s %s%s%s\n", fa->name,
				type, fa->unit[0] ? "# UNIT " : "", fa->unit[0] ? fa->name : "",
				fa->unit[0] ? " " : "", fa->unit, fa->unit[0] ? "\n" : "", fa->name,
				fa->help, fa->key[0] ? " " : "", fa->key);
	/* The 0.0.4 text format names a counter's family by its sample name. */
	return snprintf(dst, size, "# HELP %s%s %s%s%s\n# TYPE %s%s %s\n", fa->name, total, fa->help,
			fa->key[0] ? " " : "", fa->key, fa->name, total, type);
}

int
metrics_format_name(const struct metric_set *m, int i, char *dst, size_t size)
{
	const struct metric_series *se = &m->ser[i];
	const struct metric_family *fa = &m->fam[se->family];

	const char *suffix = se->suffix ? se->suffix : fa->type == METRIC_COUNTER ? "_total" : "";

	return snprintf(dst, size, "%s%s%s%s%s", fa->name, suffix, se->labels[0] ? "{" : "",
			se->labels, se->labels[0] ? "}" : "");
}

size_t
openmetrics_put_sample(char *dst, const char *name, size_t name_len, int64_t v, int decimals,
		       const char *ts, size_t ts_len)
{
	char *p = dst;

	memcpy(p, name, name_len);
	p += name_len;
	*p++ = ' ';
	p += metrics_format_value(v, decimals, p);
	if (ts) {
		*p++ = ' ';
		memcpy(p, ts, ts_len);
		p += ts_len;
	}
	*p++ = '\n';
	return (size_t)(p - dst);
}

int
metrics_format_line(const struct metric_set *m, int i, int64_t v, const char *ts, char *dst,
		    size_t size)
{
	char name[OPENMETRICS_NAME_MAX], line[OPENMETRICS_NAME_MAX + OPENMETRICS_VALUE_MAX + 2];
	int n = metrics_format_name(m, i, name, sizeof(name));
	size_t len = openmetrics_put_sample(line, name, (size_t)n, v, m->ser[i].decimals, NULL, 0);

	/* The line but its '\n', then the timestamp, of any length. */
	return snprintf(dst, size, "%.*s%s%s\n", (int)len - 1, line, ts ? " " : "", ts ? ts : "");
}

size_t
metrics_render(struct metric_set *m, const struct metrics_input *in, enum metrics_format fmt,
	       char *dst, size_t size)
{
	size_t n = 0;

/* What is left of dst, or nothing once it is full: the length is still counted. */
#define AT	(n < size ? dst + n : NULL)
#define ROOM	(n < size ? size - n : 0)
	metrics_values(m, in, m->vals);
	for (int f = 0; f < m->n_fam; f++) {
		n += (size_t)metrics_format_header(m, f, fmt, AT, ROOM);
		for (int i = m->fam[f].first; i < m->fam[f].first + m->fam[f].n; i++)
			if (m->vals[i] != METRIC_NONE && !(m->ser[i].where & METRIC_ONLY_CSV) &&
			    (fmt == METRICS_OPENMETRICS || !(m->ser[i].where & METRIC_ONLY_OM)))
				n += (size_t)metrics_format_line(m, i, m->vals[i], NULL, AT, ROOM);
	}
	if (fmt == METRICS_OPENMETRICS)
		n += (size_t)snprintf(AT, ROOM, "%s", OPENMETRICS_EOF);
#undef AT
#undef ROOM
	return n;
}
