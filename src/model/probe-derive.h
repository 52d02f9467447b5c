/*
 * The kernel probes' figures of one tick, from two samples' cumulative
 * ones: counts, nanoseconds and histograms as differences, percentiles
 * from a histogram's buckets. The one place this arithmetic is done: the
 * screens, dump, export and report all call it.
 */
#ifndef PAGETOP_PROBE_DERIVE_H
#define PAGETOP_PROBE_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/probes.h"

enum probe_tick_state {
	PTICK_NONE,	/* cur has no probes on: nothing below */
	PTICK_FIRST,	/* no previous sample with them: differences 0 */
	PTICK_OK,	/* cur less prev */
	PTICK_RESET,	/* a new epoch, or a counter went back: cur's own
			 * figures since the probes (re)attached */
};

/* A histogram's tick: its differences, and percentiles in ns (the upper
 * bound of the bucket that holds them, at most the tick's longest when
 * known; 0 with no count). */
struct probe_tick_hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t bucket[PROBE_BUCKETS];
	uint64_t p50_ns, p99_ns;
	uint64_t max_ns;		/* the tick's longest; 0: not known */
};

struct probe_tick {
	enum probe_tick_state state;
	struct probe_tick_hist stall[STALL_KIND_COUNT];
	uint64_t reclaimed[STALL_KIND_COUNT];
	uint64_t compact_result[COMPACT_R_COUNT];
	uint64_t throttle_count[THROTTLE_REASON_COUNT];
	uint64_t throttle_us[THROTTLE_REASON_COUNT];
	uint64_t fallback[PROBE_ORDERS][PROBE_MIGRATETYPES][PROBE_MIGRATETYPES];
	uint64_t fallback_total;
	uint64_t fallback_fragmenting, fallback_owner;	/* all orders */
	uint64_t kswapd_wakes, kswapd_awake_ns;		/* all nodes */
	uint64_t kcompactd_wakes, kcompactd_awake_ns;
	uint64_t reclaim_writes;
	struct probe_tick_hist dsleep;	/* max: the D stacks' longest */
	uint64_t dsleep_lost;
};

/* out from prev (NULL: none) and cur. Never allocates. */
void probe_tick(const struct probes *prev, const struct probes *cur,
    struct probe_tick *out);

/* The q-quantile (0 < q <= 1) of a histogram of count entries, in ns:
 * the upper bound of the bucket that holds it (the open last bucket: its
 * lower bound), at most max_ns when that is not 0. 0 when count is 0. */
uint64_t probe_quantile_ns(const uint64_t *bucket, uint64_t count, double q,
    uint64_t max_ns);

#endif
