/* The metric set on a captured sample, its text, and the HTTP request
 * parser of `serve`, on good and damaged input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "output/http.h"
#include "output/metrics.h"
#include "output/openmetrics.h"
#include "tap.h"

#define ROOT "roots/live-6.18-x86_64/"

static void
load(struct sample *s, enum source src, const char *rel)
{
	struct parse_error err = { 0, "" };
	size_t len;
	char *buf = fixture_load(rel, &len);
	int r = -EINVAL;

	switch (src) {
	case SRC_BUDDYINFO:
		r = buddyinfo_parse(buf, len, &s->buddy, &err);
		break;
	case SRC_VMSTAT:
		r = vmstat_parse(buf, len, &s->vm, &err);
		break;
	case SRC_MEMINFO:
		r = meminfo_parse(buf, len, &s->mem, &err);
		break;
	case SRC_PSI_IO:
		r = psi_parse(buf, len, &s->psi[PSI_IO], &err);
		break;
	default:
		break;
	}
	s->status[src].err = r < 0 ? EINVAL : 0;
	free(buf);
}

/* The series whose sample name and labels are name{labels}, or -1. */
static int
find(const struct metric_set *m, const char *name_labels)
{
	char buf[512];

	for (int i = 0; i < metrics_n_series(m); i++) {
		metrics_format_name(m, i, buf, sizeof(buf));
		if (strcmp(buf, name_labels) == 0)
			return i;
	}
	return -1;
}

static const struct metric_family *
family(const struct metric_set *m, const char *name)
{
	for (int f = 0; f < metrics_n_families(m); f++)
		if (strcmp(metrics_family(m, f)->name, name) == 0)
			return metrics_family(m, f);
	return NULL;
}

