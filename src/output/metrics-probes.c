/*
 * The kernel probes as metrics: latency histograms (stalls by kind,
 * compaction runs by result, D sleeps) with cumulative _bucket{le},
 * _sum and _count, and counters, all cumulative since the probes
 * attached. A reattach (a new epoch) starts every one from 0 again:
 * Prometheus sees a counter reset, and in OpenMetrics each series has a
 * _created line, the epoch's wall time, that says when it started.
 */
#include "output/metrics.h"
#include "output/metrics-int.h"

#include <stdio.h>
#include <string.h>

#include "model/probes.h"

enum probe_metric {
	PM_HIST,		/* b histogram (below), c bucket or HIST_SUM, HIST_COUNT */
	PM_CREATED,
	PM_THROTTLE_COUNT,	/* b reason */
	PM_THROTTLE_US,		/* b reason */
	PM_FALLBACK,		/* b order, c asked * PROBE_MIGRATETYPES + taken */
	PM_FALLBACK_ALL,
	PM_FRAGMENTING,		/* b order */
	PM_OWNER,		/* b order */
	PM_TRY,			/* b order */
	PM_DEFERRED,		/* b order */
	PM_KSWAPD_WAKES,	/* b node */
	PM_KSWAPD_AWAKE,	/* b node */
	PM_KCOMPACTD_WAKES,	/* b node */
	PM_KCOMPACTD_AWAKE,	/* b node */
	PM_WRITES,
	PM_DSLEEP_LOST,
	PM_UP,
	PM_ATTACHED,		/* b probe_id */
};

/* Histograms: the stall kinds, then compaction by result, then D sleeps. */
#define HIST_COMPACT	STALL_KIND_COUNT
#define HIST_DSLEEP	(HIST_COMPACT + COMPACT_R_COUNT)
#define HIST_SUM	PROBE_BUCKETS
#define HIST_COUNT	(PROBE_BUCKETS + 1)

static const struct probe_hist *
probes_hist(const struct probes *p, int h)
{
	if (h < HIST_COMPACT)
		return &p->stall[h].lat;
	if (h < HIST_DSLEEP)
		return &p->compact_lat[h - HIST_COMPACT];
	return &p->dsleep;
}

/* A series of the last family; label (name=value) NULL for none. */
static struct metric_series *
probes_ser(struct metric_set *m, int what, int b, int c, int decimals, const char *suffix,
	   const char *label, const char *value)
{
	struct metric_series *se = metrics_ser_add(m, MK_PROBE, what, b, c, decimals);

	if (!se)
		return NULL;
	if (suffix)
		metrics_ser_suffix(m, se, suffix);
	if (label)
		metrics_lab(se, label, value);
	return se;
}

/* A counter's _created: when its epoch began. */
static void
probes_created(struct metric_set *m, const char *label, const char *value)
{
	struct metric_series *se = probes_ser(m, PM_CREATED, 0, 0, 3, "_created", label, value);

	if (se)
		se->where = METRIC_ONLY_OM;
}

static void
probes_histogram(struct metric_set *m, const char *name, const char *help, int h0, int n,
		 const char *label, const char *(*value)(int))
{
	char le[OPENMETRICS_VALUE_MAX];

	metrics_fam_add(m, name, METRIC_HISTOGRAM, "seconds", help);
	for (int h = h0; h < h0 + n; h++) {
		const char *v = label ? value(h - h0) : NULL;
		struct metric_series *se;

		for (int i = 0; i < PROBE_BUCKETS; i++) {
			if (!(se = probes_ser(m, PM_HIST, h, i, 0, "_bucket", label, v)))
				return;
			se->where = METRIC_NOT_CSV;
			if (i == PROBE_BUCKETS - 1)
				snprintf(le, sizeof(le), "+Inf");
			else
				metrics_format_value((int64_t)probe_bucket_le_us(i), 6, le);
			metrics_lab(se, "le", le);
		}
		probes_ser(m, PM_HIST, h, HIST_COUNT, 0, "_count", label, v);
		probes_ser(m, PM_HIST, h, HIST_SUM, 9, "_sum", label, v);
		probes_created(m, label, v);
	}
}

