/*
 * One sample as bytes for a recording, and back. Every field is written
 * with an id and a length, so a newer pagetop reads every older recording
 * and an older one skips what it does not know. Cumulative counters are
 * written as the difference from the previous sample of the same chunk
 * (zigzag varints: a counter reset is a negative difference, not an
 * error), names only when they changed; a sample with no previous one
 * is written whole.
 */
#ifndef PAGETOP_CODEC_H
#define PAGETOP_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/sample.h"
#include "util/text.h"

struct codec_stats {
	int unknown_fields;	/* skipped: written by a newer pagetop */
	/* Bit per source (SRC_BIT) whose chunk was a delta of prev's: of
	 * its shape, with its names. Set when the decoding succeeds. */
	unsigned delta_chunks;
};

/* The bytes of s into buf, as a delta against prev (NULL: whole).
 * Returns the length, or -ENOSPC when cap is too small. Never allocates. */
ssize_t codec_encode(const struct sample *s, const struct sample *prev, uint8_t *buf,
		     size_t cap);

/* s from len bytes, with prev the sample decoded just before (NULL when the
 * bytes were written whole; -EINVAL if they need one). 0, or -EINVAL with
 * err saying what is wrong. Never reads past len; never allocates. */
int codec_decode(const uint8_t *buf, size_t len, const struct sample *prev, struct sample *s,
		 struct codec_stats *st, struct parse_error *err);

/*
 * One reader's samples in order, as codec_decode reads them, faster: a
 * stream keeps what a delta shares with the sample before (the prediction
 * rules resolved for the counters' names, which names the last two
 * samples it decoded hold), so that a delta whose prev is the sample the
 * stream decoded last does not work it out again. The samples a stream
 * decodes must not be written but by it (replay's two, which the tick
 * only reads). Any other prev is read as codec_decode reads it. NULL
 * when out of memory.
 */
struct codec_stream;

struct codec_stream *codec_stream_new(void);
void codec_stream_free(struct codec_stream *cs);
int codec_decode_stream(struct codec_stream *cs, const uint8_t *buf, size_t len,
			const struct sample *prev, struct sample *s, struct codec_stats *st,
			struct parse_error *err);

#endif
