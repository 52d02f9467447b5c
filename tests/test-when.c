/* Times on a recording (util/when.c): every form, the span's ends, the
 * precision a written time has, and every error with its text. In UTC,
 * so that no daylight saving time moves the clock, and once in a zone
 * with it (a POSIX TZ rule: no tzdata needed). */
#include "util/when.h"
#include "util/fmt.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"

#define SENTINEL	-12345.0

/* 2026-11-30 08:00:01.250 to 08:14:59.500 UTC. */
static const struct when_span span_a = { .first = 1796025601.25, .last = 1796026499.5 };
/* 2026-11-30 23:50:00 to 2026-12-01 00:10:00 UTC: over midnight. */
static const struct when_span span_b = { .first = 1796082600, .last = 1796083800 };

static char why[WHEN_WHY_MAX];

/* spec on span: 0 and *out within a microsecond of want. */
static void
is_time(const struct when_span *span, const char *spec, double want, const char *what)
{
	double out = SENTINEL;
	int r = when_parse(spec, span, &out, why, sizeof(why));

	if (!tap_ok(r == 0 && fabs(out - want) < 1e-6, "%s: '%s'", what, spec))
		printf("#   got %d, %.6f (%s), want %.6f\n", r, out, r ? why : "", want);
}

/* spec on span: the error err, *out untouched, and why starting with
 * start (and, when want is not NULL, equal to want). */
static void
is_error(const struct when_span *span, const char *spec, int err, const char *start,
	 const char *want, const char *what)
{
	double out = SENTINEL;
	int r;

	why[0] = '\0';
	r = when_parse(spec, span, &out, why, sizeof(why));
	if (!tap_ok(r == err && out == SENTINEL && strncmp(why, start, strlen(start)) == 0 &&
		    (!want || strcmp(why, want) == 0) && !strchr(why, '\n'),
		    "%s: '%s'", what, spec ? spec : "(null)"))
		printf("#   got %d, %.6f, \"%s\"\n", r, out, why);
}

/* A recording at -d 0.5 from 08:00:01.250 (span_a's start): 20 samples,
 * each 0.5 s and a little (so that none is on a whole tenth), with marks. */
#define M_N	20
static double m_times[M_N];
static const struct when_mark m_marks[] = {
	{ 1796025602.9, 4, "mke2fs starts" },	/* between samples 3 and 4 */
	{ 1796025604.3, 7, "phase-2 starts" },
	{ 1796025606.0004, 10, "mke2fs done" },	/* printed 08:00:06.000 */
};

static bool
m_mark(const void *ctx, size_t i, struct when_mark *m)
{
	(void)ctx;
	if (i >= sizeof(m_marks) / sizeof(m_marks[0]))
		return false;
	*m = m_marks[i];
	return true;
}

static size_t
m_find(const void *ctx, double t)
{
	size_t i = 0;

	(void)ctx;
	while (i + 1 < M_N && m_times[i + 1] <= t)
		i++;
	return i;
}

static struct when_span span_m;

/* spec picks sample want. */
static void
picks(const char *spec, size_t want, const char *what)
{
	double t = SENTINEL;
	int r = when_parse(spec, &span_m, &t, why, sizeof(why));
	size_t got = r == 0 ? when_pick(&span_m, t) : SIZE_MAX;

	if (!tap_ok(got == want, "%s: '%s' picks sample %zu", what, spec, want))
		printf("#   got %d, %zu (%s)\n", r, got, r ? why : "");
}