/* A counter family with a series (and its _created) per index, labelled
 * by number; by order, they are not CSV columns (METRIC_NOT_CSV). */
static void
probes_counter_by(struct metric_set *m, const char *name, const char *unit, const char *help,
		  int what, int n, const char *label, int decimals, unsigned where)
{
	struct metric_series *se;
	char num[16];

	metrics_fam_add(m, name, METRIC_COUNTER, unit, help);
	for (int i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%d", i);
		if ((se = probes_ser(m, what, i, 0, decimals, NULL, label, num)))
			se->where = where;
		probes_created(m, label, num);
	}
}

static const char *
probes_stall_label(int i)
{
	return probe_stall_name(i);
}

static const char *
probes_result_label(int i)
{
	return probe_compact_result_name(i);
}

/* A migratetype by the kernel's name where the pagetypeinfo in force has it. */
static void
probes_mtype(const struct metrics_input *in, int t, char *dst, size_t size)
{
	if (in->pti && t < in->pti->n_types)
		snprintf(dst, size, "%s", in->pti->types[t]);
	else
		snprintf(dst, size, "%d", t);
}

static void
probes_fallbacks(struct metric_set *m, const struct metrics_input *in)
{
	char asked[NAME_LEN], taken[NAME_LEN];
	struct metric_series *se;

	metrics_fam_add(m, "pagetop_probe_fallbacks", METRIC_COUNTER, "",
			"Allocations that fell back to another migratetype "
			"(kmem:mm_page_alloc_extfrag), by order, the migratetype asked for "
			"and the one taken; only the pairs seen.");
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int a = 0; a < PROBE_MIGRATETYPES; a++)
			for (int t = 0; t < PROBE_MIGRATETYPES; t++) {
				if (!(m->fb_seen[o][a] & (1u << t)))
					continue;
				for (int created = 0; created < 2; created++) {
					se = created ? metrics_ser_add(m, MK_PROBE, PM_CREATED, 0, 0, 3)
					    : metrics_ser_add(m, MK_PROBE, PM_FALLBACK, o,
							      a * PROBE_MIGRATETYPES + t, 0);
					if (!se)
						return;
					if (created)
						metrics_ser_suffix(m, se, "_created");
					se->where = created ? METRIC_ONLY_OM : METRIC_NOT_CSV;
					probes_mtype(in, a, asked, sizeof(asked));
					probes_mtype(in, t, taken, sizeof(taken));
					metrics_lab_int(se, "order", o);
					metrics_lab(se, "asked", asked);
					metrics_lab(se, "taken", taken);
				}
			}
	/* CSV's fixed columns have the sum of them instead. */
	if ((se = probes_ser(m, PM_FALLBACK_ALL, 0, 0, 0, NULL, "order", "all")))
		se->where = METRIC_ONLY_CSV;
}

/* Nodes: those buddyinfo lists, else all the probes count. */
static int
probes_nodes(const struct sample *s)
{
	int n = 0;

	if (!sample_has(s, SRC_BUDDYINFO))
		return PROBE_NODES;
	for (int z = 0; z < s->buddy.n_zones; z++)
		if (s->buddy.zones[z].node >= n)
			n = s->buddy.zones[z].node + 1;
	return n < 1 ? 1 : n > PROBE_NODES ? PROBE_NODES : n;
}

static void
probes_daemons(struct metric_set *m, int nodes)
{
	static const struct {
		const char *name, *unit, *help;
		int what, decimals;
	} fams[] = {
		{ "pagetop_probe_kswapd_wakes", "", "kswapd wake-ups by node "
		  "(vmscan:mm_vmscan_kswapd_wake).", PM_KSWAPD_WAKES, 0 },
		{ "pagetop_probe_kswapd_awake_seconds", "seconds", "Time kswapd was awake, "
		  "from wake to sleep, by node.", PM_KSWAPD_AWAKE, 9 },
		{ "pagetop_probe_kcompactd_wakes", "", "kcompactd wake-ups by node "
		  "(compaction:mm_compaction_kcompactd_wake).", PM_KCOMPACTD_WAKES, 0 },
		{ "pagetop_probe_kcompactd_awake_seconds", "seconds", "Time kcompactd was awake, "
		  "from wake to sleep, by node.", PM_KCOMPACTD_AWAKE, 9 },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++)
		probes_counter_by(m, fams[k].name, fams[k].unit, fams[k].help, fams[k].what, nodes,
				  "node", fams[k].decimals, 0);
}

