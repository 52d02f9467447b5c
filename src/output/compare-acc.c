/*
 * A recording's side of a comparison: one pass over its window, each
 * sample's step from the one before (derive.c's increases and shares,
 * frag.c's orders, probe_tick()'s differences) added into every span it
 * belongs to, in the block of equal time the interval falls in. The
 * phases are those of `pagetop report --phases`: a phase runs from its
 * mark's sample to the next mark's, so the sample between two is in both
 * and its interval in the earlier.
 */
#include "output/compare-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/derive.h"
#include "model/frag.h"
#include "output/report-int.h"
#include "util/arith.h"

enum compare_kind
compare_fig_kind(int fig)
{
	if (fig >= FIG_ZONE)
		return (fig - FIG_ZONE) % 4 == ZONE_FIG_WORST ? CMPK_MAX : CMPK_TIME;
	if (fig >= FIG_PSI && fig < FIG_EFF)
		return CMPK_SHARE;
	if (fig >= FIG_EFF && fig < FIG_BLOCKED)
		return CMPK_RATIO;
	if (fig == FIG_BLOCKED)
		return CMPK_MEAN;
	if (fig == FIG_KSWAPD_AWAKE || fig == FIG_KCOMPACTD_AWAKE)
		return CMPK_SHARE;
	return CMPK_RATE;
}

static struct compare_span *
compare_span_new(struct compare_run *r, const struct feed *f, enum compare_role role,
		 size_t from, size_t to)
{
	struct compare_span *sp;
	size_t intervals = to - from;

	if (r->n_spans == COMPARE_SPANS || !(sp = calloc(1, sizeof(*sp))))
		return NULL;
	sp->role = role;
	sp->from = from;
	sp->to = to;
	sp->t0 = feed_time_of(f, from);
	sp->t1 = feed_time_of(f, to);
	/* Two intervals a block at least, so that a block's mean is not
	 * one sample's jitter. */
	sp->n_blocks = (int)(intervals / 2 < COMPARE_BLOCKS ? intervals / 2 : COMPARE_BLOCKS);
	if (sp->n_blocks < 1)
		sp->n_blocks = 1;
	r->span[r->n_spans++] = sp;
	return sp;
}

struct compare_run *
compare_run_new(const struct feed *f, const char *path, size_t from, size_t to)
{
	struct compare_run *r = calloc(1, sizeof(*r));
	size_t nm, n_open = 0;
	const struct feed_mark *m = feed_marks(f, &nm);

	if (!r)
		return NULL;
	r->path = path;
	r->host = f->host;
	r->interval = f->interval;
	r->count = feed_count(f);
	r->from = from;
	r->to = to;
	r->first = feed_time_of(f, from);
	r->last = feed_time_of(f, to);
	r->pageblock_order = f->host.pageblock_order;
	counters_map_init(&r->map);
	if (!compare_span_new(r, f, CMP_WHOLE, from, to))
		goto fail;
	for (size_t k = 0; k < nm; k++)
		if (m[k].kind == FEED_MARK && m[k].sample >= from && m[k].sample <= to)
			n_open++;
	if (n_open > COMPARE_PHASES) {
		r->marks_dropped = n_open;
		return r;
	}
	for (size_t k = 0, seen = 0; k < nm; k++) {
		struct compare_span *sp;
		size_t next = to;

		if (m[k].kind != FEED_MARK || m[k].sample < from || m[k].sample > to)
			continue;
		if (seen++ == 0 && m[k].sample > from) {
			if (!(sp = compare_span_new(r, f, CMP_BEFORE, from, m[k].sample)))
				goto fail;
			snprintf(sp->name, sizeof(sp->name), "%s", m[k].text);
		}
		for (size_t j = k + 1; j < nm; j++)
			if (m[j].kind == FEED_MARK && m[j].sample <= to) {
				next = m[j].sample;
				break;
			}
		if (!(sp = compare_span_new(r, f, CMP_MARK, m[k].sample, next)))
			goto fail;
		snprintf(sp->name, sizeof(sp->name), "%s", m[k].text);
		sp->mark_wall = m[k].wall;
		sp->occurrence = 1;
		for (size_t s = 1; s + 1 < r->n_spans; s++)
			if (r->span[s]->role == CMP_MARK && strcmp(r->span[s]->name, sp->name) == 0)
				sp->occurrence++;
	}
	return r;
fail:
	compare_run_free(r);
	return NULL;
}

void
compare_run_free(struct compare_run *r)
{
	if (!r)
		return;
	for (size_t k = 0; k < r->n_spans; k++) {
		report_free(r->span[k]->rep);
		free(r->span[k]);
	}
	free(r);
}

