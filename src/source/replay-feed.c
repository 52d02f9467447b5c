/*
 * A recording as a feed. next() decodes the sample after the current one
 * (one sample of work); seek() anywhere decodes from the keyframe before
 * it, and first walks the samples that can hold the pagetypeinfo read in
 * force there (pti_every back), so the tick is the same whether a sample
 * was reached in order or by a jump. Kernel-log totals count from the
 * sample a seek lands on.
 */
#include "source/replay.h"
#include "util/arith.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct replay_feed {
	struct feed f;		/* first: the feed is the replay_feed */
	struct replay *rp;
	struct feed_mark *marks;
	size_t n_marks;
	size_t time_at;		/* the sample time holds the time of; SIZE_MAX */
	double time;
};

static struct replay_feed *
replay_feed_of(const struct feed *f)
{
	return (struct replay_feed *)f;
}

/* Samples searched back for the pagetypeinfo read in force. */
#define REPLAY_FEED_LOOKBACK	3600

/* The tick afresh over samples [lo, hi), for what is in force at hi. */
static void
replay_feed_walk(struct feed *f, size_t lo, size_t hi)
{
	struct replay *rp = replay_feed_of(f)->rp;

	tick_reset(&f->tick);
	for (size_t j = lo; j < hi; j++) {
		if (replay_seek(rp, j) < 0)
			continue;
		f->tick.s = rp->cur;
		f->tick.same_shape = 0;
		tick_update(&f->tick);
	}
}

/* Sample i's time from the reader, the last one asked kept: in order,
 * each is asked twice (as i, then as the one before i + 1). */
static double
replay_feed_time(struct replay_feed *rf, size_t i)
{
	if (rf->time_at != i) {
		rf->time = rec_reader_time(rf->rp->r, i);
		rf->time_at = i;
	}
	return rf->time;
}

/* Sample i, decoded, into the tick; in order unless jump. */
static int
replay_feed_load(struct feed *f, size_t i, bool jump)
{
	struct replay *rp = replay_feed_of(f)->rp;
	bool in_order = !jump && f->tick.n > 0 && f->at != SIZE_MAX && i == f->at + 1;
	int r;

	if (!in_order) {
		double iv = f->interval > 0 ? f->interval : 1;
		size_t back = (size_t)arith_ceil(f->pti_every / iv) + 1;

		/* What was in force before i: the pagetypeinfo read, within
		 * pti_every; a recording read less often than it says (or
		 * older than the header field) is searched further back. */
		replay_feed_walk(f, i > back ? i - back : 0, i);
		if (f->tick.status[SRC_PAGETYPEINFO].err == SRC_NOT_READ && i > back)
			replay_feed_walk(f, i > REPLAY_FEED_LOOKBACK ? i - REPLAY_FEED_LOOKBACK : 0, i);
		tick_reset_counts(&f->tick);
	}
	if ((r = replay_seek(rp, i)) < 0) {
		snprintf(f->why, sizeof(f->why), "%s", rp->error);
		f->at = SIZE_MAX;
		return r;
	}
	f->tick.s = rp->cur;
	/* The codec's previous sample is i - 1 when i was not a keyframe
	 * reached afresh. */
	f->tick.prev = i > 0 && (in_order || rec_reader_keyframe(rp->r, i) < i) ? rp->prev : NULL;
	f->tick.same_shape = f->tick.prev ? rp->delta_chunks : 0;
	tick_update(&f->tick);
	f->at = i;
	/* A sample that came sooner than the recording's interval: a burst. */
	if (i > 0) {
		double before = replay_feed_time(replay_feed_of(f), i - 1);

		f->interval_now = replay_feed_time(replay_feed_of(f), i) - before;
	} else
		f->interval_now = NAN;
	f->burst = f->interval_now < FEED_BURST_SHARE * f->interval;
	if (!f->burst)
		f->interval_now = f->interval;
	return 0;
}

static int
replay_feed_next(struct feed *f)
{
	size_t i = f->at == SIZE_MAX ? 0 : f->at + 1;

	if (f->at == SIZE_MAX && f->tick.n > 0)
		return -EINVAL;
	if (i >= replay_count(replay_feed_of(f)->rp))
		return 1;
	return replay_feed_load(f, i, false);
}

