#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* meminfo keys kept, indexed by enum mem_field. */
static const char *const mem_keys[MEM_COUNT] = {
	[MEM_TOTAL] = "MemTotal",
	[MEM_FREE] = "MemFree",
	[MEM_AVAILABLE] = "MemAvailable",
	[MEM_BUFFERS] = "Buffers",
	[MEM_CACHED] = "Cached",
	[MEM_DIRTY] = "Dirty",
	[MEM_WRITEBACK] = "Writeback",
	[MEM_ANON] = "AnonPages",
	[MEM_SHMEM] = "Shmem",
	[MEM_SLAB_RECLAIMABLE] = "SReclaimable",
	[MEM_SLAB_UNRECLAIMABLE] = "SUnreclaim",
	[MEM_SWAP_TOTAL] = "SwapTotal",
	[MEM_SWAP_FREE] = "SwapFree",
};

/* One entry as the ring holds it: about 360 bytes instead of the 780 of a
 * struct hist_entry, so an hour at 1 s fits in under 2 MB with buddyinfo.
 * Counters and PSI stall totals are kept as increases over the interval,
 * the only way the screens use them. */
#define U32_UNKNOWN	UINT32_MAX

struct hist_rec {
	double wall;
	double mono;
	uint16_t valid;			/* SRC_BIT(): SRC_COUNT fits */
	uint16_t mem_valid;
	uint8_t psi_present;		/* bit r * 2 + full */
	uint8_t n_groups;		/* of top[] filled */
	uint16_t n_groups_all;
	uint32_t pti_seq;		/* U32_UNKNOWN: none */
	uint32_t mem[MEM_COUNT];	/* kB >> mem_shift */
	uint16_t psi_avg[PSI_COUNT][2][3];
	uint32_t psi_stall[PSI_COUNT][2];	/* us; U32_UNKNOWN */
	uint32_t ctr_valid;
	uint32_t ctr[CTR_COUNT];	/* increases; U32_UNKNOWN */
	uint32_t state[TS_COUNT];
	uint32_t total;
	uint16_t n_blocked;
	struct {
		uint8_t category;
		uint8_t at_least;
		uint16_t count;
		uint16_t reason;	/* index into history.reasons, UINT16_MAX none */
		float longest;
	} top[HIST_TASK_GROUPS];
};

_Static_assert(SRC_COUNT <= 16, "hist_rec.valid is 16 bits");
_Static_assert(MEM_COUNT <= 16, "hist_rec.mem_valid is 16 bits");
_Static_assert(CTR_COUNT <= 32, "hist_rec.ctr_valid is 32 bits");
_Static_assert(PSI_COUNT * 2 <= 8, "hist_rec.psi_present is 8 bits");

static uint32_t
clamp_u32(uint64_t v)
{
	return v >= U32_UNKNOWN ? U32_UNKNOWN - 1 : (uint32_t)v;
}

static int
shape_zone(const struct hist_shape *sh, int node, const char *name, int hint)
{
	if (hint >= 0 && hint < sh->n_zones && sh->zones[hint].node == node &&
	    strcmp(sh->zones[hint].name, name) == 0)
		return hint;
	for (int z = 0; z < sh->n_zones; z++)
		if (sh->zones[z].node == node && strcmp(sh->zones[z].name, name) == 0)
			return z;
	return -1;
}

/* The pagetypeinfo shape and ring, from its first successful read. */
static bool
history_pti_init(struct history *h, const struct pagetypeinfo *pti)
{
	struct hist_shape *sh = &h->shape;
	size_t rows = (size_t)pti->n_free, blocks = (size_t)pti->n_blocks;

	if (h->pti_cap == 0 || pti->n_orders != sh->n_orders)
		return false;
	h->pti = calloc(h->pti_cap, sizeof(*h->pti));
	h->pti_free = calloc(h->pti_cap * (rows ? rows : 1) * (size_t)sh->n_orders,
			     sizeof(*h->pti_free));
	h->pti_capped = calloc(h->pti_cap * (rows ? rows : 1), sizeof(*h->pti_capped));
	h->pti_blocks = calloc(h->pti_cap * (blocks ? blocks : 1) * (size_t)pti->n_types,
			       sizeof(*h->pti_blocks));
	if (!h->pti || !h->pti_free || !h->pti_capped || !h->pti_blocks)
		return false;
	sh->pageblock_order = pti->pageblock_order;
	sh->pti_n_types = pti->n_types;
	memcpy(sh->pti_types, pti->types, sizeof(sh->pti_types));
	sh->pti_n_rows = pti->n_free;
	for (int r = 0; r < pti->n_free; r++) {
		sh->pti_row_zone[r] = shape_zone(sh, pti->free[r].node, pti->free[r].zone, -1);
		sh->pti_row_type[r] = pti->free[r].type;
	}
	sh->pti_n_blocks = pti->n_blocks;
	for (int b = 0; b < pti->n_blocks; b++)
		sh->pti_block_zone[b] = shape_zone(sh, pti->blocks[b].node, pti->blocks[b].zone, -1);
	sh->pti_known = true;
	return true;
}