/* The slot of a zone, taken when first seen; -1 past COMPARE_ZONES. */
static int
compare_zone_slot(struct compare_run *r, int node, const char *name)
{
	for (int k = 0; k < r->n_zones; k++)
		if (r->zone[k].node == node && strcmp(r->zone[k].name, name) == 0)
			return k;
	if (r->n_zones == COMPARE_ZONES) {
		r->zones_lost = true;
		return -1;
	}
	r->zone[r->n_zones].node = node;
	snprintf(r->zone[r->n_zones].name, sizeof(r->zone[0].name), "%s", name);
	return r->n_zones++;
}

static void
step_set(struct compare_run *r, int fig, double num, double den)
{
	r->step[fig].num = num;
	r->step[fig].den = den;
}

static void
step_counters(struct compare_run *r, const struct sample *prev, const struct sample *s)
{
	static const int eff[3][2] = {
		{ CTR_PGSTEAL_KSWAPD, CTR_PGSCAN_KSWAPD },
		{ CTR_PGSTEAL_DIRECT, CTR_PGSCAN_DIRECT },
		{ CTR_COMPACT_SUCCESS, CTR_COMPACT_STALL },
	};
	struct counters c;
	struct derived d;

	if (!sample_has(s, SRC_VMSTAT)) {
		r->have_prev_ctr = false;
		return;
	}
	counters_from_vmstat_mapped(&s->vm, &r->map, &c);
	if (prev && r->have_prev_ctr) {
		derive_pair(&r->prev_ctr, prev->mono, &c, s->mono, &d);
		for (int k = 0; k < CTR_COUNT; k++)
			if (!isnan(d.rate[k]))
				step_set(r, FIG_CTR + k, (double)d.inc[k], d.dt);
		for (int k = 0; k < 3; k++)
			if (d.inc[eff[k][0]] >= 0 && d.inc[eff[k][1]] >= 0)
				step_set(r, FIG_EFF + k, (double)d.inc[eff[k][0]],
					 (double)d.inc[eff[k][1]]);
	}
	r->prev_ctr = c;
	r->have_prev_ctr = true;
}

static void
step_psi(struct compare_run *r, const struct sample *prev, const struct sample *s, double dt)
{
	for (int res = 0; res < PSI_COUNT; res++) {
		enum source src = (enum source)(SRC_PSI_CPU + res);

		if (!prev || isnan(dt) || !sample_has(prev, src) || !sample_has(s, src))
			continue;
		for (int full = 0; full < 2; full++) {
			const struct psi_line *a = full ? &prev->psi[res].full : &prev->psi[res].some;
			const struct psi_line *b = full ? &s->psi[res].full : &s->psi[res].some;
			int64_t stall = a->present && b->present ?
			    derive_increase(a->total, b->total) : -1;

			if (stall >= 0)
				step_set(r, FIG_PSI + 2 * res + full, (double)stall, dt);
		}
	}
}

static void
step_zones(struct compare_run *r, const struct sample *s, double dt)
{
	const struct buddyinfo *b = &s->buddy;
	int pb;

	if (!sample_has(s, SRC_BUDDYINFO) || b->n_orders < 1)
		return;
	/* The pageblock order from the header (9 when it lacks it), as the
	 * report takes it, within the zone's orders. */
	pb = r->pageblock_order >= 0 ? r->pageblock_order : 9;
	if (pb > b->n_orders - 1)
		pb = b->n_orders - 1;
	for (int i = 0; i < b->n_zones; i++) {
		int z = compare_zone_slot(r, b->zones[i].node, b->zones[i].zone), fig;
		struct frag fr;

		if (z < 0)
			continue;
		frag_compute(b->zones[i].free, b->n_orders, &fr);
		fig = FIG_ZONE + 4 * z;
		step_set(r, fig + ZONE_FIG_WORST, fr.unusable[pb] / 1000.0, 1);
		if (isnan(dt))
			continue;
		/* The state the interval ends in holds over it. */
		step_set(r, fig + 0, fr.highest_free_order < 2 ? dt : 0, dt);
		step_set(r, fig + 1, fr.highest_free_order < 3 ? dt : 0, dt);
		step_set(r, fig + 2, fr.highest_free_order < pb ? dt : 0, dt);
	}
}

static void
step_kmsg(struct compare_run *r, const struct sample *s, double dt)
{
	const struct kmsg_sample *k = &s->kmsg;

	if (!k->read || k->err || isnan(dt))
		return;
	for (int kind = 0; kind < KMSG_KIND_COUNT; kind++)
		step_set(r, FIG_KMSG + kind, 0, dt);
	for (int i = 0; i < k->n && i < KMSG_MAX_EVENTS; i++)
		if (k->ev[i].kind >= 0 && k->ev[i].kind < KMSG_KIND_COUNT)
			r->step[FIG_KMSG + k->ev[i].kind].num++;
}

