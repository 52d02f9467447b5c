/*
 * The history's ring and its queries: the entries' slots (times, sources,
 * where their bytes are), the pagetypeinfo ring, and what the screens ask
 * of them. An entry is made in history-push.c and packed and unpacked in
 * history-pack.c.
 */
#include "model/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/history-int.h"
#include "util/wire.h"
#include "util/zero-map.h"

/* The history, its reason table and its moments are room mostly unused:
 * mapped (util/zero-map.h), not calloc()ed. */
#define HIST_PAGE	4096

struct history *
history_new(size_t cap, size_t pti_cap, const struct sample *first)
{
	struct history *h = zero_map(sizeof(*h));
	struct hist_shape *sh;

	if (!h || cap == 0)
		goto fail;
	sh = &h->shape;
	h->cap = cap;
	h->pti_cap = pti_cap;
	sh->pageblock_order = -1;
	if (sample_has(first, SRC_BUDDYINFO)) {
		sh->n_zones = first->buddy.n_zones;
		sh->n_orders = first->buddy.n_orders;
		for (int z = 0; z < sh->n_zones; z++) {
			sh->zones[z].node = first->buddy.zones[z].node;
			memcpy(sh->zones[z].name, first->buddy.zones[z].zone, NAME_LEN);
		}
	}
	/* Enough blocks that the one being rewritten holds no entry still
	 * kept. Mapped, fresh zero pages: the worst case costs address
	 * space, not memory. Each block's region starts a page, so that a
	 * block touches the pages its bytes need and no more. */
	h->n_blocks = (cap + HIST_BLOCK - 1) / HIST_BLOCK + 1;
	h->region_size = (HIST_BLOCK * hist_entry_max(sh) + HIST_PAGE - 1) / HIST_PAGE * HIST_PAGE;
	/* A slot for every entry whose bytes a block still holds: an entry
	 * unpacks from its block's first, which may be older than cap. */
	h->slot = zero_map(h->n_blocks * HIST_BLOCK * sizeof(*h->slot));
	h->bytes = zero_map(h->n_blocks * h->region_size);
	h->enc = zero_map(sizeof(*h->enc));
	h->cur = zero_map(sizeof(*h->cur));
	if (!h->slot || !h->bytes || !h->enc || !h->cur || !hist_probes_new(h))
		goto fail;
	h->cur_seq = UINT64_MAX;
	return h;
fail:
	history_free(h);
	return NULL;
}

void
history_reset(struct history *h)
{
	h->next = 0;
	h->pti_next = 0;
	h->have_last = false;
	h->cur_seq = UINT64_MAX;
	hist_probes_reset(h);
}

void
history_free(struct history *h)
{
	if (!h)
		return;
	zero_unmap(h->slot, h->n_blocks * HIST_BLOCK * sizeof(*h->slot));
	zero_unmap(h->bytes, h->n_blocks * h->region_size);
	zero_unmap(h->enc, sizeof(*h->enc));
	zero_unmap(h->cur, sizeof(*h->cur));
	free(h->pti);
	free(h->pti_free);
	free(h->pti_capped);
	free(h->pti_blocks);
	hist_probes_free(h);
	zero_unmap(h, sizeof(*h));
}

bool
history_range(const struct history *h, uint64_t *first, uint64_t *last)
{
	if (h->next == 0)
		return false;
	*last = h->next - 1;
	*first = h->next > h->cap ? h->next - h->cap : 0;
	return true;
}

static const struct hist_slot *
slot_at(const struct history *h, uint64_t seq)
{
	if (seq >= h->next || h->next - seq > h->cap)
		return NULL;
	return &h->slot[seq % (h->n_blocks * HIST_BLOCK)];
}

bool
history_has(const struct history *h, uint64_t seq)
{
	return slot_at(h, seq) != NULL;
}

