/*
 * How the history packs its entries. The ring's memory is blocks of
 * HIST_BLOCK entries; an entry is its counters' increases and its PSI
 * stall increases (put_values: whole, so that a chart reads one entry,
 * a run of unmoved ones in a byte), then the figures of its moment (struct
 * hist_moment) as their differences from the entry before in the same
 * block, in runs (put_diffs: most figures do not move from one tick to
 * the next, the probes' above all). A block starts from zeros, so any entry
 * unpacks from its block's first; the last one unpacked is kept (h->cur),
 * so a chart that walks forward pays one entry a step.
 */
#include "model/history-int.h"

#include <string.h>

#include "util/wire.h"

/* The most bytes an entry of this shape can take. */
size_t
hist_entry_max(const struct hist_shape *sh)
{
	size_t nums = 1 + CTR_COUNT + 1 + PSI_COUNT * 2 + M_PR_STATE +
	    (size_t)sh->n_zones * (size_t)sh->n_orders + (size_t)sh->n_zones * WM_COUNT +
	    1 + (M_PR_END - M_PR_WHY);

	return nums * (VARINT_MAX + 1);	/* a difference may take an escape */
}

/* The parts of a moment this shape uses, [from, to) each: its buddy and
 * watermark rows are room for MAX_ZONES, which a machine's few zones
 * leave mostly unused, so the rest stays 0 and its pages untouched. */
#define MOMENT_PARTS	3

static void
moment_parts(const struct hist_shape *sh, size_t from[MOMENT_PARTS], size_t to[MOMENT_PARTS])
{
	from[0] = 0;
	to[0] = M_PR_END;
	from[1] = M_WMARK;
	to[1] = M_WMARK + (size_t)sh->n_zones * WM_COUNT;
	from[2] = M_BUDDY;
	to[2] = M_BUDDY + (size_t)sh->n_zones * (size_t)sh->n_orders;
}

void
hist_moment_clear(struct hist_moment *m, const struct hist_shape *sh)
{
	size_t from[MOMENT_PARTS], to[MOMENT_PARTS];

	moment_parts(sh, from, to);
	for (int i = 0; i < MOMENT_PARTS; i++)
		memset(&m->v[from[i]], 0, (to[i] - from[i]) * sizeof(m->v[0]));
}

void
hist_moment_copy(struct hist_moment *dst, const struct hist_moment *src,
		 const struct hist_shape *sh)
{
	size_t from[MOMENT_PARTS], to[MOMENT_PARTS];

	moment_parts(sh, from, to);
	for (int i = 0; i < MOMENT_PARTS; i++)
		memcpy(&dst->v[from[i]], &src->v[from[i]], (to[i] - from[i]) * sizeof(dst->v[0]));
}

/* Where the probe figures a state has end: unavailable has its why. */
static size_t
probes_end(uint64_t state)
{
	if (state == PROBES_ON)
		return M_PR_END;
	return state == PROBES_UNAVAILABLE ? M_PR_STALL : M_PR_WHY;
}

/*
 * The differences of figures [from, to) of m from prev's, as varint tokens:
 * an even token 2k is k figures that did not move, an odd one 2(z-1)+1 a
 * figure's zigzagged difference z (never 0), and 0 an escape for a z too
 * large for that, followed by z. A run of unmoved figures costs one byte
 * where each cost one, and a moved one a bit more.
 */
static size_t
put_diffs(uint8_t *p, const uint64_t *m, const uint64_t *prev, size_t from, size_t to)
{
	size_t n = 0, still = 0;

	for (size_t i = from; i < to; i++) {
		uint64_t z = zigzag((int64_t)(m[i] - prev[i]));

		if (z == 0) {
			still++;
			continue;
		}
		if (still > 0)
			n += varint_put(p + n, (uint64_t)still * 2);
		still = 0;
		if (z - 1 < UINT64_C(1) << 63) {
			n += varint_put(p + n, (z - 1) * 2 + 1);
		} else {
			p[n++] = 0;
			n += varint_put(p + n, z);
		}
	}
	if (still > 0)
		n += varint_put(p + n, (uint64_t)still * 2);
	return n;
}

