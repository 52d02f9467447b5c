/*
 * Reading a recording through its index: the END frame in the last bytes
 * points at the INDEX frame, whose entries (fixed in 1.x, varints in 2.x)
 * list every frame and whose times list every sample's, so opening reads
 * only the head and times of each chunk. An index is used only when it
 * agrees with itself and with the frames it names: each entry's frame is
 * there, with the entry's length, type and flags (a MARK or GAP whole,
 * CRC and all), each chunk's count, first sample and times are the
 * index's, and the samples follow one another to the index's total. On
 * any disagreement the file is scanned instead, as if there were none.
 * A chunk's CRC is checked when it is decoded (or by rec_reader_verify).
 */

#include "ptrec/recfile-int.h"
#include "util/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lets go of a window the index frame made big: what stays is bounded. */
static void
index_window_drop(struct rec_reader *r)
{
	if (r->wcap <= 2 * WINDOW)
		return;
	free(r->win);
	r->win = NULL;
	r->wcap = r->wlen = 0;
	r->wbase = 0;
}

/* Forgets what a rejected index put in r. */
static int
index_reject(struct rec_reader *r, const char *why)
{
	index_window_drop(r);
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
	if (n < END_FRAME || (p = recfile_window(r, from, n, n)) == NULL)
		return FRAME_BAD;
	for (pos = size - END_FRAME + 1; pos-- > from;) {
		p = r->win + (pos - r->wbase);
		if (memcmp(p, SYNC, 4) != 0 ||
		    pos + FRAME_HEAD + wire_get32(p + 4) != size)
			continue;
		if (recfile_frame_at(r, pos, f, 0) == FRAME_OK &&
		    f->type == FT_END && f->len >= END_PAYLOAD)
			return FRAME_OK;
		if ((p = recfile_window(r, from, n, n)) == NULL)
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

/* Compares every chunk the index names with its frame (which it reads
 * with pread, not into the window that holds the index at p..end): head,
 * flags (parked in t0 until now), count, first sample and each time
 * against the index's times at p. Sets each chunk's t0 (the index's).
 * 0, 1 on a disagreement, or a negative errno. */
static int
index_check_chunks(struct rec_reader *r, const uint8_t *p, const uint8_t *end,
    uint64_t step)
{
	struct chunk_times *ct = &r->tcache[0];
	struct chunk *ch;
	int64_t last = 0;
	uint64_t v, i = 0;
	size_t c, j, k;
	bool damaged;
	int st;

	for (c = 0; c < r->nchunks; c++) {
		ch = &r->chunks[c];
		st = recfile_times_read(r, ch->off, ch->len, (int)ch->t0, ct);
		ct->chunk = SIZE_MAX;	/* scratch, not a cache entry */
		if (st == FRAME_ERR)
			return -r->rerr;
		if (st == FRAME_CUT)	/* no such frame head there */
			return 1;
		/* A frame that disagrees and fails its CRC is damage the
		 * index may be right about (its samples fail when read); one
		 * that checks is what the writer wrote: the index lies. */
		damaged = st != 0 || ct->count != ch->count ||
		    ct->first != ch->first;
		if (damaged && recfile_frame_checks(r, ch->off, ch->len))
			return 1;
		for (j = 0; j < ch->count; j++, i++) {
			if ((k = varint_get_bounded(p, end, &v)) == 0)
				return 1;
			p += k;
			last = (int64_t)((uint64_t)last + (uint64_t)unzigzag(v) +
			    (i > 0 ? step : 0));
			if (j == 0)
				ch->t0 = last;
			if (!damaged && last != ct->t[j]) {
				if (recfile_frame_checks(r, ch->off, ch->len))
					return 1;
				damaged = true;
			}
		}
	}
	return 0;
}

/* Loads the index the END frame points at: 0, 1 if there is none to
 * use (the file is then scanned), or a negative errno. */
int
recfile_index_load(struct rec_reader *r)
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
	if ((st = recfile_frame_at(r, index_off, &f, 0)) == FRAME_ERR)
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
			if (x.count == 0 || x.count > CHUNK_COUNT_MAX ||
			    x.first != r->count ||
			    !recfile_chunk_add(r, off, x.len, (uint32_t)x.count,
			    0, x.flags & CHUNK_KEYFRAME))
				break;
			r->chunks[r->nchunks - 1].t0 = (int64_t)x.flags;
		} else if (x.type == FT_MARK || x.type == FT_GAP) {
			if (!recfile_grow(&events, &events_cap, nevents + 3,
			    sizeof(*events)))
				break;
			events[nevents++] = off;
			events[nevents++] = x.len;
			events[nevents++] = x.type;
		}
		if (k == 0)
			first_off = off;
	}
	if (k < entries || r->count != samples) {
		free(events);
		return index_reject(r, "the index does not match the file");
	}
	if ((st = index_check_chunks(r, e, fend, step)) != 0) {
		free(events);
		if (st < 0)
			return st;
		return index_reject(r,
		    "the index does not agree with the frames it names");
	}
	index_window_drop(r);

	for (i = 0; i < nevents; i += 3) {
		if ((st = recfile_frame_at(r, events[i], &f, SMALL_AHEAD)) ==
		    FRAME_ERR) {
			free(events);
			return -r->rerr;
		}
		if (st != FRAME_OK || f.type != (int)events[i + 2] ||
		    FRAME_HEAD + f.len != events[i + 1] ||
		    !recfile_event_add(r, &f, 0)) {
			free(events);
			return index_reject(r, "the index does not agree "
			    "with the frames it names");
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

	if ((st = recfile_frame_at(r, HEAD_LEN, &f, SMALL_AHEAD)) == FRAME_ERR)
		return -r->rerr;
	if (st == FRAME_OK && f.type == FT_HEADER)
		recfile_header_decode(r, f.p, f.len);
	else
		recfile_damage_add(r, HEAD_LEN, first_off - HEAD_LEN, 0);
	r->info.indexed = true;
	return 0;
}