static bool
step_probes(struct compare_run *r, const struct sample *prev, const struct sample *s, double dt)
{
	struct probe_tick *t = &r->ptick;

	if (s->probes.state != PROBES_ON)
		return false;
	probe_tick(prev ? &prev->probes : NULL, &s->probes, t);
	if ((t->state != PTICK_OK && t->state != PTICK_RESET) || isnan(dt))
		return false;
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		step_set(r, FIG_PROBE + k, (double)t->stall[k].count, dt);
		step_set(r, FIG_PROBE_NS + k, (double)t->stall[k].sum_ns / 1e6, dt);
	}
	step_set(r, FIG_FALLBACK, (double)t->fallback_total, dt);
	step_set(r, FIG_KSWAPD_AWAKE, (double)t->kswapd_awake_ns / 1e3, dt);
	step_set(r, FIG_KCOMPACTD_AWAKE, (double)t->kcompactd_awake_ns / 1e3, dt);
	return true;
}

/* The block of equal time that wall time t of span sp falls in. */
static int
compare_block(const struct compare_span *sp, double t)
{
	double len = sp->t1 - sp->t0;
	int b = len > 0 ? (int)arith_floor((t - sp->t0) / len * sp->n_blocks) : 0;

	return b < 0 ? 0 : b >= sp->n_blocks ? sp->n_blocks - 1 : b;
}

/* Sample s into span sp: its step when the interval before it is in the
 * span, the figures of its own moment in any case. */
static void
compare_span_add(struct compare_span *sp, const struct compare_cell *step, bool interval,
		 double mid, double wall)
{
	int bi = compare_block(sp, mid), bw = compare_block(sp, wall);

	for (int fig = 0; fig < FIG_COUNT; fig++) {
		struct compare_cell *c;

		if (!(step[fig].den > 0))
			continue;
		if (compare_fig_kind(fig) == CMPK_MAX) {
			c = &sp->cell[fig][bw];
			if (!(c->den > 0) || step[fig].num > c->num)
				c->num = step[fig].num;
			c->den = 1;
			continue;
		}
		if (!interval)
			continue;
		c = &sp->cell[fig][bi];
		c->num += step[fig].num;
		c->den += step[fig].den;
	}
}

/* The span is over: its blocked-task groups into figures. */
static void
compare_span_close(struct compare_span *sp)
{
	const struct report *rep = sp->rep;

	if (!rep)
		return;
	report_close_spells(sp->rep);
	sp->groups = rep->n_groups;
	for (int g = 0; g < rep->n_groups; g++) {
		if (rep->groups[g].longest > sp->longest)
			sp->longest = rep->groups[g].longest;
		sp->blocked += rep->groups[g].total;
	}
	report_free(sp->rep);
	sp->rep = NULL;
}

long
compare_run_feed(struct compare_run *r, struct feed *f, const struct reasons *rs,
		 const char **why)
{
	bool prev_ok = false;

	*why = r->first_why;
	for (size_t i = r->from; i <= r->to; i++) {
		const struct sample *s, *prev;
		bool interval, probes;
		double dt, mid;

		if (feed_seek(f, i) < 0) {
			if (r->lost++ == 0)
				snprintf(r->first_why, sizeof(r->first_why), "%s", f->why);
			for (size_t k = 0; k < r->n_spans; k++)
				if (i >= r->span[k]->from && i <= r->span[k]->to)
					r->span[k]->lost++;
			prev_ok = false;
			r->have_prev_ctr = false;
			continue;
		}
		/* Read in order, the tick's previous sample is i - 1 when it
		 * was read too. */
		s = f->tick.s;
		prev = prev_ok ? f->tick.prev : NULL;
		dt = prev ? derive_seconds(prev->mono, s->mono) : NAN;
		interval = prev != NULL;
		mid = prev ? (prev->wall + s->wall) / 2 : s->wall;
		memset(r->step, 0, sizeof(r->step));
		step_counters(r, prev, s);
		step_psi(r, prev, s, dt);
		step_zones(r, s, dt);
		step_kmsg(r, s, dt);
		probes = step_probes(r, prev, s, dt);
		if (sample_has(s, SRC_TASKS) && !isnan(dt))
			step_set(r, FIG_BLOCKED, s->tasks.n_blocked * dt, dt);
		for (size_t k = 0; k < r->n_spans; k++) {
			struct compare_span *sp = r->span[k];

			if (i < sp->from || i > sp->to)
				continue;
			if (!sp->rep && !(sp->rep = report_new(f, rs, r->path)))
				return -1;
			sp->samples++;
			if (sample_has(s, SRC_TASKS)) {
				sp->tasks_seen = true;
				report_add_tasks(sp->rep, s);
			}
			if (s->kmsg.read && !s->kmsg.err)
				sp->kmsg_seen = true;
			if (probes && i > sp->from)
				sp->probes_seen = true;
			compare_span_add(sp, r->step, interval && i > sp->from, mid, s->wall);
			if (i == sp->to)
				compare_span_close(sp);
		}
		prev_ok = true;
	}
	/* A span whose last sample did not decode ends here. */
	for (size_t k = 0; k < r->n_spans; k++)
		compare_span_close(r->span[k]);
	return (long)r->lost;
}
