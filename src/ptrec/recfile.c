/*
 * The recording container (man/pagetop-recording.5):
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
 * The writer compresses samples into one zstd stream: a chunk ends with
 * a zstd flush, so each chunk decodes given those before it back to the
 * keyframe chunk that began the zstd frame. A reader uses the index when
 * there is one, and otherwise reads every frame, skips what fails its
 * CRC by looking for the next sync marker whose frame checks, and leaves
 * out the samples that cannot be decoded.
 */

#include "ptrec/recfile.h"
#include "util/wire.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

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
/* A reader decompresses at most this much of one chunk. */
#define CHUNK_DEC_MAX	(2 * CHUNK_RAW_MAX + 2 * REC_SAMPLE_MAX)
/* A recorder compresses a few hundred bytes a second: the strongest level
 * costs some 30 us a sample and saves 7% over level 3. Its match tables
 * are cut to what a 2 MiB window of such data needs (4 MB, not 85). */
#define ZSTD_LEVEL	19
#define ZSTD_HASH_LOG	16
#define ZSTD_WINDOW_LOG	21
#define ZSTD_WINDOW_MAX	23		/* what a reader accepts */

enum header_field {
	HF_HOSTNAME = 1,
	HF_RELEASE = 2,
	HF_MACHINE = 3,
	HF_PAGE_SIZE = 4,
	HF_PAGEBLOCK_ORDER = 5,
	HF_NODES = 6,
	HF_CPUS = 7,
	HF_MEM_KB = 8,
	HF_BOOT_ID = 9,
	HF_VERSION = 10,
	HF_INTERVAL_US = 11,
	HF_START_US = 12,
	HF_CMDLINE = 13
};

/* Bytes used, or 0 if p..end does not hold a whole varint of 64 bits. */

/* Seconds to microseconds, without libm; times out of range (beyond
 * some 100,000 years, where differences could overflow) become 0. */

/* CRC-32C, reflected polynomial 0x82F63B78, slicing by 8. */

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void
crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
			    crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t