void
metrics_note(struct metric_set *m, const struct metrics_input *in)
{
	const struct probes *p = &in->s->probes;

	if (p->state != PROBES_ON)
		return;
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int a = 0; a < PROBE_MIGRATETYPES; a++)
			for (int t = 0; t < PROBE_MIGRATETYPES; t++)
				if (p->fallback[o][a][t])
					m->fb_seen[o][a] |= (uint8_t)(1u << t);
}

void
metrics_probes_build(struct metric_set *m, const struct metrics_input *in)
{
	const struct probes *p = &in->s->probes;

	metrics_fam_add(m, "pagetop_probes_up", METRIC_GAUGE, "",
			"1 when pagetop's kernel probes (BPF on tracepoints) are loaded, 0 when "
			"they could not be (not root, no BTF, BPF locked down).");
	probes_ser(m, PM_UP, 0, 0, 0, NULL, NULL, NULL);
	if (p->state != PROBES_ON)
		return;
	metrics_note(m, in);
	metrics_fam_add(m, "pagetop_probe_attached", METRIC_GAUGE, "",
			"1 for a probe attached, 0 for one this kernel lacks.");
	for (int i = 0; i < PROBE_ID_COUNT; i++)
		if ((p->attached | p->missing) & (1u << i))
			probes_ser(m, PM_ATTACHED, i, 0, 0, NULL, "probe", probe_name(i));
	probes_histogram(m, "pagetop_probe_stall_seconds",
			 "Time tasks stalled in the allocator's slow path, by kind: direct reclaim, "
			 "memory cgroup reclaim, direct compaction.", 0, STALL_KIND_COUNT, "kind",
			 probes_stall_label);
	probes_histogram(m, "pagetop_probe_compaction_seconds",
			 "Compaction runs (compact_zone, by tasks and kcompactd) by result.",
			 HIST_COMPACT, COMPACT_R_COUNT, "result", probes_result_label);
	probes_histogram(m, "pagetop_probe_dsleep_seconds",
			 "Uninterruptible sleeps of at least the threshold (--dsleep-min).",
			 HIST_DSLEEP, 1, NULL, NULL);
	metrics_fam_add(m, "pagetop_probe_dsleep_lost", METRIC_COUNTER, "",
			"Uninterruptible sleeps not counted: the probes' maps were full.");
	probes_ser(m, PM_DSLEEP_LOST, 0, 0, 0, NULL, NULL, NULL);
	probes_created(m, NULL, NULL);
	for (int us = 0; us < 2; us++) {
		metrics_fam_add(m, us ? "pagetop_probe_throttled_seconds" : "pagetop_probe_throttled",
				METRIC_COUNTER, us ? "seconds" : "", us ?
				"Time reclaimers slept throttled (vmscan:mm_vmscan_throttled), by reason." :
				"Reclaim throttling sleeps (vmscan:mm_vmscan_throttled), by reason.");
		for (int r = 0; r < THROTTLE_REASON_COUNT; r++) {
			probes_ser(m, us ? PM_THROTTLE_US : PM_THROTTLE_COUNT, r, 0, us ? 6 : 0, NULL,
				   "reason", probe_throttle_name(r));
			probes_created(m, "reason", probe_throttle_name(r));
		}
	}
	probes_fallbacks(m, in);
	probes_counter_by(m, "pagetop_probe_fallbacks_fragmenting", "",
			  "Fallbacks that took a block below the pageblock order (fragmenting), "
			  "by order.", PM_FRAGMENTING, PROBE_ORDERS, "order", 0, METRIC_NOT_CSV);
	probes_counter_by(m, "pagetop_probe_fallbacks_owner_changed", "",
			  "Fallbacks that changed a pageblock's migratetype, by order.", PM_OWNER,
			  PROBE_ORDERS, "order", 0, METRIC_NOT_CSV);
	probes_counter_by(m, "pagetop_probe_compaction_tries", "",
			  "Direct compaction tries (mm_compaction_try_to_compact_pages), by order.",
			  PM_TRY, PROBE_ORDERS, "order", 0, METRIC_NOT_CSV);
	probes_counter_by(m, "pagetop_probe_compaction_deferrals", "",
			  "Direct compactions deferred (mm_compaction_deferred), by order.",
			  PM_DEFERRED, PROBE_ORDERS, "order", 0, METRIC_NOT_CSV);
	probes_daemons(m, probes_nodes(in->s));
	metrics_fam_add(m, "pagetop_probe_reclaim_writes", METRIC_COUNTER, "",
			"Folios reclaim wrote out itself (vmscan:mm_vmscan_write_folio).");
	probes_ser(m, PM_WRITES, 0, 0, 0, NULL, NULL, NULL);
	probes_created(m, NULL, NULL);
}

