/*
 * What the parts of the recording container share (recfile.h is the
 * public side; man/pagetop-recording.5 has the layout):
 *
 *	file head	"\x89PAGETOP REC\r\n\x1a\n", u16 major, u16 minor
 *	frames		"PTfr", u32 length, u8 type, u8 flags, u16 0,
 *			u32 CRC-32C of length..reserved and the payload,
 *			payload
 *
 * in this order: HEADER, then CHUNK, MARK and GAP frames as they happen,
 * then INDEX and END when the recording was closed properly. Integers are
 * little-endian, times microseconds since the epoch.
 *
 * The writer (recfile-write.c) compresses samples into one zstd stream: a
 * chunk ends with a zstd flush, so each chunk decodes given those before
 * it back to the keyframe chunk that began the zstd frame. A reader
 * (recfile-read.c) uses the index when there is one (recfile-index.c),
 * and otherwise reads every frame (recfile-scan.c), skips what fails its
 * CRC by looking for the next sync marker whose frame checks, and leaves
 * out the samples that cannot be decoded. recfile-common.c holds the file
 * head, the HEADER frame and the helpers all of them use.
 */
#ifndef PAGETOP_RECFILE_INT_H
#define PAGETOP_RECFILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zstd.h>

#include "ptrec/recfile.h"

#define FILE_MAGIC	"\x89PAGETOP REC\r\n\x1a\n"
#define MAGIC_LEN	16
#define HEAD_LEN	20		/* magic, major, minor */
#define SYNC		"PTfr"
#define FRAME_HEAD	16
#define FRAME_MAX	(64u << 20)	/* payload bytes */

enum frame_type {
	FT_HEADER = 1,
	FT_CHUNK = 2,
	FT_MARK = 3,
	FT_GAP = 4,
	FT_INDEX = 5,
	FT_END = 6
};
#define CHUNK_KEYFRAME	0x01		/* frame flag: new zstd frame */
#define SAMPLE_KEYFRAME	0x01		/* record flag */

#define CHUNK_FIXED	24		/* 1.x: chunk payload before times */
#define INDEX_FIXED	24		/* 1.x */
#define INDEX_ENTRY	32		/* 1.x */
#define INDEX2_FIXED_MAX 30		/* 2.x: three varints */
#define INDEX2_ENTRY_MAX 34		/* 2.x: six varints, 10+5+2+2+10+5 */
#define END_PAYLOAD	16
#define END_FRAME	(FRAME_HEAD + END_PAYLOAD)

/* The writer ends a chunk at this size or count even between flushes. */
#define CHUNK_RAW_MAX	(1u << 20)
#define CHUNK_COUNT_MAX	4096
/* A reader decompresses at most this much of one chunk, and refuses a
 * chunk whose zstd frame says it holds more. */
#define CHUNK_DEC_MAX	(2 * CHUNK_RAW_MAX + 2 * REC_SAMPLE_MAX)
/* The head and times of a chunk: what a reader reads of it for its times
 * (2.x: two varints, then a varint a sample; 1.x: the fixed part first). */
#define CHUNK_TIMES_MAX	(FRAME_HEAD + 64 + 10 * CHUNK_COUNT_MAX)
/* Chunks whose times a reader keeps decoded, the most recent. */
#define TIME_CACHE	4
/* No frame but an INDEX (or one of a newer type) is longer than this: a
 * chunk's compressed bytes are fewer than it expands to, and its times
 * fit in the rest. Reading without the index checks no longer one. */
#define FRAME_CHECK_MAX	(CHUNK_DEC_MAX + (64u << 10))
/* A recorder compresses a few hundred bytes a second, a frame (150
 * samples, to the next keyframe) 100 KB raw or more. Chosen by measure
 * (bench/zstd-levels.c on a recording of bench/pressure-workload.sh:
 * session 7, 1,299 samples of 723 raw bytes, keyframes every 150 as the
 * recorder makes them): level 9 with a 256 KiB window and tables of 2^14
 * gives 6.0% fewer bytes than level 3 with 64 KiB and 2^13 (185.7
 * against 197.6 a sample) for 0.06 MB more memory touched (0.84 MB, the
 * code included) and 11 us a sample against 4.5. Level 12 at 2^15, 7.3%
 * for 0.15 MB more; level 9 at 2^16, 7.5% for 0.34 MB; level 19, 10%
 * for 0.7 MB and 100 times the CPU. The level does most of it: level 3
 * with the 256 KiB window (tables of 2^15) gives only 2.2%. Readers take
 * any window up to ZSTD_WINDOW_MAX: older pagetops read these files.
 * Session 9, keyframes every 300: a 128 KiB window gives the same bytes
 * as 256 KiB (170.1 a sample under the workload, 862 raw; 180.8 on a
 * synthetic day) for 0.10 MB less memory; 64 KiB costs 1.3% for 0.06
 * MB more saved. */
#define ZSTD_LEVEL	9
#define ZSTD_HASH_LOG	14
#define ZSTD_WINDOW_LOG	17
#define ZSTD_WINDOW_MAX	23		/* what a reader accepts */

/* The reader. */
#define WINDOW		(1u << 20)	/* read ahead while scanning */
#define DECODE_AHEAD	(256u << 10)	/* and while decoding */
#define SMALL_AHEAD	4096		/* reading one small frame */
#define END_SEARCH	256		/* last bytes searched for END */

struct chunk {
	uint64_t off;		/* of its frame */
	uint32_t len;		/* of its frame, head included */
	uint32_t count;
	uint64_t first;		/* our number of its first sample */
	int64_t t0;		/* its first sample's time, microseconds */
	size_t key;		/* the chunk its zstd frame starts at */
	bool keyframe;
	bool bad;		/* found damaged when read */
};

