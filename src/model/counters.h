/* The reclaim and compaction counters under today's names, whatever the
 * kernel calls them: old kernels' per-zone counters are summed here, once. */
#ifndef PAGETOP_COUNTERS_H
#define PAGETOP_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "parse/vmstat.h"

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

/* Which counter each vmstat entry adds to, worked out once for a set of
 * names: reading many samples with the same names (a report on a day's
 * recording) then costs a comparison of the names and a few additions a
 * sample instead of a search of every name for every counter. */
struct counters_map {
	int n;				/* vmstat entries it was built for; -1 none */
	int n_hits;			/* entries that add to a counter */
	uint16_t hit_index[MAX_VMSTAT];
	uint8_t hit_counter[MAX_VMSTAT];
	char names[MAX_VMSTAT][VMSTAT_NAME_LEN];
};

void counters_map_init(struct counters_map *m);
/* The same as counters_from_vmstat(), through m, which is rebuilt first
 * when vm's names are not those it was built for. */
void counters_from_vmstat_mapped(const struct vmstat *vm, struct counters_map *m,
				 struct counters *out);
/* The same, for vm with the names of the one m was last used for (a
 * recording's delta, tick.same_shape): no compare of the names. */
void counters_from_vmstat_same(const struct vmstat *vm, struct counters_map *m,
			       struct counters *out);
static inline bool
counter_valid(const struct counters *c, enum counter i)
{
	return (c->valid >> i) & 1;
}

#endif