/* Adds the differences put_diffs() wrote at *p to m[from, to). */
static void
get_diffs(const uint8_t **p, uint64_t *m, size_t from, size_t to)
{
	size_t i = from;

	while (i < to) {
		uint64_t t = varint_get(p);

		if (t == 0)
			m[i++] += (uint64_t)unzigzag(varint_get(p));
		else if (t & 1)
			m[i++] += (uint64_t)unzigzag((t >> 1) + 1);
		else
			i += t / 2 < to - i ? (size_t)(t / 2) : to - i;
	}
}

/*
 * The values of v at the set bits of mask, in order, as varint tokens: an
 * even token 2k is k values of 1 (an increase of 0, as stored: most
 * counters do not move in a tick), an odd one 2v + 1 one value v, and 0
 * an escape for a v too large for that, followed by v.
 */
static size_t
put_values(uint8_t *p, const uint64_t *v, uint32_t mask, int count)
{
	size_t n = 0;
	uint64_t ones = 0;

	for (int i = 0; i < count; i++) {
		if (!((mask >> i) & 1))
			continue;
		if (v[i] == 1) {
			ones++;
			continue;
		}
		if (ones > 0)
			n += varint_put(p + n, ones * 2);
		ones = 0;
		if (v[i] < UINT64_C(1) << 63) {
			n += varint_put(p + n, v[i] * 2 + 1);
		} else {
			p[n++] = 0;
			n += varint_put(p + n, v[i]);
		}
	}
	if (ones > 0)
		n += varint_put(p + n, ones * 2);
	return n;
}

/* The value put_values() wrote for bit want of mask (0 when want is not
 * one of them), and *p past all of them. */
static uint64_t
get_values(const uint8_t **p, uint32_t mask, int count, int want)
{
	uint64_t got = 0, ones = 0;

	for (int i = 0; i < count; i++) {
		uint64_t x = 1, t;

		if (!((mask >> i) & 1))
			continue;
		if (ones > 0) {
			ones--;
		} else if ((t = varint_get(p)) == 0) {
			x = varint_get(p);
		} else if (t & 1) {
			x = t >> 1;
		} else {
			ones = t / 2 - 1;
		}
		if (i == want)
			got = x;
	}
	return got;
}

/* Appends the moment's figures to p as differences from prev's. */
static size_t
put_moment(uint8_t *p, const struct hist_moment *m, const struct hist_moment *prev,
	   const struct hist_shape *sh)
{
	size_t n = 0;

	n += put_diffs(p + n, m->v, prev->v, 0, M_PR_STATE);
	/* The probes: the state, then only what it has (the push left the
	 * rest 0, as get_moment() makes it). */
	p[n++] = (uint8_t)m->v[M_PR_STATE];
	n += put_diffs(p + n, m->v, prev->v, M_PR_WHY, probes_end(m->v[M_PR_STATE]));
	n += put_diffs(p + n, m->v, prev->v, M_WMARK,
		       M_WMARK + (size_t)sh->n_zones * WM_COUNT);
	n += put_diffs(p + n, m->v, prev->v, M_BUDDY,
		       M_BUDDY + (size_t)sh->n_zones * (size_t)sh->n_orders);
	return n;
}

/* Adds the differences at p to m, the moment before. */
static void
get_moment(const uint8_t *p, struct hist_moment *m, const struct hist_shape *sh)
{
	get_diffs(&p, m->v, 0, M_PR_STATE);
	m->v[M_PR_STATE] = *p++;
	get_diffs(&p, m->v, M_PR_WHY, probes_end(m->v[M_PR_STATE]));
	for (size_t i = probes_end(m->v[M_PR_STATE]); i < M_PR_END; i++)
		m->v[i] = 0;
	get_diffs(&p, m->v, M_WMARK, M_WMARK + (size_t)sh->n_zones * WM_COUNT);
	get_diffs(&p, m->v, M_BUDDY, M_BUDDY + (size_t)sh->n_zones * (size_t)sh->n_orders);
}

/* The bytes of entry seq, which must be held. */
uint8_t *
hist_entry_bytes(const struct history *h, uint64_t seq)
{
	return h->bytes + (seq / HIST_BLOCK) % h->n_blocks * h->region_size +
	    h->slot[seq % (h->n_blocks * HIST_BLOCK)].off;
}

