/*
 * An export made by several workers: the samples are cut into chunks
 * that start at keyframes (a worker reaches one without decoding what
 * came before), each worker formats the chunks it takes into a buffer of
 * its own, and the caller's thread writes the buffers out in order, so
 * the bytes are those of one worker doing it all. Only for a format whose
 * text of a sample depends on nothing but that sample (JSON lines).
 */
#ifndef PAGETOP_EXPORT_JOBS_H
#define PAGETOP_EXPORT_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What a chunk read: its samples that decoded, those that did not, and
 * why the first of those did not. */
struct export_tally {
	size_t read, unread;
	char first_why[300];
};

struct export_jobs_ops {
	/* Formats samples [lo, hi) to out with worker w's state; counts
	 * into t. */
	void (*chunk)(void *arg, int w, size_t lo, size_t hi, FILE *out, struct export_tally *t);
	/* The end of the chunk that starts at lo, at most to: its first
	 * sample's keyframe's next, or near it. */
	size_t (*end)(void *arg, size_t lo, size_t to);
};

/*
 * Samples [from, to) by jobs workers (worker w is ops->chunk's w, 0 to
 * jobs - 1), written to fd in order. The chunks' tallies are added into
 * *t, a first why the first in sample order. 0; 1 when no worker could
 * start (nothing written: the caller does it alone); or -errno, the
 * first write's or -ENOMEM for a chunk's text (the workers stop).
 */
int export_jobs_run(int jobs, size_t from, size_t to, const struct export_jobs_ops *ops,
		    void *arg, int fd, struct export_tally *t);

#endif