rec_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t lo, hi;

	pthread_once(&crc_once, crc_init);
	crc = ~crc;
	while (len >= 8) {
		lo = crc ^ wire_get32(p);
		hi = wire_get32(p + 4);
		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		    crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		    crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		    crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* The CRC a frame head carries: of its length..reserved and payload. */
static uint32_t
frame_crc(const uint8_t *head, const uint8_t *payload, size_t len)
{
	return rec_crc32c(rec_crc32c(0, head + 4, 8), payload, len);
}

/* Grows *buf to hold at least need bytes; false if memory ran out. */
static bool
grow(void *bufp, size_t *cap, size_t need, size_t elem)
{
	void **buf = bufp;
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	if ((p = realloc(*buf, n * elem)) == NULL)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

static void __attribute__((format(printf, 3, 4)))
say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why == NULL || whylen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

static const char *
errstr(int e, char *buf, size_t len)
{
	return strerror_r(e, buf, len);
}

void
rec_header_init(struct rec_header *h)
{
	memset(h, 0, sizeof(*h));
	h->page_size = -1;
	h->pageblock_order = -1;
	h->nodes = -1;
	h->cpus = -1;
	h->mem_kb = -1;
}

/*
 * The writer.
 */

/* A frame written, for the index. */
struct windex {
	uint64_t off;
	uint32_t len;		/* head included */
	uint8_t type, flags;
	uint64_t first;		/* the first sample in or after it */
	uint32_t count;
};

struct rec_writer {
	int fd;
	char *name;
	bool regular;		/* a torn frame can be cut off */
	int err;		/* first error, positive */
	char error[512];
	uint64_t size;
	uint64_t limit;

	ZSTD_CCtx *cctx;
	bool zopen;		/* a zstd frame is open in cctx */
	bool need_key;

	/* The chunk being built. */
	uint32_t count;
	bool chunk_key;
	size_t raw;		/* its uncompressed bytes */
	uint8_t *cbuf;		/* its compressed bytes */
	size_t clen, ccap;
	uint8_t *tbuf;		/* its times, varints */
	size_t tlen, tcap;
	size_t tfirst;		/* bytes of the first time in tbuf */
	int64_t t_first, t_last;

	uint64_t written;	/* samples in frames written */

	/* The index, written at close; lost if memory runs out. */
	bool index_lost;
	struct windex *idx;
	size_t nidx, idxcap;
	uint8_t *times;		/* every sample's time, zigzag deltas less
				 * step (the first: from 0) */
	size_t times_len, times_cap;
	int64_t times_last;
	int64_t step;		/* the interval, microseconds; 0 unknown */
	size_t idx_len;		/* bytes of the index entries */
	uint64_t idx_end, idx_samples;	/* after the last entry */

	uint8_t *fbuf;		/* the frame being written */
	size_t fcap;
};

static int
writer_fail(struct rec_writer *w, int e, const char *what)
{
	char eb[128];

	if (w->err == 0) {
		w->err = e;
		if (what != NULL)
			snprintf(w->error, sizeof(w->error), "%s: %s", w->name,
			    what);
		else
			snprintf(w->error, sizeof(w->error), "%s: %s", w->name,
			    errstr(e, eb, sizeof(eb)));
	}
	return -w->err;
}

/* Writes all of buf, or nothing: a partial write is cut off again. */
static int
write_all(struct rec_writer *w, const uint8_t *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;
	int e;

	while (done < len) {
		n = write(w->fd, buf + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		e = n < 0 ? errno : ENOSPC;
		if (done > 0 && w->regular &&
		    ftruncate(w->fd, (off_t)w->size) == 0)
			(void)lseek(w->fd, (off_t)w->size, SEEK_SET);
		return writer_fail(w, e, NULL);
	}
	w->size += len;
	return 0;
}

static bool
fbuf_room(struct rec_writer *w, size_t payload)
{
	return grow(&w->fbuf, &w->fcap, FRAME_HEAD + payload, 1);
}

/* Writes w->fbuf's payload (already at FRAME_HEAD) as one frame. */
static int
frame_write(struct rec_writer *w, int type, int flags, size_t plen)
{
	uint8_t *h = w->fbuf;

	memcpy(h, SYNC, 4);
	wire_put32(h + 4, (uint32_t)plen);
	h[8] = (uint8_t)type;
	h[9] = (uint8_t)flags;
	wire_put16(h + 10, 0);
	wire_put32(h + 12, frame_crc(h, h + FRAME_HEAD, plen));
	return write_all(w, h, FRAME_HEAD + plen);
}

/* An index entry as varints into p (NULL: only its length), after the
 * frame ending at *end with *samples in the chunks before it. */
static size_t
index_entry(uint8_t *p, const struct windex *x, uint64_t *end,
    uint64_t *samples)
{
	uint8_t tmp[INDEX2_ENTRY_MAX];
	size_t n = 0;

	n += varint_put(tmp + n, x->off - *end);
	n += varint_put(tmp + n, x->len);
	n += varint_put(tmp + n, x->type);
	n += varint_put(tmp + n, x->flags);
	n += varint_put(tmp + n, x->first - *samples);
	n += varint_put(tmp + n, x->count);
	if (p != NULL)
		memcpy(p, tmp, n);
	*end = x->off + x->len;
	*samples = x->first + x->count;
	return n;
}

static void
index_add(struct rec_writer *w, uint64_t off, size_t len, int type, int flags,
    uint64_t first, uint32_t count)
{
	struct windex *x;

	if (w->index_lost)
		return;
	if (!grow(&w->idx, &w->idxcap, w->nidx + 1, sizeof(*w->idx))) {
		w->index_lost = true;
		return;
	}
	x = &w->idx[w->nidx++];
	x->off = off;
	x->len = (uint32_t)len;
	x->type = (uint8_t)type;
	x->flags = (uint8_t)flags;
	x->first = first;
	x->count = count;
	w->idx_len += index_entry(NULL, x, &w->idx_end, &w->idx_samples);
}

/* Bytes the INDEX and END frames will take, with one more frame of
 * times_more bytes of times. */
static uint64_t
closing_size(const struct rec_writer *w, size_t times_more)
{
	if (w->index_lost)
		return 0;
	return FRAME_HEAD + INDEX2_FIXED_MAX + w->idx_len + INDEX2_ENTRY_MAX +
	    w->times_len + times_more + END_FRAME;
}

static int writer_finish(struct rec_writer *);

/* Would a frame of plen bytes still leave room for the index and end?
 * If not, closes the file properly and stops: -EFBIG. */
static int
limit_check(struct rec_writer *w, size_t plen, size_t times_more)
{
	char msg[160];

	if (w->limit == 0 || w->size + FRAME_HEAD + plen +
	    closing_size(w, times_more) <= w->limit)
		return 0;
	writer_finish(w);
	snprintf(msg, sizeof(msg), "stopped at max size (%llu bytes)",
	    (unsigned long long)w->limit);
	return writer_fail(w, EFBIG, msg);
}

/* Runs cctx over in (NULL: none) until it is consumed, or with mode
 * ZSTD_e_flush/e_end until all is out. */
static int
compress(struct rec_writer *w, const void *in, size_t len,
    ZSTD_EndDirective mode)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	ZSTD_outBuffer ob;
	size_t r;

	for (;;) {
		if (!grow(&w->cbuf, &w->ccap, w->clen + ZSTD_CStreamOutSize(),
		    1))
			return writer_fail(w, ENOMEM, NULL);
		ob.dst = w->cbuf;
		ob.size = w->ccap;
		ob.pos = w->clen;
		r = ZSTD_compressStream2(w->cctx, &ob, &ib, mode);
		w->clen = ob.pos;
		if (ZSTD_isError(r))
			return writer_fail(w, EIO, ZSTD_getErrorName(r));
		if (mode == ZSTD_e_continue ? ib.pos == ib.size : r == 0)
			return 0;
	}
}

/* The times of the chunk being built as the index has them, into p (NULL:
 * only their length): each less the one before and less the step, the
 * file's first less 0. */
static size_t
index_times(const struct rec_writer *w, uint8_t *p)
{
	uint8_t tmp[10];
	const uint8_t *t = w->tbuf + w->tfirst, *end = w->tbuf + w->tlen;
	int64_t d = w->t_first - w->times_last;
	uint64_t v;
	size_t n = 0, k;

	for (;;) {
		if (w->times_len > 0 || n > 0)
			d -= w->step;
		k = varint_put(p != NULL ? p + n : tmp, zigzag(d));
		n += k;
		if (t >= end || (k = varint_get_bounded(t, end, &v)) == 0)
			break;
		t += k;
		d = unzigzag(v);
	}
	return n;
}

/* Writes the chunk being built; end closes its zstd frame too. */
static int
chunk_emit(struct rec_writer *w, bool end)
{
	size_t plen, tmore, fixed;
	uint8_t *p, fv[20];
	uint64_t off = w->size, first = w->written;
	int r, flags = w->chunk_key ? CHUNK_KEYFRAME : 0;

	if (w->err)
		return -w->err;
	if (w->count == 0)
		return 0;
	if ((r = compress(w, NULL, 0, end ? ZSTD_e_end : ZSTD_e_flush)) != 0)
		return r;
	w->zopen = !end;

	/* Its times in the index continue from the previous chunk's. */
	tmore = index_times(w, NULL);
	fixed = varint_put(fv, w->count);
	fixed += varint_put(fv + fixed, first);
	plen = fixed + w->tlen + w->clen;
	if ((r = limit_check(w, plen, tmore)) != 0)
		return r;
	if (!fbuf_room(w, plen))
		return writer_fail(w, ENOMEM, NULL);
	p = w->fbuf + FRAME_HEAD;
	memcpy(p, fv, fixed);
	memcpy(p + fixed, w->tbuf, w->tlen);
	memcpy(p + fixed + w->tlen, w->cbuf, w->clen);
	if ((r = frame_write(w, FT_CHUNK, flags, plen)) != 0)
		return r;

	index_add(w, off, FRAME_HEAD + plen, FT_CHUNK, flags, first, w->count);
	if (!w->index_lost && grow(&w->times, &w->times_cap,
	    w->times_len + tmore, 1)) {
		w->times_len += index_times(w, w->times + w->times_len);
		w->times_last = w->t_last;
	} else
		w->index_lost = true;

	w->written += w->count;
	w->count = 0;
	w->raw = 0;
	w->clen = 0;
	w->tlen = 0;
	return 0;
}

static struct rec_writer *
writer_new(int fd, const char *name, const struct rec_header *h, char *why,
    size_t whylen);

struct rec_writer *
rec_writer_open(const char *path, const struct rec_header *h, char *why,
    size_t whylen)
{
	struct rec_writer *w;
	char eb[128];
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			say(why, whylen, "%s: already exists (a recording is "
			    "never overwritten)", path);
		else
			say(why, whylen, "%s: %s", path,
			    errstr(errno, eb, sizeof(eb)));
		return NULL;
	}
	if ((w = writer_new(fd, path, h, why, whylen)) == NULL)
		(void)unlink(path);	/* ours, and holds nothing */
	return w;
}

struct rec_writer *
rec_writer_fdopen(int fd, const char *name, const struct rec_header *h,
    char *why, size_t whylen)
{
	return writer_new(fd, name, h, why, whylen);
}

static size_t
put_field(uint8_t *p, int id, const void *v, size_t len)
{
	wire_put16(p, (uint16_t)id);
	wire_put16(p + 2, (uint16_t)len);
	memcpy(p + 4, v, len);
	return 4 + len;
}

static size_t
put_str(uint8_t *p, int id, const char *s, size_t max)
{
	return put_field(p, id, s, strnlen(s, max));
}

static size_t
put_int(uint8_t *p, int id, int64_t v)
{
	uint8_t b[8];

	wire_put64(b, (uint64_t)v);
	return put_field(p, id, b, 8);
}

/* The HEADER frame's payload into p (room: sizeof(*h) + 256). */
static size_t
header_encode(const struct rec_header *h, uint8_t *p)
{
	size_t n = 0;

	n += put_str(p + n, HF_HOSTNAME, h->hostname, sizeof(h->hostname));
	n += put_str(p + n, HF_RELEASE, h->release, sizeof(h->release));
	n += put_str(p + n, HF_MACHINE, h->machine, sizeof(h->machine));
	n += put_str(p + n, HF_BOOT_ID, h->boot_id, sizeof(h->boot_id));
	n += put_str(p + n, HF_VERSION, h->version, sizeof(h->version));
	n += put_str(p + n, HF_CMDLINE, h->cmdline, sizeof(h->cmdline));
	if (h->page_size >= 0)
		n += put_int(p + n, HF_PAGE_SIZE, h->page_size);
	if (h->pageblock_order >= 0)
		n += put_int(p + n, HF_PAGEBLOCK_ORDER, h->pageblock_order);
	if (h->nodes >= 0)
		n += put_int(p + n, HF_NODES, h->nodes);
	if (h->cpus >= 0)
		n += put_int(p + n, HF_CPUS, h->cpus);
	if (h->mem_kb >= 0)
		n += put_int(p + n, HF_MEM_KB, h->mem_kb);
	if (h->interval > 0)
		n += put_int(p + n, HF_INTERVAL_US, wire_us(h->interval));
	if (h->start != 0)
		n += put_int(p + n, HF_START_US, wire_us(h->start));
	return n;
}

static struct rec_writer *
writer_new(int fd, const char *name, const struct rec_header *h, char *why,
    size_t whylen)
{
	struct rec_writer *w;
	struct rec_header unknown;
	struct stat st;
	uint8_t head[HEAD_LEN];
	size_t plen;

	if (h == NULL) {
		rec_header_init(&unknown);
		h = &unknown;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->name = strdup(name)) == NULL ||
	    (w->cctx = ZSTD_createCCtx()) == NULL ||
	    !fbuf_room(w, sizeof(*h) + 256)) {
		say(why, whylen, "%s: out of memory", name);
		goto fail;
	}
	w->fd = fd;
	w->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	w->need_key = true;
	w->step = h->interval > 0 ? wire_us(h->interval) : 0;
	w->idx_end = HEAD_LEN;
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_windowLog, ZSTD_WINDOW_LOG);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_hashLog, ZSTD_HASH_LOG);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_chainLog, ZSTD_HASH_LOG);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 0);

	memcpy(head, FILE_MAGIC, MAGIC_LEN);
	wire_put16(head + MAGIC_LEN, REC_MAJOR);
	wire_put16(head + MAGIC_LEN + 2, REC_MINOR);
	plen = header_encode(h, w->fbuf + FRAME_HEAD);
	if (write_all(w, head, HEAD_LEN) != 0 ||
	    frame_write(w, FT_HEADER, 0, plen) != 0) {
		say(why, whylen, "%s", w->error);
		goto fail;
	}
	return w;