void
hist_put_entry(struct history *h, uint64_t seq, const struct hist_record *e)
{
	const struct hist_shape *sh = &h->shape;
	struct hist_slot *sl = &h->slot[seq % (h->n_blocks * HIST_BLOCK)];
	uint8_t *p;
	size_t n = 0;

	/* A new block starts from nothing, so it reads without the one before. */
	if (seq % HIST_BLOCK == 0) {
		h->enc_off = 0;
		h->enc_ctr_valid = 0;
		hist_moment_clear(h->enc, sh);
	}
	if (h->cur_seq != UINT64_MAX && (h->cur_seq / HIST_BLOCK) % h->n_blocks ==
	    (seq / HIST_BLOCK) % h->n_blocks && h->cur_seq / HIST_BLOCK != seq / HIST_BLOCK)
		h->cur_seq = UINT64_MAX;	/* its block is being written over */
	sl->wall = e->wall;
	sl->mono = e->mono;
	sl->valid = (uint16_t)e->valid;
	sl->off = (uint32_t)h->enc_off;
	p = h->bytes + (seq / HIST_BLOCK) % h->n_blocks * h->region_size + h->enc_off;
	/* Which counters are known, as a change from the block's first
	 * entry (a byte where 31 bits took five). */
	n += varint_put(p + n, e->ctr_valid ^ h->enc_ctr_valid);
	if (seq % HIST_BLOCK == 0)
		h->enc_ctr_valid = e->ctr_valid;
	n += put_values(p + n, e->inc, e->ctr_valid, CTR_COUNT);
	p[n++] = e->psi_present;
	n += put_values(p + n, e->stall, e->psi_present, PSI_COUNT * 2);
	n += put_moment(p + n, &e->m, h->enc, sh);
	hist_moment_copy(h->enc, &e->m, sh);
	h->enc_off += n;
}

/* The known counters of the block's first entry, which the others' are
 * put as a change from (0 for that entry itself). */
static uint32_t
block_ctr_valid(const struct history *h, uint64_t seq)
{
	const uint8_t *p;

	if (seq % HIST_BLOCK == 0)
		return 0;
	p = hist_entry_bytes(h, seq - seq % HIST_BLOCK);
	return (uint32_t)varint_get(&p);
}

/* Counter c's stored increase + 1 (0: unknown), and p past the counters. */
uint64_t
hist_read_counters(const struct history *h, uint64_t seq, const uint8_t **p, int c,
		   uint32_t *valid)
{
	uint32_t v = (uint32_t)varint_get(p) ^ block_ctr_valid(h, seq);

	if (valid)
		*valid = v;
	return get_values(p, v, CTR_COUNT, c);
}

uint64_t
hist_read_stall(const uint8_t **p, int i, uint8_t *present)
{
	uint8_t m = *(*p)++;

	if (present)
		*present = m;
	return get_values(p, m, PSI_COUNT * 2, i);
}

/* p past the counters and stall times, at the moment's differences. */
static const uint8_t *
moment_bytes(const struct history *h, uint64_t seq)
{
	const uint8_t *p = hist_entry_bytes(h, seq);

	hist_read_counters(h, seq, &p, -1, NULL);
	hist_read_stall(&p, -1, NULL);
	return p;
}

/* The moment of entry seq (held), unpacked into h->cur: from the entry
 * it was unpacked at before when that is earlier in the same block, else
 * from the block's start. A chart that walks forward pays one entry a step. */
const struct hist_moment *
hist_moment_at(const struct history *h, uint64_t seq)
{
	struct history *hw = (struct history *)h;	/* the cache only */
	uint64_t from = seq - seq % HIST_BLOCK;

	if (h->cur_seq == seq)
		return h->cur;
	if (h->cur_seq != UINT64_MAX && h->cur_seq >= from && h->cur_seq < seq) {
		from = h->cur_seq + 1;
	} else {
		hist_moment_clear(hw->cur, &h->shape);
	}
	for (uint64_t i = from; i <= seq; i++)
		get_moment(moment_bytes(h, i), hw->cur, &h->shape);
	hw->cur_seq = seq;
	return h->cur;
}
