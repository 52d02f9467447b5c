/*
 * Finding the frames of a file read without its index, in one pass.
 *
 * Checking each "PTfr" after damage on its own costs its whole claimed
 * length, so a crafted file of heads that each claim to run to the end
 * cost the square of its size. Here the file is read once, front to back,
 * keeping the running CRC-32C of everything read so far (P). A candidate
 * frame at c, with its payload from s = c + 16 to e, checks when
 *
 *	P(e) == crc ^ shift(crc(c+4 .. c+12) ^ P(s), e - s)
 *
 * (CRC-32C is linear: shift(x, n) is x times x^(8n) modulo the
 * polynomial), so it is checked when the pass reaches e, at the cost of
 * one shift when the pass reaches s, and no byte is checksummed twice.
 * Candidates wait in a heap ordered by where they end; the first to check
 * is the next frame (in a file that is not crafted, no frame checks inside
 * another). A frame's length is bounded by its type before anything: only
 * the frame right at the boundary may be longer than a chunk can be, and
 * only if it is an INDEX or of a type a newer pagetop writes, so what
 * waits in the heap is bounded by the candidates in a few MiB.
 */

#include "ptrec/recfile-int.h"
#include "util/crc32c.h"
#include "util/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define POLY		0x82F63B78u	/* CRC-32C, reflected */
#define STEP		(64u << 10)	/* bytes checksummed a read */

struct pending {
	uint64_t c, e;
	uint32_t target;		/* P(e) when the frame checks */
};

struct recfile_resync {
	uint32_t shift[4][256];		/* x^(8 b 256^i) */
	uint64_t x;			/* the pass is here */
	uint32_t p;			/* CRC-32C of bytes before x */
	struct pending *heap;
	size_t n, cap;
};

