/*
 * Times on a recording: the text a user types (a clock time, a date, epoch
 * seconds, start, end, +D, -D, mark:TEXT, each with an offset) to seconds
 * since the epoch within the
 * recording's span. Pure: no I/O, no globals but the C library's time
 * zone; the forms are listed in when.h.
 */
#include "util/when.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/arith.h"
#include "util/duration.h"
#include "util/fmt.h"

/* Relative times and the span's ends are to the half millisecond: the
 * JSON and dump print milliseconds, rounded. */
#define WHEN_SLACK	0.0005

/* Epoch seconds start here (2001-09-09): a smaller bare number is more
 * likely a duration without its sign. */
#define WHEN_EPOCH_MIN	1e9

#define WHEN_FORMS	"14:03:10.2, \"2026-11-30 14:03:10\", epoch seconds, start, end, " \
			"+5m, -30s, mark:TEXT[#N], each with +D or -D after it"

/* The longest spec taken (longer is not a time). */
#define WHEN_SPEC_MAX	300

/* A written time: its fields, and how precise it is. */
struct when_text {
	int year, mon, mday;	/* a date, when has_date */
	int hour, min, sec;
	double frac;		/* of a second, [0, 1) */
	double unit;		/* one unit of the last digit written, in seconds */
	bool has_date;
};

/* 1 to max digits at *p into *out; false when there are none. */
static bool
when_digits(const char **p, int max, int *out)
{
	int n = 0, v = 0;

	while (n < max && **p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	*out = v;
	return n > 0;
}

/* ".25" at *p: the fraction and the unit of its last digit; none is 0 and
 * a whole unit. */
static bool
when_fraction(const char **p, double *frac, double *unit)
{
	double scale = 1;

	*frac = 0;
	*unit = 1;
	if (**p != '.')
		return true;
	(*p)++;
	if (**p < '0' || **p > '9')
		return false;
	while (**p >= '0' && **p <= '9') {
		scale /= 10;
		*frac += (**p - '0') * scale;
		(*p)++;
	}
	*unit = scale;
	return true;
}

/* "HH:MM:SS[.frac]" at *p, to its end. */
static bool
when_clock(const char *p, struct when_text *w)
{
	if (!when_digits(&p, 2, &w->hour) || *p++ != ':' || !when_digits(&p, 2, &w->min) ||
	    *p++ != ':' || !when_digits(&p, 2, &w->sec) || !when_fraction(&p, &w->frac, &w->unit))
		return false;
	return *p == '\0' && w->hour < 24 && w->min < 60 && w->sec < 60;
}

/* "YYYY-MM-DD HH:MM:SS[.frac]" (or with a T): the date, then the clock. */
static bool
when_date(const char *p, struct when_text *w)
{
	const char *start = p;

	if (!when_digits(&p, 4, &w->year) || p - start != 4 || *p++ != '-' ||
	    !when_digits(&p, 2, &w->mon) || *p++ != '-' || !when_digits(&p, 2, &w->mday) ||
	    (*p != ' ' && *p != 'T'))
		return false;
	w->has_date = true;
	return w->mon >= 1 && w->mon <= 12 && w->mday >= 1 && w->mday <= 31 &&
	       when_clock(p + 1, w);
}

/* Seconds since the epoch of a local date and time (mday may be one past
 * the month's end: the next day). With exact, false when the date does
 * not exist (2026-02-30: mktime moves it into the next month). */
static bool
when_local(int year, int mon, int mday, const struct when_text *w, bool exact, double *out)
{
	struct tm tm = {
		.tm_year = year - 1900, .tm_mon = mon - 1, .tm_mday = mday,
		.tm_hour = w->hour, .tm_min = w->min, .tm_sec = w->sec, .tm_isdst = -1,
	};
	time_t t = mktime(&tm);

	if (exact && (tm.tm_year != year - 1900 || tm.tm_mon != mon - 1))
		return false;
	*out = (double)t + w->frac;
	return true;
}

/* "2026-11-30 08:00:01.000" or, with date false, "08:00:01.000". */
static void
when_format(double t, bool date, char *dst, size_t size)
{
	fmt_moment(t, date ? FMT_DATE : FMT_CLOCK, dst, size);
}

void
when_span_format(const struct when_span *span, char *dst, size_t size)
{
	time_t ta = (time_t)arith_floor((double)arith_llround(span->first * 1000) / 1000);
	time_t tb = (time_t)arith_floor((double)arith_llround(span->last * 1000) / 1000);
	struct tm da, db;
	char first[40], last[40];
	bool same_day;

	same_day = localtime_r(&ta, &da) && localtime_r(&tb, &db) && da.tm_year == db.tm_year &&
		   da.tm_yday == db.tm_yday;
	when_format(span->first, true, first, sizeof(first));
	when_format(span->last, !same_day, last, sizeof(last));
	snprintf(dst, size, "%s to %s", first, last);
}

/* The -ERANGE message: spec is before or after the span. */
static int
when_outside(const char *spec, const struct when_span *span, const char *where, char *why,
	     size_t size)
{
	char range[96];

	when_span_format(span, range, sizeof(range));
	snprintf(why, size, "'%.60s' is %s (%s)", spec, where, range);
	return -ERANGE;
}

static int
when_not_a_time(const char *spec, char *why, size_t size)
{
	snprintf(why, size, "'%.60s' is not a time (" WHEN_FORMS ")", spec);
	return -EINVAL;
}

/* A bare number: seconds since the epoch, from WHEN_EPOCH_MIN on. */
static bool
when_epoch(const char *spec, double *t, double *unit)
{
	const char *p = spec;
	double frac;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == spec || !when_fraction(&p, &frac, unit) || *p != '\0')
		return false;
	*t = strtod(spec, NULL);
	return isfinite(*t) && *t >= WHEN_EPOCH_MIN;
}

