/* psi_parse on every /proc/pressure sample, on edge cases and on damage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "parse/psi.h"
#include "tap.h"

#define nitems(a) (sizeof(a) / sizeof((a)[0]))

/* What each sample holds, read off the file by hand; avgs in hundredths. */
struct want {
	const char *file;
	struct psi_line some, full;
};

static const struct want wants[] = {
	{ "lkml-2022-5.13to5.18-cpu-full-nonzero-system-level.txt",
	  { true, 92, 91, 73, 933490489 }, { true, 22, 23, 16, 358783277 } },
	{ "node_exporter-memory-zeros.txt",
	  { true, 0, 0, 0, 0 }, { true, 0, 0, 0, 0 } },
	{ "pcp-001-cpu-some-only.txt",
	  { true, 204, 75, 42, 157656722 }, { false, 0, 0, 0, 0 } },
	{ "pcp-001-memory-high-pressure.txt",
	  { true, 7024, 6852, 6991, 3559632828ULL },
	  { true, 5759, 5806, 6038, 3300487258ULL } },
	{ "pcp-002-cpu-with-full-line.txt",
	  { true, 0, 0, 0, 424932863 }, { true, 0, 0, 0, 387245317 } },
	{ "pcp-002-irq-full-only.txt",
	  { false, 0, 0, 0, 0 }, { true, 0, 0, 0, 100648410 } },
	{ "pcp-002-memory.txt",
	  { true, 0, 0, 0, 168828 }, { true, 0, 0, 0, 154404 } },
	{ "procfs-memory-synthetic.txt",
	  { true, 10, 200, 385, 15 }, { true, 20, 300, 495, 25 } },
};

static struct psi ps;

static const struct want *
find_want(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < nitems(wants); i++) {
		if (strcmp(wants[i].file, base) == 0)
			return &wants[i];
	}
	return NULL;
}

static void
check_line(const char *what, const struct psi_line *got,
	   const struct psi_line *want)
{
	tap_eq_int(got->present, want->present, "%s: present", what);
	tap_eq_u64(got->avg10, want->avg10, "%s: avg10", what);
	tap_eq_u64(got->avg60, want->avg60, "%s: avg60", what);
	tap_eq_u64(got->avg300, want->avg300, "%s: avg300", what);
	tap_eq_u64(got->total, want->total, "%s: total", what);
}

static void
check_fixture(const char *path)
{
	const struct want *w = find_want(path);
	struct parse_error err = { 0 };
	char what[256];
	char *buf;
	size_t len;
	int r;

	if (!tap_ok(w != NULL, "%s: expectations listed", path))
		return;
	buf = fixture_load(path, &len);
	r = psi_parse(buf, len, &ps, &err);
	tap_eq_int(r, 0, "%s: parses (%d: %s)", path, err.line, err.msg);
	snprintf(what, sizeof(what), "%s some", path);
	check_line(what, &ps.some, &w->some);
	snprintf(what, sizeof(what), "%s full", path);
	check_line(what, &ps.full, &w->full);
	free(buf);
}

static void
test_fixtures(void)
{
	char **list = fixture_list("proc/pressure");
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_int(n, nitems(wants), "every expected pressure sample is present");
	fixture_list_free(list);
}

static int
parse_str(const char *text, struct parse_error *err)
{
	return psi_parse(text, strlen(text), &ps, err);
}

