/*
 * Reading a recording without its index: a window on the file, the frame
 * at an offset, then every frame in turn (scan, which finds them and what
 * lies between them in one pass with recfile-resync.c), rebuilding the
 * lists of chunks, times, marks, gaps and damage that the index would
 * have given. The list builders (chunk_add, event_add,
 * damage_add) and chunk_parse serve the index reader and the sample
 * reader too.
 */

#include "ptrec/recfile-int.h"
#include "util/wire.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* n bytes of the file at off (off + n <= size), reading at least ahead;
 * NULL if they cannot be read (r->rerr says why). */
const uint8_t *
recfile_window(struct rec_reader *r, uint64_t off, size_t n, size_t ahead)
{
	size_t want = n > ahead ? n : ahead;
	ssize_t got = 0;

	if (off >= r->wbase && off + n <= r->wbase + r->wlen)
		return r->win + (off - r->wbase);
	if (want > r->info.size - off)
		want = (size_t)(r->info.size - off);
	r->wlen = 0;
	if (!recfile_grow(&r->win, &r->wcap, want, 1)) {
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

/* The frame at off into f: FRAME_OK, or what is wrong there (FRAME_ERR:
 * it cannot be read, r->rerr says why). */
int
recfile_frame_at(struct rec_reader *r, uint64_t off, struct frame *f,
    size_t ahead)
{
	const uint8_t *h;
	uint32_t len;

	if (r->info.size - off < FRAME_HEAD)
		return FRAME_CUT;
	if ((h = recfile_window(r, off, FRAME_HEAD, ahead)) == NULL)
		return FRAME_ERR;
	if (memcmp(h, SYNC, 4) != 0)
		return FRAME_BAD;
	len = wire_get32(h + 4);
	if (len > FRAME_MAX)
		return FRAME_BAD;
	if (r->info.size - off - FRAME_HEAD < len)
		return FRAME_CUT;
	if ((h = recfile_window(r, off, FRAME_HEAD + len, ahead)) == NULL)
		return FRAME_ERR;
	if (wire_get32(h + 12) != recfile_frame_crc(h, h + FRAME_HEAD, len))
		return FRAME_BAD;
	f->off = off;
	f->type = h[8];
	f->flags = h[9];
	f->p = h + FRAME_HEAD;
	f->len = len;
	return FRAME_OK;
}

bool
recfile_damage_add(struct rec_reader *r, uint64_t off, uint64_t bytes,
    uint64_t lost)
{
	struct rec_damage *d;

	if (!recfile_grow(&r->damage, &r->damage_cap, r->ndamage + 1,
	    sizeof(*r->damage)))
		return false;
	d = &r->damage[r->ndamage++];
	d->offset = off;
	d->bytes = bytes;
	d->lost = lost;
	return true;
}

/* A MARK or GAP frame; sample is the first sample after it. */
bool
recfile_event_add(struct rec_reader *r, const struct frame *f, size_t sample)
{
	struct rec_mark *m;
	struct rec_gap *g;
	uint32_t n;

	if (f->type == FT_MARK) {
		if (f->len < 20 || (n = wire_get32(f->p + 16)) > f->len - 20)
			return false;
		if (!recfile_grow(&r->marks, &r->marks_cap, r->nmarks + 1,
		    sizeof(*r->marks)))
			return false;
		m = &r->marks[r->nmarks++];
		m->wall = (double)(int64_t)wire_get64(f->p) / 1e6;
		m->sample = sample;
		recfile_copy_text(m->text, sizeof(m->text), f->p + 20, n);
		return true;
	}
	if (f->len < 32 || !recfile_grow(&r->gaps, &r->gaps_cap, r->ngaps + 1,
	    sizeof(*r->gaps)))
		return false;
	g = &r->gaps[r->ngaps++];
	g->first = (double)(int64_t)wire_get64(f->p) / 1e6;
	g->last = (double)(int64_t)wire_get64(f->p + 8) / 1e6;
	g->lost = wire_get64(f->p + 16);
	g->sample = sample;
	return true;
}

bool
recfile_chunk_parse(int major, const uint8_t *p, size_t len,
    struct chunk_body *b)
{
	const uint8_t *end = p + len, *t;
	size_t fixed, k;
	uint64_t count, i, v;

	if (major >= 2) {
		/* u count, u first, count times, zstd data */
		if ((k = varint_get_bounded(p, end, &count)) == 0 ||
		    count == 0 || count > CHUNK_COUNT_MAX)
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
		if (b->count == 0 || b->count > CHUNK_COUNT_MAX ||
		    b->tlen > len - fixed)
			return false;
	}
	if (b->first > UINT64_MAX - b->count)
		return false;
	b->times = p + fixed;
	b->z = b->times + b->tlen;
	b->zlen = len - fixed - b->tlen;
	return true;
}

bool
recfile_chunk_add(struct rec_reader *r, uint64_t off, uint64_t len,
    uint32_t count, int64_t t0, bool keyframe)
{
	struct chunk *c;

	if (!recfile_grow(&r->chunks, &r->chunks_cap, r->nchunks + 1,
	    sizeof(*r->chunks)))
		return false;
	c = &r->chunks[r->nchunks];
	c->off = off;
	c->len = (uint32_t)len;
	c->count = count;
	c->first = r->count;
	c->t0 = t0;
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
	else if (recfile_damage_add(r, off, 0, n))
		s->damage = (long)r->ndamage - 1;
}

static int
scan_chunk(struct rec_reader *r, struct scan *s, const struct frame *f)
{
	struct chunk_body b;
	bool key = f->flags & CHUNK_KEYFRAME;
	int64_t t0 = 0;

	if (!recfile_chunk_parse(r->info.major, f->p, f->len, &b) ||
	    b.first < s->expected) {
		/* Checks, but not as a chunk of this file: a writer's bug. */
		s->chain = false;
		if (!recfile_damage_add(r, f->off, FRAME_HEAD + f->len, 0))
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
	if (recfile_times_decode(b.times, b.times + b.tlen, b.count, 0, NULL,
	    &t0) == NULL) {
		s->chain = false;
		if (!recfile_damage_add(r, f->off, FRAME_HEAD + f->len, 0))
			return -ENOMEM;
		s->damage = (long)r->ndamage - 1;
		return 0;
	}
	if (b.first > s->expected)
		scan_lost(r, s, f->off, b.first - s->expected);
	if (!recfile_chunk_add(r, f->off, FRAME_HEAD + f->len, b.count, t0,
	    key))
		return -ENOMEM;
	s->expected = b.first + b.count;
	s->chain = true;
	s->damage = -1;
	return 0;
}

/* Reads every frame: the file was not closed properly, or its index is
 * damaged. One pass (recfile-resync.c), however damaged. */
int
recfile_scan(struct rec_reader *r)
{
	struct scan s = { 0, 0, false, -1 };
	struct recfile_resync *rs;
	uint64_t off = HEAD_LEN, size = r->info.size;
	struct frame f;
	int st, e = 0;

	if ((rs = recfile_resync_new()) == NULL)
		return -ENOMEM;
	while (off < size) {
		if ((st = recfile_resync_next(r, rs, off, &f)) == FRAME_ERR) {
			e = -r->rerr;
			goto out;
		}
		if (st != FRAME_OK) {
			r->info.tail = size - off;
			break;
		}
		if (f.off > off) {
			if (!recfile_damage_add(r, off, f.off - off, 0)) {
				e = -ENOMEM;
				goto out;
			}
			s.damage = (long)r->ndamage - 1;
			s.chain = false;
		}
		switch (f.type) {
		case FT_HEADER:
			if (f.off == HEAD_LEN)
				recfile_header_decode(r, f.p, f.len);
			break;
		case FT_CHUNK:
			if ((e = scan_chunk(r, &s, &f)) != 0)
				goto out;
			break;
		case FT_MARK:
		case FT_GAP:
			if (!recfile_event_add(r, &f, r->count) &&
			    !recfile_damage_add(r, f.off, FRAME_HEAD + f.len, 0)) {
				e = -ENOMEM;
				goto out;
			}
			break;
		case FT_INDEX:
		case FT_END:
			break;
		default:
			r->info.unknown_frames++;
			break;
		}
		off = f.off + FRAME_HEAD + f.len;
	}
	if (s.seen_end > s.expected)
		scan_lost(r, &s, off, s.seen_end - s.expected);
out:
	recfile_resync_free(rs);
	return e;
}
