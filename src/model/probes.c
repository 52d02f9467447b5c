#include "model/probes.h"

#include <stdio.h>

static const struct {
	const char *name, *tp;
} probe_ids[PROBE_ID_COUNT] = {
	[PROBE_DIRECT_RECLAIM] = { "direct reclaim", "vmscan:mm_vmscan_direct_reclaim_begin" },
	[PROBE_MEMCG_RECLAIM] = { "memcg reclaim", "vmscan:mm_vmscan_memcg_reclaim_begin" },
	[PROBE_COMPACTION] = { "compaction", "compaction:mm_compaction_begin" },
	[PROBE_COMPACT_TRY] = { "direct compaction", "compaction:mm_compaction_try_to_compact_pages" },
	[PROBE_COMPACT_DEFER] = { "compaction deferrals", "compaction:mm_compaction_deferred" },
	[PROBE_THROTTLE] = { "reclaim throttling", "vmscan:mm_vmscan_throttled" },
	[PROBE_EXTFRAG] = { "migratetype fallbacks", "kmem:mm_page_alloc_extfrag" },
	[PROBE_KSWAPD] = { "kswapd", "vmscan:mm_vmscan_kswapd_wake" },
	[PROBE_KCOMPACTD] = { "kcompactd", "compaction:mm_compaction_kcompactd_wake" },
	[PROBE_WRITE_FOLIO] = { "writeback from reclaim", "vmscan:mm_vmscan_write_folio" },
	[PROBE_DSLEEP] = { "D sleeps", "sched:sched_switch" },
};

const char *
probe_name(enum probe_id id)
{
	return (unsigned)id < PROBE_ID_COUNT ? probe_ids[id].name : "?";
}

const char *
probe_tracepoint(enum probe_id id)
{
	return (unsigned)id < PROBE_ID_COUNT ? probe_ids[id].tp : "?";
}

const char *
probe_stall_name(enum probe_stall_kind k)
{
	static const char *const n[STALL_KIND_COUNT] = { "direct", "memcg", "compact" };

	return (unsigned)k < STALL_KIND_COUNT ? n[k] : "?";
}

const char *
probe_compact_result_name(enum probe_compact_result r)
{
	static const char *const n[COMPACT_R_COUNT] = {
		"success", "partial_skipped", "complete", "skipped", "deferred",
		"contended", "no_suitable_page", "continue", "not_suitable_zone", "other",
	};

	return (unsigned)r < COMPACT_R_COUNT ? n[r] : "?";
}

const char *
probe_throttle_name(enum probe_throttle_reason r)
{
	static const char *const n[THROTTLE_REASON_COUNT] = {
		"writeback", "isolated", "noprogress", "congested",
	};

	return (unsigned)r < THROTTLE_REASON_COUNT ? n[r] : "?";
}

uint64_t
probe_bucket_le_us(int i)
{
	if (i < 0)
		return 0;
	if (i >= PROBE_BUCKETS - 1)
		return UINT64_MAX;
	return (uint64_t)2 << i;
}

int
probe_bucket_of(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int b = 0;

	/* [0,2) -> 0, [2,4) -> 1, [4,8) -> 2: floor(log2(us)), 0 below 2. */
	while (us >= 2 && b < PROBE_BUCKETS - 1) {
		us >>= 1;
		b++;
	}
	return b;
}

void
probe_stall_kinds_text(unsigned kinds, char *dst, size_t size)
{
	size_t n = 0;

	if (size == 0)
		return;
	dst[0] = '\0';
	for (int k = 0; k < STALL_KIND_COUNT && n < size; k++)
		if (kinds & (1u << k))
			n += (size_t)snprintf(dst + n, size - n, "%s%s", n ? "," : "",
					      probe_stall_name((enum probe_stall_kind)k));
}
