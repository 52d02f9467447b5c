/*
 * Kernel probes (BPF on tracepoints): who stalls in reclaim and
 * compaction, for how long, and why. Filled by source/probes.c once a
 * tick from maps the kernel aggregates; recorded, replayed and shown like
 * every other part of the sample.
 *
 * Two kinds of figures, as elsewhere in the sample:
 *  - cumulative since the probes attached (counts, nanoseconds, histogram
 *    buckets): rates and a tick's histogram are differences, taken in
 *    model/derive.c; a new `epoch` (probes reattached) is a reset.
 *  - this tick's own (the tasks that stalled, the longest stall, the short
 *    D episodes by stack): the kernel side keeps two sets and the reader
 *    drains the one not being written, so nothing is counted twice.
 *
 * Every number here is recorded (pagetop-recording(5)): append, never
 * renumber.
 */
#ifndef PAGETOP_PROBES_H
#define PAGETOP_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/stack.h"

/* Latency buckets, log2 of microseconds: bucket 0 holds [0, 2) us, bucket
 * i >= 1 holds [2^i, 2^(i+1)) us; the last one is open (8.39 s up). */
#define PROBE_BUCKETS		24
#define PROBE_ORDERS		16	/* orders above 15 are counted as 15 */
#define PROBE_MIGRATETYPES	8	/* the kernel's migratetype numbers */
#define PROBE_NODES		8	/* nodes above 7 are counted as 7 */
#define PROBE_TOP_TASKS		8	/* the tasks that stalled longest in a tick */
#define PROBE_TOP_STACKS	16	/* the D stacks with most time in a tick */
#define PROBE_STACK_FRAMES	16	/* innermost frames kept per D stack */

/* What pagetop attaches to. A bit per probe in `attached` and `missing`. */
enum probe_id {
	PROBE_DIRECT_RECLAIM,	/* vmscan:mm_vmscan_direct_reclaim_begin/end */
	PROBE_MEMCG_RECLAIM,	/* vmscan:mm_vmscan_memcg_reclaim_begin/end */
	PROBE_COMPACTION,	/* compaction:mm_compaction_begin/end */
	PROBE_COMPACT_TRY,	/* compaction:mm_compaction_try_to_compact_pages */
	PROBE_COMPACT_DEFER,	/* compaction:mm_compaction_deferred */
	PROBE_THROTTLE,		/* vmscan:mm_vmscan_throttled */
	PROBE_EXTFRAG,		/* kmem:mm_page_alloc_extfrag */
	PROBE_KSWAPD,		/* vmscan:mm_vmscan_kswapd_wake/sleep */
	PROBE_KCOMPACTD,	/* compaction:mm_compaction_kcompactd_wake/sleep */
	PROBE_WRITE_FOLIO,	/* vmscan:mm_vmscan_write_folio (or _writepage) */
	PROBE_DSLEEP,		/* sched:sched_switch, D episodes */
	PROBE_ID_COUNT
};

/* The state of the probes as a whole. */
enum probes_state {
	PROBES_NONE = 0,	/* not asked for, or a recording without them */
	PROBES_ON = 1,		/* loaded; `missing` says what did not attach */
	PROBES_UNAVAILABLE = 2,	/* not loaded: `why` says why (not root,
				 * no BTF, BPF locked down, built without) */
};

/* Stalls a task suffers in the allocator's slow path. */
enum probe_stall_kind {
	STALL_DIRECT,		/* direct reclaim */
	STALL_MEMCG,		/* memory cgroup reclaim */
	STALL_COMPACT,		/* compaction by a task (not kcompactd) */
	STALL_KIND_COUNT
};

/* mm_compaction_end's status, in pagetop's numbers (the kernel's move
 * between versions; source/probes.c maps them by name through BTF). */
enum probe_compact_result {
	COMPACT_R_SUCCESS,
	COMPACT_R_PARTIAL_SKIPPED,
	COMPACT_R_COMPLETE,
	COMPACT_R_SKIPPED,
	COMPACT_R_DEFERRED,
	COMPACT_R_CONTENDED,
	COMPACT_R_NO_SUITABLE_PAGE,
	COMPACT_R_CONTINUE,
	COMPACT_R_NOT_SUITABLE_ZONE,
	COMPACT_R_OTHER,
	COMPACT_R_COUNT
};

/* mm_vmscan_throttled's reason bits (VMSCAN_THROTTLE_*). */
enum probe_throttle_reason {
	THROTTLE_WRITEBACK,
	THROTTLE_ISOLATED,
	THROTTLE_NOPROGRESS,
	THROTTLE_CONGESTED,
	THROTTLE_REASON_COUNT
};