uint32_t
history_valid(const struct history *h, uint64_t seq)
{
	const struct hist_slot *sl = slot_at(h, seq);

	return sl ? sl->valid : 0;
}

double
history_wall(const struct history *h, uint64_t seq)
{
	const struct hist_slot *sl = slot_at(h, seq);

	return sl ? sl->wall : NAN;
}

double
history_mono(const struct history *h, uint64_t seq)
{
	const struct hist_slot *sl = slot_at(h, seq);

	return sl ? sl->mono : NAN;
}

double
history_uptime(const struct history *h, uint64_t seq)
{
	uint64_t v;

	if (!slot_at(h, seq))
		return NAN;
	v = hist_moment_at(h, seq)->v[M_UPTIME];
	return v ? (double)(v - 1) / 100 : NAN;
}

int64_t
history_ctr_delta(const struct history *h, uint64_t seq, enum counter c)
{
	const uint8_t *p;
	uint64_t v;

	/* The oldest entry held has lost its predecessor: no honest figure. */
	if (!slot_at(h, seq) || !seq || !slot_at(h, seq - 1) || c < 0 || c >= CTR_COUNT)
		return -1;
	p = hist_entry_bytes(h, seq);
	v = hist_read_counters(h, seq, &p, c, NULL);
	return hist_inc_get(v);
}

int64_t
history_psi_stall(const struct history *h, uint64_t seq, int r, bool full)
{
	const uint8_t *p;
	uint8_t present;
	uint64_t v;

	if (!slot_at(h, seq) || !seq || !slot_at(h, seq - 1) || r < 0 || r >= PSI_COUNT)
		return -1;
	p = hist_entry_bytes(h, seq);
	hist_read_counters(h, seq, &p, -1, NULL);
	v = hist_read_stall(&p, r * 2 + full, &present);
	return (present >> (r * 2 + full)) & 1 ? hist_inc_get(v) : -1;
}

bool
history_entry(const struct history *h, uint64_t seq, struct hist_entry *out)
{
	const struct hist_slot *sl = slot_at(h, seq);
	const struct hist_moment *m;
	const uint8_t *p;
	uint8_t present;

	if (!sl)
		return false;
	memset(out, 0, sizeof(*out));
	out->seq = seq;
	out->wall = sl->wall;
	out->mono = sl->mono;
	out->valid = sl->valid;
	p = hist_entry_bytes(h, seq);
	hist_read_counters(h, seq, &p, -1, &out->ctr_valid);
	present = *p;
	m = hist_moment_at(h, seq);
	out->mem_valid = (uint32_t)m->v[M_MEM_VALID];
	for (int k = 0; k < MEM_COUNT; k++)
		out->mem[k] = m->v[M_MEM + k];
	for (int r = 0; r < PSI_COUNT; r++)
		for (int full = 0; full < 2; full++) {
			struct hist_psi_line *l = full ? &out->psi[r].full : &out->psi[r].some;
			const uint64_t *avg = &m->v[M_AVG + (r * 2 + full) * 3];

			l->present = (present >> (r * 2 + full)) & 1;
			l->avg10 = (uint32_t)avg[0];
			l->avg60 = (uint32_t)avg[1];
			l->avg300 = (uint32_t)avg[2];
		}
	out->pti_seq = (int64_t)m->v[M_PTI] - 1;
	out->uptime = m->v[M_UPTIME] ? (double)(m->v[M_UPTIME] - 1) / 100 : NAN;
	for (int f = 0; f < TS_COUNT; f++)
		out->tasks.state[f] = (uint32_t)m->v[M_STATE + f];
	out->tasks.total = (uint32_t)m->v[M_TOTAL];
	out->tasks.n_blocked = (uint16_t)m->v[M_N_BLOCKED];
	out->tasks.n_groups = (uint16_t)m->v[M_N_GROUPS];
	for (int k = 0; k < HIST_TASK_GROUPS; k++) {
		struct hist_task_group *g = &out->tasks.top[k];
		const uint64_t *top = &m->v[M_TOP + k * 5];

		g->category = (uint8_t)top[TOP_CATEGORY];
		g->at_least = top[TOP_AT_LEAST] != 0;
		g->count = (uint16_t)(top[TOP_COUNT] > UINT16_MAX ? UINT16_MAX : top[TOP_COUNT]);
		g->longest = (float)top[TOP_MS] / 1000;
		g->reason = (uint64_t)k < m->v[M_N_TOP] && top[TOP_REASON] < (uint64_t)h->n_reasons ?
		    h->reasons[top[TOP_REASON]] : "";
	}
	return true;
}

