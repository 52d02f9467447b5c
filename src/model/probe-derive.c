/*
 * A tick of the kernel probes from two samples (probe-derive.h).
 */
#include "model/probe-derive.h"

#include <string.h>

uint64_t
probe_quantile_ns(const uint64_t *bucket, uint64_t count, double q,
    uint64_t max_ns)
{
	uint64_t want, seen = 0, ns;
	int i;

	if (count == 0)
		return 0;
	want = (uint64_t)(q * (double)count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < PROBE_BUCKETS - 1; i++) {
		seen += bucket[i];
		if (seen >= want)
			break;
	}
	if (i == PROBE_BUCKETS - 1)
		ns = probe_bucket_le_us(i - 1) * 1000;	/* open: its floor */
	else
		ns = probe_bucket_le_us(i) * 1000;
	return max_ns != 0 && max_ns < ns ? max_ns : ns;
}

/* Does any cumulative figure of cur stand below prev's? */
static bool
went_back(const uint64_t *c, const uint64_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i] < p[i])
			return true;
	return false;
}

#define N(a)	(sizeof(a) / sizeof(uint64_t))

static bool
hist_back(const struct probe_hist *c, const struct probe_hist *p)
{
	return c->count < p->count || c->sum_ns < p->sum_ns ||
	    went_back(c->bucket, p->bucket, PROBE_BUCKETS);
}

static bool
any_back(const struct probes *c, const struct probes *p)
{
	int i;

	for (i = 0; i < STALL_KIND_COUNT; i++)
		if (hist_back(&c->stall[i].lat, &p->stall[i].lat) ||
		    c->stall[i].reclaimed < p->stall[i].reclaimed)
			return true;
	return hist_back(&c->dsleep, &p->dsleep) ||
	    went_back(c->compact_result, p->compact_result,
	    N(c->compact_result)) ||
	    went_back(c->throttle_count, p->throttle_count,
	    N(c->throttle_count)) ||
	    went_back(c->throttle_us, p->throttle_us, N(c->throttle_us)) ||
	    went_back(&c->fallback[0][0][0], &p->fallback[0][0][0],
	    N(c->fallback)) ||
	    went_back(c->fallback_fragmenting, p->fallback_fragmenting,
	    N(c->fallback_fragmenting)) ||
	    went_back(c->fallback_owner, p->fallback_owner,
	    N(c->fallback_owner)) ||
	    went_back(c->kswapd_wakes, p->kswapd_wakes, N(c->kswapd_wakes)) ||
	    went_back(c->kswapd_awake_ns, p->kswapd_awake_ns,
	    N(c->kswapd_awake_ns)) ||
	    went_back(c->kcompactd_wakes, p->kcompactd_wakes,
	    N(c->kcompactd_wakes)) ||
	    went_back(c->kcompactd_awake_ns, p->kcompactd_awake_ns,
	    N(c->kcompactd_awake_ns)) ||
	    c->reclaim_writes < p->reclaim_writes ||
	    c->dsleep_lost < p->dsleep_lost;
}

static void
hist_tick(const struct probe_hist *c, const struct probe_hist *p,
    uint64_t max_ns, struct probe_tick_hist *out)
{
	int i;

	out->count = c->count - p->count;
	out->sum_ns = c->sum_ns - p->sum_ns;
	for (i = 0; i < PROBE_BUCKETS; i++)
		out->bucket[i] = c->bucket[i] - p->bucket[i];
	out->max_ns = max_ns;
	out->p50_ns = probe_quantile_ns(out->bucket, out->count, 0.5, max_ns);
	out->p99_ns = probe_quantile_ns(out->bucket, out->count, 0.99, max_ns);
}

static uint64_t
sum_diff(const uint64_t *c, const uint64_t *p, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += c[i] - p[i];
	return s;
}

void
probe_tick(const struct probes *prev, const struct probes *cur,
    struct probe_tick *out)
{
	/* Not const: .bss, whose pages are never backed, against 30 KB of
	 * .rodata that is resident with the rest of the binary. */
	static struct probes zero;
	const struct probes *p = prev;
	uint64_t dmax = 0;
	int i, o, a, t;

	memset(out, 0, sizeof(*out));
	if (cur->state != PROBES_ON)
		return;
	if (p == NULL || p->state != PROBES_ON) {
		out->state = PTICK_FIRST;
		p = cur;
	} else if (p->epoch != cur->epoch || any_back(cur, p)) {
		out->state = PTICK_RESET;
		p = &zero;
	} else {
		out->state = PTICK_OK;
	}
	for (i = 0; i < STALL_KIND_COUNT; i++) {
		hist_tick(&cur->stall[i].lat, &p->stall[i].lat,
		    out->state == PTICK_FIRST ? 0 : cur->stall[i].tick_max_ns,
		    &out->stall[i]);
		out->reclaimed[i] = cur->stall[i].reclaimed -
		    p->stall[i].reclaimed;
	}
	for (i = 0; i < COMPACT_R_COUNT; i++)
		out->compact_result[i] = cur->compact_result[i] -
		    p->compact_result[i];
	for (i = 0; i < THROTTLE_REASON_COUNT; i++) {
		out->throttle_count[i] = cur->throttle_count[i] -
		    p->throttle_count[i];
		out->throttle_us[i] = cur->throttle_us[i] - p->throttle_us[i];
	}
	for (o = 0; o < PROBE_ORDERS; o++)
		for (a = 0; a < PROBE_MIGRATETYPES; a++)
			for (t = 0; t < PROBE_MIGRATETYPES; t++) {
				out->fallback[o][a][t] = cur->fallback[o][a][t] -
				    p->fallback[o][a][t];
				out->fallback_total += out->fallback[o][a][t];
			}
	out->fallback_fragmenting = sum_diff(cur->fallback_fragmenting,
	    p->fallback_fragmenting, PROBE_ORDERS);
	out->fallback_owner = sum_diff(cur->fallback_owner, p->fallback_owner,
	    PROBE_ORDERS);
	out->kswapd_wakes = sum_diff(cur->kswapd_wakes, p->kswapd_wakes,
	    PROBE_NODES);
	out->kswapd_awake_ns = sum_diff(cur->kswapd_awake_ns,
	    p->kswapd_awake_ns, PROBE_NODES);
	out->kcompactd_wakes = sum_diff(cur->kcompactd_wakes,
	    p->kcompactd_wakes, PROBE_NODES);
	out->kcompactd_awake_ns = sum_diff(cur->kcompactd_awake_ns,
	    p->kcompactd_awake_ns, PROBE_NODES);
	out->reclaim_writes = cur->reclaim_writes - p->reclaim_writes;
	for (i = 0; out->state != PTICK_FIRST && i < cur->n_dstacks &&
	    i < PROBE_TOP_STACKS; i++)
		if (cur->dstack[i].max_ns > dmax)
			dmax = cur->dstack[i].max_ns;
	hist_tick(&cur->dsleep, &p->dsleep, dmax, &out->dsleep);
	out->dsleep_lost = cur->dsleep_lost - p->dsleep_lost;
}