static void
test_marks(void)
{
	char spec[64];

	for (size_t i = 0; i < M_N; i++)
		m_times[i] = 1796025601.25 + 0.5 * (double)i + 0.0013 * (double)i;
	span_m = (struct when_span){ .first = m_times[0], .last = m_times[M_N - 1], .count = M_N,
				     .mark = m_mark, .find = m_find };
	is_time(&span_m, "mark:mke2fs", m_marks[0].wall, "mark:TEXT: the first that contains it");
	is_time(&span_m, "mark:mke2fs#2", m_marks[2].wall, "mark:TEXT#2: the second");
	is_time(&span_m, "mark:done", m_marks[2].wall, "mark:TEXT: a word inside");
	is_time(&span_m, "mark:mke2fs-1s", m_marks[0].wall - 1, "mark:TEXT-D");
	is_time(&span_m, "mark:mke2fs#2+500ms", m_marks[2].wall + 0.5, "mark:TEXT#2+D");
	is_time(&span_m, "mark:phase-2", m_marks[1].wall, "a mark containing the whole: no offset");
	is_time(&span_m, "mark:phase-1s", m_marks[1].wall - 1, "... else the offset cut off");
	is_time(&span_m, "end-3s", m_times[M_N - 1] - 3, "end-D");
	is_time(&span_m, "start+1.5s", m_times[0] + 1.5, "start+D");
	is_time(&span_m, "08:00:03.2+1s", 1796025604.2, "a clock time with an offset");
	is_time(&span_m, "2026-11-30 08:00:05-2s", 1796025603, "a date with an offset");
	is_time(&span_m, "1796025603.5-500ms", 1796025603, "epoch seconds with an offset");
	is_error(&span_m, "mark:fsck", -ERANGE, "'mark:fsck': no mark contains 'fsck' (3 marks",
		 NULL, "mark:TEXT that no mark has");
	is_error(&span_m, "mark:mke2fs#3", -ERANGE, "'mark:mke2fs#3': only 2 marks contain 'mke2fs'",
		 NULL, "mark:TEXT#N past the last");
	is_error(&span_m, "mark:fsck-1s", -ERANGE, "'mark:fsck-1s': no mark contains 'fsck'",
		 NULL, "... with an offset: the mark named");
	is_error(&span_m, "mark:mke2fs#0", -EINVAL, "'mark:mke2fs#0' is not a time: marks count",
		 NULL, "#0");
	is_error(&span_a, "mark:x", -ERANGE, "'mark:x': the recording has no marks", NULL,
		 "mark:TEXT without marks");
	is_error(&span_m, "mark:mke2fs-1h", -ERANGE, "'mark:mke2fs-1h' is before the recording's "
		 "start", NULL, "an offset out of the span");
	is_error(&span_m, "end+x", -EINVAL, "'end+x' is not a time (", NULL, "a bad offset");
	/* The rule: the last sample at or before; a mark's moment, the first
	 * at or after the mark. */
	picks("start", 0, "the first");
	picks("end", M_N - 1, "the last");
	picks("mark:mke2fs", 4, "a mark: the first sample after it");
	picks("mark:mke2fs-0", 4, "... as a mark with -0 still (the same moment)");
	picks("mark:mke2fs+1ms", 3, "just after a mark: the last sample at or before");
	picks("08:00:06.000", 10, "the printed time of a mark: the sample after it");
	picks("08:00:02.9", 4, "the printed time of the first mark");
	for (size_t i = 0; i < M_N; i++) {
		char ms[FMT_MOMENT_SIZE];

		fmt_moment(m_times[i], FMT_CLOCK, ms, sizeof(ms));
		snprintf(spec, sizeof(spec), "%s", ms);
		if (i == 4 || i == 7 || i == 10)
			continue;	/* the marks' own */
		picks(spec, i, "every sample at -d 0.5 by its printed clock time");
	}
	/* A tenth: the last sample at or before it. */
	picks("08:00:02.3", 2, "a tenth after a sample: that sample");
}

static void
test_forms(void)
{
	const double a0 = span_a.first, a1 = span_a.last;

	is_time(&span_a, "start", a0, "start: the first sample");
	is_time(&span_a, "end", a1, "end: the last sample");
	is_time(&span_a, "-10s", a1 - 10, "-D: back from the last sample");
	is_time(&span_a, "-10", a1 - 10, "-D: bare seconds");
	is_time(&span_a, "-1.5m", a1 - 90, "-D: a fraction of a unit");
	is_time(&span_a, "-500ms", a1 - 0.5, "-D: milliseconds");
	is_time(&span_a, "-0.2h", a1 - 720, "-D: hours");
	is_time(&span_a, "+10s", a0 + 10, "+D: forward from the first sample");
	is_time(&span_a, "+5m", a0 + 300, "+D: minutes");
	is_time(&span_a, "+0", a0, "+0: the first sample");
	is_time(&span_a, "-0", a1, "-0: the last sample");
	is_time(&span_a, "08:05:00", 1796025900, "a clock time on the first day");
	is_time(&span_a, "08:05:00.25", 1796025900.25, "... with a fraction");
	is_time(&span_a, "08:05:00.123456", 1796025900.123456, "... to the microsecond");
	is_time(&span_a, "8:5:0", 1796025900, "... with single digits");
	is_time(&span_a, "2026-11-30 08:05:00", 1796025900, "a date and time");
	is_time(&span_a, "2026-11-30T08:05:00.5", 1796025900.5, "... with a T and a fraction");
	is_time(&span_a, "1796025900", 1796025900, "seconds since the epoch");
	is_time(&span_a, "1796025900.125", 1796025900.125, "... with a fraction");
	/* Over midnight: a clock time earlier than the start is the next day. */
	is_time(&span_b, "23:55:00", 1796082900, "over midnight: before it, the first day");
	is_time(&span_b, "00:05:00", 1796083500, "over midnight: after it, the next day");
	is_time(&span_b, "2026-12-01 00:05:00", 1796083500, "over midnight: a date");
}

