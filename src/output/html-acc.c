/*
 * One run's samples into the HTML pictures' bins (html-int.h), read once
 * and in order. Every figure is derived where the others are: rates and
 * PSI shares by derive.c from neighbouring samples (an interval whose
 * counter reset counts for nothing), the unusable index by frag.c, the
 * probes' ticks by probe-derive.c. A rate or a share belongs to the
 * sample that ends its interval.
 */
#include "output/html-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/derive.h"
#include "model/frag.h"

const struct html_chart_def html_charts[HC_COUNT] = {
	[HC_PSI] = { "pressure", "Pressure stall (PSI)", "%",
		     "The share of each interval that tasks stalled, from the PSI totals.",
		     5, { "memory some", "memory full", "io some", "io full", "cpu some" } },
	[HC_RECLAIM] = { "reclaim", "Reclaim", "/s", "Pages scanned and stolen per second.",
			 4, { "pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
			      "pgsteal_direct" } },
	[HC_COMPACT] = { "compaction", "Compaction", "/s", "Events per second.",
			 4, { "compact_stall", "compact_fail", "compact_success",
			      "compact_daemon_wake" } },
	[HC_FALLBACK] = { "fallbacks", "Migratetype fallbacks (kernel probes)", "/s",
			  "Allocations served from another migratetype's free lists, per "
			  "second: all, those below the pageblock order (they fragment), and "
			  "those that took the pageblock over.",
			  3, { "fallbacks", "fragmenting", "pageblock taken" } },
	[HC_LATENCY] = { "latency", "Stall latency (kernel probes)", "ms",
			 "The 99th percentile of the stalls that ended in each interval "
			 "(the upper bound of its histogram bucket).",
			 3, { "direct reclaim p99", "memcg reclaim p99", "compaction p99" } },
};

static const enum counter reclaim_ctr[] = {
	CTR_PGSCAN_KSWAPD, CTR_PGSCAN_DIRECT, CTR_PGSTEAL_KSWAPD, CTR_PGSTEAL_DIRECT,
};
static const enum counter compact_ctr[] = {
	CTR_COMPACT_STALL, CTR_COMPACT_FAIL, CTR_COMPACT_SUCCESS, CTR_COMPACT_DAEMON_WAKE,
};

struct html_acc *
html_acc_new(double shift, double x0, double x1, int bins, int heat_bins)
{
	struct html_acc *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->shift = shift;
	a->x0 = x0;
	a->x1 = x1;
	a->heat_n = heat_bins < 1 ? 1 : heat_bins > SVG_HEAT_BINS ? SVG_HEAT_BINS : heat_bins;
	for (int c = 0; c < HC_COUNT; c++)
		for (int k = 0; k < HTML_SERIES; k++)
			svg_bins_init(&a->bins[c][k], bins, x0, x1);
	counters_map_init(&a->map);
	return a;
}

void
html_acc_free(struct html_acc *a)
{
	if (!a)
		return;
	for (int k = 0; k < a->n_zones; k++)
		free(a->zones[k]);
	free(a);
}

static void
add_counters(struct html_acc *a, const struct sample *s, double x)
{
	struct counters c;
	struct derived d;

	if (!sample_has(s, SRC_VMSTAT))
		return;
	a->have[HC_RECLAIM] = a->have[HC_COMPACT] = true;
	counters_from_vmstat_mapped(&s->vm, &a->map, &c);
	derive_pair(a->have_ctr ? &a->ctr : NULL, a->ctr_mono, &c, s->mono, &d);
	for (int k = 0; k < 4; k++) {
		svg_bins_add(&a->bins[HC_RECLAIM][k], x, d.rate[reclaim_ctr[k]]);
		svg_bins_add(&a->bins[HC_COMPACT][k], x, d.rate[compact_ctr[k]]);
	}
	a->ctr = c;
	a->ctr_mono = s->mono;
	a->have_ctr = true;
}

static double
psi_share(const struct psi_line *l, const struct psi_line *pl, double dt)
{
	if (!l->present || !pl || !pl->present)
		return NAN;
	return derive_share((double)derive_increase(pl->total, l->total), dt);
}

static void
add_psi(struct html_acc *a, const struct sample *s, double x)
{
	static const struct { int r; bool full; } line[5] = {
		{ PSI_MEMORY, false }, { PSI_MEMORY, true }, { PSI_IO, false }, { PSI_IO, true },
		{ PSI_CPU, false },
	};

	for (int k = 0; k < 5; k++) {
		int r = line[k].r;
		const struct psi *p = a->have_psi[r] ? &a->last_psi[r] : NULL;

		/* The PSI sources are in enum psi_resource's order. */
		if (!sample_has(s, SRC_PSI_CPU + r))
			continue;
		a->have[HC_PSI] = true;
		svg_bins_add(&a->bins[HC_PSI][k], x,
			     psi_share(line[k].full ? &s->psi[r].full : &s->psi[r].some,
				       p ? (line[k].full ? &p->full : &p->some) : NULL,
				       derive_seconds(a->psi_mono[r], s->mono)));
	}
	for (int r = 0; r < PSI_COUNT; r++)
		if (sample_has(s, SRC_PSI_CPU + r)) {
			a->last_psi[r] = s->psi[r];
			a->psi_mono[r] = s->mono;
			a->have_psi[r] = true;
		}
}