/* a times b modulo the polynomial (reflected, as zlib's multmodp). */
static uint32_t
mulmod(uint32_t a, uint32_t b)
{
	uint32_t m = 1u << 31, p = 0;

	if (a == 0)
		return 0;
	for (;;) {
		if (a & m) {
			p ^= b;
			if ((a & (m - 1)) == 0)
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ POLY : b >> 1;
	}
	return p;
}

/* x^(8n) for n < 2^32, from the tables. */
static uint32_t
x8n(const struct recfile_resync *rs, uint64_t n)
{
	uint32_t k = 1u << 31;	/* 1 */
	int i;

	for (i = 0; i < 4; i++, n >>= 8)
		if (n & 0xff)
			k = mulmod(k, rs->shift[i][n & 0xff]);
	return k;
}

struct recfile_resync *
recfile_resync_new(void)
{
	struct recfile_resync *rs;
	uint32_t sq[3 + 32], k;
	int i, b, j, bit;

	if ((rs = calloc(1, sizeof(*rs))) == NULL)
		return NULL;
	/* sq[j] = x^(2^j) */
	sq[0] = 1u << 30;
	for (j = 1; j < 3 + 32; j++)
		sq[j] = mulmod(sq[j - 1], sq[j - 1]);
	for (i = 0; i < 4; i++) {
		for (b = 0; b < 256; b++) {
			/* x^(8 b 256^i) = x^(b 2^(3 + 8i)) */
			k = 1u << 31;
			for (bit = 0; bit < 8; bit++)
				if (b & (1 << bit))
					k = mulmod(k, sq[3 + 8 * i + bit]);
			rs->shift[i][b] = k;
		}
	}
	rs->x = UINT64_MAX;
	return rs;
}

void
recfile_resync_free(struct recfile_resync *rs)
{
	if (rs != NULL)
		free(rs->heap);
	free(rs);
}

static bool
before(const struct pending *a, const struct pending *b)
{
	return a->e < b->e || (a->e == b->e && a->c < b->c);
}

static bool
heap_push(struct recfile_resync *rs, const struct pending *v)
{
	size_t i, up;
	struct pending t;

	if (!recfile_grow(&rs->heap, &rs->cap, rs->n + 1, sizeof(*rs->heap)))
		return false;
	i = rs->n++;
	rs->heap[i] = *v;
	while (i > 0 && before(&rs->heap[i], &rs->heap[up = (i - 1) / 2])) {
		t = rs->heap[up];
		rs->heap[up] = rs->heap[i];
		rs->heap[i] = t;
		i = up;
	}
	return true;
}

static void
heap_pop(struct recfile_resync *rs)
{
	size_t i = 0, l, m;
	struct pending t;

	rs->heap[0] = rs->heap[--rs->n];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < rs->n && before(&rs->heap[l], &rs->heap[m]))
			m = l;
		if (l + 1 < rs->n && before(&rs->heap[l + 1], &rs->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		t = rs->heap[m];
		rs->heap[m] = rs->heap[i];
		rs->heap[i] = t;
		i = m;
	}
}

/* Checksums the bytes up to y into the pass. */
static bool
advance(struct rec_reader *r, struct recfile_resync *rs, uint64_t y)
{
	const uint8_t *p;
	size_t n;

	while (rs->x < y) {
		n = y - rs->x < STEP ? (size_t)(y - rs->x) : STEP;
		if ((p = recfile_window(r, rs->x, n, WINDOW)) == NULL)
			return false;
		rs->p = crc32c(rs->p, p, n);
		rs->x += n;
	}
	return true;
}

/* The longest frame of this type worth checking at c. */
static uint64_t
longest(int type, bool at_bound)
{
	if (type >= FT_HEADER && type <= FT_END && type != FT_INDEX)
		return FRAME_CHECK_MAX;
	return at_bound ? FRAME_MAX : FRAME_CHECK_MAX;
}

/* The next "PTfr" at or after *from whose head is worth checking: its
 * offset, or UINT64_MAX. *h gets its head. */
static int
next_candidate(struct rec_reader *r, uint64_t *from, uint64_t bound,
    uint64_t *c, uint8_t *h)
{
	uint64_t size = r->info.size, pos = *from, len;
	const uint8_t *p, *hit;
	size_t n;

	while (pos + FRAME_HEAD <= size) {
		n = size - pos < STEP ? (size_t)(size - pos) : STEP;
		if ((p = recfile_window(r, pos, n, WINDOW)) == NULL)
			return FRAME_ERR;
		if ((hit = memmem(p, n, SYNC, 4)) == NULL) {
			pos += n > 3 ? n - 3 : n;
			continue;
		}
		pos += (uint64_t)(hit - p);
		if (size - pos < FRAME_HEAD)
			break;
		if ((p = recfile_window(r, pos, FRAME_HEAD, WINDOW)) == NULL)
			return FRAME_ERR;
		len = wire_get32(p + 4);
		if (len <= longest(p[8], pos == bound) &&
		    size - pos - FRAME_HEAD >= len) {
			memcpy(h, p, FRAME_HEAD);
			*c = pos;
			*from = pos + 4;	/* "PTfr" cannot overlap itself */
			return FRAME_OK;
		}
		pos++;
	}
	*c = UINT64_MAX;
	*from = size;
	return FRAME_OK;
}

int
recfile_resync_next(struct rec_reader *r, struct recfile_resync *rs,
    uint64_t from, struct frame *f)
{
	uint64_t search = from, c = UINT64_MAX, s, e;
	struct pending v;
	uint8_t h[FRAME_HEAD];
	const uint8_t *p;
	bool big;
	int st;

	if (rs->x != from) {	/* a fresh pass */
		rs->x = from;
		rs->p = 0;
	}
	rs->n = 0;
	if ((st = next_candidate(r, &search, from, &c, h)) != FRAME_OK)
		return st;
	for (;;) {
		s = c == UINT64_MAX ? UINT64_MAX : c + FRAME_HEAD;
		e = rs->n > 0 ? rs->heap[0].e : UINT64_MAX;
		if (s == UINT64_MAX && e == UINT64_MAX)
			return FRAME_CUT;
		if (s <= e) {
			if (!advance(r, rs, s))
				return FRAME_ERR;
			v.c = c;
			v.e = s + wire_get32(h + 4);
			v.target = wire_get32(h + 12) ^ mulmod(x8n(rs, v.e - s),
			    crc32c(0, h + 4, 8) ^ rs->p);
			if (!heap_push(rs, &v)) {
				r->rerr = ENOMEM;
				return FRAME_ERR;
			}
			if ((st = next_candidate(r, &search, from, &c, h)) !=
			    FRAME_OK)
				return st;
			continue;
		}
		if (!advance(r, rs, e))
			return FRAME_ERR;
		v = rs->heap[0];
		heap_pop(rs);
		if (rs->p != v.target)
			continue;
		/* A frame longer than a chunk can be (an INDEX, a newer type)
		 * is not read whole: no one needs its payload here, and the
		 * window stays within a few MiB whatever the file holds. */
		big = v.e - v.c > FRAME_HEAD + FRAME_CHECK_MAX;
		if ((p = recfile_window(r, v.c, big ? FRAME_HEAD :
		    (size_t)(v.e - v.c), WINDOW)) == NULL)
			return FRAME_ERR;
		f->off = v.c;
		f->type = p[8];
		f->flags = p[9];
		f->p = big ? NULL : p + FRAME_HEAD;
		f->len = (uint32_t)(v.e - v.c - FRAME_HEAD);
		rs->n = 0;
		return FRAME_OK;
	}
}