/* A latency distribution, cumulative. */
struct probe_hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t bucket[PROBE_BUCKETS];
};

struct probe_stall {
	struct probe_hist lat;		/* cumulative */
	uint64_t order_count[PROBE_ORDERS];	/* cumulative, by the order asked */
	uint64_t order_ns[PROBE_ORDERS];	/* cumulative */
	uint64_t reclaimed;		/* pages (nr_reclaimed), reclaim only */
	uint64_t tick_max_ns;		/* the longest that ended this tick */
};

/* A task that stalled in this tick (it may be in R the whole time). */
struct probe_task {
	int32_t tid;
	uint8_t kinds;			/* a bit per probe_stall_kind */
	char comm[16];
	uint32_t count;
	uint64_t total_ns;
	uint64_t max_ns;
};

/* Uninterruptible sleeps of at least `dsleep_min_ns` that ended this tick,
 * with one kernel stack (the stack the task slept in). */
struct probe_dstack {
	uint32_t count;
	uint64_t total_ns;
	uint64_t max_ns;
	struct {
		int n;
		char func[PROBE_STACK_FRAMES][STACK_FUNC_LEN];
	} stack;			/* innermost first; n 0: not known */
	int32_t last_tid;		/* a task that slept so */
	char last_comm[16];
};

struct probes {
	enum probes_state state;
	char why[120];			/* with UNAVAILABLE, or what is missing */
	uint32_t attached;		/* a bit per probe_id */
	uint32_t missing;		/* asked for and not attached */
	uint64_t epoch;			/* when they attached (mono ns): a change
					 * is a reset of every cumulative figure */

	struct probe_stall stall[STALL_KIND_COUNT];

	/* Compaction runs (compact_zone), kcompactd's and tasks' alike. */
	uint64_t compact_result[COMPACT_R_COUNT];	/* cumulative */
	struct probe_hist compact_lat[COMPACT_R_COUNT];	/* cumulative */
	uint64_t compact_try[PROBE_ORDERS];	/* direct compaction tries, by order */
	uint64_t compact_deferred[PROBE_ORDERS];

	/* Reclaim throttling, by reason (a sleep with several bits counts
	 * under each). */
	uint64_t throttle_count[THROTTLE_REASON_COUNT];
	uint64_t throttle_us[THROTTLE_REASON_COUNT];	/* slept (usec_delayed) */

	/* Migratetype fallbacks, cumulative: [order][asked][taken]. */
	uint64_t fallback[PROBE_ORDERS][PROBE_MIGRATETYPES][PROBE_MIGRATETYPES];
	uint64_t fallback_fragmenting[PROBE_ORDERS];	/* fallback below pageblock order */
	uint64_t fallback_owner[PROBE_ORDERS];	/* changed a pageblock's owner */

	/* kswapd and kcompactd, per node, cumulative. */
	uint64_t kswapd_wakes[PROBE_NODES];
	uint64_t kswapd_wake_order[PROBE_ORDERS];
	uint64_t kswapd_awake_ns[PROBE_NODES];
	uint64_t kcompactd_wakes[PROBE_NODES];
	uint64_t kcompactd_wake_order[PROBE_ORDERS];
	uint64_t kcompactd_awake_ns[PROBE_NODES];

	uint64_t reclaim_writes;	/* folios written by reclaim, cumulative */

	/* D sleeps, cumulative over every stack. */
	uint64_t dsleep_min_ns;		/* the threshold (1 ms by default) */
	struct probe_hist dsleep;
	uint64_t dsleep_lost;		/* episodes not counted (maps full) */

	/* This tick's own. */
	int n_tasks;
	struct probe_task task[PROBE_TOP_TASKS];
	int n_dstacks;
	struct probe_dstack dstack[PROBE_TOP_STACKS];
};

const char *probe_name(enum probe_id id);		/* "direct reclaim" */
const char *probe_tracepoint(enum probe_id id);	/* "vmscan:mm_vmscan_direct_reclaim_begin" */
const char *probe_stall_name(enum probe_stall_kind k);	/* "direct", "memcg", "compact" */
/* A task's kinds bits as "direct,compact". */
void probe_stall_kinds_text(unsigned kinds, char *dst, size_t size);
const char *probe_compact_result_name(enum probe_compact_result r);	/* "success" */
const char *probe_throttle_name(enum probe_throttle_reason r);	/* "writeback" */
/* The upper bound of bucket i, in microseconds (the last: UINT64_MAX). */
uint64_t probe_bucket_le_us(int i);
/* Which bucket a latency falls into. */
int probe_bucket_of(uint64_t ns);

#endif