static int64_t
probes_cap(uint64_t v)
{
	return v > (uint64_t)METRICS_VALUE_MAX ? METRICS_VALUE_MAX : (int64_t)v;
}

static int64_t
probes_hist_value(const struct probes *p, int h, int part)
{
	const struct probe_hist *hi = probes_hist(p, h);
	uint64_t sum = 0;

	if (part == HIST_SUM)
		return probes_cap(hi->sum_ns);
	if (part == HIST_COUNT)
		return probes_cap(hi->count);
	/* le is cumulative: every bucket up to this one. */
	for (int i = 0; i <= part && i < PROBE_BUCKETS; i++)
		sum += hi->bucket[i];
	return probes_cap(sum);
}

int64_t
metrics_probes_value(const struct metric_series *se, const struct metrics_input *in)
{
	const struct sample *s = in->s;
	const struct probes *p = &s->probes;
	uint64_t v = 0;
	int b = se->b;

	if (se->a == PM_UP)
		return p->state == PROBES_ON;
	if (p->state != PROBES_ON)
		return METRIC_NONE;
	switch (se->a) {
	case PM_HIST:
		return probes_hist_value(p, b, se->c);
	case PM_CREATED:
		/* The epoch is monotonic: the wall time then, to the millisecond. */
		return (int64_t)((s->wall - s->mono + (double)p->epoch / 1e9) * 1000 + 0.5);
	case PM_THROTTLE_COUNT:
		return probes_cap(p->throttle_count[b]);
	case PM_THROTTLE_US:
		return probes_cap(p->throttle_us[b]);
	case PM_FALLBACK:
		return probes_cap(p->fallback[b][se->c / PROBE_MIGRATETYPES]
				  [se->c % PROBE_MIGRATETYPES]);
	case PM_FALLBACK_ALL:
		for (int o = 0; o < PROBE_ORDERS; o++)
			for (int a = 0; a < PROBE_MIGRATETYPES; a++)
				for (int t = 0; t < PROBE_MIGRATETYPES; t++)
					v += p->fallback[o][a][t];
		return probes_cap(v);
	case PM_FRAGMENTING:
		return probes_cap(p->fallback_fragmenting[b]);
	case PM_OWNER:
		return probes_cap(p->fallback_owner[b]);
	case PM_TRY:
		return probes_cap(p->compact_try[b]);
	case PM_DEFERRED:
		return probes_cap(p->compact_deferred[b]);
	case PM_KSWAPD_WAKES:
		return probes_cap(p->kswapd_wakes[b]);
	case PM_KSWAPD_AWAKE:
		return probes_cap(p->kswapd_awake_ns[b]);
	case PM_KCOMPACTD_WAKES:
		return probes_cap(p->kcompactd_wakes[b]);
	case PM_KCOMPACTD_AWAKE:
		return probes_cap(p->kcompactd_awake_ns[b]);
	case PM_WRITES:
		return probes_cap(p->reclaim_writes);
	case PM_DSLEEP_LOST:
		return probes_cap(p->dsleep_lost);
	case PM_ATTACHED:
		return (p->attached >> b) & 1;
	}
	return METRIC_NONE;
}
