#include "model/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/wire.h"

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

#define UNKNOWN32	UINT32_MAX

/* What every chart reads of every entry, unpacked. */
struct hist_slot {
	double wall;
	double mono;
	uint32_t off;			/* of its bytes in its block's region */
	uint16_t valid;			/* SRC_BIT(): SRC_COUNT fits */
};

/*
 * The figures of one moment, as plain numbers. An entry stores each as
 * its difference from the entry before in its block (0 for the first),
 * absent figures counting as 0, so the stored differences are small and
 * their varints short. The counters' increases are not among them: they
 * are stored whole, so that a chart reads one entry without the others.
 */
enum {
	M_MEM_VALID,
	M_MEM,					/* kB, by enum mem_field */
	M_AVG = M_MEM + MEM_COUNT,		/* [r][full][avg10, 60, 300] */
	M_STATE = M_AVG + PSI_COUNT * 2 * 3,	/* by enum task_state_field */
	M_TOTAL = M_STATE + TS_COUNT,
	M_N_BLOCKED,
	M_N_GROUPS,
	M_N_TOP,
	M_TOP,					/* [k][TOP_...] */
	M_PTI = M_TOP + HIST_TASK_GROUPS * 5,	/* the read in force + 1: 0 none */
	M_BUDDY,				/* [zone][order], n_zones x n_orders */
	M_WMARK = M_BUDDY + MAX_ZONES * MAX_ORDERS,	/* [zone][field] pages + 1: 0 unknown */
	M_COUNT = M_WMARK + MAX_ZONES * WM_COUNT
};
enum { TOP_CATEGORY, TOP_AT_LEAST, TOP_COUNT, TOP_REASON, TOP_MS };

struct hist_moment {
	uint64_t v[M_COUNT];
};

_Static_assert(SRC_COUNT <= 16, "hist_slot.valid is 16 bits");
_Static_assert(PSI_COUNT * 2 <= 8, "a byte of PSI lines");

/* The most bytes an entry of this shape can take. */
static size_t
entry_max(const struct hist_shape *sh)
{
	size_t nums = 1 + CTR_COUNT + 1 + PSI_COUNT * 2 + M_BUDDY +
	    (size_t)sh->n_zones * (size_t)sh->n_orders + (size_t)sh->n_zones * WM_COUNT;

	return nums * VARINT_MAX;
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
	 * kept. calloc() of this much maps fresh zero pages: the worst case
	 * costs address space, not memory. */
	h->n_blocks = (cap + HIST_BLOCK - 1) / HIST_BLOCK + 1;
	h->region_size = HIST_BLOCK * entry_max(sh);
	/* A slot for every entry whose bytes a block still holds: an entry
	 * unpacks from its block's first, which may be older than cap. */
	h->slot = calloc(h->n_blocks * HIST_BLOCK, sizeof(*h->slot));
	h->bytes = calloc(h->n_blocks, h->region_size);
	h->enc = calloc(1, sizeof(*h->enc));
	h->cur = calloc(1, sizeof(*h->cur));
	if (!h->slot || !h->bytes || !h->enc || !h->cur)
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
}