static void
test_forms(void)
{
	tap_eq_int(parse_str("some avg10=100.00 avg60=99.99 avg300=0.01 "
	    "total=18446744073709551615", NULL), 0, "forms: no newline, extremes");
	tap_eq_u64(ps.some.avg10, 10000, "forms: 100.00 is 10000");
	tap_eq_u64(ps.some.avg60, 9999, "forms: 99.99 is 9999");
	tap_eq_u64(ps.some.avg300, 1, "forms: 0.01 is 1");
	tap_eq_u64(ps.some.total, UINT64_MAX, "forms: total up to UINT64_MAX");
	tap_ok(!ps.full.present, "forms: no full line");

	tap_eq_int(parse_str("full total=7 avg300=0.30 avg60=0.60 avg10=0.10\n", NULL),
	    0, "forms: keys in another order");
	tap_ok(ps.full.avg10 == 10 && ps.full.avg60 == 60 && ps.full.avg300 == 30 &&
	    ps.full.total == 7, "forms: values by key, not position");

	tap_eq_int(parse_str("some avg10=1.00 avg60=2.00 avg300=3.00 total=4 "
	    "avg3600=5.00 peak=9\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=1\r\n", NULL), 0,
	    "forms: unknown keys and CRLF tolerated");
	tap_ok(ps.some.avg10 == 100 && ps.some.total == 4 && ps.full.total == 1,
	    "forms: known keys still read");

	tap_eq_int(parse_str("\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=3\n"
	    "trigger 150000 1000000\n", NULL), 0, "forms: other lines passed over");
	tap_eq_u64(ps.some.total, 3, "forms: some line read");
}

static void
test_rejects(void)
{
	static const struct {
		const char *text;
		int line;
		const char *what;
	} bad[] = {
		{ "", 0, "empty buffer" },
		{ "\x7f" "ELF\x02\x01\x01\n\xff\xfe some\n", 0, "garbage" },
		{ "cpu 0.00 0.00\n", 0, "neither some nor full" },
		{ "some avg10=1.2 avg60=0.00 avg300=0.00 total=0\n", 1,
		  "avg10=1.2 (one decimal)" },
		{ "some avg10=1.234 avg60=0.00 avg300=0.00 total=0\n", 1,
		  "three decimals" },
		{ "some avg10=1 avg60=0.00 avg300=0.00 total=0\n", 1, "no decimals" },
		{ "some avg10=-1.00 avg60=0.00 avg300=0.00 total=0\n", 1, "negative" },
		{ "some avg10=.50 avg60=0.00 avg300=0.00 total=0\n", 1, "no whole part" },
		{ "some avg10= avg60=0.00 avg300=0.00 total=0\n", 1, "empty value" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=123456789012345678901\n",
		  1, "21-digit total" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551616\n",
		  1, "total past UINT64_MAX" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=1.5\n", 1,
		  "fractional total" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00\n", 1, "no total" },
		{ "full avg10=0.00 avg60=0.00 total=0\n", 1, "no avg300" },
		{ "some\n", 1, "bare some" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0 junk\n", 1,
		  "word without '='" },
		{ "some avg10=0.00 avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 1,
		  "key twice" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 3,
		  "second some line" },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "full avg10=0.00 avg60=0,00 avg300=0.00 total=0\n", 2,
		  "bad full after a good some" },
	};
	struct parse_error err;

	for (size_t i = 0; i < nitems(bad); i++) {
		memset(&err, 0, sizeof(err));
		tap_eq_int(parse_str(bad[i].text, &err), -EINVAL, "rejects %s",
		    bad[i].what);
		tap_eq_int(err.line, bad[i].line, "rejects %s: line (%s)", bad[i].what,
		    err.msg);
		tap_ok(err.msg[0] != '\0', "rejects %s: says why", bad[i].what);
	}
	tap_eq_int(parse_str("some avg10=1.2 avg60=0.00 avg300=0.00 total=0\n", NULL),
	    -EINVAL, "rejects with err NULL");
}

static int
parse_cb(const char *buf, size_t len, void *ctx)
{
	struct parse_error err;

	(void)ctx;
	return psi_parse(buf, len, &ps, &err);
}

static void
test_damage(void)
{
	static const char *const files[] = {
		"proc/pressure/pcp-001-memory-high-pressure.txt",
		"proc/pressure/pcp-002-irq-full-only.txt",
	};
	char *buf;
	size_t len, ok;

	for (size_t i = 0; i < nitems(files); i++) {
		buf = fixture_load(files[i], &len);
		ok = fixture_damage(buf, len, parse_cb, NULL);
		tap_ok(ok > 0, "damage: %s: %zu damaged copies parse", files[i], ok);
		free(buf);
	}
}

int
main(void)
{
	test_fixtures();
	test_forms();
	test_rejects();
	test_damage();
	return tap_done();
}