/* A chunk's times, as recfile-times.c reads them from its frame. */
struct chunk_times {
	size_t chunk;		/* SIZE_MAX: none */
	uint64_t used;		/* when last used, for the cache */
	uint32_t count;
	uint64_t first;		/* the writer's number of its first sample */
	int64_t t[CHUNK_COUNT_MAX];
};

struct record {
	size_t off;		/* of its flags byte in dbuf */
	size_t len;
};

struct frame {
	uint64_t off;
	int type, flags;
	const uint8_t *p;	/* payload, in the window */
	uint32_t len;
};

enum { FRAME_OK, FRAME_BAD, FRAME_CUT, FRAME_ERR };

struct rec_reader {
	int fd;
	char *name;
	struct rec_header hdr;
	struct rec_info info;

	struct chunk *chunks;	/* every chunk's place and first time: all
				 * that is kept for the whole file */
	size_t nchunks, chunks_cap;
	size_t count;		/* samples */
	struct chunk_times *tcache;	/* TIME_CACHE chunks' times */
	uint64_t tclock;
	uint8_t *tbuf;		/* CHUNK_TIMES_MAX bytes, read with pread */
	struct rec_mark *marks;
	size_t nmarks, marks_cap;
	struct rec_gap *gaps;
	size_t ngaps, gaps_cap;
	struct rec_damage *damage;
	size_t ndamage, damage_cap;

	uint8_t *win;		/* a window on the file */
	size_t wcap, wlen;
	uint64_t wbase;
	int rerr;		/* why the window could not be filled */

	ZSTD_DCtx *dctx;
	long dec;		/* the chunk decoded into dbuf, -1 none */
	uint8_t *dbuf;
	size_t dlen, dcap;
	struct record *recs;	/* its samples */
	size_t recs_cap;
	char error[512];
};

/* A chunk's payload. */
struct chunk_body {
	uint32_t count;
	uint64_t first;
	const uint8_t *times, *z;
	size_t tlen, zlen;
};

/* recfile-common.c */
uint32_t recfile_frame_crc(const uint8_t *head, const uint8_t *payload,
    size_t len);
bool recfile_grow(void *bufp, size_t *cap, size_t need, size_t elem);
void recfile_say(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *recfile_errstr(int e, char *buf, size_t len);
void recfile_head_encode(uint8_t *head);
bool recfile_head_decode(const uint8_t *head, size_t n, const char *path,
    int *major, int *minor, char *why, size_t whylen);
size_t recfile_header_encode(const struct rec_header *h, uint8_t *p);
void recfile_copy_text(char *dst, size_t size, const uint8_t *p, size_t len);
void recfile_header_decode(struct rec_reader *r, const uint8_t *p,
    size_t len);

/* recfile-scan.c */
const uint8_t *recfile_window(struct rec_reader *r, uint64_t off, size_t n,
    size_t ahead);
int recfile_frame_at(struct rec_reader *r, uint64_t off, struct frame *f,
    size_t ahead);
bool recfile_damage_add(struct rec_reader *r, uint64_t off, uint64_t bytes,
    uint64_t lost);
bool recfile_event_add(struct rec_reader *r, const struct frame *f,
    size_t sample);
bool recfile_chunk_parse(int major, const uint8_t *p, size_t len,
    struct chunk_body *b);
bool recfile_chunk_add(struct rec_reader *r, uint64_t off, uint64_t len,
    uint32_t count, int64_t t0, bool keyframe);
int recfile_scan(struct rec_reader *r);

/* recfile-resync.c: the frames of a file in one pass (see there). */
struct recfile_resync;
struct recfile_resync *recfile_resync_new(void);
void recfile_resync_free(struct recfile_resync *rs);
/* The next whole frame at or after from: FRAME_OK, FRAME_CUT when there
 * is none, FRAME_ERR (r->rerr says why). f->p is NULL for a frame longer
 * than FRAME_CHECK_MAX (an INDEX, a newer type): its payload is not read. Calls in turn with from at the
 * end of the frame before cost one read of the file in all. */
int recfile_resync_next(struct rec_reader *r, struct recfile_resync *rs,
    uint64_t from, struct frame *f);

/* recfile-times.c: times are kept per chunk and read again on demand. */
/* n times coded as zigzag deltas from 0, each but the first less step
 * too, from p..end into t (NULL: only checked); the first into *t0. The
 * end of what was read, or NULL if p..end does not hold them. */
const uint8_t *recfile_times_decode(const uint8_t *p, const uint8_t *end,
    uint64_t n, uint64_t step, int64_t *t, int64_t *t0);
/* The frame at off, len bytes with its head, read as a chunk's head and
 * times into ct (not its zstd data, not its CRC): 0, FRAME_CUT when its
 * head is not that of such a chunk, FRAME_BAD when its times do not read,
 * FRAME_ERR when it cannot be read (r->rerr). */
int recfile_times_read(struct rec_reader *r, uint64_t off, uint64_t len,
    int flags, struct chunk_times *ct);
/* Whether the frame at off, len bytes with its head, is whole and its CRC
 * right, read with pread in pieces (not into the window). */
bool recfile_frame_checks(struct rec_reader *r, uint64_t off, uint64_t len);
bool recfile_times_init(struct rec_reader *r);
void recfile_times_free(struct rec_reader *r);

/* recfile-index.c */
int recfile_index_load(struct rec_reader *r);

#endif
