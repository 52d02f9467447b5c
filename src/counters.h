/* The reclaim and compaction counters under today's names, whatever the
 * kernel calls them: old kernels' per-zone counters are summed here, once. */
#ifndef PAGETOP_COUNTERS_H
#define PAGETOP_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "vmstat.h"

enum counter {
	CTR_PGSCAN_KSWAPD,
	CTR_PGSCAN_DIRECT,
	CTR_PGSTEAL_KSWAPD,
	CTR_PGSTEAL_DIRECT,
	CTR_PGSCAN_DIRECT_THROTTLE,
	CTR_PGREFILL,
	CTR_ALLOCSTALL,
	CTR_COMPACT_STALL,
	CTR_COMPACT_FAIL,
	CTR_COMPACT_SUCCESS,
	CTR_COMPACT_MIGRATE_SCANNED,
	CTR_COMPACT_FREE_SCANNED,
	CTR_COMPACT_DAEMON_WAKE,
	CTR_PGMIGRATE_SUCCESS,
	CTR_PGMIGRATE_FAIL,
	CTR_PGFAULT,
	CTR_PGMAJFAULT,
	CTR_WORKINGSET_REFAULT,		/* anon + file since 5.9 */
	CTR_WORKINGSET_ACTIVATE,
	CTR_THP_FAULT_ALLOC,
	CTR_THP_FAULT_FALLBACK,
	CTR_THP_COLLAPSE_ALLOC_FAILED,
	CTR_PSWPIN,
	CTR_PSWPOUT,
	CTR_PGPGIN,
	CTR_PGPGOUT,
	CTR_PGALLOC,			/* summed over zones */
	CTR_PGFREE,
	CTR_OOM_KILL,
	CTR_KSWAPD_LOW_WMARK_HIT_QUICKLY,
	CTR_KSWAPD_HIGH_WMARK_HIT_QUICKLY,
	CTR_COUNT
};

struct counters {
	uint64_t v[CTR_COUNT];
	uint64_t valid;			/* bit c set: the kernel has counter c */
};

/* The canonical name of a counter ("pgscan_kswapd"). */
const char *counter_name(enum counter c);
void counters_from_vmstat(const struct vmstat *vm, struct counters *out);
static inline bool
counter_valid(const struct counters *c, enum counter i)
{
	return (c->valid >> i) & 1;
}

#endif
