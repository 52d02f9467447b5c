/*
 * The recorder: an output that writes samples to a recording file from a
 * thread of its own, so a disk that stalls (a journal commit can take
 * minutes) never holds up sampling or the screen.
 *
 *	sampling thread                      writer thread
 *	codec_encode() -> recorder_push() -> queue -> rec_writer (recfile.c)
 *	                  (copies, never                compresses, writes,
 *	                   waits)                       flushes and syncs
 *
 * The queue is a ring of bytes allocated at the start. When it is full
 * the oldest samples waiting are dropped and counted, and the file gets a
 * GAP frame with the count before the next sample written. A delta sample
 * whose predecessor was dropped cannot be decoded, so the writer skips
 * such samples too (counting them) until a keyframe, and recorder_push()
 * asks for a keyframe as soon as one is needed:
 *
 *	bool key = true;
 *	for (;;) {
 *		... sample s ...
 *		len = codec_encode(&s, key ? NULL : &prev, buf, sizeof(buf));
 *		key = recorder_push(rec, s.wall, key, buf, len);
 *	}
 *
 * It also asks for one every keyframe_every samples, which bounds what
 * a seek in the recording must decode.
 */
#ifndef PAGETOP_RECORDER_H
#define PAGETOP_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptrec/recfile.h"

struct recorder_opts {
	double flush_interval;	/* seconds; 0: 5. A killed pagetop loses
				 * at most this much; the first sample is
				 * flushed at once */
	uint64_t max_size;	/* bytes of file; 0: no limit */
	size_t queue_size;	/* bytes; 0: 1 MiB */
	int keyframe_every;	/* samples; 0: REC_KEYFRAME_EVERY */
	bool no_sync;		/* no fdatasync(2) after each flush */
	double pti_every;	/* seconds between pagetypeinfo reads, written
				 * in the header unless it has its own; 0: not
				 * recorded */
};

struct recorder_status {
	uint64_t size;		/* bytes in the file */
	uint64_t samples;	/* written to it */
	uint64_t lost;		/* dropped: the queue was full */
	uint64_t marks_lost;	/* likewise */
	size_t queued;		/* samples waiting to be written */
	double behind;		/* seconds the oldest has waited */
	bool stopped;		/* by an error or at max size */
	int err;		/* why, as recorder_stop() will return it
				 * negated: EFBIG at max size, ENOSPC, EIO...;
				 * 0 while recording */
	char error[300];	/* why, as text, when stopped; else "" */
};

struct recorder;

/* Creates path (mode 0600, never overwriting) and starts the writer
 * thread; NULL with why if it cannot. A FIFO already there is written to
 * instead; a symbolic link is never followed. o may be NULL for the
 * defaults. */
struct recorder *recorder_start(const char *path, const struct rec_header *h,
    const struct recorder_opts *o, char *why, size_t whylen);
/* The same onto fd (a pipe too), which the recorder then owns. */
struct recorder *recorder_start_fd(int fd, const char *name,
    const struct rec_header *h, const struct recorder_opts *o, char *why,
    size_t whylen);

/* Queues a sample and returns at once, whatever the disk does. Returns
 * true when the next sample must be a keyframe. After the recorder
 * stopped, does nothing. */
bool recorder_push(struct recorder *rec, double wall, bool keyframe,
    const uint8_t *bytes, size_t len);
/* Queues a mark (a note in the recording) after the samples pushed. */
void recorder_mark(struct recorder *rec, double wall, const char *text);
/* For the REC indicator and the status line. */
void recorder_status(struct recorder *rec, struct recorder_status *st);
/* Writes what is queued, the index and the end, and frees rec: this
 * waits for the disk. Returns 0 or a negative errno, with why saying what
 * went wrong during the whole recording (-EFBIG: it stopped at max size). */
int recorder_stop(struct recorder *rec, char *why, size_t whylen);
/* The same, with what was finally written (samples, size, lost) in
 * final. */
int recorder_finish(struct recorder *rec, struct recorder_status *final,
    char *why, size_t whylen);

#endif
