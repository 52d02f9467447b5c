/*
 * What the BPF programs (probes.bpf.c) and their reader (probes.c) share:
 * the maps' values. Every figure is a __u64 so that the reader can sum the
 * per-CPU copies of a struct as an array. Sizes follow model/probes.h.
 */
#ifndef PAGETOP_PROBES_BPF_H
#define PAGETOP_PROBES_BPF_H

#define PB_BUCKETS	24	/* PROBE_BUCKETS */
#define PB_ORDERS	16	/* PROBE_ORDERS */
#define PB_MTYPES	8	/* PROBE_MIGRATETYPES */
#define PB_NODES	8	/* PROBE_NODES */
#define PB_KINDS	3	/* STALL_KIND_COUNT */
#define PB_RESULTS	10	/* COMPACT_R_COUNT */
#define PB_REASONS	4	/* THROTTLE_REASON_COUNT */
#define PB_KRESULTS	16	/* the kernel's compact_result values mapped */
#define PB_RESULT_OTHER	9	/* COMPACT_R_OTHER */
#define PB_STACK_DEPTH	127	/* PERF_MAX_STACK_DEPTH */

#define PB_MAX_TASKS	4096	/* stalled tasks per tick and parity */
#define PB_MAX_DSTACKS	1024	/* D stacks per tick and parity */
#define PB_MAX_STACKS	2048	/* distinct kernel stacks, ever */
#define PB_MAX_INFLIGHT	16384	/* begun and not yet ended */

struct pb_hist {
	__u64 count;
	__u64 sum_ns;
	__u64 bucket[PB_BUCKETS];
};

/* Cumulative, one copy per CPU (summed by the reader). */
struct pb_cum {
	struct pb_hist stall_lat[PB_KINDS];
	__u64 stall_order_count[PB_KINDS][PB_ORDERS];
	__u64 stall_order_ns[PB_KINDS][PB_ORDERS];
	__u64 stall_reclaimed[PB_KINDS];
	__u64 compact_result[PB_RESULTS];
	struct pb_hist compact_lat[PB_RESULTS];
	__u64 compact_try[PB_ORDERS];
	__u64 compact_deferred[PB_ORDERS];
	__u64 throttle_count[PB_REASONS];
	__u64 throttle_us[PB_REASONS];
	__u64 fallback[PB_ORDERS][PB_MTYPES][PB_MTYPES];
	__u64 fallback_fragmenting[PB_ORDERS];
	__u64 fallback_owner[PB_ORDERS];
	__u64 kswapd_wakes[PB_NODES];
	__u64 kswapd_wake_order[PB_ORDERS];
	__u64 kswapd_awake_ns[PB_NODES];
	__u64 kcompactd_wakes[PB_NODES];
	__u64 kcompactd_wake_order[PB_ORDERS];
	__u64 kcompactd_awake_ns[PB_NODES];
	__u64 reclaim_writes;
	struct pb_hist dsleep;
	__u64 dsleep_lost;
	__u64 tasks_lost;	/* stalled tasks not kept (map full) */
};

/* This tick's own, one copy per CPU and parity. */
struct pb_tick {
	__u64 stall_max_ns[PB_KINDS];
};

/* The tick's stalled tasks and D stacks: keyed with the parity. */
struct pb_task_key {
	__u32 parity;
	__u32 tid;
};

struct pb_task {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
	__u64 kinds;
	char comm[16];
};

struct pb_dstack_key {
	__u32 parity;
	__s32 stackid;		/* -1: the kernel gave none */
};

struct pb_dstack {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
	__u64 last_tid;
	char last_comm[16];
};

#endif
