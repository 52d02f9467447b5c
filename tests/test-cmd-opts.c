/* The options the commands share (src/cmd/cmd-opts.c): each range's ends,
 * NaN, infinities and absurd values refused with exit status 2 and one
 * line on stderr, the same text wherever used. */
#include "cmd/cmd-opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static char err[512];

/* What f wrote on stderr, in err (one line, without its newline). */
static FILE *capture_file;
static int capture_saved = -1;

static void
capture_start(void)
{
	fflush(stderr);
	capture_file = tmpfile();
	capture_saved = dup(2);
	dup2(fileno(capture_file), 2);
}

static void
capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(capture_saved, 2);
	close(capture_saved);
	rewind(capture_file);
	n = fread(err, 1, sizeof(err) - 1, capture_file);
	err[n] = '\0';
	fclose(capture_file);
}

/* A refusal: EXIT_USAGE, *out untouched, and exactly the line want. */
static void
refused(int r, double out, const char *want, const char *what)
{
	char line[600];

	capture_end();
	snprintf(line, sizeof(line), "%s\n", want);
	if (!tap_ok(r == EXIT_USAGE && out == -1 && strcmp(err, line) == 0, "%s", what))
		printf("#   got %d, %g, \"%s\"\n", r, out, err);
}

static void
test_interval(void)
{
	static const char *const bad[] = {
		"0.09", "0", "-1", "25d", "86401", "1.0001d", "1e20", "1e308", "nan", "inf", "",
		"abc", "5x", " 1",
	};
	double v;

	tap_ok(cmd_opt_interval(NULL, "-d", "0.1", &v) == 0 && v == 0.1, "interval: 0.1 s, the least");
	tap_ok(cmd_opt_interval(NULL, "-d", "1d", &v) == 0 && v == 86400, "interval: a day, the most");
	tap_ok(cmd_opt_interval(NULL, "-d", "2m", &v) == 0 && v == 120, "interval: with a unit");
	tap_ok(cmd_opt_interval(NULL, "-d", "500ms", &v) == 0 && v == 0.5, "interval: milliseconds");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[200];
		double out = -1;
		int r;

		snprintf(want, sizeof(want), "pagetop: --flush: '%s' is not 0.1 seconds or more, "
			 "up to a day", bad[i]);
		capture_start();
		r = cmd_opt_interval(NULL, "--flush", bad[i], &out);
		refused(r, out, want, bad[i]);
	}
	{
		double out = -1;
		int r;

		capture_start();
		r = cmd_opt_interval("record", "-d", "25d", &out);
		refused(r, out, "pagetop: record: -d: '25d' is not 0.1 seconds or more, up to a day",
			"interval: the command named when given");
	}
}

static void
test_duration(void)
{
	static const char *const bad[] = {
		"0", "0s", "367d", "1e308", "1e309", "nan", "inf", "-1h", "", "1 h", "h",
	};
	double v;

	tap_ok(cmd_opt_duration(NULL, "--duration", "0.001", &v) == 0 && v == 0.001,
	       "duration: anything more than 0");
	tap_ok(cmd_opt_duration(NULL, "--duration", "366d", &v) == 0 && v == 366 * 86400.0,
	       "duration: 366 days, the most");
	tap_ok(cmd_opt_duration(NULL, "--history", "1.5h", &v) == 0 && v == 5400, "duration: 1.5h");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[200];
		double out = -1;
		int r;

		snprintf(want, sizeof(want), "pagetop: --history: '%s' is not a duration up to 366 "
			 "days (e.g. 90s, 30m, 1h, 2d)", bad[i]);
		capture_start();
		r = cmd_opt_duration(NULL, "--history", bad[i], &out);
		refused(r, out, want, bad[i]);
	}
}

static void
test_size(void)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} good[] = {
		{ "4096", 4096 }, { "4k", 4096 }, { "20k", 20480 }, { "100M", 100u << 20 },
		{ "500MB", 500u << 20 }, { "2GiB", 2ull << 30 }, { "1.5G", 3ull << 29 },
		{ "1T", 1ull << 40 }, { "1024G", 1ull << 40 }, { "100m", 100u << 20 },
	};
	static const char *const bad[] = {
		"4095", "3k", "0", "-5M", "+5M", " 5M", "1.1T", "2T", "1e20", "1e308", "nan",
		"inf", "", "M", "5X", "5MBs", "5 M",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t v = 0;

		tap_ok(cmd_opt_size(NULL, "--max-size", good[i].text, &v) == 0 && v == good[i].bytes,
		       "size: %s", good[i].text);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[200];
		uint64_t v = 7;
		int r;

		snprintf(want, sizeof(want), "pagetop: --max-size: '%s' is not a size from 4k to 1T "
			 "(e.g. 100M)", bad[i]);
		capture_start();
		r = cmd_opt_size(NULL, "--max-size", bad[i], &v);
		refused(r, v == 7 ? -1 : 0, want, bad[i]);
	}
}

static void
test_count(void)
{
	static const char *const bad[] = {
		"0", "-1", "1000000001", "99999999999999999999", "1.5", "1e3", "", " 5", "+5", "5x",
	};
	long v;

	tap_ok(cmd_opt_count(NULL, "-n", "1", &v) == 0 && v == 1, "count: 1, the least");
	tap_ok(cmd_opt_count(NULL, "-n", "1000000000", &v) == 0 && v == 1000000000,
	       "count: 10^9, the most");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[200];
		long out = 7;
		int r;

		snprintf(want, sizeof(want), "pagetop: -n: '%s' is not a positive count (up to "
			 "1000000000)", bad[i]);
		capture_start();
		r = cmd_opt_count(NULL, "-n", bad[i], &out);
		refused(r, out == 7 ? -1 : 0, want, bad[i]);
	}
}

static void
test_time(void)
{
	const struct when_span span = { .first = 1796025601.25, .last = 1796026499.5 };
	double t = -1;
	int r;

	tap_ok(cmd_opt_time("dump", "--at", "-10s", &span, &t) == 0 && t == span.last - 10,
	       "time: -10s from the end");
	t = -1;
	capture_start();
	r = cmd_opt_time("report", "--since", "-2h", &span, &t);
	refused(r, t, "pagetop: report: --since: '-2h' is before the recording's start "
		"(2026-11-30 08:00:01.250 to 08:14:59.500)", "time: outside, the span named");
	t = -1;
	capture_start();
	r = cmd_opt_time(NULL, "--at", "next week", &span, &t);
	refused(r, t, "pagetop: --at: 'next week' is not a time (14:03:10.2, \"2026-11-30 14:03:10\", "
		"epoch seconds, start, end, +5m, -30s, mark:TEXT[#N], each with +D or -D after it)",
		"time: not one, the forms listed");
}

static void
test_usage(void)
{
	int r;

	capture_start();
	r = cmd_opt_usage(&cmd_report_entry, false);
	capture_end();
	tap_ok(r == EXIT_USAGE && strncmp(err, "usage: pagetop report FILE ", 27) == 0,
	       "usage: on stderr, exit status 2");
	capture_start();
	r = cmd_opt_usage(&cmd_dashboard_entry, false);
	capture_end();
	tap_ok(r == EXIT_USAGE && strncmp(err, "usage: pagetop [-d ", 19) == 0,
	       "usage: the dashboard's without its name");
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	test_interval();
	test_duration();
	test_size();
	test_count();
	test_time();
	test_usage();
	return tap_done();
}
