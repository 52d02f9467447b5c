/*
 * Sample times. A reader keeps for the whole file only each chunk's place
 * and first time (struct chunk): eight bytes a sample would let a crafted
 * file of one-byte times cost eight times its size. A sample's time is
 * read again from its chunk's frame when asked, into a cache of the last
 * TIME_CACHE chunks, so memory does not grow with the file beyond the
 * chunk list. The times in a chunk's frame are the ones opening checked
 * (scan) or compared with the index (recfile-index.c).
 */

#include "ptrec/recfile-int.h"
#include "util/crc32c.h"
#include "util/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const uint8_t *
recfile_times_decode(const uint8_t *p, const uint8_t *end, uint64_t n,
    uint64_t step, int64_t *t, int64_t *t0)
{
	int64_t last = 0;
	uint64_t i, v;
	size_t k;

	if (n > (uint64_t)(end - p))
		return NULL;
	for (i = 0; i < n; i++) {
		if ((k = varint_get_bounded(p, end, &v)) == 0)
			return NULL;
		p += k;
		/* Wrapping, not overflowing, on a crafted file. */
		last = (int64_t)((uint64_t)last + (uint64_t)unzigzag(v) +
		    (i > 0 ? step : 0));
		if (t != NULL)
			t[i] = last;
		if (i == 0 && t0 != NULL)
			*t0 = last;
	}
	return p;
}

int
recfile_times_read(struct rec_reader *r, uint64_t off, uint64_t len,
    int flags, struct chunk_times *ct)
{
	struct chunk_body b;
	size_t want, got = 0;
	ssize_t n;
	const uint8_t *h = r->tbuf;

	if (len < FRAME_HEAD || len - FRAME_HEAD > FRAME_MAX ||
	    off > r->info.size || len > r->info.size - off)
		return FRAME_BAD;
	want = len < CHUNK_TIMES_MAX ? (size_t)len : CHUNK_TIMES_MAX;
	while (got < want) {
		n = pread(r->fd, r->tbuf + got, want - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->rerr = n < 0 ? errno : EIO;	/* it shrank */
			return FRAME_ERR;
		}
		got += (size_t)n;
	}
	if (memcmp(h, SYNC, 4) != 0 || wire_get32(h + 4) != len - FRAME_HEAD ||
	    h[8] != FT_CHUNK || (flags >= 0 && h[9] != flags))
		return FRAME_CUT;
	/* Cut to what was read: the zstd data is not needed, and the times
	 * of a chunk the writer could have made fit in it. */
	if (!recfile_chunk_parse(r->info.major, h + FRAME_HEAD,
	    want - FRAME_HEAD, &b) ||
	    recfile_times_decode(b.times, b.times + b.tlen, b.count, 0, ct->t,
	    NULL) == NULL)
		return FRAME_BAD;
	ct->count = b.count;
	ct->first = b.first;
	return 0;
}

bool
recfile_frame_checks(struct rec_reader *r, uint64_t off, uint64_t len)
{
	uint32_t crc = 0, want = 0;
	uint64_t at = 0;
	size_t n;
	ssize_t got;

	if (len < FRAME_HEAD || off > r->info.size || len > r->info.size - off)
		return false;
	while (at < len) {
		n = len - at < CHUNK_TIMES_MAX ? (size_t)(len - at) :
		    CHUNK_TIMES_MAX;
		if ((got = pread(r->fd, r->tbuf, n, (off_t)(off + at))) < 0 &&
		    errno == EINTR)
			continue;
		if (got <= 0 || (at == 0 && got < FRAME_HEAD))
			return false;
		if (at == 0) {
			if (memcmp(r->tbuf, SYNC, 4) != 0 ||
			    wire_get32(r->tbuf + 4) != len - FRAME_HEAD)
				return false;
			want = wire_get32(r->tbuf + 12);
			crc = crc32c(0, r->tbuf + 4, 8);
			crc = crc32c(crc, r->tbuf + FRAME_HEAD,
			    (size_t)got - FRAME_HEAD);
		} else
			crc = crc32c(crc, r->tbuf, (size_t)got);
		at += (size_t)got;
	}
	return crc == want;
}

bool
recfile_times_init(struct rec_reader *r)
{
	size_t i;

	if ((r->tbuf = malloc(CHUNK_TIMES_MAX)) == NULL ||
	    (r->tcache = calloc(TIME_CACHE, sizeof(*r->tcache))) == NULL)
		return false;
	for (i = 0; i < TIME_CACHE; i++)
		r->tcache[i].chunk = SIZE_MAX;
	return true;
}

void
recfile_times_free(struct rec_reader *r)
{
	free(r->tbuf);
	free(r->tcache);
}

/* Chunk c's times, from the cache or its frame; NULL if it cannot be read
 * now (the file changed since it was opened). */
static const struct chunk_times *
times_of(struct rec_reader *r, size_t c)
{
	const struct chunk *ch = &r->chunks[c];
	struct chunk_times *ct, *old = &r->tcache[0];
	size_t i;

	for (i = 0; i < TIME_CACHE; i++) {
		ct = &r->tcache[i];
		if (ct->chunk == c) {
			ct->used = ++r->tclock;
			return ct;
		}
		if (ct->used < old->used)
			old = ct;
	}
	old->chunk = SIZE_MAX;
	if (recfile_times_read(r, ch->off, ch->len, -1, old) != 0 ||
	    old->count != ch->count)
		return NULL;
	old->chunk = c;
	old->used = ++r->tclock;
	return old;
}

/* The chunk holding sample i (< count). */
static size_t
times_chunk(const struct rec_reader *r, size_t i)
{
	size_t lo = 0, hi = r->nchunks, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->chunks[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Sample i's time in microseconds (i < count). The reader is const to its
 * callers; the cache it fills is not what they see. */
static int64_t
times_us(const struct rec_reader *r, size_t i)
{
	struct rec_reader *w = (struct rec_reader *)r;
	size_t c = times_chunk(r, i);
	const struct chunk_times *ct;

	if (i == r->chunks[c].first || (ct = times_of(w, c)) == NULL)
		return r->chunks[c].t0;
	return ct->t[i - r->chunks[c].first];
}

double
rec_reader_time(const struct rec_reader *r, size_t i)
{
	return i < r->count ? (double)times_us(r, i) / 1e6 : 0;
}

size_t
rec_reader_find(const struct rec_reader *r, double wall)
{
	int64_t t = wire_us(wall);
	size_t lo = 0, hi = r->nchunks, mid;
	const struct chunk *c;

	if (r->count == 0 || r->chunks[0].t0 > t)
		return 0;
	while (hi - lo > 1) {	/* chunks[lo].t0 <= t, chunks[hi].t0 > t */
		mid = lo + (hi - lo) / 2;
		if (r->chunks[mid].t0 <= t)
			lo = mid;
		else
			hi = mid;
	}
	c = &r->chunks[lo];
	lo = c->first;
	hi = c->first + c->count;
	while (hi - lo > 1) {	/* likewise within the chunk */
		mid = lo + (hi - lo) / 2;
		if (times_us(r, mid) <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
