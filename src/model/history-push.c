/*
 * From a sample to a history entry: the meminfo figures kept, the PSI
 * averages, the counters' and stall times' increases since the last push
 * (by derive.c's reset rule), free blocks and watermarks per zone of the
 * shape learned from the first sample, a summary of the blocked tasks
 * with their reasons interned, and pagetypeinfo into its own ring. Then
 * history-pack.c packs the entry. Nothing here allocates but the
 * pagetypeinfo ring, once, at the first read of it.
 */
#include "model/history.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/derive.h"
#include "model/history-int.h"

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
 * HIST_REASONS once the table is full (the screens then show no reason). */
static uint64_t
intern_reason(struct history *h, const char *r)
{
	for (int i = 0; i < h->n_reasons; i++)
		if (strncmp(h->reasons[i], r, HIST_REASON_LEN - 1) == 0)
			return (uint64_t)i;
	if (h->n_reasons == HIST_REASONS)
		return HIST_REASONS;
	snprintf(h->reasons[h->n_reasons], HIST_REASON_LEN, "%s", r);
	return (uint64_t)h->n_reasons++;
}

static void
push_tasks(struct history *h, struct hist_moment *m, const struct tasks *t,
	   const struct task_groups *gs)
{
	for (int f = 0; f < TS_COUNT; f++)
		for (const char *c = state_letters[f]; *c; c++)
			m->v[M_STATE + f] += t->by_state[(unsigned char)*c];
	m->v[M_TOTAL] = (uint64_t)t->total;
	m->v[M_N_BLOCKED] = (uint64_t)t->n_blocked;
	if (!gs)
		return;
	m->v[M_N_GROUPS] = (uint64_t)gs->n;
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
		uint64_t *top = &m->v[M_TOP + k * 5];

		top[TOP_CATEGORY] = (uint64_t)g->category;
		top[TOP_AT_LEAST] = g->at_least;
		top[TOP_COUNT] = (uint64_t)g->count;
		top[TOP_REASON] = intern_reason(h, g->reason);
		top[TOP_MS] = g->longest > 0 ? (uint64_t)(g->longest * 1000 + 0.5) : 0;
		m->v[M_N_TOP] = (uint64_t)k + 1;
	}
}

static void
push_mem(struct hist_moment *m, const struct sample *s)
{
	if (!sample_has(s, SRC_MEMINFO))
		return;
	for (int k = 0; k < MEM_COUNT; k++)
		if (meminfo_get(&s->mem, mem_keys[k], &m->v[M_MEM + k]))
			m->v[M_MEM_VALID] |= 1u << k;
}

/* The averages of each PSI line, and its stall time's increase since the
 * push before when that one had the line too. */
static void
push_psi(struct history *h, struct hist_record *e, const struct sample *s)
{
	for (int r = 0; r < PSI_COUNT; r++) {
		for (int full = 0; full < 2; full++) {
			const struct psi_line *l = full ? &s->psi[r].full : &s->psi[r].some;
			unsigned bit = 1u << (r * 2 + full);
			bool have = sample_has(s, SRC_PSI_CPU + r) && l->present;
			uint64_t *avg = &e->m.v[M_AVG + (r * 2 + full) * 3];

			e->stall[r * 2 + full] = hist_inc_put(have && h->have_last &&
			    (h->last_stall_valid & bit) ?
			    derive_increase(h->last_stall[r][full], l->total) : -1);
			h->last_stall_valid &= (uint8_t)~bit;
			if (!have)
				continue;
			e->psi_present |= (uint8_t)bit;
			avg[0] = l->avg10;
			avg[1] = l->avg60;
			avg[2] = l->avg300;
			h->last_stall[r][full] = l->total;
			h->last_stall_valid |= (uint8_t)bit;
		}
	}
}

