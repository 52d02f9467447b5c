/*
 * Times on a recording, as the commands take them (dump --at, report and
 * export --since/--until, replay --at and its g key): a pure parser from
 * the text to seconds since the epoch, given the recording's span. It
 * prints nothing; it says what is wrong in one line.
 *
 * The forms, the same everywhere:
 *   14:03:10, 14:03:10.25     a clock time (local) on the recording's first
 *                             day, or on the day after when it is earlier
 *                             than the first sample
 *   2026-11-30 14:03:10[.25]  a local date and time (or with a T)
 *   1764477190.5              seconds since the epoch (from 1e9 on)
 *   start, end                the first and the last sample
 *   -D                        D before the last sample ("-10s", "-1h")
 *   +D                        D after the first sample ("+5m")
 * where D is what duration_parse() takes: 90, 90s, 500ms, 5m, 1.5h, 2d.
 *
 * A time outside the span is an error that names the span: never a silent
 * clamp. A written time is as precise as its last digit (a clock time
 * without a fraction is a whole second, "…11.123" a millisecond, as dump
 * and the JSON print them), so 08:00:01 names a recording that starts at
 * 08:00:01.300 and is taken as its first sample.
 */
#ifndef PAGETOP_WHEN_H
#define PAGETOP_WHEN_H

#include <stddef.h>

/* The wall times (seconds since the epoch) of a recording's first and
 * last samples: first <= last, both finite. */
struct when_span {
	double first;
	double last;
};

/* The longest one-line message of when_parse() (with a spec cut to fit). */
#define WHEN_WHY_MAX	200

/*
 * What spec means on span, in *out (within [first, last]). 0; -EINVAL when
 * spec is not a time, -ERANGE when it is outside the span; why (size bytes,
 * WHEN_WHY_MAX is enough) then says so without a prefix, e.g.
 * "'-2h' is before the recording's start (2026-11-30 08:00:01.000 to
 * 08:14:59.500)". Clock times use the local time zone (TZ).
 */
int when_parse(const char *spec, const struct when_span *span, double *out, char *why,
	       size_t size);

/* The span as the messages give it: "2026-11-30 08:00:01.000 to
 * 08:14:59.500", dated again at the end when it ends on another day. */
void when_span_format(const struct when_span *span, char *dst, size_t size);

#endif
