/*
 * The recording codec's wire: the numbers that stand for sources, PSI
 * resources, zoneinfo fields and sensor kinds, times and sensor values as
 * integers, and the payload types of pagetop-recording(5) (u, s, n, d,
 * str, name, flags) written into a struct wbuf and read from a struct
 * rbuf, with the runs of a delta chunk and the differences that go to
 * DIFFS. Writes stop at the buffer's end and reads at the payload's, so a
 * family's encoder or decoder checks once, at the end.
 */

#include "ptrec/codec-int.h"
#include "util/arith.h"
#include "util/wire.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Source numbers in the recording, whatever enum source becomes. */
const enum source codec_sources[] = {
	SRC_BUDDYINFO, SRC_PAGETYPEINFO, SRC_VMSTAT, SRC_MEMINFO,
	SRC_ZONEINFO, SRC_PSI_CPU, SRC_PSI_MEMORY, SRC_PSI_IO, SRC_PSI_IRQ,
	SRC_UPTIME, SRC_TASKS,
};

const enum psi_resource codec_psi[] = {
	PSI_CPU, PSI_MEMORY, PSI_IO, PSI_IRQ,
};

const enum zoneinfo_field codec_zi[] = {
	ZI_FREE, ZI_MIN, ZI_LOW, ZI_HIGH, ZI_BOOST, ZI_SPANNED, ZI_PRESENT,
	ZI_MANAGED, ZI_CMA,
};

const enum sensor_kind codec_kinds[] = {
	SENSOR_TEMP, SENSOR_FAN, SENSOR_VOLTAGE, SENSOR_POWER,
};

#define N_OF(a)	(sizeof(a) / sizeof((a)[0]))
_Static_assert(N_OF(codec_sources) == N_WIRE_SOURCES, "N_WIRE_SOURCES");
_Static_assert(N_OF(codec_psi) == N_WIRE_PSI, "N_WIRE_PSI");
_Static_assert(N_OF(codec_zi) == N_WIRE_ZI, "N_WIRE_ZI");
_Static_assert(N_OF(codec_kinds) == N_WIRE_KINDS, "N_WIRE_KINDS");

/* Beyond these, a double does not keep microseconds or milli-units. */
#define TIME_MAX	4294967296.0
#define SENSOR_MAX	1e12