fail:
	if (w != NULL) {
		ZSTD_freeCCtx(w->cctx);
		free(w->fbuf);
		free(w->name);
		free(w);
	}
	close(fd);
	return NULL;
}

void
rec_writer_set_limit(struct rec_writer *w, uint64_t max)
{
	w->limit = max;
}

int
rec_writer_sample(struct rec_writer *w, double wall, bool keyframe,
    const uint8_t *bytes, size_t len)
{
	uint8_t rh[11];
	size_t n;
	int64_t t = wire_us(wall);
	int r;

	if (w->err)
		return -w->err;
	if (len > REC_SAMPLE_MAX || (!keyframe && w->need_key))
		return -EINVAL;
	if (keyframe && w->count > 0)
		r = chunk_emit(w, true);
	else if (w->count > 0 && (w->count >= CHUNK_COUNT_MAX ||
	    w->raw + len > CHUNK_RAW_MAX))
		r = chunk_emit(w, false);
	else
		r = 0;
	if (r != 0)
		return r;

	if (w->count == 0) {
		if (keyframe && w->zopen) {
			/* The last chunk was flushed, not ended: drop the
			 * frame's end, which nothing needs. */
			ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_only);
			w->zopen = false;
		}
		w->chunk_key = keyframe;
		w->t_first = t;
		w->tlen = 0;
	}
	if (!grow(&w->tbuf, &w->tcap, w->tlen + 10, 1))
		return writer_fail(w, ENOMEM, NULL);
	w->tlen += varint_put(w->tbuf + w->tlen,
	    zigzag(w->count == 0 ? t : t - w->t_last));
	if (w->count == 0)
		w->tfirst = w->tlen;
	w->t_last = t;

	n = varint_put(rh, len);
	rh[n++] = keyframe ? SAMPLE_KEYFRAME : 0;
	if ((r = compress(w, rh, n, ZSTD_e_continue)) != 0 ||
	    (r = compress(w, bytes, len, ZSTD_e_continue)) != 0)
		return r;
	w->zopen = true;
	w->need_key = false;
	w->count++;
	w->raw += n + len;
	return 0;
}

int
rec_writer_flush(struct rec_writer *w)
{
	return chunk_emit(w, false);
}

int
rec_writer_sync(struct rec_writer *w)
{
	if (w->err)
		return -w->err;
	if (w->regular && fdatasync(w->fd) != 0 && errno != EINVAL)
		return writer_fail(w, errno, NULL);
	return 0;
}

/* Writes a MARK or GAP frame of plen bytes prepared in fbuf. */
static int
event_write(struct rec_writer *w, int type, size_t plen)
{
	uint64_t off = w->size;
	int r;

	if ((r = limit_check(w, plen, 0)) != 0 ||
	    (r = frame_write(w, type, 0, plen)) != 0)
		return r;
	index_add(w, off, FRAME_HEAD + plen, type, 0, w->written, 0);
	return 0;
}

int
rec_writer_mark(struct rec_writer *w, double wall, const char *text)
{
	size_t len = strnlen(text, REC_MARK_MAX + 1);
	uint8_t *p;
	int r;

	if ((r = chunk_emit(w, false)) != 0)
		return r;
	if (len > REC_MARK_MAX) {
		/* Cut at a character boundary. */
		len = REC_MARK_MAX;
		while (len > 0 && ((uint8_t)text[len] & 0xc0) == 0x80)
			len--;
	}
	if (!fbuf_room(w, 20 + len))
		return writer_fail(w, ENOMEM, NULL);
	p = w->fbuf + FRAME_HEAD;
	wire_put64(p, (uint64_t)wire_us(wall));
	wire_put64(p + 8, w->written);
	wire_put32(p + 16, (uint32_t)len);
	memcpy(p + 20, text, len);
	return event_write(w, FT_MARK, 20 + len);
}

int
rec_writer_gap(struct rec_writer *w, double first, double last,
    uint64_t lost)
{
	uint8_t *p;
	int r;

	if ((r = chunk_emit(w, false)) != 0)
		return r;
	p = w->fbuf + FRAME_HEAD;
	wire_put64(p, (uint64_t)wire_us(first));
	wire_put64(p + 8, (uint64_t)wire_us(last));
	wire_put64(p + 16, lost);
	wire_put64(p + 24, w->written);
	w->need_key = true;
	return event_write(w, FT_GAP, 32);
}