static bool
valid_name(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == ':'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      *s == ':' || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static void
test_format_value(void)
{
	static const struct {
		int64_t v;
		int decimals;
		const char *want;
	} cases[] = {
		{ 0, 0, "0" }, { 186, 0, "186" }, { 53, 4, "0.0053" }, { -1000, 3, "-1" },
		{ 47, 3, "0.047" }, { 500, 3, "0.5" }, { 1000, 3, "1" }, { -5, 3, "-0.005" },
		{ 1796013551959, 3, "1796013551.959" }, { 12345678, 6, "12.345678" },
		{ (int64_t)1 << 61, 0, "2305843009213693952" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		metrics_format_value(cases[i].v, cases[i].decimals, buf);
		tap_eq_str(buf, cases[i].want, "value %lld / 10^%d written exactly",
			   (long long)cases[i].v, cases[i].decimals);
	}
}

static void
test_set(void)
{
	struct sample *s = calloc(1, sizeof(*s)), *moved = calloc(1, sizeof(*s));
	struct metric_set *m = metrics_new();
	struct metrics_input in = { 0 };
	const struct metric_family *f;
	int64_t *v;
	size_t need, len;
	char *text;
	bool names_ok = true;
	int i;

	for (int k = 0; k < SRC_COUNT; k++)
		s->status[k].err = ENOENT;
	load(s, SRC_BUDDYINFO, ROOT "buddyinfo");
	load(s, SRC_VMSTAT, ROOT "vmstat");
	load(s, SRC_MEMINFO, ROOT "meminfo");
	load(s, SRC_PSI_IO, ROOT "pressure/io");
	in.s = s;
	tap_eq_int(metrics_build(m, &in, ~0u), 0, "a set from buddyinfo, vmstat, meminfo and PSI");
	v = calloc((size_t)metrics_n_series(m), sizeof(*v));
	metrics_values(m, &in, v);

	i = find(m, "pagetop_buddyinfo_free_blocks{node=\"0\",zone=\"Normal\",order=\"3\"}");
	tap_ok(i >= 0 && v[i] == 186, "free blocks at Normal order 3: 186, as buddyinfo has it");
	i = find(m, "pagetop_extfrag_index{node=\"0\",zone=\"DMA\",order=\"10\"}");
	tap_ok(i >= 0 && v[i] == -1000, "extfrag index where an allocation succeeds: -1");
	i = find(m, "pagetop_meminfo_active_anon_bytes");
	tap_ok(i >= 0 && v[i] > 0 && v[i] % 1024 == 0, "Active(anon) is active_anon, in bytes");
	tap_ok(find(m, "pagetop_meminfo_sunreclaim_bytes") >= 0, "SUnreclaim is sunreclaim");
	tap_ok(find(m, "pagetop_meminfo_huge_pages") >= 0 && family(m, "pagetop_meminfo_huge_pages") &&
	       strcmp(family(m, "pagetop_meminfo_huge_pages")->key, "HugePages_Total") == 0,
	       "HugePages_Total is a gauge without _total, named in its help");
	tap_ok(find(m, "pagetop_meminfo_secondary_page_tables_bytes") >= 0,
	       "SecPageTables: sec spelled out (not seconds)");
	f = family(m, "pagetop_vmstat_pgscan_kswapd");
	tap_ok(f && f->type == METRIC_COUNTER, "pgscan_kswapd is a counter");
	tap_ok(find(m, "pagetop_vmstat_pgscan_kswapd_total") >= 0, "... sampled as _total");
	f = family(m, "pagetop_vmstat_nr_free_pages");
	tap_ok(f && f->type == METRIC_GAUGE, "nr_free_pages is a gauge");
	f = family(m, "pagetop_vmstat_nr_dirtied");
	tap_ok(f && f->type == METRIC_COUNTER, "nr_dirtied counts events: a counter");
	f = family(m, "pagetop_vmstat_workingset_nodes");
	tap_ok(f && f->type == METRIC_GAUGE, "workingset_nodes is a gauge");
	i = find(m, "pagetop_pressure_avg_ratio{resource=\"io\",kind=\"some\",window=\"10s\"}");
	tap_ok(i >= 0 && v[i] == 53 && metrics_series(m, i)->decimals == 4,
	       "PSI io some avg10 0.53%% is 0.0053");
	i = find(m, "pagetop_source_up{source=\"pagetypeinfo\"}");
	tap_ok(i >= 0 && v[i] == 0, "pagetypeinfo not read: its source is down");
	for (int k = 0; k < metrics_n_families(m); k++)
		names_ok &= valid_name(metrics_family(m, k)->name);
	tap_ok(names_ok, "every family name is a valid metric name");

	/* A row that moved (a zone appeared before Normal) is never misread. */
	*moved = *s;
	moved->buddy.zones[2] = s->buddy.zones[1];
	in.s = moved;
	metrics_values(m, &in, v);
	i = find(m, "pagetop_buddyinfo_free_blocks{node=\"0\",zone=\"Normal\",order=\"3\"}");
	tap_ok(i >= 0 && v[i] == METRIC_NONE, "a zone row holding another zone: no value");
	moved->status[SRC_VMSTAT].err = EACCES;
	metrics_values(m, &in, v);
	i = find(m, "pagetop_vmstat_pgscan_kswapd_total");
	tap_ok(i >= 0 && v[i] == METRIC_NONE, "vmstat unreadable: no value");

	/* Fragmentation figures kept from the call before are those of the
	 * free lists now: moved, moved back, the same, each against a set
	 * that never saw the samples before. */
	{
		struct metric_set *fresh;
		int64_t *fv = calloc((size_t)metrics_n_series(m), sizeof(*fv));
		int z = 1, off, step;
		bool same = true, found = false;

		in.s = s;
		metrics_values(m, &in, v);
		for (step = 0; step < 4; step++) {
			*moved = *s;
			if (step == 0 || step == 2)
				moved->buddy.zones[z].free[3] += 40, moved->buddy.zones[z].free[9] = 0;
			in.s = moved;
			metrics_values(m, &in, v);
			fresh = metrics_new();
			if (!fresh || metrics_build(fresh, &in, ~0u) != 0 ||
			    metrics_n_series(fresh) != metrics_n_series(m)) {
				same = false;
				metrics_free(fresh);
				break;
			}
			metrics_values(fresh, &in, fv);
			for (off = 0; off < metrics_n_series(m); off++)
				same &= v[off] == fv[off];
			i = find(m, "pagetop_extfrag_index{node=\"0\",zone=\"Normal\",order=\"9\"}");
			if (step == 0 && i >= 0)
				found = true;
			metrics_free(fresh);
		}
		in.s = s;
		metrics_values(m, &in, v);
		tap_ok(same && found && moved->buddy.n_orders > 9,
		       "free lists moved, back, moved, the same: every value as a new set has it");
		free(fv);
	}

	/* Rendering: the length it needs, then the text. */
	in.s = s;
	need = metrics_render(m, &in, METRICS_OPENMETRICS, NULL, 0);
	text = malloc(need + 1);
	len = metrics_render(m, &in, METRICS_OPENMETRICS, text, need + 1);
	tap_eq_u64(len, need, "render tells the length it needs");
	tap_ok(len > 6 && strcmp(text + len - 6, "# EOF\n") == 0, "OpenMetrics ends with # EOF");
	tap_ok(strstr(text, "# TYPE pagetop_vmstat_pgscan_kswapd counter\n") != NULL,
	       "OpenMetrics: TYPE names the counter family");
	tap_ok(strstr(text, "# UNIT pagetop_meminfo_mem_total_bytes bytes\n") != NULL,
	       "OpenMetrics: UNIT lines");
	len = metrics_render(m, &in, METRICS_TEXT, text, need + 1);
	tap_ok(len < need && strstr(text, "# TYPE pagetop_vmstat_pgscan_kswapd_total counter\n") &&
	       !strstr(text, "# EOF") && !strstr(text, "# UNIT"),
	       "text 0.0.4: TYPE names the sample, no UNIT, no EOF");
	free(text);

	/* The sample line: export writes it from its parts, serve with snprintf. */
	{
		char name[OPENMETRICS_NAME_MAX], line[512], put[512];
		int n, ln;
		size_t pn;

		i = find(m, "pagetop_pressure_avg_ratio{resource=\"io\",kind=\"some\",window=\"10s\"}");
		n = metrics_format_name(m, i, name, sizeof(name));
		ln = metrics_format_line(m, i, v[i], "1764477551.123", line, sizeof(line));
		pn = openmetrics_put_sample(put, name, (size_t)n, v[i], metrics_series(m, i)->decimals,
					    "1764477551.123", 14);
		tap_ok(ln > 0 && (size_t)ln == pn && memcmp(line, put, pn) == 0 &&
		       strcmp(line, "pagetop_pressure_avg_ratio{resource=\"io\",kind=\"some\","
			      "window=\"10s\"} 0.0053 1764477551.123\n") == 0,
		       "a sample line with its timestamp, the same from its parts");
		ln = metrics_format_line(m, i, -1500, NULL, line, sizeof(line));
		pn = openmetrics_put_sample(put, name, (size_t)n, -1500, 4, NULL, 0);
		tap_ok((size_t)ln == pn && memcmp(line, put, pn) == 0 &&
		       strcmp(line + n, " -0.15\n") == 0, "... and without one");
		ln = metrics_format_line(m, i, 53, NULL, line, 10);
		tap_ok(ln == n + 8 && strlen(line) == 9, "a short buffer: the length needed, the text cut");
	}
	free(v);
	metrics_free(m);
	free(moved);
	free(s);
}

static void
test_sources(void)
{
	unsigned mask = 0;

	tap_eq_int(metrics_source_parse("vmstat,pressure", &mask), 0, "--source vmstat,pressure");
	tap_ok(mask == (SRC_BIT(SRC_VMSTAT) | METRICS_SRC_PRESSURE), "... their bits");
	mask = 0;
	tap_ok(metrics_source_parse("all", &mask) == 0 && (mask & SRC_BIT(SRC_TASKS)) &&
	       (mask & SRC_BIT(SRC_ZONEINFO)), "--source all");
	tap_eq_int(metrics_source_parse("slabinfo", &mask), -1, "unknown source");
	tap_eq_int(metrics_source_parse("vmstat,", &mask), -1, "an empty name");
	tap_eq_int(metrics_source_parse("", &mask), -1, "nothing");
}

static int
parse_any(const char *buf, size_t len, void *ctx)
{
	struct http_request rq;

	(void)ctx;
	return http_parse_request(buf, len, &rq);
}

/* A request from a string literal. */
#define PARSE(lit, rq) http_parse_request((lit), strlen(lit), (rq))

static void
test_http(void)
{
	static const char prom[] =
	    "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9782\r\nUser-Agent: Prometheus/2.42.0\r\n"
	    "Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
	    "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"
	    "Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 1\r\n\r\n";
	struct http_request rq;
	char path[400];

	tap_eq_int(http_parse_request(prom, strlen(prom), &rq), 0, "Prometheus' request");
	tap_ok(rq.method == HTTP_GET && strcmp(rq.path, "/metrics") == 0 && rq.openmetrics,
	       "... GET /metrics, OpenMetrics accepted");
	tap_eq_int(http_parse_request(prom, strlen(prom) - 2, &rq), -EAGAIN,
		   "without its blank line: more is needed");
	tap_ok(PARSE("HEAD /metrics?x=1 HTTP/1.0\n\n", &rq) == 0 &&
	       rq.method == HTTP_HEAD && strcmp(rq.path, "/metrics") == 0 && !rq.openmetrics,
	       "HEAD, bare newlines, a query string left out");
	tap_ok(PARSE("POST /metrics HTTP/1.1\r\naccept: */*\r\n\r\n", &rq) == 0 &&
	       rq.method == HTTP_OTHER && !rq.openmetrics, "POST: another method; */* is text");
	tap_ok(PARSE("GET / HTTP/1.1\r\nACCEPT: application/openmetrics-text; q=0\r\n\r\n",
		     &rq) == 0 && !rq.openmetrics,
	       "OpenMetrics with q=0 is refused");
	tap_eq_int(http_parse_request("\x16\x03\x01\x02\x00\x01", 6, &rq), -EINVAL,
		   "TLS to a plain-HTTP port: not HTTP at once");
	tap_eq_int(PARSE("GET /metrics\r\n\r\n", &rq), -EINVAL, "no version");
	tap_eq_int(PARSE("GET /metrics SPDY/3\r\n\r\n", &rq), -EINVAL,
		   "another protocol");
	memset(path, 'a', sizeof(path));
	memcpy(path, "GET /", 5);
	memcpy(path + sizeof(path) - 15, " HTTP/1.1\r\n\r\n", 13);
	tap_ok(http_parse_request(path, sizeof(path) - 2, &rq) == 0 &&
	       strlen(rq.path) == sizeof(rq.path) - 1, "a path longer than kept: cut, no overflow");
	fixture_damage(prom, strlen(prom), parse_any, NULL);
	tap_ok(1, "every prefix and flipped byte of a request parses without a fault");
}

/* Names from a crafted proc root or recording: label values escaped as
 * both formats want them and valid UTF-8; a vmstat name is made a valid
 * metric name and a HELP line that needs no escape. */
static void
test_crafted_names(void)
{
	struct sample *s = calloc(1, sizeof(*s));
	struct metric_set *m = metrics_new();
	struct metrics_input in = { 0 };
	const struct metric_family *fa;
	char name[OPENMETRICS_NAME_MAX];
	bool help_ok = true;

	for (int k = 0; k < SRC_COUNT; k++)
		s->status[k].err = ENOENT;
	load(s, SRC_BUDDYINFO, ROOT "buddyinfo");
	load(s, SRC_VMSTAT, ROOT "vmstat");
	snprintf(s->buddy.zones[0].zone, sizeof(s->buddy.zones[0].zone), "a\"b\\c\nd");
	snprintf(s->buddy.zones[1].zone, sizeof(s->buddy.zones[1].zone), "N\xc2\x9b\x9bl");
	snprintf(s->vm.e[0].name, sizeof(s->vm.e[0].name), "nr_\x1b]0;x\"\\");
	in.s = s;
	tap_eq_int(metrics_build(m, &in, ~0u), 0, "crafted names: a set all the same");
	tap_ok(find(m, "pagetop_buddyinfo_free_blocks{node=\"0\",zone=\"a\\\"b\\\\c\\nd\",order=\"0\"}") >= 0,
	       "a label value's quote, backslash and newline escaped");
	tap_ok(find(m, "pagetop_buddyinfo_free_blocks{node=\"0\",zone=\"N\xc2\x9b\xef\xbf\xbdl\",order=\"0\"}") >= 0,
	       "a label value's byte that is not UTF-8 becomes U+FFFD; valid UTF-8 stays");
	fa = family(m, "pagetop_vmstat_nr___0_x__");
	tap_ok(fa && valid_name(fa->name), "a crafted vmstat name makes a valid metric name");
	for (int f = 0; f < metrics_n_families(m); f++)
		for (const char *p = metrics_family(m, f)->key; *p; p++)
			if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 ||
			    (unsigned char)*p >= 0x7f)
				help_ok = false;
	tap_ok(help_ok, "no HELP line holds a quote, a backslash or a control");
	for (int i = 0; i < metrics_n_series(m); i++) {
		metrics_format_name(m, i, name, sizeof(name));
		if (strstr(name, "zone=\"N") && !strstr(name, "\"}"))
			help_ok = false;
	}
	tap_ok(help_ok, "every series' labels are closed");
	metrics_free(m);
	free(s);
}

int
main(void)
{
	test_format_value();
	test_crafted_names();
	test_set();
	test_sources();
	test_http();
	return tap_done();
}