struct history *
history_new(size_t cap, size_t pti_cap, const struct sample *first)
{
	struct history *h = calloc(1, sizeof(*h));
	struct hist_shape *sh;
	size_t nz;

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
	nz = sh->n_zones ? (size_t)sh->n_zones : 1;
	h->e = calloc(cap, sizeof(*h->e));
	h->buddy = calloc(cap * nz * (size_t)(sh->n_orders ? sh->n_orders : 1), sizeof(*h->buddy));
	h->wmark = calloc(cap * nz * WM_COUNT, sizeof(*h->wmark));
	if (!h->e || !h->buddy || !h->wmark)
		goto fail;
	/* kB in 32 bits reach 4 TB: bigger machines keep coarser figures. */
	if (sample_has(first, SRC_MEMINFO)) {
		uint64_t kb = 0, swap = 0;

		meminfo_get(&first->mem, "MemTotal", &kb);
		meminfo_get(&first->mem, "SwapTotal", &swap);
		if (swap > kb)
			kb = swap;
		while (h->mem_shift < 32 && (kb >> h->mem_shift) >= (1u << 30))
			h->mem_shift++;
	}
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
}

void
history_free(struct history *h)
{
	if (!h)
		return;
	free(h->e);
	free(h->buddy);
	free(h->wmark);
	free(h->pti);
	free(h->pti_free);
	free(h->pti_capped);
	free(h->pti_blocks);
	free(h);
}

static void
push_pti(struct history *h, const struct pagetypeinfo *pti, uint64_t seq, double wall)
{
	const struct hist_shape *sh = &h->shape;
	size_t slot = h->pti_next % h->pti_cap;
	uint32_t *free_rows = h->pti_free + slot * (size_t)sh->pti_n_rows * (size_t)sh->n_orders;
	uint32_t *capped = h->pti_capped + slot * (size_t)sh->pti_n_rows;
	uint32_t *blocks = h->pti_blocks + slot * (size_t)sh->pti_n_blocks * (size_t)sh->pti_n_types;

	/* A read of another shape (memory hotplug) is not kept. */
	if (pti->n_free != sh->pti_n_rows || pti->n_blocks != sh->pti_n_blocks ||
	    pti->n_types != sh->pti_n_types || pti->n_orders != sh->n_orders)
		return;
	h->pti[slot].seq = seq;
	h->pti[slot].wall = wall;
	for (int r = 0; r < sh->pti_n_rows; r++) {
		memcpy(free_rows + (size_t)r * (size_t)sh->n_orders, pti->free[r].free,
		       (size_t)sh->n_orders * sizeof(uint32_t));
		capped[r] = pti->free[r].capped;
	}
	for (int b = 0; b < sh->pti_n_blocks; b++)
		for (int t = 0; t < sh->pti_n_types; t++)
			blocks[(size_t)b * (size_t)sh->pti_n_types + (size_t)t] =
			    (uint32_t)(pti->blocks[b].count[t] > UINT32_MAX ? UINT32_MAX :
				       pti->blocks[b].count[t]);
	h->pti_next++;
}

static const char *const state_letters[TS_COUNT] = {
	[TS_RUNNING] = "R", [TS_BLOCKED] = "D", [TS_SLEEPING] = "S", [TS_IDLE] = "I",
	[TS_STOPPED] = "Tt", [TS_ZOMBIE] = "Z",
};

const char *
task_state_letters(enum task_state_field f)
{
	return f < TS_COUNT ? state_letters[f] : "";
}

/* The index of reason text r in the history's table, added when new;
 * UINT16_MAX once the table is full (the screens then show no reason). */