/* Writes INDEX and END (room for them was kept under the limit). */
static int
writer_finish(struct rec_writer *w)
{
	uint64_t index_off = w->size, end = HEAD_LEN, samples = 0;
	size_t plen, i, n;
	uint8_t *p;
	int r;

	if (w->index_lost)
		return 0;
	plen = INDEX2_FIXED_MAX + w->idx_len + w->times_len;
	if (plen > FRAME_MAX || !fbuf_room(w, plen))
		return 0;	/* readers will read every frame */
	p = w->fbuf + FRAME_HEAD;
	n = varint_put(p, w->nidx);
	n += varint_put(p + n, w->written);
	n += varint_put(p + n, (uint64_t)w->step);
	for (i = 0; i < w->nidx; i++)
		n += index_entry(p + n, &w->idx[i], &end, &samples);
	if (w->times_len > 0)
		memcpy(p + n, w->times, w->times_len);
	n += w->times_len;
	if ((r = frame_write(w, FT_INDEX, 0, n)) != 0)
		return r;
	wire_put64(p, index_off);
	wire_put64(p + 8, w->written);
	return frame_write(w, FT_END, 0, END_PAYLOAD);
}

static void
writer_free(struct rec_writer *w)
{
	ZSTD_freeCCtx(w->cctx);
	free(w->cbuf);
	free(w->tbuf);
	free(w->idx);
	free(w->times);
	free(w->fbuf);
	free(w->name);
	free(w);
}

int
rec_writer_close(struct rec_writer *w, char *why, size_t whylen)
{
	int r = 0;

	if (w->err == 0 && (r = chunk_emit(w, true)) == 0)
		r = writer_finish(w);
	/* After a stop at the limit the index is there: sync it too. */
	if ((w->err == 0 || w->err == EFBIG) && w->regular &&
	    fdatasync(w->fd) != 0 && errno != EINVAL)
		r = writer_fail(w, errno, NULL);
	if (close(w->fd) != 0 && r == 0 && errno != EINTR)
		r = writer_fail(w, errno, NULL);
	if (w->err)
		r = -w->err;
	say(why, whylen, "%s", w->error);
	writer_free(w);
	return r;
}

void
rec_writer_abandon(struct rec_writer *w)
{
	close(w->fd);
	writer_free(w);
}

uint64_t
rec_writer_size(const struct rec_writer *w)
{
	return w->size;
}

uint64_t
rec_writer_samples(const struct rec_writer *w)
{
	return w->written;
}

size_t
rec_writer_pending(const struct rec_writer *w)
{
	return w->count;
}

const char *
rec_writer_error(const struct rec_writer *w)
{
	return w->error;
}

/*
 * The reader.
 */

#define WINDOW		(1u << 20)	/* read ahead while scanning */
#define DECODE_AHEAD	(256u << 10)	/* and while decoding */
#define SMALL_AHEAD	4096		/* reading one small frame */
#define END_SEARCH	256		/* last bytes searched for END */

struct chunk {
	uint64_t off;		/* of its frame */
	uint32_t len;		/* of its frame, head included */
	uint32_t count;
	uint64_t first;		/* our number of its first sample */
	uint64_t file_first;	/* the writer's */
	size_t key;		/* the chunk its zstd frame starts at */
	bool keyframe;
	bool bad;		/* found damaged when read */
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

