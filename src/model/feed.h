/*
 * A feed: what a source of samples offers everything downstream. Two
 * implement it: the live tick (source/live.c), the one place that knows
 * the sampler, the task scan, sensors, the kernel log, marks from
 * `pagetop mark` and the pagetypeinfo beat; and a recording
 * (source/replay-feed.c). The dashboard and every command wire one feed
 * to their outputs, and read each sample through the feed's tick, so
 * what they show or write does not depend on where it came from.
 *
 *	live.c ─┐
 *	        ├─> feed: next/seek ─> tick (sample + what is in force) ─> outputs
 *	replay ─┘
 */
#ifndef PAGETOP_FEED_H
#define PAGETOP_FEED_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/host.h"
#include "model/tick.h"

/* A moment a recording names: a mark, or samples the recorder lost. */
enum feed_mark_kind { FEED_MARK, FEED_GAP };

struct feed_mark {
	enum feed_mark_kind kind;
	size_t sample;		/* the first sample after it */
	double wall;		/* the mark's time, or the first lost sample's */
	double last;		/* FEED_GAP: the last lost sample's */
	uint64_t lost;		/* FEED_GAP: samples lost */
	const char *text;	/* FEED_MARK: the text, controls made '?' */
};

struct feed;

/* A sample that came within this share of the interval after the one
 * before came in a burst. */
#define FEED_BURST_SHARE	0.75

struct feed_ops {
	/* The next sample into f->tick: live, read now; a recording, the
	 * one after the current. 0; 1 at the end of a recording; -errno,
	 * with f->why, for a sample that cannot be had (a damaged one: the
	 * next call goes on after it). */
	int (*next)(struct feed *f);
	/* Sample i into f->tick (a recording); -ENOTSUP live. */
	int (*seek)(struct feed *f, size_t i);
	/* Samples in a recording; live, the ticks read so far. */
	size_t (*count)(const struct feed *f);
	/* The wall time of sample i; NAN when unknown. */
	double (*time_of)(const struct feed *f, size_t i);
	/* The last sample at or before wall time t (0 when t is earlier). */
	size_t (*find)(const struct feed *f, double t);
	/* Descriptors to poll for input the feed takes between ticks (marks
	 * sent by `pagetop mark`, PSI triggers), each with the events it
	 * waits for; returns how many it wrote, at most max. */
	int (*poll_fds)(const struct feed *f, struct pollfd *p, int max);
	/* A poll saw revents on fd, one of poll_fds': true when the next
	 * sample is due now (a PSI trigger fired: a burst begins). A poll
	 * takes a trigger's event, so every poll of poll_fds says here what
	 * it saw. */
	bool (*poll_ready)(struct feed *f, int fd, short revents);
	/* A mark that arrived live: 1 with its text, 0 when none waits. */
	int (*mark_receive)(struct feed *f, char *text, size_t size);
	/* Whether the marks sent to this feed are kept (a dashboard records
	 * them only while it records), for `pagetop mark` to count; NULL: a
	 * feed that takes no marks. */
	void (*marks_taken)(struct feed *f, bool on);
	/* The marks and gaps a recording holds, in sample order. */
	const struct feed_mark *(*marks)(const struct feed *f, size_t *n);
	void (*close)(struct feed *f);
};

struct feed {
	const struct feed_ops *ops;
	bool live;
	struct host host;
	double interval;	/* seconds between samples, as asked or recorded */
	double pti_every;	/* seconds between pagetypeinfo reads */
	/* The interval in force: interval, or the burst one while a PSI
	 * trigger fired lately (live) or the sample came sooner than
	 * interval (a recording). A burst sample is an ordinary sample. */
	double interval_now;
	bool burst;
	char burst_why[200];	/* live: why there are no bursts; "" when armed or not asked */
	size_t at;		/* the index of the sample in tick (a recording) */
	struct tick tick;	/* the current sample and what stays in force */
	/* A note for the user that is not a failure (a damaged stretch, a
	 * kernel log that cannot be read); "" when none. */
	char note[600];
	int note_err;		/* the errno behind note; EINVAL: bad input */
	char why[300];		/* why the last call failed */
};

static inline int
feed_next(struct feed *f)
{
	return f->ops->next(f);
}

static inline int
feed_seek(struct feed *f, size_t i)
{
	return f->ops->seek(f, i);
}

static inline size_t
feed_count(const struct feed *f)
{
	return f->ops->count(f);
}

static inline double
feed_time_of(const struct feed *f, size_t i)
{
	return f->ops->time_of(f, i);
}

static inline size_t
feed_find(const struct feed *f, double t)
{
	return f->ops->find(f, t);
}


static inline void
feed_marks_taken(struct feed *f, bool on)
{
	if (f->ops->marks_taken)
		f->ops->marks_taken(f, on);
}

static inline bool
feed_poll_ready(struct feed *f, int fd, short revents)
{
	return f->ops->poll_ready ? f->ops->poll_ready(f, fd, revents) : false;
}

#define FEED_POLL_MAX	4	/* descriptors a feed hands out to poll */

/* The feed's descriptors into p, each with its events (a PSI trigger is
 * POLLPRI alone: its file is always readable); how many. */
static inline int
feed_pollfds(const struct feed *f, struct pollfd *p, int max)
{
	if (max > FEED_POLL_MAX)
		max = FEED_POLL_MAX;
	return f->ops->poll_fds ? f->ops->poll_fds(f, p, max) : 0;
}

/* After a poll of p from feed_pollfds(): what each saw, to the feed; true
 * when a burst begins (the next sample is due now). */
static inline bool
feed_polled(struct feed *f, const struct pollfd *p, int n)
{
	bool due = false;

	for (int i = 0; i < n; i++)
		if (p[i].revents && feed_poll_ready(f, p[i].fd, p[i].revents) && !f->burst)
			due = true;
	return due;
}

/* When the live sample after the one just taken at taken (monotonic) is
 * due, the last one having been due at due: on the beat, at the interval
 * in force. Out of a burst, never sooner than FEED_BURST_SHARE of the
 * interval after the one taken: a tick that ran late starts the beat
 * afresh rather than catch up, so that only a burst makes short
 * intervals (readers take those for one: report, replay). In a burst
 * (a PSI trigger fired) a late tick is caught up, so its pace holds,
 * unless it is an interval behind. */
static inline double
feed_next_due(const struct feed *f, double due, double taken)
{
	due += f->interval_now;
	if (f->burst ? due < taken - f->interval_now :
		       due < taken + FEED_BURST_SHARE * f->interval_now)
		due = taken + f->interval_now;
	return due;
}

static inline int
feed_mark_receive(struct feed *f, char *text, size_t size)
{
	return f->ops->mark_receive ? f->ops->mark_receive(f, text, size) : 0;
}

static inline const struct feed_mark *
feed_marks(const struct feed *f, size_t *n)
{
	if (!f->ops->marks) {
		*n = 0;
		return NULL;
	}
	return f->ops->marks(f, n);
}

static inline void
feed_close(struct feed *f)
{
	if (f)
		f->ops->close(f);
}

#endif
