/*
 * The value of every series of a set in a sample: each series says where
 * its value is (enum metric_kind) and what the row must hold, so a row
 * that moved since the set was built reads as no value, never as
 * another's. Fragmentation indices and the blocked tasks per category are
 * computed once per call, and nothing is allocated.
 */
#include "output/metrics.h"
#include "output/metrics-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool
zone_is(const struct metric_series *se, int node, const char *zone)
{
	return se->node == node && strcmp(se->key, zone) == 0;
}

static int64_t
clamp_u64(uint64_t v)
{
	return v > (uint64_t)METRICS_VALUE_MAX ? METRICS_VALUE_MAX : (int64_t)v;
}

/* ---- the checks, found once a build ---- */

/* The kind of check a series of kind k needs, or -1. */
static int
check_kind(int k)
{
	switch (k) {
	case MK_BUDDY_FREE:
	case MK_UNUSABLE:
	case MK_EXTFRAG:
		return MK_BUDDY_FREE;
	case MK_PTI_FREE:
	case MK_PTI_BLOCKS:
	case MK_ZONE:
		return k;
	}
	return -1;
}

static bool
check_same(const struct metric_check *c, int kind, const struct metric_series *se)
{
	return c->kind == kind && c->a == se->a && (kind != MK_PTI_BLOCKS || c->b == se->b) &&
	    c->se->node == se->node && strcmp(c->se->key, se->key) == 0 &&
	    strcmp(c->se->sub, se->sub) == 0;
}

/* key is zero-filled past its NUL (ser_add clears a series): its words
 * before the one holding the NUL compare whole, that one under a mask
 * that keeps the bytes up to the NUL. */
static void
plan_name(struct metric_series *se)
{
	size_t len = strnlen(se->key, sizeof(se->key) - 1);
	unsigned char mask[8] = { 0 };

	memset(mask, 0xff, len % 8 + 1);
	se->key_words = (int)(len / 8);
	memcpy(&se->key_mask, mask, sizeof(se->key_mask));
}

int
metrics_values_plan(struct metric_set *m)
{
	m->n_check = 0;
	m->named = NULL;
	if (m->cap_check < m->n_ser) {
		struct metric_check *c = realloc(m->check, (size_t)m->n_ser * sizeof(*c));
		uint8_t *ok = c ? realloc(m->check_ok, (size_t)m->n_ser) : NULL;
		struct metric_plan *pl = ok ? realloc(m->plan, (size_t)m->n_ser * sizeof(*pl)) :
		    NULL;

		if (c)
			m->check = c;
		if (ok)
			m->check_ok = ok;
		if (!c || !ok || !pl)
			return -ENOMEM;
		m->plan = pl;
		m->cap_check = m->n_ser;
	}
	for (int i = 0; i < m->n_ser; i++) {
		struct metric_series *se = &m->ser[i];
		int kind = check_kind(se->kind), c;

		se->check = -1;
		if (se->kind == MK_VMSTAT || se->kind == MK_MEMINFO)
			plan_name(se);
		if (kind >= 0) {
			/* The series of a row are next to each other: the
			 * last checks are the likely ones. */
			for (c = m->n_check - 1; c >= 0 && c >= m->n_check - 64; c--)
				if (check_same(&m->check[c], kind, se))
					break;
			if (c < 0 || c < m->n_check - 64) {
				c = m->n_check++;
				m->check[c] = (struct metric_check){ .kind = kind, .a = se->a,
								     .b = se->b, .se = se };
			}
			se->check = c;
		}
		m->plan[i] = (struct metric_plan){ .kind = se->kind, .a = se->a, .b = se->b,
						   .check = se->check, .run = 1 };
	}
	for (int i = m->n_ser - 2; i >= 0; i--)
		if (m->plan[i].kind == m->plan[i + 1].kind)
			m->plan[i].run = m->plan[i + 1].run + 1;
	m->pti_done = NULL;
	m->pti_read_done = 0;
	return 0;
}