	struct chunk *chunks;
	size_t nchunks, chunks_cap;
	int64_t *times;		/* every sample's, microseconds */
	size_t count, times_cap;
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

/* n bytes of the file at off (off + n <= size), reading at least ahead;
 * NULL if they cannot be read (r->rerr says why). */
static const uint8_t *
window(struct rec_reader *r, uint64_t off, size_t n, size_t ahead)
{
	size_t want = n > ahead ? n : ahead;
	ssize_t got = 0;

	if (off >= r->wbase && off + n <= r->wbase + r->wlen)
		return r->win + (off - r->wbase);
	if (want > r->info.size - off)
		want = (size_t)(r->info.size - off);
	r->wlen = 0;
	if (!grow(&r->win, &r->wcap, want, 1)) {
		r->rerr = ENOMEM;
		return NULL;
	}
	r->wbase = off;
	while (r->wlen < want) {
		got = pread(r->fd, r->win + r->wlen, want - r->wlen,
		    (off_t)(off + r->wlen));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		r->wlen += (size_t)got;
	}
	if (r->wlen < n) {
		r->rerr = got < 0 ? errno : EIO;	/* EOF: it shrank */
		r->wlen = 0;
		return NULL;
	}
	return r->win + (off - r->wbase);
}

static int
frame_at(struct rec_reader *r, uint64_t off, struct frame *f, size_t ahead)
{
	const uint8_t *h;
	uint32_t len;

	if (r->info.size - off < FRAME_HEAD)
		return FRAME_CUT;
	if ((h = window(r, off, FRAME_HEAD, ahead)) == NULL)
		return FRAME_ERR;
	if (memcmp(h, SYNC, 4) != 0)
		return FRAME_BAD;
	len = wire_get32(h + 4);
	if (len > FRAME_MAX)
		return FRAME_BAD;
	if (r->info.size - off - FRAME_HEAD < len)
		return FRAME_CUT;
	if ((h = window(r, off, FRAME_HEAD + len, ahead)) == NULL)
		return FRAME_ERR;
	if (wire_get32(h + 12) != frame_crc(h, h + FRAME_HEAD, len))
		return FRAME_BAD;
	f->off = off;
	f->type = h[8];
	f->flags = h[9];
	f->p = h + FRAME_HEAD;
	f->len = len;
	return FRAME_OK;
}

/* The offset of the next whole frame at or after from (size: none). */
static int
resync(struct rec_reader *r, uint64_t from, uint64_t *next)
{
	uint64_t size = r->info.size, pos = from, cand;
	const uint8_t *p, *hit;
	struct frame f;
	size_t n;
	int st;

	while (pos + FRAME_HEAD <= size) {
		n = size - pos < WINDOW ? (size_t)(size - pos) : WINDOW;
		if ((p = window(r, pos, n, WINDOW)) == NULL)
			return -1;
		if ((hit = memmem(p, n, SYNC, 4)) == NULL) {
			pos += n - 3;
			continue;
		}
		cand = pos + (uint64_t)(hit - p);
		if ((st = frame_at(r, cand, &f, WINDOW)) == FRAME_OK) {
			*next = cand;
			return 0;
		}
		if (st == FRAME_ERR)
			return -1;
		pos = cand + 1;
	}
	*next = size;
	return 0;
}

/* Text from the file for the screen: control characters become '?'. */
static void
copy_text(char *dst, size_t size, const uint8_t *p, size_t len)
{
	size_t i;

	if (len >= size) {
		len = size - 1;
		while (len > 0 && (p[len] & 0xc0) == 0x80)
			len--;
	}
	for (i = 0; i < len; i++)
		dst[i] = p[i] < 0x20 || p[i] == 0x7f ? '?' : (char)p[i];
	dst[len] = '\0';
}

static void
header_decode(struct rec_reader *r, const uint8_t *p, size_t len)
{
	struct rec_header *h = &r->hdr;
	const uint8_t *end = p + len;
	size_t n;
	int64_t v;
	int id;

	while (end - p >= 4) {
		id = wire_get16(p);
		n = wire_get16(p + 2);
		p += 4;
		if (n > (size_t)(end - p))
			break;
		v = n == 8 ? (int64_t)wire_get64(p) : -1;
		switch (id) {
		case HF_HOSTNAME:
			copy_text(h->hostname, sizeof(h->hostname), p, n);
			break;
		case HF_RELEASE:
			copy_text(h->release, sizeof(h->release), p, n);
			break;
		case HF_MACHINE:
			copy_text(h->machine, sizeof(h->machine), p, n);
			break;
		case HF_BOOT_ID:
			copy_text(h->boot_id, sizeof(h->boot_id), p, n);
			break;
		case HF_VERSION:
			copy_text(h->version, sizeof(h->version), p, n);
			break;
		case HF_CMDLINE:
			copy_text(h->cmdline, sizeof(h->cmdline), p, n);
			break;
		case HF_PAGE_SIZE:
			if (v >= 0 && v <= 1 << 30)
				h->page_size = (long)v;
			break;
		case HF_PAGEBLOCK_ORDER:
			if (v >= 0 && v < 64)
				h->pageblock_order = (int)v;
			break;
		case HF_NODES:
			if (v >= 0 && v < 1 << 20)
				h->nodes = (int)v;
			break;
		case HF_CPUS:
			if (v >= 0 && v < 1 << 24)
				h->cpus = (int)v;
			break;
		case HF_MEM_KB:
			h->mem_kb = v;
			break;
		case HF_INTERVAL_US:
			if (v > 0)
				h->interval = (double)v / 1e6;
			break;
		case HF_START_US:
			if (n == 8)
				h->start = (double)v / 1e6;
			break;
		default:
			r->info.unknown_fields++;
			break;
		}
		p += n;
	}
}

static bool
damage_add(struct rec_reader *r, uint64_t off, uint64_t bytes, uint64_t lost)
{
	struct rec_damage *d;

	if (!grow(&r->damage, &r->damage_cap, r->ndamage + 1,
	    sizeof(*r->damage)))
		return false;
	d = &r->damage[r->ndamage++];
	d->offset = off;
	d->bytes = bytes;
	d->lost = lost;
	return true;
}

/* A MARK or GAP frame; sample is the first sample after it. */
static bool
event_add(struct rec_reader *r, const struct frame *f, size_t sample)
{
	struct rec_mark *m;
	struct rec_gap *g;
	uint32_t n;

	if (f->type == FT_MARK) {
		if (f->len < 20 || (n = wire_get32(f->p + 16)) > f->len - 20)
			return false;
		if (!grow(&r->marks, &r->marks_cap, r->nmarks + 1,
		    sizeof(*r->marks)))
			return false;
		m = &r->marks[r->nmarks++];
		m->wall = (double)(int64_t)wire_get64(f->p) / 1e6;
		m->sample = sample;
		copy_text(m->text, sizeof(m->text), f->p + 20, n);
		return true;
	}
	if (f->len < 32 || !grow(&r->gaps, &r->gaps_cap, r->ngaps + 1,
	    sizeof(*r->gaps)))
		return false;
	g = &r->gaps[r->ngaps++];
	g->first = (double)(int64_t)wire_get64(f->p) / 1e6;
	g->last = (double)(int64_t)wire_get64(f->p + 8) / 1e6;
	g->lost = wire_get64(f->p + 16);
	g->sample = sample;
	return true;
}

/* A chunk's payload. */
struct chunk_body {
	uint32_t count;
	uint64_t first;
	const uint8_t *times, *z;
	size_t tlen, zlen;
};

static bool
chunk_parse(int major, const uint8_t *p, size_t len, struct chunk_body *b)
{
	const uint8_t *end = p + len, *t;
	size_t fixed, k;
	uint64_t count, i, v;

	if (major >= 2) {
		/* u count, u first, count times, zstd data */
		if ((k = varint_get_bounded(p, end, &count)) == 0 ||
		    count == 0 || count > UINT32_MAX)
			return false;
		fixed = k;
		if ((k = varint_get_bounded(p + fixed, end, &b->first)) == 0)
			return false;
		fixed += k;
		b->count = (uint32_t)count;
		for (i = 0, t = p + fixed; i < count; i++, t += k)
			if ((k = varint_get_bounded(t, end, &v)) == 0)
				return false;
		b->tlen = (size_t)(t - p) - fixed;
	} else {
		if (len < CHUNK_FIXED || (fixed = wire_get16(p)) < CHUNK_FIXED ||
		    fixed > len)
			return false;
		b->count = wire_get32(p + 4);
		b->first = wire_get64(p + 8);
		b->tlen = wire_get32(p + 16);
		if (b->count == 0 || b->tlen > len - fixed)
			return false;
	}
	if (b->first > UINT64_MAX - b->count)
		return false;
	b->times = p + fixed;
	b->z = b->times + b->tlen;
	b->zlen = len - fixed - b->tlen;
	return true;
}

/* Sets n times from sample at on, coded as zigzag deltas from 0, each
 * but the first less step too; false if p..end does not hold them. */
static bool
times_set(struct rec_reader *r, size_t at, const uint8_t *p,
    const uint8_t *end, uint64_t n, uint64_t step)
{
	int64_t last = 0;
	uint64_t i, v;
	size_t k;

	if (n > (uint64_t)(end - p) ||
	    !grow(&r->times, &r->times_cap, at + n, sizeof(*r->times)))
		return false;
	for (i = 0; i < n; i++) {
		if ((k = varint_get_bounded(p, end, &v)) == 0)
			return false;
		p += k;
		/* Wrapping, not overflowing, on a crafted file. */
		last = (int64_t)((uint64_t)last + (uint64_t)unzigzag(v) +
		    (i > 0 ? step : 0));
		r->times[at + i] = last;
	}
	return true;
}

static bool
chunk_add(struct rec_reader *r, uint64_t off, uint64_t len, uint32_t count,
    uint64_t file_first, bool keyframe)
{
	struct chunk *c;

	if (!grow(&r->chunks, &r->chunks_cap, r->nchunks + 1,
	    sizeof(*r->chunks)))
		return false;
	c = &r->chunks[r->nchunks];
	c->off = off;
	c->len = (uint32_t)len;
	c->count = count;
	c->first = r->count;
	c->file_first = file_first;
	c->keyframe = keyframe;
	c->bad = false;
	c->key = keyframe || r->nchunks == 0 ? r->nchunks :
	    r->chunks[r->nchunks - 1].key;
	r->nchunks++;
	r->count += count;
	return true;
}

/* What scanning knows between frames. */
struct scan {
	uint64_t expected;	/* the writer's number of the next sample */
	uint64_t seen_end;	/* past the last sample any chunk held */
	bool chain;		/* the last chunk's zstd frame can go on */
	long damage;		/* damage since the last chunk taken; -1 */
};

/* Samples the writer numbered but we cannot read, charged to the damage
 * before them. */
static void
scan_lost(struct rec_reader *r, struct scan *s, uint64_t off, uint64_t n)
{
	if (s->damage >= 0)
		r->damage[s->damage].lost += n;
	else if (damage_add(r, off, 0, n))
		s->damage = (long)r->ndamage - 1;
}

static int
scan_chunk(struct rec_reader *r, struct scan *s, const struct frame *f)
{
	struct chunk_body b;
	bool key = f->flags & CHUNK_KEYFRAME;

	if (!chunk_parse(r->info.major, f->p, f->len, &b) ||
	    b.first < s->expected) {
		/* Checks, but not as a chunk of this file: a writer's bug. */
		s->chain = false;
		if (!damage_add(r, f->off, FRAME_HEAD + f->len, 0))
			return -ENOMEM;
		s->damage = (long)r->ndamage - 1;
		return 0;
	}
	if (b.first + b.count > s->seen_end)
		s->seen_end = b.first + b.count;
	if (!key && (!s->chain || b.first != s->expected)) {
		s->chain = false;	/* its zstd frame began in damage */
		return 0;
	}
	if (!times_set(r, r->count, b.times, b.times + b.tlen, b.count, 0)) {
		s->chain = false;
		if (!damage_add(r, f->off, FRAME_HEAD + f->len, 0))
			return -ENOMEM;
		s->damage = (long)r->ndamage - 1;
		return 0;
	}
	if (b.first > s->expected)
		scan_lost(r, s, f->off, b.first - s->expected);
	if (!chunk_add(r, f->off, FRAME_HEAD + f->len, b.count, b.first, key))
		return -ENOMEM;
	s->expected = b.first + b.count;
	s->chain = true;
	s->damage = -1;
	return 0;
}

/* Reads every frame: the file was not closed properly, or its index is
 * damaged. */
static int
scan(struct rec_reader *r)
{
	struct scan s = { 0, 0, false, -1 };
	uint64_t off = HEAD_LEN, next, size = r->info.size;
	struct frame f;
	int st, e;

	while (off < size) {
		if ((st = frame_at(r, off, &f, WINDOW)) == FRAME_ERR)
			return -r->rerr;
		if (st != FRAME_OK) {
			if (resync(r, off + 1, &next) != 0)
				return -r->rerr;
			if (next >= size) {
				r->info.tail = size - off;
				break;
			}
			if (!damage_add(r, off, next - off, 0))
				return -ENOMEM;
			s.damage = (long)r->ndamage - 1;
			s.chain = false;
			off = next;
			continue;
		}
		switch (f.type) {
		case FT_HEADER:
			if (off == HEAD_LEN)
				header_decode(r, f.p, f.len);
			break;
		case FT_CHUNK:
			if ((e = scan_chunk(r, &s, &f)) != 0)
				return e;
			break;
		case FT_MARK:
		case FT_GAP:
			if (!event_add(r, &f, r->count) &&
			    !damage_add(r, off, FRAME_HEAD + f.len, 0))
				return -ENOMEM;
			break;
		case FT_INDEX:
		case FT_END:
			break;
		default:
			r->info.unknown_frames++;
			break;
		}
		off += FRAME_HEAD + f.len;
	}
	if (s.seen_end > s.expected)
		scan_lost(r, &s, off, s.seen_end - s.expected);
	return 0;
}

/* Forgets what a rejected index put in r. */
static int
index_reject(struct rec_reader *r, const char *why)
{
	snprintf(r->info.why_scanned, sizeof(r->info.why_scanned), "%s", why);
	r->nchunks = 0;
	r->count = 0;
	r->nmarks = 0;
	r->ngaps = 0;
	r->ndamage = 0;
	return 1;
}

/* Finds END at the end of the file. */
static int
end_find(struct rec_reader *r, struct frame *f)
{
	uint64_t size = r->info.size, from, pos;
	const uint8_t *p;
	size_t n;

	from = size - HEAD_LEN > END_SEARCH ? size - END_SEARCH : HEAD_LEN;
	n = (size_t)(size - from);
	if (n < END_FRAME || (p = window(r, from, n, n)) == NULL)
		return FRAME_BAD;
	for (pos = size - END_FRAME + 1; pos-- > from;) {
		p = r->win + (pos - r->wbase);
		if (memcmp(p, SYNC, 4) != 0 ||
		    pos + FRAME_HEAD + wire_get32(p + 4) != size)
			continue;
		if (frame_at(r, pos, f, 0) == FRAME_OK && f->type == FT_END &&
		    f->len >= END_PAYLOAD)
			return FRAME_OK;
		if ((p = window(r, from, n, n)) == NULL)
			return FRAME_ERR;
	}
	return FRAME_BAD;
}

/* An entry of the index, as either version has it. */
struct ientry {
	uint64_t off, len;	/* of the frame, head included */
	uint64_t type, flags;
	uint64_t first, count;
};

/* The next varint at *p into *v; false if p..end does not hold one. */
static bool
varints(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	size_t k = varint_get_bounded(*p, end, v);

	*p += k;
	return k > 0;
}

/* A 1.x entry: 32 bytes at e. */
static void
ientry_fixed(const uint8_t *e, struct ientry *x)
{
	x->off = wire_get64(e);
	x->len = wire_get32(e + 8);
	x->type = e[12];
	x->flags = e[13];
	x->first = wire_get64(e + 16);
	x->count = wire_get32(e + 24);
}

/* A 2.x entry at *p, after the entry in x: six varints, the offset from
 * where that entry's frame ends and the first sample from that after its
 * samples. False if cut short or out of range. */
static bool
ientry_next(const uint8_t **p, const uint8_t *end, struct ientry *x)
{
	uint64_t d, first, after = x->off + x->len, samples = x->first + x->count;

	if (!varints(p, end, &d) || d > UINT64_MAX - after)
		return false;
	x->off = after + d;
	if (!varints(p, end, &x->len) || !varints(p, end, &x->type) ||
	    !varints(p, end, &x->flags) || !varints(p, end, &first) ||
	    !varints(p, end, &x->count) || x->len > UINT32_MAX ||
	    x->count > UINT32_MAX ||
	    x->type > 255 || x->flags > 255 || first > UINT64_MAX - samples)
		return false;
	x->first = samples + first;
	return true;
}

/* Loads the index the END frame points at: 0, 1 if there is none to
 * use (the file is then scanned), or a negative errno. */
static int
index_load(struct rec_reader *r)
{
	struct frame f;
	struct ientry x;
	uint64_t index_off, samples, k, entries, esize = 0, fixed = 0, off, end;
	uint64_t prev, first_off, step = 0;
	uint64_t *events = NULL;
	size_t nevents = 0, events_cap = 0, i;
	const uint8_t *e, *fend;
	int st;

	if ((st = end_find(r, &f)) == FRAME_ERR)
		return -r->rerr;
	if (st != FRAME_OK)
		return index_reject(r, "not closed properly (no end frame)");
	end = f.off;
	index_off = wire_get64(f.p);
	samples = wire_get64(f.p + 8);
	if (index_off < HEAD_LEN || index_off >= end)
		return index_reject(r, "the end frame points outside the file");
	first_off = index_off;
	if ((st = frame_at(r, index_off, &f, 0)) == FRAME_ERR)
		return -r->rerr;
	if (st != FRAME_OK || f.type != FT_INDEX ||
	    index_off + FRAME_HEAD + f.len > end)
		return index_reject(r, "the index is damaged");
	e = f.p;
	fend = f.p + f.len;
	if (r->info.major >= 2) {
		if (!varints(&e, fend, &entries) ||
		    !varints(&e, fend, &k) || k != samples ||
		    !varints(&e, fend, &step))
			return index_reject(r, "the index does not make sense");
	} else {
		fixed = f.len >= INDEX_FIXED ? wire_get16(f.p) : 0;
		esize = fixed ? wire_get32(f.p + 4) : 0;
		entries = fixed ? wire_get32(f.p + 8) : 0;
		if (fixed < INDEX_FIXED || fixed > f.len ||
		    esize < INDEX_ENTRY ||
		    entries > (f.len - fixed) / esize ||
		    wire_get64(f.p + 16) != samples)
			return index_reject(r,
			    "the index does not make sense");
		e = f.p + fixed;
	}

	/* 2.x: the first entry's offset counts from the end of the file head. */
	x.off = 0;
	x.len = HEAD_LEN;
	x.first = x.count = 0;
	prev = HEAD_LEN;
	for (k = 0; k < entries; k++) {
		if (r->info.major >= 2) {
			if (!ientry_next(&e, fend, &x))
				break;
		} else {
			ientry_fixed(e, &x);
			e += esize;
		}
		off = x.off;
		if (off < prev || off > index_off || x.len < FRAME_HEAD ||
		    x.len > index_off - off)
			break;
		prev = off + x.len;
		if (x.type == FT_CHUNK) {
			if (x.count == 0 || x.count > UINT32_MAX ||
			    x.first != r->count ||
			    !chunk_add(r, off, x.len, (uint32_t)x.count,
			    r->count, x.flags & CHUNK_KEYFRAME))
				break;
		} else if (x.type == FT_MARK || x.type == FT_GAP) {
			if (!grow(&events, &events_cap, nevents + 2,
			    sizeof(*events)))
				break;
			events[nevents++] = off;
			events[nevents++] = x.len;
		}
		if (k == 0)
			first_off = off;
	}
	if (k < entries || r->count != samples ||
	    !times_set(r, 0, e, fend, samples, step)) {
		free(events);
		return index_reject(r, "the index does not match the file");
	}

	for (i = 0; i < nevents; i += 2) {
		if ((st = frame_at(r, events[i], &f, SMALL_AHEAD)) ==
		    FRAME_ERR) {
			free(events);
			return -r->rerr;
		}
		if (st != FRAME_OK || (f.type != FT_MARK && f.type != FT_GAP) ||
		    !event_add(r, &f, 0)) {
			damage_add(r, events[i], events[i + 1], 0);
			continue;
		}
		/* The writer's sample numbers are ours here. */
		off = wire_get64(f.p + (f.type == FT_MARK ? 8 : 24));
		if (f.type == FT_MARK)
			r->marks[r->nmarks - 1].sample =
			    off < r->count ? (size_t)off : r->count;
		else
			r->gaps[r->ngaps - 1].sample =
			    off < r->count ? (size_t)off : r->count;
	}
	free(events);

	if ((st = frame_at(r, HEAD_LEN, &f, SMALL_AHEAD)) == FRAME_ERR)
		return -r->rerr;
	if (st == FRAME_OK && f.type == FT_HEADER)
		header_decode(r, f.p, f.len);
	else
		damage_add(r, HEAD_LEN, first_off - HEAD_LEN, 0);
	r->info.indexed = true;
	return 0;
}

struct rec_reader *
rec_reader_open(const char *path, char *why, size_t whylen)
{
	struct rec_reader *r;
	const uint8_t *head = NULL;
	struct stat st;
	char eb[128];
	size_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    fstat(fd, &st) != 0) {
		say(why, whylen, "%s: %s", path, errstr(errno, eb, sizeof(eb)));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		say(why, whylen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(path)) == NULL ||
	    (r->dctx = ZSTD_createDCtx()) == NULL) {
		say(why, whylen, "%s: out of memory", path);
		goto fail;
	}
	r->fd = fd;
	r->dec = -1;
	r->info.size = (uint64_t)st.st_size;
	rec_header_init(&r->hdr);
	ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, ZSTD_WINDOW_MAX);

	n = r->info.size < HEAD_LEN ? (size_t)r->info.size : HEAD_LEN;
	if (n > 0 && (head = window(r, 0, n, n)) == NULL) {
		say(why, whylen, "%s: %s", path,
		    errstr(r->rerr, eb, sizeof(eb)));
		goto fail;
	}
	if (n < HEAD_LEN || memcmp(head, FILE_MAGIC, MAGIC_LEN) != 0) {
		if (n > 12 && memcmp(head + 1, "PAGETOP REC", 11) == 0)
			say(why, whylen, "%s: a pagetop recording damaged by a "
			    "text-mode transfer (send it as binary)", path);
		else if (n > 0 && n < HEAD_LEN &&
		    memcmp(head, FILE_MAGIC, n < MAGIC_LEN ? n : MAGIC_LEN) ==
		    0)
			say(why, whylen, "%s: a pagetop recording cut short "
			    "within its first %d bytes", path, HEAD_LEN);
		else
			say(why, whylen, "%s: not a pagetop recording", path);
		goto fail;
	}
	r->info.major = wire_get16(head + MAGIC_LEN);
	r->info.minor = wire_get16(head + MAGIC_LEN + 2);
	if (r->info.major < 1 || r->info.major > REC_MAJOR) {
		say(why, whylen, "%s: recording format %d.%d; this pagetop "
		    "reads 1.x to %d.x", path, r->info.major, r->info.minor,
		    REC_MAJOR);
		goto fail;
	}

	if ((e = index_load(r)) > 0)
		e = scan(r);
	if (e < 0) {
		say(why, whylen, "%s: %s", path, errstr(-e, eb, sizeof(eb)));
		goto fail;
	}
	return r;