/* What a spec's base (the part before an offset) says. */
struct when_base {
	double t;
	double slack;		/* how precise it was written */
	bool next_day;		/* a clock time taken on the day after */
	bool mark;		/* a mark's moment */
};

/* "TEXT" or "TEXT#N" (N from 1): the moment of the Nth mark whose text
 * contains TEXT. */
static int
when_mark(const char *spec, const char *text, const struct when_span *span,
	  struct when_base *b, char *why, size_t size)
{
	char needle[WHEN_SPEC_MAX + 1];
	const char *hash = strrchr(text, '#');
	size_t want = 1, len = strlen(text), k = 0, all = 0;
	struct when_mark m;

	if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
		want = strtoul(hash + 1, NULL, 10);
		len = (size_t)(hash - text);
		if (want == 0) {
			snprintf(why, size, "'%.60s' is not a time: marks count from #1", spec);
			return -EINVAL;
		}
	}
	snprintf(needle, sizeof(needle), "%.*s", (int)len, text);
	for (size_t i = 0; span->mark && span->mark(span->ctx, i, &m); i++, all++)
		if (strstr(m.text, needle) && ++k == want) {
			b->t = m.wall;
			b->mark = true;
			return 0;
		}
	if (all == 0)
		snprintf(why, size, "'%.60s': the recording has no marks", spec);
	else if (k == 0)
		snprintf(why, size, "'%.60s': no mark contains '%.60s' (%zu marks; dump --info "
			 "lists them)", spec, needle, all);
	else
		snprintf(why, size, "'%.60s': only %zu mark%s contain%s '%.60s'", spec, k,
			 k == 1 ? "" : "s", k == 1 ? "s" : "", needle);
	return -ERANGE;
}

/* "N" (from 1): the moment of the Nth kernel-log event. */
static int
when_event(const char *spec, const char *num, const struct when_span *span,
	   struct when_base *b, char *why, size_t size)
{
	struct when_mark m;
	size_t want, all = 0;

	if (!num[0] || strspn(num, "0123456789") != strlen(num) || strlen(num) > 9 ||
	    (want = strtoul(num, NULL, 10)) == 0) {
		snprintf(why, size, "'%.60s' is not a time: events count from event:1", spec);
		return -EINVAL;
	}
	for (size_t i = 0; span->event && span->event(span->event_ctx, i, &m); i++, all++)
		if (i + 1 == want) {
			b->t = m.wall;
			b->mark = true;
			return 0;
		}
	if (all == 0)
		snprintf(why, size, "'%.60s': the recording has no kernel-log events", spec);
	else
		snprintf(why, size, "'%.60s': the recording has %zu kernel-log event%s", spec,
			 all, all == 1 ? "" : "s");
	return -ERANGE;
}

/* spec (whole, for the messages) without an offset: base. */
static int
when_base(const char *spec, const char *base, const struct when_span *span,
	  struct when_base *b, char *why, size_t size)
{
	struct when_text w = { 0 };
	double d;