/* The counters' increases since the push before, when it had them too. */
static void
push_counters(struct history *h, struct hist_record *e, const struct sample *s)
{
	struct counters ctr;
	struct derived d;

	if (!sample_has(s, SRC_VMSTAT)) {
		h->last_ctr.valid = 0;
		return;
	}
	counters_from_vmstat(&s->vm, &ctr);
	derive_pair(h->have_last ? &h->last_ctr : NULL, h->last_mono, &ctr, s->mono, &d);
	e->ctr_valid = (uint32_t)ctr.valid;
	for (int c = 0; c < CTR_COUNT; c++)
		e->inc[c] = hist_inc_put(d.inc[c]);
	h->last_ctr = ctr;
}

/* Free blocks per zone and order; false when the read is not kept (none,
 * or another number of orders). Zones keep the first sample's order; a
 * zone that comes later is not shown. */
static bool
push_buddy(const struct hist_shape *sh, struct hist_moment *m, const struct sample *s)
{
	if (!sample_has(s, SRC_BUDDYINFO) || s->buddy.n_orders != sh->n_orders)
		return false;
	for (int r = 0; r < s->buddy.n_zones; r++) {
		int z = shape_zone(sh, s->buddy.zones[r].node, s->buddy.zones[r].zone, r);

		for (int o = 0; z >= 0 && o < sh->n_orders; o++)
			m->v[M_BUDDY + z * sh->n_orders + o] = s->buddy.zones[r].free[o];
	}
	return true;
}

static void
push_wmarks(const struct hist_shape *sh, struct hist_moment *m, const struct sample *s)
{
	static const int from[WM_COUNT] = {
		[WM_FREE] = ZI_FREE, [WM_MIN] = ZI_MIN, [WM_LOW] = ZI_LOW,
		[WM_HIGH] = ZI_HIGH, [WM_MANAGED] = ZI_MANAGED,
	};

	if (!sample_has(s, SRC_ZONEINFO))
		return;
	for (int r = 0; r < s->zi.n_zones; r++) {
		const struct zoneinfo_zone *zz = &s->zi.zones[r];
		int z = shape_zone(sh, zz->node, zz->zone, -1);

		for (int f = 0; z >= 0 && f < WM_COUNT; f++)
			if ((zz->has & (1u << from[f])) && zz->v[from[f]] < UINT64_MAX)
				m->v[M_WMARK + z * WM_COUNT + f] = zz->v[from[f]] + 1;
	}
}

void
history_push(struct history *h, const struct sample *s, const struct task_groups *groups)
{
	uint64_t seq = h->next;
	struct hist_record e;
	int64_t pti_seq;

	/* The moment's rows of zones this shape lacks are never read. */
	memset(&e, 0, offsetof(struct hist_record, m));
	hist_moment_clear(&e.m, &h->shape);
	e.wall = s->wall;
	e.mono = s->mono;
	for (int i = 0; i < SRC_COUNT; i++)
		if (sample_has(s, i))
			e.valid |= SRC_BIT(i);
	push_mem(&e.m, s);
	push_psi(h, &e, s);
	push_counters(h, &e, s);
	h->last_mono = s->mono;
	h->have_last = true;
	if (!push_buddy(&h->shape, &e.m, s))
		e.valid &= ~SRC_BIT(SRC_BUDDYINFO);
	push_wmarks(&h->shape, &e.m, s);
	if (sample_has(s, SRC_TASKS))
		push_tasks(h, &e.m, &s->tasks, groups);

	pti_seq = h->pti_next ? (int64_t)h->pti_next - 1 : -1;
	if (sample_has(s, SRC_PAGETYPEINFO) &&
	    (h->shape.pti_known || history_pti_init(h, &s->pti))) {
		push_pti(h, &s->pti, seq, s->wall);
		pti_seq = (int64_t)h->pti_next - 1;
	}
	e.m.v[M_PTI] = (uint64_t)(pti_seq + 1);
	/* Paused, the header shows the uptime of the entry, not the newest. */
	if (sample_has(s, SRC_UPTIME) && s->uptime >= 0 && s->uptime < 1e15)
		e.m.v[M_UPTIME] = (uint64_t)(s->uptime * 100 + 0.5) + 1;

	hist_push_probes(h, &e.m, s, seq);
	hist_put_entry(h, seq, &e);
	h->next++;
}
