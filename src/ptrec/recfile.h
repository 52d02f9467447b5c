/*
 * The recording file: a container of opaque sample bytes (made by codec.c)
 * in append-only frames, each with a sync marker, a length, a type and a
 * CRC-32C, so a file cut short or damaged in the middle still reads up to
 * the damage and again after it. man/pagetop-recording.5 has the layout.
 *
 * Samples are compressed in chunks by one zstd stream. A keyframe (a
 * sample the codec wrote whole) starts a new zstd frame and a new chunk,
 * so reading can start there; a delta sample needs every sample since the
 * last keyframe. The writer decides nothing about keyframes: the caller
 * says which samples are, and should make one every REC_KEYFRAME_EVERY
 * samples or so (that bounds the cost of a seek) and after any sample it
 * could not record.
 *
 * Both sides are for one thread each; recorder.c runs the writer in a
 * thread of its own.
 */
#ifndef PAGETOP_RECFILE_H
#define PAGETOP_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_MAJOR		2	/* written; 1.x is read too, a newer
					 * major refused */
#define REC_MINOR		3	/* newer minors are read */
#define REC_SAMPLE_MAX		(1u << 20)	/* bytes */
#define REC_MARK_MAX		255	/* bytes of a mark's text */
#define REC_KEYFRAME_EVERY	60	/* advice: bounds a seek */

/* The recording host's facts, written once at the start. Strings are
 * NUL-terminated and cut to fit when read; a number the writer did not
 * know is -1 (0 for the times). */
struct rec_header {
	char hostname[65];
	char release[65];	/* kernel release */
	char machine[65];	/* "x86_64" */
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id */
	char version[32];	/* pagetop's */
	char cmdline[1024];	/* how pagetop was started */
	long page_size;		/* bytes */
	int pageblock_order;
	int nodes;
	int cpus;
	int64_t mem_kb;		/* MemTotal */
	double interval;	/* seconds between samples */
	double start;		/* wall time, seconds since the epoch */
	double pti_every;	/* seconds between pagetypeinfo reads; 0: not
				 * recorded (files before format 2.1) */
};

/* Fills h with "unknown" values, to set the known ones after. */
void rec_header_init(struct rec_header *h);

/* CRC-32C (Castagnoli) of len bytes, continuing from crc (0 to start). */
uint32_t rec_crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * Writing. Every function returns 0 or a negative errno. The first error
 * is kept: later calls return it again, and rec_writer_error() says what
 * it was ("PATH: No space left on device"). A failed write never leaves
 * half a frame behind when the file can be truncated, so the file stays
 * readable up to the last frame that was written whole.
 */
struct rec_writer;

/* Creates path with mode 0600; an existing file is never overwritten.
 * h may be NULL: nothing known. */
struct rec_writer *rec_writer_open(const char *path, const struct rec_header *h,
    char *why, size_t whylen);
/* Writes onto fd (a pipe too: "pagetop --record - | ssh ..."), which it
 * then owns; name is for messages. */
struct rec_writer *rec_writer_fdopen(int fd, const char *name,
    const struct rec_header *h, char *why, size_t whylen);
/* Keeps the whole file, index and end included, within max bytes: a
 * frame that would not leave room for them is not written, the file is
 * closed properly instead and -EFBIG returned from then on. 0: no limit. */
void rec_writer_set_limit(struct rec_writer *w, uint64_t max);

/* Adds a sample: compressed now, written at the next flush (or when the
 * chunk is full, or at the next keyframe). -EINVAL for a delta sample
 * when the last keyframe was not written (first sample, after a gap). */
int rec_writer_sample(struct rec_writer *w, double wall, bool keyframe,
    const uint8_t *bytes, size_t len);
/* A note at wall time, after the samples added so far; text is cut to
 * REC_MARK_MAX bytes. Flushes first, so frames stay in time order. */
int rec_writer_mark(struct rec_writer *w, double wall, const char *text);
/* lost samples, taken from first to last, were not recorded here. The
 * next sample must be a keyframe. Flushes first. */
int rec_writer_gap(struct rec_writer *w, double first, double last,
    uint64_t lost);
/* Writes the samples added since the last flush as one chunk frame (with
 * write(2): a killed process loses nothing written, a crashed machine may). */
int rec_writer_flush(struct rec_writer *w);
/* fdatasync(2): what was flushed survives a power loss. */
int rec_writer_sync(struct rec_writer *w);
/* The descriptor another thread may fdatasync(2) for w (-1: a pipe, nothing
 * to sync), and that thread's failure, made w's error (returns -e). */
