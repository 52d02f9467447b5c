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
 *   mark:TEXT, mark:TEXT#2    the moment of the first (second) mark whose
 *                             text contains TEXT
 *   event:N                   the moment of the Nth kernel-log event (from
 *                             1), as dump prints it; it picks the sample
 *                             that brought the event, like a mark's
 * each but +D and -D optionally followed by +D or -D ("mark:mke2fs-1s",
 * "end-30s", "08:21:11.2+500ms"), where D is what duration_parse() takes:
 * 90, 90s, 500ms, 5m, 1.5h, 2d. mark:TEXT is all text when a mark
 * contains it whole ("mark:phase-2" with a mark "phase-2 starts").
 *
 * Which sample a time picks (when_pick(), the one place that says it):
 * the last sample at or before it, to the millisecond (a sample printed
 * 08:21:11.198 is at 08:21:11.198); but a mark's own moment (mark:TEXT, or
 * the time printed for a mark) picks the first sample at or after the
 * mark, so that "after the mark" never shows a moment before it; an
 * event's moment (event:N, or the time printed for it) picks the sample
 * that brought it.
 *
 * A time outside the span is an error that names the span: never a silent
 * clamp. A written time is as precise as its last digit (a clock time
 * without a fraction is a whole second, "…11.123" a millisecond, as dump
 * and the JSON print them), so 08:00:01 names a recording that starts at
 * 08:00:01.300 and is taken as its first sample.
 */
#ifndef PAGETOP_WHEN_H
#define PAGETOP_WHEN_H

#include <stdbool.h>
#include <stddef.h>

/* A mark as when_parse() sees it. */
struct when_mark {
	double wall;		/* its moment */
	size_t sample;		/* the first sample at or after it */
	const char *text;
};

/* The wall times (seconds since the epoch) of a recording's first and
 * last samples: first <= last, both finite; and, for mark:TEXT and
 * when_pick(), its marks and samples (NULL: none; {first, last} is a
 * span without marks). */
struct when_span {
	double first;
	double last;
	size_t count;		/* samples */
	/* Mark i (0, 1, ... in the recording's order) into *m; false past
	 * the last. */
	bool (*mark)(const void *ctx, size_t i, struct when_mark *m);
	/* The last sample at or before wall time t (0 when t is earlier). */
	size_t (*find)(const void *ctx, double t);
	const void *ctx;
	/* Kernel-log event i (0, 1, ...) into *m (text unused), its sample
	 * the one that brought it; NULL: none known. Its own context. */
	bool (*event)(const void *ctx, size_t i, struct when_mark *m);
	const void *event_ctx;
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

/* The sample the time t (from when_parse() on span) picks: the rule
 * above. span->find must be set. */
size_t when_pick(const struct when_span *span, double t);

/* The span as the messages give it: "2026-11-30 08:00:01.000 to
 * 08:14:59.500", dated again at the end when it ends on another day. */
void when_span_format(const struct when_span *span, char *dst, size_t size);

#endif