fail:
	if (r != NULL)
		r->fd = -1;
	rec_reader_close(r);
	close(fd);
	return NULL;
}

void
rec_reader_close(struct rec_reader *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	free(r->chunks);
	free(r->times);
	free(r->marks);
	free(r->gaps);
	free(r->damage);
	free(r->win);
	free(r->dbuf);
	free(r->recs);
	free(r->name);
	free(r);
}

const struct rec_header *
rec_reader_header(const struct rec_reader *r)
{
	return &r->hdr;
}

void
rec_reader_info(const struct rec_reader *r, struct rec_info *info)
{
	*info = r->info;
}

size_t
rec_reader_count(const struct rec_reader *r)
{
	return r->count;
}

double
rec_reader_time(const struct rec_reader *r, size_t i)
{
	return i < r->count ? (double)r->times[i] / 1e6 : 0;
}

size_t
rec_reader_find(const struct rec_reader *r, double wall)
{
	int64_t t = wire_us(wall);
	size_t lo = 0, hi = r->count, mid;

	if (r->count == 0 || r->times[0] > t)
		return 0;
	while (hi - lo > 1) {	/* times[lo] <= t, times[hi] > t */
		mid = lo + (hi - lo) / 2;
		if (r->times[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The chunk holding sample i (< count). */
static size_t
chunk_of(const struct rec_reader *r, size_t i)
{
	size_t lo = 0, hi = r->nchunks, mid;
	const struct chunk *c;

	if (r->dec >= 0) {
		c = &r->chunks[r->dec];
		if (i >= c->first && i < c->first + c->count)
			return (size_t)r->dec;
		if ((size_t)r->dec + 1 < r->nchunks && i >= c[1].first &&
		    i < c[1].first + c[1].count)
			return (size_t)r->dec + 1;
	}
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->chunks[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t
rec_reader_keyframe(const struct rec_reader *r, size_t i)
{
	if (i >= r->count)
		return 0;
	return r->chunks[r->chunks[chunk_of(r, i)].key].first;
}

/* Marks chunk c damaged: it and the rest of its zstd frame are lost. */
static int
chunk_damaged(struct rec_reader *r, size_t c, const char *what)
{
	struct chunk *ch = &r->chunks[c];
	size_t e, last;

	for (e = c + 1; e < r->nchunks && !r->chunks[e].keyframe; e++)
		continue;
	last = (e < r->nchunks ? r->chunks[e].first : r->count) - 1;
	ch->bad = true;
	r->dec = -1;
	damage_add(r, ch->off, ch->len, last + 1 - ch->first);
	snprintf(r->error, sizeof(r->error), "%s: the chunk at byte %llu %s: "
	    "samples %zu to %zu cannot be read", r->name,
	    (unsigned long long)ch->off, what, (size_t)ch->first, last);
	return -EIO;
}

/* Decompresses chunk c into dbuf, after c - 1 unless c starts its frame. */
static int
chunk_decode(struct rec_reader *r, size_t c)
{
	struct chunk *ch = &r->chunks[c];
	struct chunk_body b;
	struct frame f;
	ZSTD_inBuffer in;
	ZSTD_outBuffer out;
	const uint8_t *p, *end;
	uint64_t n;
	size_t z, j, k;
	char eb[128];
	int st;

	if ((st = frame_at(r, ch->off, &f, DECODE_AHEAD)) == FRAME_ERR) {
		snprintf(r->error, sizeof(r->error), "%s: %s", r->name,
		    errstr(r->rerr, eb, sizeof(eb)));
		return -r->rerr;
	}
	if (st != FRAME_OK || f.type != FT_CHUNK ||
	    FRAME_HEAD + f.len != ch->len ||
	    !chunk_parse(r->info.major, f.p, f.len, &b) ||
	    b.count != ch->count)
		return chunk_damaged(r, c, "fails its check");

	if (c == ch->key)
		ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	in.src = b.z;
	in.size = b.zlen;
	in.pos = 0;
	r->dlen = 0;
	for (;;) {
		if (r->dlen == r->dcap && (r->dcap >= CHUNK_DEC_MAX ||
		    !grow(&r->dbuf, &r->dcap, r->dcap ? r->dcap + 1 : 65536,
		    1)))
			return chunk_damaged(r, c, "decompresses too far");
		out.dst = r->dbuf;
		out.size = r->dcap;
		out.pos = r->dlen;
		z = ZSTD_decompressStream(r->dctx, &out, &in);
		r->dlen = out.pos;
		if (ZSTD_isError(z))
			return chunk_damaged(r, c, ZSTD_getErrorName(z));
		if (in.pos == in.size && out.pos < out.size)
			break;
	}

	if (!grow(&r->recs, &r->recs_cap, ch->count, sizeof(*r->recs)))
		return chunk_damaged(r, c, "is too big for memory");
	p = r->dbuf;
	end = r->dbuf + r->dlen;
	for (j = 0; j < ch->count; j++) {
		if ((k = varint_get_bounded(p, end, &n)) == 0 || n > REC_SAMPLE_MAX ||
		    (uint64_t)(end - p - k) < n + 1)
			break;
		p += k;
		r->recs[j].off = (size_t)(p - r->dbuf);
		r->recs[j].len = (size_t)n;
		p += 1 + n;
	}
	if (j < ch->count || p != end)
		return chunk_damaged(r, c, "does not hold its samples");
	return 0;
}

int
rec_reader_get(struct rec_reader *r, size_t i, const uint8_t **bytes,
    size_t *len, bool *keyframe)
{
	const struct record *rec;
	struct chunk *ch;
	size_t c, j, from;
	int e;

	if (i >= r->count) {
		snprintf(r->error, sizeof(r->error),
		    "%s: no sample %zu (%zu in all)", r->name, i, r->count);
		return -ERANGE;
	}
	c = chunk_of(r, i);
	ch = &r->chunks[c];
	if (r->dec < 0 || (size_t)r->dec != c) {
		for (j = ch->key; j <= c; j++) {
			if (r->chunks[j].bad) {
				snprintf(r->error, sizeof(r->error),
				    "%s: sample %zu needs the damaged chunk "
				    "at byte %llu", r->name, i,
				    (unsigned long long)r->chunks[j].off);
				return -EIO;
			}
		}
		from = ch->key;
		if (r->dec >= 0 && (size_t)r->dec + 1 == c && !ch->keyframe &&
		    r->chunks[r->dec].key == ch->key)
			from = c;
		r->dec = -1;
		for (j = from; j <= c; j++)
			if ((e = chunk_decode(r, j)) != 0)
				return e;
		r->dec = (long)c;
	}
	rec = &r->recs[i - ch->first];
	*bytes = r->dbuf + rec->off + 1;
	*len = rec->len;
	if (keyframe != NULL)
		*keyframe = r->dbuf[rec->off] & SAMPLE_KEYFRAME;
	return 0;
}

const char *
rec_reader_error(const struct rec_reader *r)
{
	return r->error;
}

int
rec_reader_verify(struct rec_reader *r)
{
	struct frame f;
	size_t c;
	int st, bad = 0;

	for (c = 0; c < r->nchunks; c++) {
		if (r->chunks[c].bad) {
			bad++;
			continue;
		}
		if ((st = frame_at(r, r->chunks[c].off, &f, WINDOW)) ==
		    FRAME_ERR)
			return -r->rerr;
		if (st != FRAME_OK || f.type != FT_CHUNK ||
		    FRAME_HEAD + f.len != r->chunks[c].len) {
			chunk_damaged(r, c, "fails its check");
			bad++;
		}
	}
	return bad;
}

const struct rec_mark *
rec_reader_marks(const struct rec_reader *r, size_t *n)
{
	*n = r->nmarks;
	return r->marks;
}

const struct rec_gap *
rec_reader_gaps(const struct rec_reader *r, size_t *n)
{
	*n = r->ngaps;
	return r->gaps;
}

const struct rec_damage *
rec_reader_damage(const struct rec_reader *r, size_t *n)
{
	*n = r->ndamage;
	return r->damage;
}