static void
add_probes(struct html_acc *a, const struct sample *prev, const struct sample *s, double x)
{
	const struct probe_tick *t = &a->pt;
	double dt;

	if (s->probes.state != PROBES_ON)
		return;
	a->have[HC_FALLBACK] = a->have[HC_LATENCY] = true;
	probe_tick(prev ? &prev->probes : NULL, &s->probes, &a->pt);
	/* A reset's figures are those since the probes attached again. */
	if (!prev || (t->state != PTICK_OK && t->state != PTICK_RESET))
		return;
	dt = derive_seconds(prev->mono, s->mono);
	svg_bins_add(&a->bins[HC_FALLBACK][0], x, derive_per_second((int64_t)t->fallback_total, dt));
	svg_bins_add(&a->bins[HC_FALLBACK][1], x,
		     derive_per_second((int64_t)t->fallback_fragmenting, dt));
	svg_bins_add(&a->bins[HC_FALLBACK][2], x, derive_per_second((int64_t)t->fallback_owner, dt));
	for (int k = 0; k < STALL_KIND_COUNT && k < 3; k++)
		if (t->stall[k].count)
			svg_bins_add(&a->bins[HC_LATENCY][k], x, (double)t->stall[k].p99_ns / 1e6);
}

static struct html_zone *
zone_of(struct html_acc *a, const struct buddyinfo_zone *bz, int n_orders)
{
	struct html_zone *z;

	for (int k = 0; k < a->n_zones; k++)
		if (a->zones[k]->node == bz->node && strcmp(a->zones[k]->name, bz->zone) == 0)
			return a->zones[k];
	if (a->n_zones == MAX_ZONES || !(z = calloc(1, sizeof(*z))))
		return NULL;
	z->node = bz->node;
	snprintf(z->name, sizeof(z->name), "%s", bz->zone);
	z->n_orders = n_orders;
	a->zones[a->n_zones++] = z;
	return z;
}

static int
add_zones(struct html_acc *a, const struct sample *s, double x)
{
	const struct buddyinfo *b = &s->buddy;
	int bin = svg_bin_of(a->heat_n, a->x0, a->x1, x);

	if (!sample_has(s, SRC_BUDDYINFO) || bin < 0)
		return 0;
	for (int i = 0; i < b->n_zones; i++) {
		struct html_zone *z = zone_of(a, &b->zones[i], b->n_orders);
		struct frag fr;

		if (!z)
			return a->n_zones == MAX_ZONES ? 0 : -ENOMEM;
		frag_compute(b->zones[i].free, b->n_orders, &fr);
		for (int o = 0; o < b->n_orders && o < z->n_orders; o++)
			z->value[o * SVG_HEAT_BINS + bin] += fr.unusable[o];
		z->count[bin]++;
	}
	return 0;
}

/* The marks of r's range, as report_feed() takes them: within it, or
 * before (after) it when the range starts (ends) the recording; and a
 * mark whose sample opens the range (--since mark:TEXT), drawn at its
 * start. */
static void
add_marks(struct html_acc *a, const struct html_run *r)
{
	size_t nm, n = feed_count(r->f);
	const struct feed_mark *m = feed_marks(r->f, &nm);
	double lo = r->from == 0 ? -INFINITY : feed_time_of(r->f, r->from);
	double hi = r->to + 1 >= n ? INFINITY : feed_time_of(r->f, r->to);

	for (size_t k = 0; k < nm; k++) {
		struct html_mark *hm;

		if (m[k].kind != FEED_MARK || ((m[k].wall < lo || m[k].wall > hi) &&
					       (m[k].sample < r->from || m[k].sample > r->to)))
			continue;
		if (a->marks_total++ >= HTML_MARKS)
			continue;
		hm = &a->marks[a->n_marks++];
		hm->x = m[k].wall - a->shift;
		hm->text = m[k].text;
		fmt_moment(m[k].wall, FMT_DATE, hm->when, sizeof(hm->when));
	}
}

int
html_acc_feed(struct html_acc *a, struct html_run *r)
{
	bool prev_ok = false;

	r->lost = 0;
	a->first = feed_time_of(r->f, r->from);
	a->last = feed_time_of(r->f, r->to);
	for (size_t i = r->from; i <= r->to; i++) {
		const struct sample *s;
		double x;

		if (feed_seek(r->f, i) < 0) {
			r->lost++;
			prev_ok = false;
			continue;
		}
		s = r->f->tick.s;
		x = s->wall - a->shift;
		a->samples++;
		add_counters(a, s, x);
		add_psi(a, s, x);
		add_probes(a, prev_ok ? r->f->tick.prev : NULL, s, x);
		if (add_zones(a, s, x) < 0)
			return -ENOMEM;
		prev_ok = true;
	}
	a->lost = r->lost;
	add_marks(a, r);
	return 0;
}
