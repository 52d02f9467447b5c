/* A recording as a source of samples: the reader and the codec together.
 * Sample i is decoded from the keyframe before it, then in order, so
 * stepping forward costs one sample and a seek at most REC_KEYFRAME_EVERY. */
#ifndef PAGETOP_REPLAY_H
#define PAGETOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/feed.h"
#include "ptrec/recfile.h"
#include "model/sample.h"

struct codec_stream;

struct replay {
	struct rec_reader *r;
	struct codec_stream *cs;	/* what decoding keeps between samples */
	struct sample *cur;	/* the last sample decoded */
	struct sample *prev;	/* the one before it, for the codec's deltas */
	size_t at;		/* the index of cur; SIZE_MAX when none */
	int unknown_fields;	/* written by a newer pagetop, skipped */
	unsigned delta_chunks;	/* of cur: its codec_stats' */
	char error[300];	/* the last decoding error, "" if none */
};

/* NULL with why when path cannot be read as a recording. */
struct replay *replay_open(const char *path, char *why, size_t size);
void replay_close(struct replay *rp);
size_t replay_count(const struct replay *rp);
/* Decodes sample i into rp->cur: 0, or -errno with rp->error saying why
 * (a damaged chunk: the samples after the next keyframe still read). */
int replay_seek(struct replay *rp, size_t i);
/* One line per damaged stretch of the file (and for a file cut short, and
 * one whose index disagrees with its frames), for a warning: "PATH:
 * damaged at byte N: M bytes skipped, K samples lost". Returns how many
 * lines it wrote into f. */
int replay_report_damage(const struct replay *rp, const char *path, FILE *f);
/* The recording host's facts in one line, for dump --info and report:
 * "vm, Linux 6.18.44 x86_64, 2 CPUs, 24684084 kB, page size 4096,
 * pageblock order 9" (a fact the recorder did not know is left out). */
/* The recording host's facts, as the header has them. */
void replay_host(const struct replay *rp, struct host *h);
void replay_host_facts(const struct replay *rp, char *dst, size_t size);

/* The recording as a feed (replay-feed.c): NULL with why when path cannot
 * be read as one. A recording of no samples opens, with a count of 0. */
struct feed *replay_feed_open(const char *path, char *why, size_t size);
/* The recording behind a feed from replay_feed_open(), for what only a
 * recording has (its header, damage, index). */
struct replay *replay_feed_replay(const struct feed *f);

#endif