/* The ends: exact for relative times (to the half millisecond), and as
 * precise as the last digit written for the others. Each accepted time
 * just outside the span is taken as its end. */
static void
test_boundaries(void)
{
	const double a0 = span_a.first, a1 = span_a.last;

	is_time(&span_a, "-898.25", a0, "-D reaching the first sample exactly");
	is_time(&span_a, "-898.2504", a0, "-D within half a millisecond before it");
	is_error(&span_a, "-898.252", -ERANGE, "'-898.252' is before the recording's start",
		 NULL, "-D two milliseconds before it");
	is_time(&span_a, "+898.25", a1, "+D reaching the last sample exactly");
	is_time(&span_a, "+898.2504", a1, "+D within half a millisecond past it");
	is_error(&span_a, "+898.252", -ERANGE, "'+898.252' is after the recording's end", NULL,
		 "+D two milliseconds past it");
	is_time(&span_a, "08:00:01", a0, "a whole second holding the start: the first sample");
	is_time(&span_a, "08:00:01.2", a0, "a tenth 0.05 s before the start: the first sample");
	is_time(&span_a, "08:00:01.2496", a0, "0.4 ms before the start: the first sample");
	is_time(&span_a, "08:14:59", 1796026499, "a whole second before the end: itself");
	is_time(&span_a, "08:15:00", a1, "the second after the end's: the last sample");
	is_time(&span_a, "1796025601", a0, "epoch seconds of the start's second: the first sample");
	is_time(&span_a, "1796025601.249", a0, "... and to the millisecond");
	is_error(&span_a, "1796025601.248", -ERANGE, "'1796025601.248' is before the recording's start",
		 NULL, "epoch seconds 2 ms before the start");
	is_error(&span_a, "2026-11-30 08:15:01", -ERANGE,
		 "'2026-11-30 08:15:01' is after the recording's end", NULL,
		 "a date 1.5 s past the end");
	is_error(&span_a, "2026-11-30 08:00:00", -ERANGE,
		 "'2026-11-30 08:00:00' is before the recording's start", NULL,
		 "a date 1.25 s before the start");
	/* A clock time earlier than the start (beyond its precision) is the
	 * next day's, and so after a short recording's end. */
	is_error(&span_a, "08:00:00", -ERANGE, "'08:00:00' is not within the recording", NULL,
		 "a clock time 1.25 s before the start");
	is_error(&span_a, "08:00:01.1", -ERANGE, "'08:00:01.1' is not within the recording",
		 NULL, "a tenth 0.15 s before the start");
	is_error(&span_a, "08:00:01.248", -ERANGE, "'08:00:01.248' is not within the recording",
		 NULL, "a millisecond 2 ms before the start");
	is_error(&span_a, "08:15:01", -ERANGE, "'08:15:01' is after the recording's end", NULL,
		 "a clock time past the end");
}

