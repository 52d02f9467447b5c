#include "history.h"

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

static void
push_tasks(struct hist_tasks *ht, const struct tasks *t, const struct task_groups *gs)
{
	for (int f = 0; f < TS_COUNT; f++)
		for (const char *c = state_letters[f]; *c; c++)
			ht->state[f] += t->by_state[(unsigned char)*c];
	ht->total = t->total;
	ht->n_blocked = (uint16_t)(t->n_blocked > UINT16_MAX ? UINT16_MAX : t->n_blocked);
	if (!gs)
		return;
	ht->n_groups = (uint16_t)gs->n;
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
		ht->top[k].category = (uint8_t)g->category;
		ht->top[k].at_least = g->at_least;
		ht->top[k].count = (uint16_t)(g->count > UINT16_MAX ? UINT16_MAX : g->count);
		ht->top[k].longest = (float)g->longest;
		snprintf(ht->top[k].reason, sizeof(ht->top[k].reason), "%s", g->reason);
	}
}

void
history_push(struct history *h, const struct sample *s, const struct task_groups *groups)
{
	const struct hist_shape *sh = &h->shape;
	uint64_t seq = h->next;
	size_t slot = seq % h->cap;
	struct hist_entry *e = &h->e[slot];
	uint32_t *buddy = h->buddy + slot * (size_t)sh->n_zones * (size_t)sh->n_orders;
	uint64_t *wm = h->wmark + slot * (size_t)sh->n_zones * WM_COUNT;

	memset(e, 0, sizeof(*e));
	e->seq = seq;
	e->wall = s->wall;
	e->mono = s->mono;
	for (int i = 0; i < SRC_COUNT; i++)
		if (sample_has(s, i))
			e->valid |= SRC_BIT(i);
	if (sample_has(s, SRC_MEMINFO))
		for (int m = 0; m < MEM_COUNT; m++)
			if (meminfo_get(&s->mem, mem_keys[m], &e->mem[m]))
				e->mem_valid |= 1u << m;
	for (int r = 0; r < PSI_COUNT; r++)
		if (sample_has(s, SRC_PSI_CPU + r))
			e->psi[r] = s->psi[r];
	if (sample_has(s, SRC_VMSTAT))
		counters_from_vmstat(&s->vm, &e->ctr);

	/* Zones keep the first sample's order; a zone that comes later is not shown. */
	memset(buddy, 0, (size_t)sh->n_zones * (size_t)sh->n_orders * sizeof(*buddy));
	if (sample_has(s, SRC_BUDDYINFO) && s->buddy.n_orders == sh->n_orders) {
		for (int r = 0; r < s->buddy.n_zones; r++) {
			int z = shape_zone(sh, s->buddy.zones[r].node, s->buddy.zones[r].zone, r);

			for (int o = 0; z >= 0 && o < sh->n_orders; o++)
				buddy[z * sh->n_orders + o] = (uint32_t)(s->buddy.zones[r].free[o] > UINT32_MAX ?
				    UINT32_MAX : s->buddy.zones[r].free[o]);
		}
	} else {
		e->valid &= ~SRC_BIT(SRC_BUDDYINFO);
	}
	for (size_t i = 0; i < (size_t)sh->n_zones * WM_COUNT; i++)
		wm[i] = UINT64_MAX;
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
					wm[z * WM_COUNT + f] = zz->v[from[f]];
		}
	}

	if (sample_has(s, SRC_TASKS))
		push_tasks(&e->tasks, &s->tasks, groups);

	e->pti_seq = h->pti_next ? (int64_t)h->pti_next - 1 : -1;
	if (sample_has(s, SRC_PAGETYPEINFO) &&
	    (h->shape.pti_known || history_pti_init(h, &s->pti))) {
		push_pti(h, &s->pti, seq, s->wall);
		e->pti_seq = (int64_t)h->pti_next - 1;
	}
	/* A read in force that the pagetypeinfo ring has since dropped is gone. */
	if (e->pti_seq >= 0 && h->pti_next - (uint64_t)e->pti_seq > h->pti_cap)
		e->pti_seq = -1;
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

const struct hist_entry *
history_get(const struct history *h, uint64_t seq)
{
	if (seq >= h->next || h->next - seq > h->cap)
		return NULL;
	return &h->e[seq % h->cap];
}

const uint32_t *
history_buddy(const struct history *h, uint64_t seq, int z)
{
	if (!history_get(h, seq) || z < 0 || z >= h->shape.n_zones)
		return NULL;
	return h->buddy + ((seq % h->cap) * (size_t)h->shape.n_zones + (size_t)z) *
	    (size_t)h->shape.n_orders;
}

const uint64_t *
history_wmark(const struct history *h, uint64_t seq, int z)
{
	if (!history_get(h, seq) || z < 0 || z >= h->shape.n_zones)
		return NULL;
	return h->wmark + ((seq % h->cap) * (size_t)h->shape.n_zones + (size_t)z) * WM_COUNT;
}

int64_t
history_pti_at(const struct history *h, uint64_t seq)
{
	const struct hist_entry *e = history_get(h, seq);

	if (!e || e->pti_seq < 0 || h->pti_next - (uint64_t)e->pti_seq > h->pti_cap)
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
	if (history_get(h, lo)->wall > t)
		return lo;
	/* Walls grow with seq; find the last entry at or before t. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (history_get(h, mid)->wall <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}