/* Whether the row of check c holds in in what its series were built from. */
static bool
check_row(const struct metric_check *c, const struct metrics_input *in)
{
	const struct sample *s = in->s;
	const struct metric_series *se = c->se;
	const struct pagetypeinfo *pti = in->pti;

	switch (c->kind) {
	case MK_BUDDY_FREE:
		return sample_has(s, SRC_BUDDYINFO) && c->a < s->buddy.n_zones &&
		    zone_is(se, s->buddy.zones[c->a].node, s->buddy.zones[c->a].zone);
	case MK_PTI_FREE:
		return pti && c->a < pti->n_free &&
		    zone_is(se, pti->free[c->a].node, pti->free[c->a].zone) &&
		    strcmp(pti->types[pti->free[c->a].type], se->sub) == 0;
	case MK_PTI_BLOCKS:
		return pti && c->a < pti->n_blocks && c->b < pti->n_types &&
		    zone_is(se, pti->blocks[c->a].node, pti->blocks[c->a].zone) &&
		    strcmp(pti->types[c->b], se->sub) == 0;
	case MK_ZONE:
		return sample_has(s, SRC_ZONEINFO) && c->a < s->zi.n_zones &&
		    zone_is(se, s->zi.zones[c->a].node, s->zi.zones[c->a].zone);
	}
	return false;
}

/* strcmp(name, se->key) == 0, a word at a time: name is an array of whole
 * words at least as long as the key's (vmstat and meminfo names). */
static bool
name_is(const char *name, const struct metric_series *se)
{
	uint64_t a, b;
	int w;

	for (w = 0; w < se->key_words; w++) {
		memcpy(&a, name + 8 * w, 8);
		memcpy(&b, se->key + 8 * w, 8);
		if (a != b)
			return false;
	}
	memcpy(&a, name + 8 * w, 8);
	memcpy(&b, se->key + 8 * w, 8);
	return (a & se->key_mask) == b;
}

/* ---- values ---- */

/* Zone a's unusable index or extfrag at order b, once its figures are
 * computed (frag_done). */
static int64_t
frag_figure(const struct metric_set *m, int kind, int a, int b)
{
	return kind == MK_UNUSABLE ? m->frag[a].unusable[b] : m->frag[a].extfrag[b];
}

/* Zoneinfo field b of zone a in bytes, or METRIC_NONE when the row is not
 * the one the set was built with or the zone lacks the field. */
static int64_t
zone_value(const struct metric_set *m, int check, int a, int b, const struct sample *s)
{
	if (!m->check_ok[check] || !(s->zi.zones[a].has & (1u << b)))
		return METRIC_NONE;
	return clamp_u64(s->zi.zones[a].v[b] * (uint64_t)(s->page_size > 0 ? s->page_size : 4096));
}

static int64_t
buddy_value(struct metric_set *m, const struct metric_series *se, const struct sample *s)
{
	const struct buddyinfo *bi = &s->buddy;

	if (!m->check_ok[se->check] || se->b >= bi->n_orders)
		return METRIC_NONE;
	if (se->kind == MK_BUDDY_FREE)
		return clamp_u64(bi->zones[se->a].free[se->b]);
	if (!(m->frag_done & (1ull << se->a))) {
		const uint64_t *free = bi->zones[se->a].free;
		size_t size = (size_t)bi->n_orders * sizeof(free[0]);

		if (!(m->frag_held & (1ull << se->a)) || m->frag_orders[se->a] != bi->n_orders ||
		    bi->n_orders > MAX_ORDERS || memcmp(m->frag_free[se->a], free, size) != 0) {
			frag_compute(free, bi->n_orders, &m->frag[se->a]);
			m->frag_held &= ~(1ull << se->a);
			if (bi->n_orders <= MAX_ORDERS) {
				memcpy(m->frag_free[se->a], free, size);
				m->frag_orders[se->a] = bi->n_orders;
				m->frag_held |= 1ull << se->a;
			}
		}
		m->frag_done |= 1ull << se->a;
	}
	return frag_figure(m, se->kind, se->a, se->b);
}

static int64_t
pti_value(struct metric_set *m, const struct metric_series *se, const struct metrics_input *in)
{
	const struct pagetypeinfo *pti = in->pti;

	if (!pti)
		return METRIC_NONE;
	if (se->kind == MK_PTI_TIME)
		return (int64_t)(in->pti_wall * 1000 + 0.5);
	if (!m->check_ok[se->check])
		return METRIC_NONE;
	if (se->kind == MK_PTI_FREE)
		return se->b >= pti->n_orders ? METRIC_NONE : pti->free[se->a].free[se->b];
	return clamp_u64(pti->blocks[se->a].count[se->b]);
}