int
codec_fail(struct parse_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->line = 0;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Seconds as integer microseconds. */
int64_t
codec_us(double t)
{
	if (!(t > -TIME_MAX && t < TIME_MAX))
		return 0;
	return wire_us(t);
}

double
codec_from_us(int64_t us)
{
	return (double)us / 1e6;
}

/* A sensor value as integer milli-units; false when it has none. */
bool
codec_milli(double v, int64_t *out)
{
	if (!(v > -SENSOR_MAX && v < SENSOR_MAX))
		return false;
	*out = arith_llround(v * 1e3);
	return true;
}

/*
 * Writing. Every put stops at cap and marks the buffer full; the encoder
 * checks once at the end.
 */

static void
put_bytes(struct wbuf *w, const void *src, size_t n)
{
	if (w->full || n > w->cap - w->len) {
		w->full = true;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

void
codec_put_u(struct wbuf *w, uint64_t v)
{
	uint8_t tmp[VARINT_MAX];

	put_bytes(w, tmp, varint_put(tmp, v));
}

void
codec_put_s(struct wbuf *w, int64_t v)
{
	codec_put_u(w, zigzag(v));
}

/* A signed number: whole, or its difference from base. */
void
codec_put_d(struct wbuf *w, bool delta, int64_t v, int64_t base)
{
	if (delta)
		codec_put_s(w, (int64_t)((uint64_t)v - (uint64_t)base));
	else
		codec_put_s(w, v);
}

void
codec_nums_begin(struct nums *nw, struct wbuf *w, bool delta, bool diffs)
{
	nw->w = w;
	nw->delta = delta;
	nw->pass = diffs ? 1 : 0;
	nw->last = diffs && delta ? 2 : 1;
	nw->zeros = 0;
}

bool
codec_nums_pass(struct nums *nw)
{
	if (nw->pass == 1 && nw->delta && nw->zeros > 0)
		codec_put_u(nw->w, nw->zeros);	/* the run to the end */
	nw->zeros = 0;
	return ++nw->pass <= nw->last;
}

static void
nums_diff(struct nums *nw, uint64_t diff)
{
	if (nw->pass == 2) {
		if (diff != 0)
			codec_put_s(nw->w, (int64_t)diff);
	} else if (diff == 0)
		nw->zeros++;
	else {
		codec_put_u(nw->w, nw->zeros);
		nw->zeros = 0;
	}
}

void
codec_num_u(struct nums *nw, uint64_t v, uint64_t base)
{
	if (nw->delta)
		nums_diff(nw, v - base);
	else
		codec_put_u(nw->w, v);
}

void
codec_num_s(struct nums *nw, int64_t v, int64_t base)
{
	if (nw->delta)
		nums_diff(nw, (uint64_t)v - (uint64_t)base);
	else
		codec_put_s(nw->w, v);
}

/* n bytes as they are, after their length (codec_put_u) by the caller. */
void
codec_put_bytes(struct wbuf *w, const void *src, size_t n)
{
	put_bytes(w, src, n);
}

/* A string from an array of size bytes (its last byte is never written). */
void
codec_put_str(struct wbuf *w, const char *s, size_t size)
{
	size_t n = strnlen(s, size - 1);

	codec_put_u(w, n);
	put_bytes(w, s, n);
}

void
codec_put_name(struct wbuf *w, struct names_pos *np, const char *s, size_t size)
{
	int i;

	/* Mostly the next one; else anywhere in the list. */
	for (i = np->at + 1; i < np->n; i++)
		if (strncmp(np->list[i], s, size) == 0)
			break;
	if (i == np->n)
		for (i = 0; i < np->n; i++)
			if (strncmp(np->list[i], s, size) == 0)
				break;
	if (i == np->n) {
		codec_put_u(w, 0);
		codec_put_str(w, s, size);
		return;
	}
	codec_put_u(w, 1 + zigzag((int64_t)i - np->at - 1));
	np->at = i;
}

size_t
codec_field_begin(struct wbuf *w, enum codec_field id)
{
	codec_put_u(w, (uint64_t)id);
	return w->len;
}

/* Puts the payload's length in front of it. */
void
codec_field_end(struct wbuf *w, size_t start)
{
	uint8_t tmp[VARINT_MAX];
	size_t n, k;

	if (w->full)
		return;
	n = w->len - start;
	k = varint_put(tmp, n);
	if (k > w->cap - w->len) {
		w->full = true;
		return;
	}
	memmove(w->p + start + k, w->p + start, n);
	memcpy(w->p + start, tmp, k);
	w->len += k;
}

/*
 * Reading. Every get stops at the end and marks the buffer bad, returning
 * zeroes; the decoders check counts before they use them and the whole
 * field at its end.
 */

/* The number at p before end as varint_get_bounded reads it (its length,
 * 0 if there is none), those of up to three bytes with no loop. */
static inline size_t
wire_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t x;

	if (end - p >= 3) {
		if (p[0] < 0x80) {
			*v = p[0];
			return 1;
		}
		x = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
		if (p[1] < 0x80) {
			*v = x;
			return 2;
		}
		if (p[2] < 0x80) {
			*v = x | (uint64_t)p[2] << 14;
			return 3;
		}
	}
	return varint_get_bounded(p, end, v);
}

/* Any number; codec_get_u (codec-int.h) reads those of one byte. */
uint64_t
codec_get_u_long(struct rbuf *r)
{
	uint64_t v;
	size_t k;

	if (r->bad || r->off >= r->len ||
	    (k = wire_varint(r->p + r->off, r->p + r->len, &v)) == 0) {
		r->bad = true;	/* cut short, or more than 64 bits */
		return 0;
	}
	r->off += k;
	return v;
}

static uint64_t
get_n(struct rbuf *r, bool delta, uint64_t base)
{
	if (delta)
		return base + (uint64_t)codec_get_s(r);
	return codec_get_u(r);
}

int64_t
codec_get_d(struct rbuf *r, bool delta, int64_t base)
{
	if (delta)
		return (int64_t)((uint64_t)base + (uint64_t)codec_get_s(r));
	return codec_get_s(r);
}

/* A number that must fit 32 bits. */
uint32_t
codec_get_n32(struct rbuf *r, bool delta, uint32_t base)
{
	uint64_t v = get_n(r, delta, base);

	if (v > UINT32_MAX) {
		r->bad = true;
		return 0;
	}
	return (uint32_t)v;
}

/* An unsigned value no larger than max. */
bool
codec_get_max(struct rbuf *r, uint64_t max, uint64_t *out)
{
	*out = codec_get_u(r);
	return !r->bad && *out <= max;
}

bool
codec_get_int(struct rbuf *r, int max, int *out)
{
	uint64_t v;

	if (!codec_get_max(r, (uint64_t)max, &v))
		return false;
	*out = (int)v;
	return true;
}

/* The next number's difference, 0 inside a run; codec_numr_u (codec-int.h)
 * takes the run's numbers itself. */
uint64_t
codec_numr_diff(struct numr *nr)
{
	uint64_t v;

	if (nr->left == 0) {
		nr->r->bad = true;
		return 0;
	}
	if (!nr->in_run) {
		nr->zeros = codec_get_u(nr->r);
		if (nr->zeros > nr->left) {
			nr->r->bad = true;
			nr->zeros = 0;
		}
		nr->in_run = true;
	}
	nr->left--;
	if (nr->zeros > 0) {
		nr->zeros--;
		return 0;
	}
	nr->in_run = false;
	nr->ndiffs++;
	v = (uint64_t)codec_get_s(nr->diffs != NULL ? nr->diffs : nr->r);
	if (nr->diffs != NULL && nr->diffs->bad)
		nr->r->bad = true;
	return v;
}

/* Starts on a chunk's numbers, left of them; those of ids 20 to 25 and 27
 * take their differences from DIFFS. */
void
codec_numr_begin(struct numr *nr, struct dec *d, struct rbuf *r, bool delta,
    uint64_t left)
{
	memset(nr, 0, sizeof(*nr));
	nr->r = r;
	nr->delta = delta;
	nr->diffs = d->v2 ? &d->diffs : NULL;
	nr->left = left;
}

int64_t
codec_numr_s(struct numr *nr, int64_t base)
{
	if (nr->delta)
		return (int64_t)((uint64_t)base + codec_numr_diff(nr));
	return codec_get_s(nr->r);
}

/* A number at *pp before end, moving *pp past it; false if there is none. */
static inline bool
add_get_u(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	size_t k;

	if (*pp < end && **pp < 0x80) {
		*v = *(*pp)++;
		return true;
	}
	if ((k = wire_varint(*pp, end, v)) == 0)
		return false;
	*pp += k;
	return true;
}

/*
 * As n calls of codec_numr_u on the values in dst, with the same checks:
 * a run is skipped in one step, and only the numbers that changed are
 * touched. The state is kept in locals while dst is written (a write
 * through a uint64_t could be one of the state's). Differences inside
 * the chunk (ids 12, 13), and n past the numbers left, go the long way.
 * Here n never passes left (each number taken takes one of both), so
 * left is n + extra throughout and needs no check of its own: a run
 * longer than left is n + extra is refused as codec_numr_diff does.
 */
void
codec_numr_add(struct numr *nr, void *dst, size_t stride, size_t n)
{
	struct rbuf *rr = nr->r, *dr = nr->diffs;
	const uint8_t *rp, *rend, *dp, *dend;
	uint64_t extra, zeros = nr->zeros, ndiffs = nr->ndiffs;
	uint64_t v, x;
	bool in_run = nr->in_run, bad = false;
	uint8_t *p = dst;

	if (dr == NULL || dr == rr || rr->bad || dr->bad || n > nr->left) {
		for (; n > 0; n--, p += stride) {
			memcpy(&x, p, sizeof(x));
			x = codec_numr_u(nr, x);
			memcpy(p, &x, sizeof(x));
		}
		return;
	}
	extra = nr->left - n;
	rp = rr->p + rr->off;
	rend = rr->p + rr->len;
	dp = dr->p + dr->off;
	dend = dr->p + dr->len;
	while (n > 0) {
		if (!in_run) {
			if (!add_get_u(&rp, rend, &zeros)) {
				rr->bad = bad = true;
				break;
			}
			if (zeros > n + extra) {
				bad = true;
				break;
			}
			in_run = true;
		}
		if (zeros >= n) {
			/* The run goes on past these: its rest is the next's. */
			zeros -= n;
			n = 0;
			break;
		}
		p += (size_t)zeros * stride;
		n -= (size_t)zeros;
		zeros = 0;
		in_run = false;
		ndiffs++;
		if (!add_get_u(&dp, dend, &v)) {
			dr->bad = bad = true;
			break;
		}
		memcpy(&x, p, sizeof(x));
		x += (uint64_t)unzigzag(v);
		memcpy(p, &x, sizeof(x));
		p += stride;
		n--;
	}
	rr->off = (size_t)(rp - rr->p);
	dr->off = (size_t)(dp - dr->p);
	if (bad)
		rr->bad = true;
	nr->left = n + extra;
	nr->zeros = zeros;
	nr->ndiffs = ndiffs;
	nr->in_run = in_run;
}

/* A signed value that fits an int. */
bool
codec_get_sint(struct rbuf *r, int *out)
{
	int64_t v = codec_get_s(r);

	if (r->bad || v < INT_MIN || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

/* A string into an array of size bytes; false when it does not fit. */
bool
codec_get_str(struct rbuf *r, char *dst, size_t size)
{
	uint64_t n = codec_get_u(r);

	if (r->bad || n >= size || n > r->len - r->off ||
	    memchr(r->p + r->off, '\0', (size_t)n) != NULL) {
		r->bad = true;
		return false;
	}
	memcpy(dst, r->p + r->off, (size_t)n);
	dst[n] = '\0';
	r->off += (size_t)n;
	return true;
}

bool
codec_get_name(struct rbuf *r, struct names_pos *np, char *dst, size_t size)
{
	uint64_t k = codec_get_u(r);
	int64_t off, at;

	if (r->bad)
		return false;
	if (k == 0)
		return codec_get_str(r, dst, size);
	/* Checked before it is added: a crafted k must not overflow. */
	off = unzigzag(k - 1);
	if (off < -1 - (int64_t)np->at || off > (int64_t)np->n - 2 - np->at) {
		r->bad = true;
		return false;
	}
	at = np->at + 1 + off;
	if (strlen(np->list[at]) >= size) {
		r->bad = true;
		return false;
	}
	strcpy(dst, np->list[at]);
	np->at = (int)at;
	return true;
}

bool
codec_get_bool(struct rbuf *r, bool *out)
{
	uint64_t v;

	if (!codec_get_max(r, 1, &v))
		return false;
	*out = v != 0;
	return true;
}

/* The chunk flags; false for a bit this reader does not know. */
bool
codec_get_flags(struct rbuf *r, bool *delta)
{
	uint64_t v;

	if (!codec_get_max(r, DELTA, &v))
		return false;
	*delta = (v & DELTA) != 0;
	return true;
}

/* The end of a field: all of it read, none past it. */
int
codec_field_done(struct rbuf *r, struct parse_error *err, const char *what)
{
	if (r->bad)
		return codec_fail(err, "%s: cut short or malformed", what);
	if (r->off != r->len)
		return codec_fail(err, "%s: bytes left over: %zu", what,
		    r->len - r->off);
	return 0;
}

bool
codec_get_u32(struct rbuf *r, uint32_t *out)
{
	uint64_t v;

	if (!codec_get_max(r, UINT32_MAX, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}