const uint32_t *
history_buddy(const struct history *h, uint64_t seq, int z)
{
	static uint32_t row[MAX_ORDERS];
	const struct hist_moment *m;

	if (!slot_at(h, seq) || z < 0 || z >= h->shape.n_zones)
		return NULL;
	m = hist_moment_at(h, seq);
	for (int o = 0; o < h->shape.n_orders; o++) {
		uint64_t v = m->v[M_BUDDY + z * h->shape.n_orders + o];

		row[o] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return row;
}

bool
history_wmark(const struct history *h, uint64_t seq, int z, uint64_t out[WM_COUNT])
{
	const struct hist_moment *m;

	if (!slot_at(h, seq) || z < 0 || z >= h->shape.n_zones)
		return false;
	m = hist_moment_at(h, seq);
	for (int f = 0; f < WM_COUNT; f++) {
		uint64_t v = m->v[M_WMARK + z * WM_COUNT + f];

		out[f] = v ? v - 1 : UINT64_MAX;
	}
	return true;
}

int64_t
history_pti_at(const struct history *h, uint64_t seq)
{
	uint64_t pti;

	if (!slot_at(h, seq) || !(pti = hist_moment_at(h, seq)->v[M_PTI]))
		return -1;
	/* A read in force that the pagetypeinfo ring has since dropped is gone. */
	if (h->pti_next - (pti - 1) > h->pti_cap)
		return -1;
	return (int64_t)(pti - 1);
}

const struct hist_pti *
history_pti(const struct history *h, int64_t pti_seq)
{
	if (pti_seq < 0 || (uint64_t)pti_seq >= h->pti_next ||
	    h->pti_next - (uint64_t)pti_seq > h->pti_cap)
		return NULL;
	return &h->pti[(uint64_t)pti_seq % h->pti_cap];
}

const uint32_t *
history_pti_free(const struct history *h, int64_t pti_seq, int r, uint32_t *capped)
{
	size_t slot;

	if (!history_pti(h, pti_seq) || r < 0 || r >= h->shape.pti_n_rows)
		return NULL;
	slot = (uint64_t)pti_seq % h->pti_cap;
	if (capped)
		*capped = h->pti_capped[slot * (size_t)h->shape.pti_n_rows + (size_t)r];
	return h->pti_free + (slot * (size_t)h->shape.pti_n_rows + (size_t)r) *
	    (size_t)h->shape.n_orders;
}

const uint32_t *
history_pti_blocks(const struct history *h, int64_t pti_seq, int b)
{
	size_t slot;

	if (!history_pti(h, pti_seq) || b < 0 || b >= h->shape.pti_n_blocks)
		return NULL;
	slot = (uint64_t)pti_seq % h->pti_cap;
	return h->pti_blocks + (slot * (size_t)h->shape.pti_n_blocks + (size_t)b) *
	    (size_t)h->shape.pti_n_types;
}

uint64_t
history_find_time(const struct history *h, double t)
{
	uint64_t lo, hi;

	if (!history_range(h, &lo, &hi))
		return 0;
	if (slot_at(h, lo)->wall > t)
		return lo;
	/* Walls grow with seq; find the last entry at or before t. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (slot_at(h, mid)->wall <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}
