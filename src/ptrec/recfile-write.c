/*
 * The recording writer: samples go through one zstd stream into CHUNK
 * frames (a keyframe starts a new zstd frame), marks and gaps into frames
 * of their own, and every frame written into an index kept in memory,
 * which closing writes as the INDEX and END frames. A size limit keeps
 * room for those, so a file stopped at its limit is still closed
 * properly. The first error is kept and returned from then on.
 */

#include "ptrec/recfile-int.h"
#include "ptrec/zstd-dl.h"
#include "util/wire.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

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
			    recfile_errstr(e, eb, sizeof(eb)));
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
	return recfile_grow(&w->fbuf, &w->fcap, FRAME_HEAD + payload, 1);
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
	wire_put32(h + 12, recfile_frame_crc(h, h + FRAME_HEAD, plen));
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
	if (!recfile_grow(&w->idx, &w->idxcap, w->nidx + 1, sizeof(*w->idx))) {
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
		if (!recfile_grow(&w->cbuf, &w->ccap,
		    w->clen + ZSTD_CStreamOutSize(), 1))
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
	if (!w->index_lost && recfile_grow(&w->times, &w->times_cap,
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
		if (zstd_dl_why())
			recfile_say(why, whylen, "%s: %s", name, zstd_dl_why());
		else
			recfile_say(why, whylen, "%s: out of memory", name);
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

	recfile_head_encode(head);
	plen = recfile_header_encode(h, w->fbuf + FRAME_HEAD);
	if (write_all(w, head, HEAD_LEN) != 0 ||
	    frame_write(w, FT_HEADER, 0, plen) != 0) {
		recfile_say(why, whylen, "%s", w->error);
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

struct rec_writer *
rec_writer_open(const char *path, const struct rec_header *h, char *why,
    size_t whylen)
{
	struct rec_writer *w;
	char eb[128];
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		if (errno == EEXIST)
			recfile_say(why, whylen, "%s: already exists (a "
			    "recording is never overwritten)", path);
		else
			recfile_say(why, whylen, "%s: %s", path,
			    recfile_errstr(errno, eb, sizeof(eb)));
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
	if (!recfile_grow(&w->tbuf, &w->tcap, w->tlen + 10, 1))
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

int
rec_writer_sync_fd(const struct rec_writer *w)
{
	return w->regular ? w->fd : -1;
}

int
rec_writer_sync_failed(struct rec_writer *w, int e)
{
	return writer_fail(w, e, NULL);
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
	recfile_say(why, whylen, "%s", w->error);
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