static int64_t
named_value(const struct metric_series *se, const struct sample *s)
{
	uint64_t v;

	if (se->kind == MK_VMSTAT) {
		if (!sample_has(s, SRC_VMSTAT))
			return METRIC_NONE;
		if (se->a < s->vm.n && name_is(s->vm.e[se->a].name, se))
			return clamp_u64(s->vm.e[se->a].value);
		return vmstat_get(&s->vm, se->key, &v) ? clamp_u64(v) : METRIC_NONE;
	}
	if (!sample_has(s, SRC_MEMINFO))
		return METRIC_NONE;
	if (se->a < s->mem.n && name_is(s->mem.e[se->a].name, se)) {
		const struct meminfo_entry *e = &s->mem.e[se->a];

		return clamp_u64(e->kb ? e->value * 1024 : e->value);
	}
	for (int i = 0; i < s->mem.n; i++)
		if (strcmp(s->mem.e[i].name, se->key) == 0)
			return clamp_u64(s->mem.e[i].kb ? s->mem.e[i].value * 1024 : s->mem.e[i].value);
	return METRIC_NONE;
}

static void
tasks_by_category(struct metric_set *m, const struct metrics_input *in)
{
	const struct task_groups *gs = in->groups;

	memset(m->cat_count, 0, sizeof(m->cat_count));
	memset(m->cat_longest, 0, sizeof(m->cat_longest));
	m->cats_done = true;
	if (gs) {
		for (int g = 0; g < gs->n; g++) {
			int c = gs->g[g].category;

			if (c < 0 || c >= WAIT_COUNT)
				continue;
			m->cat_count[c] += gs->g[g].count;
			if (gs->g[g].longest > m->cat_longest[c])
				m->cat_longest[c] = gs->g[g].longest;
		}
		return;
	}
	/* No groups (no wait-reason table): every blocked task is "other". */
	m->cat_count[WAIT_OTHER] = in->s->tasks.n_blocked;
	for (int i = 0; i < in->s->tasks.n_blocked; i++) {
		double t = task_blocked_for(&in->s->tasks, i, in->s->mono);

		if (t > m->cat_longest[WAIT_OTHER])
			m->cat_longest[WAIT_OTHER] = t;
	}
}

static int64_t
series_value(struct metric_set *m, const struct metric_series *se, const struct metrics_input *in)
{
	const struct sample *s = in->s;
	const struct psi_line *l;

	switch (se->kind) {
	case MK_BUDDY_FREE:
	case MK_UNUSABLE:
	case MK_EXTFRAG:
		return buddy_value(m, se, s);
	case MK_PTI_FREE:
	case MK_PTI_BLOCKS:
	case MK_PTI_TIME:
		return pti_value(m, se, in);
	case MK_ZONE:
		return zone_value(m, se->check, se->a, se->b, s);
	case MK_VMSTAT:
	case MK_MEMINFO:
		return named_value(se, s);
	case MK_PSI_AVG:
	case MK_PSI_TOTAL:
		if (!(l = metrics_psi_line(s, se->a, se->b)) || !l->present)
			return METRIC_NONE;
		if (se->kind == MK_PSI_TOTAL)
			return clamp_u64(l->total);
		/* avg10 is in hundredths of a percent: 10^-4 of the whole. */
		return se->c == 0 ? l->avg10 : se->c == 1 ? l->avg60 : l->avg300;
	case MK_THREADS:
		return sample_has(s, SRC_TASKS) ? s->tasks.by_state[se->a] : METRIC_NONE;
	case MK_BLOCKED:
	case MK_BLOCKED_LONGEST:
		if (!sample_has(s, SRC_TASKS))
			return METRIC_NONE;
		if (!m->cats_done)
			tasks_by_category(m, in);
		return se->kind == MK_BLOCKED ? m->cat_count[se->a] :
		    (int64_t)(m->cat_longest[se->a] * 1000 + 0.5);
	case MK_PROBE:
		return metrics_probes_value(se, in);
	case MK_CAPTURE:
		return metrics_capture_value(se, in);
	case MK_KMSG:
		return in->kmsg_total ? clamp_u64(in->kmsg_total[se->a]) : METRIC_NONE;
	case MK_SOURCE_UP:
		if (se->a == SRC_PAGETYPEINFO)
			return in->pti != NULL;
		return sample_has(s, se->a);
	}
	return METRIC_NONE;
}

/* Whether the names of s's source src are those of the sample the last
 * call read (so what it found of them holds). */
static bool
names_known(const struct metric_set *m, const struct metrics_input *in, int src)
{
	return in->prev && in->prev == m->named && (in->same_shape & SRC_BIT(src));
}

static bool
is_pti(int kind)
{
	return kind == MK_PTI_FREE || kind == MK_PTI_BLOCKS || kind == MK_PTI_TIME;
}