static void
test_errors(void)
{
	static const char *const not_times[] = {
		"", "yesterday", "next week", "Start", "END", "now", "90", "999999999", "1e9",
		"1796025601x", "1796025601.", ".5", "nan", "inf", "infinity",
		"08:05", "08:05:00 ", " 08:05:00", "08:05:00.", "08:05:00.5x", "24:00:00",
		"08:60:00", "08:05:60", "108:05:00", "08::00", "2026-11-30", "2026-11-30 08:05",
		"2026-11-30  08:05:00", "26-11-30 08:05:00", "2026-13-01 08:05:00",
		"2026-00-01 08:05:00", "2026-11-00 08:05:00", "2026-11-31 08:05:00",
		"2026-02-29 08:05:00", "2026-11-30x08:05:00",
	};
	static const char *const not_durations[] = {
		"+", "-", "+-5", "-+5", "++5", "+5x", "+5 m", "+ 5", "+nan", "+inf", "-inf",
		"+1e308d", "-0x10", "+.", "+m",
	};
	char big[400];

	for (size_t i = 0; i < sizeof(not_times) / sizeof(not_times[0]); i++) {
		char start[80];

		snprintf(start, sizeof(start), "'%s' is not a time (14:03:10.2, ", not_times[i]);
		is_error(&span_a, not_times[i], -EINVAL, start, NULL, "not a time");
	}
	is_error(&span_a, NULL, -EINVAL, "'' is not a time", NULL, "no text at all");
	for (size_t i = 0; i < sizeof(not_durations) / sizeof(not_durations[0]); i++) {
		char start[80];

		snprintf(start, sizeof(start), "'%s' is not a time: '%s' is not a duration (",
			 not_durations[i], not_durations[i] + 1);
		is_error(&span_a, not_durations[i], -EINVAL, start, NULL, "a sign without a duration");
	}
	/* Absurd values: finite, but far outside. */
	is_error(&span_a, "+1e308", -ERANGE, "'+1e308' is after the recording's end", NULL,
		 "+1e308");
	is_error(&span_a, "-1e308", -ERANGE, "'-1e308' is before the recording's start", NULL,
		 "-1e308");
	is_error(&span_a, "-2h", -ERANGE, "",
		 "'-2h' is before the recording's start (2026-11-30 08:00:01.250 to 08:14:59.500)",
		 "the message names the span, dated once");
	is_error(&span_b, "+1d", -ERANGE, "",
		 "'+1d' is after the recording's end (2026-11-30 23:50:00.000 to 2026-12-01 "
		 "00:10:00.000)", "... dated twice over midnight");
	is_error(&span_a, "9999999999", -ERANGE, "'9999999999' is after the recording's end",
		 NULL, "epoch seconds in the year 2286");
	/* 400 digits: strtod's infinity. */
	memset(big, '9', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_error(&span_a, big, -EINVAL, "'9999", NULL, "400 digits: not a time");
	tap_ok(strlen(why) < sizeof(why) - 1 && why[strlen(why) - 1] == ')',
	       "... the message whole: the text cut to fit (%zu bytes)", strlen(why));
	/* A span that is not one. */
	is_error(&(struct when_span){ .first = NAN, .last = 1796026499 }, "start", -EINVAL, "'start': the recording "
		 "has no time span", NULL, "a NaN span");
	is_error(&(struct when_span){ .first = 1796026499, .last = 1796025601 }, "end", -EINVAL, "'end': the "
		 "recording has no time span", NULL, "a span that ends before it starts");
	is_error(&(struct when_span){ .first = 1796025601, .last = INFINITY }, "-5s", -EINVAL, "'-5s': the "
		 "recording has no time span", NULL, "an infinite span");
	/* why too small: cut, never overrun. */
	{
		char small[8];
		double out;

		memset(small, 'x', sizeof(small));
		tap_ok(when_parse("yesterday", &span_a, &out, small, 6) == -EINVAL &&
		       strcmp(small, "'yest") == 0 && small[6] == 'x', "a short why is cut");
	}
}

static void
test_format(void)
{
	char buf[96];

	when_span_format(&span_a, buf, sizeof(buf));
	tap_eq_str(buf, "2026-11-30 08:00:01.250 to 08:14:59.500", "the span, dated once");
	when_span_format(&span_b, buf, sizeof(buf));
	tap_eq_str(buf, "2026-11-30 23:50:00.000 to 2026-12-01 00:10:00.000",
		   "over midnight, dated twice");
	when_span_format(&(struct when_span){ .first = 1796025601.9996, .last = 1796083199.9996 }, buf, sizeof(buf));
	tap_eq_str(buf, "2026-11-30 08:00:02.000 to 2026-12-01 00:00:00.000",
		   "milliseconds rounded, the carry into the second (and the day)");
	when_span_format(&(struct when_span){ .first = 1796025601.0004, .last = 1796025601.0004 }, buf, sizeof(buf));
	tap_eq_str(buf, "2026-11-30 08:00:01.000 to 08:00:01.000", "a span of one sample");
}

/* Central European time: summer time from 2026-03-29 02:00 (to 03:00). */
static void
test_dst(void)
{
	/* 2026-03-28 23:00 CET (22:00 UTC) for a day. */
	const struct when_span span = { .first = 1774735200, .last = 1774735200 + 86400 };

	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	is_time(&span, "23:30:00", 1774735200 + 1800, "DST: the first day, in winter time");
	/* The next day's 22:30 is summer time: 22.5 hours later, not 23.5. */
	is_time(&span, "22:30:00", 1774735200 + 22.5 * 3600, "DST: the next day, in summer time");
	is_time(&span, "2026-03-29 12:00:00", 1774778400, "DST: a date in summer time");
	is_time(&span, "2026-03-29 01:00:00", 1774735200 + 2 * 3600, "DST: a date before the change");
	is_error(&span, "-25h", -ERANGE, "",
		 "'-25h' is before the recording's start (2026-03-28 23:00:00.000 to 2026-03-30 "
		 "00:00:00.000)", "DST: the span in local time");
	setenv("TZ", "UTC", 1);
	tzset();
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	test_forms();
	test_boundaries();
	test_errors();
	test_marks();
	test_format();
	test_dst();
	return tap_done();
}