int rec_writer_sync_fd(const struct rec_writer *w);
int rec_writer_sync_failed(struct rec_writer *w, int e);
/* Flushes, writes the index and end frames, syncs and frees w. Returns
 * the first error of w's life; why gets its text. */
int rec_writer_close(struct rec_writer *w, char *why, size_t whylen);
/* Frees w without writing anything more, as a crash would leave it. */
void rec_writer_abandon(struct rec_writer *w);

/* Bytes written; samples written in them; samples added since; the first
 * error's text ("" if none). */
uint64_t rec_writer_size(const struct rec_writer *w);
uint64_t rec_writer_samples(const struct rec_writer *w);
size_t rec_writer_pending(const struct rec_writer *w);
const char *rec_writer_error(const struct rec_writer *w);

/*
 * Reading. Samples are numbered from 0 in the order written; a gap marks
 * where the recorder dropped some. When the file was closed properly its
 * index lists every sample and open reads nothing else: a chunk found
 * damaged later makes rec_reader_get() fail for its samples (and the rest
 * of its zstd frame), and rec_reader_verify() finds all such chunks at
 * once. Otherwise open reads every frame and leaves out the samples that
 * cannot be decoded; the damage list counts them.
 */
struct rec_reader;

struct rec_mark {
	double wall;
	size_t sample;		/* the first sample after the mark */
	char text[REC_MARK_MAX + 1];	/* control characters made '?' */
};

struct rec_gap {
	double first, last;	/* wall times of the first and last lost */
	uint64_t lost;
	size_t sample;		/* the first sample after the gap */
};

/* Bytes that could not be read as frames, or a frame found damaged; in
 * the order found. */
struct rec_damage {
	uint64_t offset;
	uint64_t bytes;
	uint64_t lost;		/* samples known lost there */
};

struct rec_info {
	int major, minor;
	bool indexed;		/* read by the index: closed properly */
	uint64_t size;		/* of the file */
	uint64_t tail;		/* bytes after the last whole frame */
	int unknown_frames;	/* of types a newer pagetop writes */
	int unknown_fields;	/* header fields likewise */
	char why_scanned[120];	/* why the index was not used; "" */
};

/* NULL with why "PATH: not a pagetop recording" (or another reason) when
 * it cannot be read at all. Reads the index when the file was closed
 * properly, after checking it against the frames it names, else every
 * frame (resynchronising after damage). Memory is 48 bytes a chunk (at
 * most 4096 samples) whatever the file claims, plus about 5 MB to read and
 * decode (a chunk expands to at most 4 MiB), and while opening the index
 * frame (at most 64 MiB). */
struct rec_reader *rec_reader_open(const char *path, char *why, size_t whylen);
void rec_reader_close(struct rec_reader *r);

const struct rec_header *rec_reader_header(const struct rec_reader *r);
void rec_reader_info(const struct rec_reader *r, struct rec_info *info);
size_t rec_reader_count(const struct rec_reader *r);
double rec_reader_time(const struct rec_reader *r, size_t i);
/* The last sample at or before wall (0 if wall is before the first). */
size_t rec_reader_find(const struct rec_reader *r, double wall);
/* The keyframe that sample i's decoding starts from (at or before i). */
size_t rec_reader_keyframe(const struct rec_reader *r, size_t i);

/*
 * Sample i's bytes, valid until the next call on r. Decoding starts at
 * the keyframe before i unless the previous call was for i - 1, so reading
 * in order costs one sample a call. The codec needs the same: to show
 * sample i, decode rec_reader_keyframe(r, i) .. i in order.
 * -ERANGE past the end; -EIO when the chunk holding it (or one it depends
 * on) turns out damaged: it joins the damage list and rec_reader_error()
 * says where; the next keyframe reads again.
 */
int rec_reader_get(struct rec_reader *r, size_t i, const uint8_t **bytes,
    size_t *len, bool *keyframe);
const char *rec_reader_error(const struct rec_reader *r);

/* Reads and checks every chunk now rather than when it is first decoded;
 * returns how many are damaged. Costs one read of the file. */
int rec_reader_verify(struct rec_reader *r);

const struct rec_mark *rec_reader_marks(const struct rec_reader *r, size_t *n);
const struct rec_gap *rec_reader_gaps(const struct rec_reader *r, size_t *n);
const struct rec_damage *rec_reader_damage(const struct rec_reader *r,
    size_t *n);
/* Adds the damage that src, another reader of the same file, found and r
 * has not (the same offset), then orders r's list by offset: what
 * workers that read parts of a file each found (export --jobs). 0, or
 * -ENOMEM. */
int rec_reader_damage_merge(struct rec_reader *r,
    const struct rec_reader *src);

#endif