void
metrics_values(struct metric_set *m, const struct metrics_input *in, int64_t *v)
{
	const struct sample *s = in->s;
	const struct pagetypeinfo *pti = in->pti;
	bool vm = sample_has(s, SRC_VMSTAT), mem = sample_has(s, SRC_MEMINFO);
	/* Every vmstat (meminfo) series at its index: known from the call
	 * before, or found on the way. */
	bool vm_known = vm && m->vm_at && names_known(m, in, SRC_VMSTAT);
	bool mem_known = mem && m->mem_at && names_known(m, in, SRC_MEMINFO);
	bool vm_at = vm, mem_at = mem;
	/* The read in force is the one the values in v are of. */
	bool pti_same = in->prev && in->prev == m->named && pti && in->pti_read != 0 &&
	    pti == m->pti_done && in->pti_read == m->pti_read_done;

	m->frag_done = 0;
	m->cats_done = false;
	for (int c = 0; c < m->n_check; c++)
		if (!pti_same || !is_pti(m->check[c].kind))
			m->check_ok[c] = check_row(&m->check[c], in);
	for (int i = 0; i < m->n_ser;) {
		const struct metric_plan *pl = &m->plan[i];
		int e = i + pl->run;

		/* A run of the commonest kinds, as series_value() reads
		 * them, in a loop of its own; whatever they do not find,
		 * series_value() again. */
		switch (pl->kind) {
		case MK_VMSTAT:
			/* Names known (most calls): the value at its index. */
			for (; vm_known && i < e && pl->a < s->vm.n; i++, pl++)
				v[i] = clamp_u64(s->vm.e[pl->a].value);
			for (; i < e; i++, pl++)
				if (vm && pl->a < s->vm.n &&
				    (vm_known || name_is(s->vm.e[pl->a].name, &m->ser[i])))
					v[i] = clamp_u64(s->vm.e[pl->a].value);
				else {
					vm_at = false;
					v[i] = series_value(m, &m->ser[i], in);
				}
			continue;
		case MK_MEMINFO:
			for (; mem_known && i < e && pl->a < s->mem.n; i++, pl++) {
				const struct meminfo_entry *me = &s->mem.e[pl->a];

				v[i] = clamp_u64(me->kb ? me->value * 1024 : me->value);
			}
			for (; i < e; i++, pl++)
				if (mem && pl->a < s->mem.n &&
				    (mem_known || name_is(s->mem.e[pl->a].name, &m->ser[i]))) {
					const struct meminfo_entry *me = &s->mem.e[pl->a];

					v[i] = clamp_u64(me->kb ? me->value * 1024 : me->value);
				} else {
					mem_at = false;
					v[i] = series_value(m, &m->ser[i], in);
				}
			continue;
		case MK_PTI_FREE:
		case MK_PTI_BLOCKS:
		case MK_PTI_TIME:
			if (pti_same) {
				i = e;
				continue;
			}
			for (; i < e; i++, pl++)
				if (pl->kind == MK_PTI_FREE && pti && m->check_ok[pl->check] &&
				    pl->b < pti->n_orders)
					v[i] = pti->free[pl->a].free[pl->b];
				else
					v[i] = series_value(m, &m->ser[i], in);
			continue;
		case MK_BUDDY_FREE:
			for (; i < e; i++, pl++)
				if (m->check_ok[pl->check] && pl->b < s->buddy.n_orders)
					v[i] = clamp_u64(s->buddy.zones[pl->a].free[pl->b]);
				else
					v[i] = series_value(m, &m->ser[i], in);
			continue;
		case MK_UNUSABLE:
		case MK_EXTFRAG:
			/* A zone's figures once computed: read as they are. */
			for (; i < e; i++, pl++)
				if ((m->frag_done & (1ull << pl->a)) && m->check_ok[pl->check] &&
				    pl->b < s->buddy.n_orders)
					v[i] = frag_figure(m, pl->kind, pl->a, pl->b);
				else
					v[i] = buddy_value(m, &m->ser[i], s);
			continue;
		case MK_ZONE:
			for (; i < e; i++, pl++)
				v[i] = zone_value(m, pl->check, pl->a, pl->b, s);
			continue;
		}
		for (; i < e; i++)
			v[i] = series_value(m, &m->ser[i], in);
	}
	m->named = s;
	m->vm_at = vm_at;
	m->mem_at = mem_at;
	m->pti_done = pti;
	m->pti_read_done = in->pti_read;
}