void
history_free(struct history *h)
{
	if (!h)
		return;
	free(h->slot);
	free(h->bytes);
	free(h->enc);
	free(h->cur);
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

/* The increase of a cumulative figure plus one, or 0 when unknown: no
 * previous value, or a reset (it went backwards). */
static uint64_t
increase(bool have, uint64_t prev, uint64_t cur)
{
	if (!have || cur < prev || cur - prev == UINT64_MAX)
		return 0;
	return cur - prev + 1;
}

/* How many of a moment's numbers this shape uses: up to the zones, then
 * each zone's orders and watermarks. */
static size_t
moment_len(const struct hist_shape *sh)
{
	return M_BUDDY + (size_t)sh->n_zones * (size_t)sh->n_orders;
}

/* Appends the moment's figures to p as differences from prev's. */
static size_t
put_moment(uint8_t *p, const struct hist_moment *m, const struct hist_moment *prev,
	   const struct hist_shape *sh)
{
	size_t n = 0;

	for (size_t i = 0; i < moment_len(sh); i++)
		n += varint_put(p + n, zigzag((int64_t)(m->v[i] - prev->v[i])));
	for (size_t i = M_WMARK; i < M_WMARK + (size_t)sh->n_zones * WM_COUNT; i++)
		n += varint_put(p + n, zigzag((int64_t)(m->v[i] - prev->v[i])));
	return n;
}

/* Adds the differences at p to m, the moment before. */
static void
get_moment(const uint8_t *p, struct hist_moment *m, const struct hist_shape *sh)
{
	for (size_t i = 0; i < moment_len(sh); i++)
		m->v[i] += (uint64_t)unzigzag(varint_get(&p));
	for (size_t i = M_WMARK; i < M_WMARK + (size_t)sh->n_zones * WM_COUNT; i++)
		m->v[i] += (uint64_t)unzigzag(varint_get(&p));
}

/* The bytes of entry seq, which must be held. */
static uint8_t *
entry_bytes(const struct history *h, uint64_t seq)
{
	return h->bytes + (seq / HIST_BLOCK) % h->n_blocks * h->region_size +
	    h->slot[seq % (h->n_blocks * HIST_BLOCK)].off;
}

void
history_push(struct history *h, const struct sample *s, const struct task_groups *groups)
{
	const struct hist_shape *sh = &h->shape;
	uint64_t seq = h->next;
	struct hist_slot *sl = &h->slot[seq % (h->n_blocks * HIST_BLOCK)];
	struct hist_moment m;
	uint32_t valid = 0, ctr_valid = 0;
	uint64_t inc[CTR_COUNT] = { 0 }, stall[PSI_COUNT * 2] = { 0 };
	uint8_t psi_present = 0, *p;
	int64_t pti_seq;
	size_t n = 0;

	memset(&m, 0, sizeof(m));
	for (int i = 0; i < SRC_COUNT; i++)
		if (sample_has(s, i))
			valid |= SRC_BIT(i);
	if (sample_has(s, SRC_MEMINFO))
		for (int k = 0; k < MEM_COUNT; k++)
			if (meminfo_get(&s->mem, mem_keys[k], &m.v[M_MEM + k]))
				m.v[M_MEM_VALID] |= 1u << k;
	for (int r = 0; r < PSI_COUNT; r++) {
		for (int full = 0; full < 2; full++) {
			const struct psi_line *l = full ? &s->psi[r].full : &s->psi[r].some;
			unsigned bit = 1u << (r * 2 + full);
			bool have = sample_has(s, SRC_PSI_CPU + r) && l->present;
			uint64_t *avg = &m.v[M_AVG + (r * 2 + full) * 3];

			stall[r * 2 + full] = increase(have && h->have_last &&
			    (h->last_stall_valid & bit), h->last_stall[r][full], l->total);
			h->last_stall_valid &= (uint8_t)~bit;
			if (!have)
				continue;
			psi_present |= (uint8_t)bit;
			avg[0] = l->avg10;
			avg[1] = l->avg60;
			avg[2] = l->avg300;
			h->last_stall[r][full] = l->total;
			h->last_stall_valid |= (uint8_t)bit;
		}
	}
	if (sample_has(s, SRC_VMSTAT)) {
		struct counters ctr;

		counters_from_vmstat(&s->vm, &ctr);
		ctr_valid = (uint32_t)ctr.valid;
		for (int c = 0; c < CTR_COUNT; c++) {
			bool had = h->have_last && ((h->last_ctr_valid >> c) & 1);

			if (!counter_valid(&ctr, c))
				continue;
			inc[c] = increase(had, h->last_ctr[c], ctr.v[c]);
			h->last_ctr[c] = ctr.v[c];
		}
	}
	h->last_ctr_valid = ctr_valid;
	h->have_last = true;

	/* Zones keep the first sample's order; a zone that comes later is not shown. */
	if (sample_has(s, SRC_BUDDYINFO) && s->buddy.n_orders == sh->n_orders) {
		for (int r = 0; r < s->buddy.n_zones; r++) {
			int z = shape_zone(sh, s->buddy.zones[r].node, s->buddy.zones[r].zone, r);

			for (int o = 0; z >= 0 && o < sh->n_orders; o++)
				m.v[M_BUDDY + z * sh->n_orders + o] = s->buddy.zones[r].free[o];
		}
	} else {
		valid &= ~SRC_BIT(SRC_BUDDYINFO);
	}
	if (sample_has(s, SRC_ZONEINFO)) {
		static const int from[WM_COUNT] = {
			[WM_FREE] = ZI_FREE, [WM_MIN] = ZI_MIN, [WM_LOW] = ZI_LOW,
			[WM_HIGH] = ZI_HIGH, [WM_MANAGED] = ZI_MANAGED,
		};

		for (int r = 0; r < s->zi.n_zones; r++) {
			const struct zoneinfo_zone *zz = &s->zi.zones[r];
			int z = shape_zone(sh, zz->node, zz->zone, -1);

			for (int f = 0; z >= 0 && f < WM_COUNT; f++)
				if ((zz->has & (1u << from[f])) && zz->v[from[f]] < UINT64_MAX)
					m.v[M_WMARK + z * WM_COUNT + f] = zz->v[from[f]] + 1;
		}
	}
	if (sample_has(s, SRC_TASKS))
		push_tasks(h, &m, &s->tasks, groups);

	pti_seq = h->pti_next ? (int64_t)h->pti_next - 1 : -1;
	if (sample_has(s, SRC_PAGETYPEINFO) &&
	    (h->shape.pti_known || history_pti_init(h, &s->pti))) {
		push_pti(h, &s->pti, seq, s->wall);
		pti_seq = (int64_t)h->pti_next - 1;
	}
	m.v[M_PTI] = (uint64_t)(pti_seq + 1);

	/* A new block starts from nothing, so it reads without the one before. */
	if (seq % HIST_BLOCK == 0) {
		h->enc_off = 0;
		memset(h->enc, 0, sizeof(*h->enc));
	}
	if (h->cur_seq != UINT64_MAX && (h->cur_seq / HIST_BLOCK) % h->n_blocks ==
	    (seq / HIST_BLOCK) % h->n_blocks && h->cur_seq / HIST_BLOCK != seq / HIST_BLOCK)
		h->cur_seq = UINT64_MAX;	/* its block is being written over */
	sl->wall = s->wall;
	sl->mono = s->mono;
	sl->valid = (uint16_t)valid;
	sl->off = (uint32_t)h->enc_off;
	p = h->bytes + (seq / HIST_BLOCK) % h->n_blocks * h->region_size + h->enc_off;
	n += varint_put(p + n, ctr_valid);
	for (int c = 0; c < CTR_COUNT; c++)
		if ((ctr_valid >> c) & 1)
			n += varint_put(p + n, inc[c]);
	p[n++] = psi_present;
	for (int i = 0; i < PSI_COUNT * 2; i++)
		if ((psi_present >> i) & 1)
			n += varint_put(p + n, stall[i]);
	n += put_moment(p + n, &m, h->enc, sh);
	*h->enc = m;
	h->enc_off += n;
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

/* Counter c's stored increase + 1 (0: unknown), and p past the counters. */
static uint64_t
read_counters(const uint8_t **p, int c, uint32_t *valid)
{
	uint32_t v = (uint32_t)varint_get(p);
	uint64_t got = 0;

	if (valid)
		*valid = v;
	for (int k = 0; k < CTR_COUNT; k++)
		if ((v >> k) & 1) {
			if (k == c)
				got = varint_get(p);
			else
				varint_skip(p);
		}
	return got;
}

int64_t
history_ctr_delta(const struct history *h, uint64_t seq, enum counter c)
{
	const uint8_t *p;
	uint64_t v;

	/* The oldest entry held has lost its predecessor: no honest figure. */
	if (!slot_at(h, seq) || !seq || !slot_at(h, seq - 1) || c < 0 || c >= CTR_COUNT)
		return -1;
	p = entry_bytes(h, seq);
	v = read_counters(&p, c, NULL);
	return v ? (int64_t)(v - 1) : -1;
}

int64_t
history_psi_stall(const struct history *h, uint64_t seq, int r, bool full)
{
	const uint8_t *p;
	uint8_t present;

	if (!slot_at(h, seq) || !seq || !slot_at(h, seq - 1) || r < 0 || r >= PSI_COUNT)
		return -1;
	p = entry_bytes(h, seq);
	read_counters(&p, -1, NULL);
	present = *p++;
	for (int i = 0; i < PSI_COUNT * 2; i++) {
		uint64_t v;

		if (!((present >> i) & 1))
			continue;
		v = varint_get(&p);
		if (i == r * 2 + full)
			return v ? (int64_t)(v - 1) : -1;
	}
	return -1;
}

/* p past the counters and stall times, at the moment's differences. */
static const uint8_t *
moment_bytes(const struct history *h, uint64_t seq)
{
	const uint8_t *p = entry_bytes(h, seq);
	uint8_t present;

	read_counters(&p, -1, NULL);
	present = *p++;
	for (int i = 0; i < PSI_COUNT * 2; i++)
		if ((present >> i) & 1)
			varint_skip(&p);
	return p;
}

/* The moment of entry seq (held), unpacked into h->cur: from the entry
 * it was unpacked at before when that is earlier in the same block, else
 * from the block's start. A chart that walks forward pays one entry a step. */
static const struct hist_moment *
moment_at(const struct history *h, uint64_t seq)
{
	struct history *hw = (struct history *)h;	/* the cache only */
	uint64_t from = seq - seq % HIST_BLOCK;

	if (h->cur_seq == seq)
		return h->cur;
	if (h->cur_seq != UINT64_MAX && h->cur_seq >= from && h->cur_seq < seq) {
		from = h->cur_seq + 1;
	} else {
		memset(hw->cur, 0, sizeof(*hw->cur));
	}
	for (uint64_t i = from; i <= seq; i++)
		get_moment(moment_bytes(h, i), hw->cur, &h->shape);
	hw->cur_seq = seq;
	return h->cur;
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
	p = entry_bytes(h, seq);
	read_counters(&p, -1, &out->ctr_valid);
	present = *p;
	m = moment_at(h, seq);
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
	m = moment_at(h, seq);
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
	m = moment_at(h, seq);
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

	if (!slot_at(h, seq) || !(pti = moment_at(h, seq)->v[M_PTI]))
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