static uint16_t
intern_reason(struct history *h, const char *r)
{
	for (int i = 0; i < h->n_reasons; i++)
		if (strncmp(h->reasons[i], r, HIST_REASON_LEN - 1) == 0)
			return (uint16_t)i;
	if (h->n_reasons == HIST_REASONS)
		return UINT16_MAX;
	snprintf(h->reasons[h->n_reasons], HIST_REASON_LEN, "%s", r);
	return (uint16_t)h->n_reasons++;
}

static void
push_tasks(struct history *h, struct hist_rec *e, const struct tasks *t,
	   const struct task_groups *gs)
{
	for (int f = 0; f < TS_COUNT; f++)
		for (const char *c = state_letters[f]; *c; c++)
			e->state[f] += t->by_state[(unsigned char)*c];
	e->total = t->total;
	e->n_blocked = (uint16_t)(t->n_blocked > UINT16_MAX ? UINT16_MAX : t->n_blocked);
	if (!gs)
		return;
	e->n_groups_all = (uint16_t)(gs->n > UINT16_MAX ? UINT16_MAX : gs->n);
	/* The biggest groups (then the longest blocked): a partial selection sort. */
	int idx[TASKS_MAX_BLOCKED];

	for (int g = 0; g < gs->n; g++)
		idx[g] = g;
	for (int k = 0; k < HIST_TASK_GROUPS && k < gs->n; k++) {
		const struct task_group *g;
		int best = k, swap;

		for (int j = k + 1; j < gs->n; j++) {
			const struct task_group *a = &gs->g[idx[j]], *b = &gs->g[idx[best]];

			if (a->count > b->count || (a->count == b->count && a->longest > b->longest))
				best = j;
		}
		swap = idx[k];
		idx[k] = idx[best];
		idx[best] = swap;
		g = &gs->g[idx[k]];
		e->top[k].category = (uint8_t)g->category;
		e->top[k].at_least = g->at_least;
		e->top[k].count = (uint16_t)(g->count > UINT16_MAX ? UINT16_MAX : g->count);
		e->top[k].longest = (float)g->longest;
		e->top[k].reason = intern_reason(h, g->reason);
		e->n_groups = (uint8_t)(k + 1);
	}
}

/* The increase of a cumulative figure, or U32_UNKNOWN: no previous value,
 * a reset (it went backwards), or more than 32 bits in one interval. */
static uint32_t
increase(bool have, uint64_t prev, uint64_t cur)
{
	if (!have || cur < prev || cur - prev >= U32_UNKNOWN)
		return U32_UNKNOWN;
	return (uint32_t)(cur - prev);
}