	b->slack = WHEN_SLACK;
	b->next_day = b->mark = false;
	if (strcmp(base, "start") == 0) {
		b->t = span->first;
	} else if (strcmp(base, "end") == 0) {
		b->t = span->last;
	} else if (strncmp(base, "mark:", 5) == 0) {
		return when_mark(spec, base + 5, span, b, why, size);
	} else if (strncmp(base, "event:", 6) == 0) {
		return when_event(spec, base + 6, span, b, why, size);
	} else if (base[0] == '+' || base[0] == '-') {
		if (duration_parse(base + 1, &d) < 0) {
			snprintf(why, size, "'%.60s' is not a time: '%.60s' is not a duration "
				 "(90, 90s, 500ms, 5m, 1.5h, 2d)", spec, base + 1);
			return -EINVAL;
		}
		b->t = base[0] == '+' ? span->first + d : span->last - d;
	} else if (when_clock(base, &w)) {
		time_t f = (time_t)arith_floor(span->first);
		struct tm day;

		/* On the first sample's day, or the day after when earlier. */
		if (!localtime_r(&f, &day) ||
		    !when_local(day.tm_year + 1900, day.tm_mon + 1, day.tm_mday, &w, true, &b->t))
			return when_not_a_time(spec, why, size);
		b->slack = arith_max(w.unit, WHEN_SLACK);
		if (b->t < span->first - b->slack) {
			if (!when_local(day.tm_year + 1900, day.tm_mon + 1, day.tm_mday + 1, &w, false,
					&b->t))
				return when_not_a_time(spec, why, size);
			b->next_day = true;
		}
	} else if (when_date(base, &w)) {
		if (!when_local(w.year, w.mon, w.mday, &w, true, &b->t))
			return when_not_a_time(spec, why, size);
		b->slack = arith_max(w.unit, WHEN_SLACK);
	} else if (when_epoch(base, &b->t, &w.unit)) {
		b->slack = arith_max(w.unit, WHEN_SLACK);
	} else
		return when_not_a_time(spec, why, size);
	return isfinite(b->t) ? 0 : when_not_a_time(spec, why, size);
}

/* The offset at the end of spec ("-1s" of "mark:x-1s"): its position and
 * seconds (signed); 0 when spec does not end in one. */
static size_t
when_offset(const char *spec, double *d)
{
	for (size_t p = strlen(spec); p-- > 1;)
		if ((spec[p] == '+' || spec[p] == '-') && duration_parse(spec + p + 1, d) == 0) {
			if (spec[p] == '-')
				*d = -*d;
			return p;
		}
	return 0;
}

int
when_parse(const char *spec, const struct when_span *span, double *out, char *why, size_t size)
{
	char base[WHEN_SPEC_MAX + 1];
	struct when_base b;
	double t, d = 0;
	size_t p;
	int r;

	if (!spec)
		spec = "";
	if (!(span->first <= span->last) || !isfinite(span->first) || !isfinite(span->last)) {
		snprintf(why, size, "'%.60s': the recording has no time span", spec);
		return -EINVAL;
	}
	if (strlen(spec) > WHEN_SPEC_MAX)
		return when_not_a_time(spec, why, size);
	/* The whole first (a mark "phase-2"), then with the offset cut off. */
	if ((r = when_base(spec, spec, span, &b, why, size)) < 0) {
		char why2[WHEN_WHY_MAX];

		if ((p = when_offset(spec, &d)) == 0)
			return r;
		snprintf(base, sizeof(base), "%.*s", (int)p, spec);
		/* What is before the offset not being a time either, the
		 * whole's message says more ("+-5"); a mark not found, its. */
		if ((r = when_base(spec, base, span, &b, why2, sizeof(why2))) < 0) {
			if (r == -ERANGE)
				snprintf(why, size, "%s", why2);
			return r;
		}
		b.mark = false;
	}
	t = b.t + d;
	if (!isfinite(t))
		return when_not_a_time(spec, why, size);
	/* A mark before the first sample is at it: the first sample is the
	 * first after the mark. */
	if (t < span->first - b.slack && !b.mark)
		return when_outside(spec, span, "before the recording's start", why, size);
	if (t > span->last + b.slack)
		return when_outside(spec, span, b.next_day ? "not within the recording" :
				    "after the recording's end", why, size);
	*out = arith_min(arith_max(t, span->first), span->last);
	return 0;
}

size_t
when_pick(const struct when_span *span, double t)
{
	struct when_mark m;

	/* A mark's moment, as named or as printed (to the millisecond). */
	for (size_t i = 0; span->mark && span->mark(span->ctx, i, &m); i++)
		if (fabs(m.wall - t) <= WHEN_SLACK + 1e-6 && m.sample < span->count)
			return m.sample;
	for (size_t i = 0; span->event && span->event(span->event_ctx, i, &m); i++)
		if (fabs(m.wall - t) <= WHEN_SLACK + 1e-6 && m.sample < span->count)
			return m.sample;
	/* The start is the first sample, however close the next one is. */
	if (t <= span->first)
		return span->find(span->ctx, span->first);
	return span->find(span->ctx, t + WHEN_SLACK);
}
