/*
 * The value of every series of a set in a sample: each series says where
 * its value is (enum metric_kind) and what the row must hold, so a row
 * that moved since the set was built reads as no value, never as
 * another's. Fragmentation indices and the blocked tasks per category are
 * computed once per call, and nothing is allocated.
 */
#include "output/metrics.h"
#include "output/metrics-int.h"

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

static int64_t
buddy_value(struct metric_set *m, const struct metric_series *se, const struct sample *s)
{
	const struct buddyinfo *bi = &s->buddy;
	const struct frag *fr;

	if (!sample_has(s, SRC_BUDDYINFO) || se->a >= bi->n_zones || se->b >= bi->n_orders ||
	    !zone_is(se, bi->zones[se->a].node, bi->zones[se->a].zone))
		return METRIC_NONE;
	if (se->kind == MK_BUDDY_FREE)
		return clamp_u64(bi->zones[se->a].free[se->b]);
	fr = &m->frag[se->a];
	if (!(m->frag_done & (1ull << se->a))) {
		frag_compute(bi->zones[se->a].free, bi->n_orders, &m->frag[se->a]);
		m->frag_done |= 1ull << se->a;
	}
	return se->kind == MK_UNUSABLE ? fr->unusable[se->b] : fr->extfrag[se->b];
}

static int64_t
pti_value(const struct metric_series *se, const struct metrics_input *in)
{
	const struct pagetypeinfo *pti = in->pti;

	if (!pti)
		return METRIC_NONE;
	if (se->kind == MK_PTI_TIME)
		return (int64_t)(in->pti_wall * 1000 + 0.5);
	if (se->kind == MK_PTI_FREE) {
		const struct pagetypeinfo_free *row = &pti->free[se->a];

		if (se->a >= pti->n_free || se->b >= pti->n_orders ||
		    !zone_is(se, row->node, row->zone) || strcmp(pti->types[row->type], se->sub))
			return METRIC_NONE;
		return row->free[se->b];
	}
	if (se->a >= pti->n_blocks || se->b >= pti->n_types ||
	    !zone_is(se, pti->blocks[se->a].node, pti->blocks[se->a].zone) ||
	    strcmp(pti->types[se->b], se->sub))
		return METRIC_NONE;
	return clamp_u64(pti->blocks[se->a].count[se->b]);
}

static int64_t
named_value(const struct metric_series *se, const struct sample *s)
{
	uint64_t v;

	if (se->kind == MK_VMSTAT) {
		if (!sample_has(s, SRC_VMSTAT))
			return METRIC_NONE;
		if (se->a < s->vm.n && strcmp(s->vm.e[se->a].name, se->key) == 0)
			return clamp_u64(s->vm.e[se->a].value);
		return vmstat_get(&s->vm, se->key, &v) ? clamp_u64(v) : METRIC_NONE;
	}
	if (!sample_has(s, SRC_MEMINFO))
		return METRIC_NONE;
	for (int i = se->a < s->mem.n && strcmp(s->mem.e[se->a].name, se->key) == 0 ? se->a : 0;
	     i < s->mem.n; i++)
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
		return pti_value(se, in);
	case MK_ZONE:
		if (!sample_has(s, SRC_ZONEINFO) || se->a >= s->zi.n_zones ||
		    !zone_is(se, s->zi.zones[se->a].node, s->zi.zones[se->a].zone) ||
		    !(s->zi.zones[se->a].has & (1u << se->b)))
			return METRIC_NONE;
		return clamp_u64(s->zi.zones[se->a].v[se->b] *
				 (uint64_t)(s->page_size > 0 ? s->page_size : 4096));
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

void
metrics_values(struct metric_set *m, const struct metrics_input *in, int64_t *v)
{
	m->frag_done = 0;
	m->cats_done = false;
	for (int i = 0; i < m->n_ser; i++)
		v[i] = series_value(m, &m->ser[i], in);
}