static int
replay_feed_seek(struct feed *f, size_t i)
{
	if (i >= replay_count(replay_feed_of(f)->rp))
		return -ERANGE;
	if (i == f->at && f->tick.n > 0)
		return 0;
	return replay_feed_load(f, i, i != f->at + 1);
}

static size_t
replay_feed_count(const struct feed *f)
{
	return replay_count(replay_feed_of(f)->rp);
}

static double
replay_feed_time_of(const struct feed *f, size_t i)
{
	const struct replay *rp = replay_feed_of(f)->rp;

	return i < replay_count(rp) ? rec_reader_time(rp->r, i) : NAN;
}

static size_t
replay_feed_find(const struct feed *f, double t)
{
	return rec_reader_find(replay_feed_of(f)->rp->r, t);
}

static const struct feed_mark *
replay_feed_marks(const struct feed *f, size_t *n)
{
	*n = replay_feed_of(f)->n_marks;
	return replay_feed_of(f)->marks;
}

static void
replay_feed_close(struct feed *f)
{
	struct replay_feed *rf = replay_feed_of(f);

	tick_free(&f->tick);
	replay_close(rf->rp);
	free(rf->marks);
	free(rf);
}

static const struct feed_ops replay_feed_ops = {
	.next = replay_feed_next,
	.seek = replay_feed_seek,
	.count = replay_feed_count,
	.time_of = replay_feed_time_of,
	.find = replay_feed_find,
	.marks = replay_feed_marks,
	.close = replay_feed_close,
};

/* The recording's marks and gaps, merged in sample order. */
static int
replay_feed_marks_build(struct replay_feed *rf)
{
	size_t nm, ng, a = 0, b = 0;
	const struct rec_mark *m = rec_reader_marks(rf->rp->r, &nm);
	const struct rec_gap *g = rec_reader_gaps(rf->rp->r, &ng);

	if (nm + ng == 0)
		return 0;
	if (!(rf->marks = calloc(nm + ng, sizeof(*rf->marks))))
		return -ENOMEM;
	while (a < nm || b < ng) {
		struct feed_mark *k = &rf->marks[rf->n_marks++];

		if (b >= ng || (a < nm && m[a].sample <= g[b].sample)) {
			*k = (struct feed_mark){ .kind = FEED_MARK, .sample = m[a].sample,
						 .wall = m[a].wall, .text = m[a].text };
			a++;
		} else {
			*k = (struct feed_mark){ .kind = FEED_GAP, .sample = g[b].sample,
						 .wall = g[b].first, .last = g[b].last, .lost = g[b].lost, .text = "" };
			b++;
		}
	}
	return 0;
}

struct feed *
replay_feed_open(const char *path, char *why, size_t size)
{
	struct replay_feed *rf = calloc(1, sizeof(*rf));
	const struct rec_header *hd;
	char what[512];
	int r;

	if (!rf) {
		snprintf(why, size, "%s: out of memory", path);
		return NULL;
	}
	if (!(rf->rp = replay_open(path, why, size))) {
		free(rf);
		return NULL;
	}
	rf->f.ops = &replay_feed_ops;
	rf->f.at = SIZE_MAX;
	rf->time_at = SIZE_MAX;
	hd = rec_reader_header(rf->rp->r);
	replay_host(rf->rp, &rf->f.host);
	rf->f.interval = rf->f.interval_now = hd->interval;
	/* Recordings before the header said: the default of the time. */
	rf->f.pti_every = hd->pti_every > 0 ? hd->pti_every : 10;
	if ((r = tick_init(&rf->f.tick, what, sizeof(what))) == -ENOMEM ||
	    replay_feed_marks_build(rf) < 0) {
		snprintf(why, size, "%s: out of memory", path);
		replay_feed_close(&rf->f);
		return NULL;
	}
	if (r < 0) {
		snprintf(rf->f.note, sizeof(rf->f.note), "%s", what);
		rf->f.note_err = -r;
	}
	rf->f.tick.s = rf->rp->cur;
	return &rf->f;
}

struct replay *
replay_feed_replay(const struct feed *f)
{
	return replay_feed_of(f)->rp;
}