void
history_push(struct history *h, const struct sample *s, const struct task_groups *groups)
{
	const struct hist_shape *sh = &h->shape;
	uint64_t seq = h->next;
	size_t slot = seq % h->cap;
	struct hist_rec *e = &h->e[slot];
	uint32_t *buddy = h->buddy + slot * (size_t)sh->n_zones * (size_t)sh->n_orders;
	uint32_t *wm = h->wmark + slot * (size_t)sh->n_zones * WM_COUNT;
	uint32_t valid = 0;
	int64_t pti_seq;

	memset(e, 0, sizeof(*e));
	e->wall = s->wall;
	e->mono = s->mono;
	for (int i = 0; i < SRC_COUNT; i++)
		if (sample_has(s, i))
			valid |= SRC_BIT(i);
	if (sample_has(s, SRC_MEMINFO))
		for (int m = 0; m < MEM_COUNT; m++) {
			uint64_t v;

			if (meminfo_get(&s->mem, mem_keys[m], &v)) {
				e->mem[m] = clamp_u32(v >> h->mem_shift);
				e->mem_valid |= (uint16_t)(1u << m);
			}
		}
	for (int r = 0; r < PSI_COUNT; r++) {
		for (int full = 0; full < 2; full++) {
			const struct psi_line *l = full ? &s->psi[r].full : &s->psi[r].some;
			unsigned bit = 1u << (r * 2 + full);
			bool have = sample_has(s, SRC_PSI_CPU + r) && l->present;

			e->psi_stall[r][full] = increase(have && h->have_last &&
			    (h->last_stall_valid & bit), h->last_stall[r][full], l->total);
			h->last_stall_valid &= (uint8_t)~bit;
			if (!have)
				continue;
			e->psi_present |= (uint8_t)bit;
			e->psi_avg[r][full][0] = (uint16_t)(l->avg10 > UINT16_MAX ? UINT16_MAX : l->avg10);
			e->psi_avg[r][full][1] = (uint16_t)(l->avg60 > UINT16_MAX ? UINT16_MAX : l->avg60);
			e->psi_avg[r][full][2] = (uint16_t)(l->avg300 > UINT16_MAX ? UINT16_MAX :
							    l->avg300);
			h->last_stall[r][full] = l->total;
			h->last_stall_valid |= (uint8_t)bit;
		}
	}
	for (int c = 0; c < CTR_COUNT; c++)
		e->ctr[c] = U32_UNKNOWN;
	if (sample_has(s, SRC_VMSTAT)) {
		struct counters ctr;

		counters_from_vmstat(&s->vm, &ctr);
		e->ctr_valid = (uint32_t)ctr.valid;
		for (int c = 0; c < CTR_COUNT; c++) {
			bool had = h->have_last && ((h->last_ctr_valid >> c) & 1);

			if (!counter_valid(&ctr, c))
				continue;
			e->ctr[c] = increase(had, h->last_ctr[c], ctr.v[c]);
			h->last_ctr[c] = ctr.v[c];
		}
		h->last_ctr_valid = (uint32_t)ctr.valid;
	} else {
		h->last_ctr_valid = 0;
	}
	h->have_last = true;

	/* Zones keep the first sample's order; a zone that comes later is not shown. */
	memset(buddy, 0, (size_t)sh->n_zones * (size_t)sh->n_orders * sizeof(*buddy));
	if (sample_has(s, SRC_BUDDYINFO) && s->buddy.n_orders == sh->n_orders) {
		for (int r = 0; r < s->buddy.n_zones; r++) {
			int z = shape_zone(sh, s->buddy.zones[r].node, s->buddy.zones[r].zone, r);

			for (int o = 0; z >= 0 && o < sh->n_orders; o++)
				buddy[z * sh->n_orders + o] = s->buddy.zones[r].free[o] > UINT32_MAX ?
				    UINT32_MAX : (uint32_t)s->buddy.zones[r].free[o];
		}
	} else {
		valid &= ~SRC_BIT(SRC_BUDDYINFO);
	}
	for (size_t i = 0; i < (size_t)sh->n_zones * WM_COUNT; i++)
		wm[i] = U32_UNKNOWN;
	if (sample_has(s, SRC_ZONEINFO)) {
		static const int from[WM_COUNT] = {
			[WM_FREE] = ZI_FREE, [WM_MIN] = ZI_MIN, [WM_LOW] = ZI_LOW,
			[WM_HIGH] = ZI_HIGH, [WM_MANAGED] = ZI_MANAGED,
		};

		for (int r = 0; r < s->zi.n_zones; r++) {
			const struct zoneinfo_zone *zz = &s->zi.zones[r];
			int z = shape_zone(sh, zz->node, zz->zone, -1);

			for (int f = 0; z >= 0 && f < WM_COUNT; f++)
				if (zz->has & (1u << from[f]))
					wm[z * WM_COUNT + f] = clamp_u32(zz->v[from[f]]);
		}
	}
	e->valid = (uint16_t)valid;

	if (sample_has(s, SRC_TASKS))
		push_tasks(h, e, &s->tasks, groups);

	pti_seq = h->pti_next ? (int64_t)h->pti_next - 1 : -1;
	if (sample_has(s, SRC_PAGETYPEINFO) &&
	    (h->shape.pti_known || history_pti_init(h, &s->pti))) {
		push_pti(h, &s->pti, seq, s->wall);
		pti_seq = (int64_t)h->pti_next - 1;
	}
	/* A read in force that the pagetypeinfo ring has since dropped is gone. */
	if (pti_seq >= 0 && h->pti_next - (uint64_t)pti_seq > h->pti_cap)
		pti_seq = -1;
	e->pti_seq = pti_seq < 0 || pti_seq >= U32_UNKNOWN ? U32_UNKNOWN : (uint32_t)pti_seq;
	h->next++;
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

static const struct hist_rec *
rec_at(const struct history *h, uint64_t seq)
{
	if (seq >= h->next || h->next - seq > h->cap)
		return NULL;
	return &h->e[seq % h->cap];
}

bool
history_has(const struct history *h, uint64_t seq)
{
	return rec_at(h, seq) != NULL;
}

uint32_t
history_valid(const struct history *h, uint64_t seq)
{
	const struct hist_rec *e = rec_at(h, seq);

	return e ? e->valid : 0;
}

double
history_wall(const struct history *h, uint64_t seq)
{
	const struct hist_rec *e = rec_at(h, seq);

	return e ? e->wall : NAN;
}

double
history_mono(const struct history *h, uint64_t seq)
{
	const struct hist_rec *e = rec_at(h, seq);

	return e ? e->mono : NAN;
}

int64_t
history_ctr_delta(const struct history *h, uint64_t seq, enum counter c)
{
	const struct hist_rec *e = rec_at(h, seq);

	/* The oldest entry held has lost its predecessor: no honest figure. */
	if (!e || !seq || !rec_at(h, seq - 1) || c < 0 || c >= CTR_COUNT ||
	    e->ctr[c] == U32_UNKNOWN)
		return -1;
	return e->ctr[c];
}

int64_t
history_psi_stall(const struct history *h, uint64_t seq, int r, bool full)
{
	const struct hist_rec *e = rec_at(h, seq);

	if (!e || !seq || !rec_at(h, seq - 1) || r < 0 || r >= PSI_COUNT ||
	    e->psi_stall[r][full] == U32_UNKNOWN)
		return -1;
	return e->psi_stall[r][full];
}

bool
history_entry(const struct history *h, uint64_t seq, struct hist_entry *out)
{
	const struct hist_rec *e = rec_at(h, seq);

	if (!e)
		return false;
	memset(out, 0, sizeof(*out));
	out->seq = seq;
	out->wall = e->wall;
	out->mono = e->mono;
	out->valid = e->valid;
	out->mem_valid = e->mem_valid;
	for (int m = 0; m < MEM_COUNT; m++)
		out->mem[m] = (uint64_t)e->mem[m] << h->mem_shift;
	for (int r = 0; r < PSI_COUNT; r++)
		for (int full = 0; full < 2; full++) {
			struct hist_psi_line *l = full ? &out->psi[r].full : &out->psi[r].some;

			l->present = (e->psi_present >> (r * 2 + full)) & 1;
			l->avg10 = e->psi_avg[r][full][0];
			l->avg60 = e->psi_avg[r][full][1];
			l->avg300 = e->psi_avg[r][full][2];
		}
	out->ctr_valid = e->ctr_valid;
	out->pti_seq = e->pti_seq == U32_UNKNOWN ? -1 : (int64_t)e->pti_seq;
	memcpy(out->tasks.state, e->state, sizeof(e->state));
	out->tasks.total = e->total;
	out->tasks.n_blocked = e->n_blocked;
	out->tasks.n_groups = e->n_groups_all;
	for (int k = 0; k < HIST_TASK_GROUPS; k++) {
		struct hist_task_group *g = &out->tasks.top[k];

		g->category = e->top[k].category;
		g->at_least = e->top[k].at_least;
		g->count = e->top[k].count;
		g->longest = e->top[k].longest;
		g->reason = e->top[k].reason < h->n_reasons ? h->reasons[e->top[k].reason] : "";
	}
	return true;
}

const uint32_t *
history_buddy(const struct history *h, uint64_t seq, int z)
{
	if (!rec_at(h, seq) || z < 0 || z >= h->shape.n_zones)
		return NULL;
	return h->buddy + ((seq % h->cap) * (size_t)h->shape.n_zones + (size_t)z) *
	    (size_t)h->shape.n_orders;
}

bool
history_wmark(const struct history *h, uint64_t seq, int z, uint64_t out[WM_COUNT])
{
	const uint32_t *w;

	if (!rec_at(h, seq) || z < 0 || z >= h->shape.n_zones)
		return false;
	w = h->wmark + ((seq % h->cap) * (size_t)h->shape.n_zones + (size_t)z) * WM_COUNT;
	for (int f = 0; f < WM_COUNT; f++)
		out[f] = w[f] == U32_UNKNOWN ? UINT64_MAX : w[f];
	return true;
}

int64_t
history_pti_at(const struct history *h, uint64_t seq)
{
	const struct hist_rec *e = rec_at(h, seq);

	if (!e || e->pti_seq == U32_UNKNOWN || h->pti_next - e->pti_seq > h->pti_cap)
		return -1;
	return e->pti_seq;
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
	if (rec_at(h, lo)->wall > t)
		return lo;
	/* Walls grow with seq; find the last entry at or before t. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (rec_at(h, mid)->wall <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}
