// SPDX-License-Identifier: GPL-2.0
/*
 * pagetop's kernel probes: tp_btf programs on the reclaim, compaction,
 * fragmentation and scheduler tracepoints, aggregating in maps that
 * source/probes.c reads once a tick. Nothing wakes userspace per event.
 *
 * Cumulative figures go to a per-CPU struct (no atomics: a tracepoint runs
 * with preemption off). A tick's own figures go to the set `parity`
 * selects; the reader flips it, waits for the programs in flight to end
 * (an RCU grace period), then drains the other set.
 */
#include "source/vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "source/probes-bpf.h"

#define TASK_UNINTERRUPTIBLE_BIT	0x0002
#define TASK_NOLOAD_BIT			0x0400	/* TASK_IDLE: shown as I, not D */

char LICENSE[] SEC("license") = "GPL";

/* Set by the reader before load. */
const volatile __u64 dsleep_min_ns = 1000000;
const volatile __u32 pageblock_order = 9;
/* The kernel's enum compact_result values, as enum probe_compact_result. */
const volatile __u8 compact_map[PB_KRESULTS] = {
	PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER,
	PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER,
	PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER,
	PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER, PB_RESULT_OTHER,
};

/* Read and flipped by the reader (mmapped .bss). */
__u32 parity;
__u64 kswapd_since[PB_NODES];		/* awake since (ns), 0: asleep */
__u64 kcompactd_since[PB_NODES];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_cum);
} cum SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct pb_tick);
} tick SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * PB_MAX_TASKS);
	__type(key, struct pb_task_key);
	__type(value, struct pb_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * PB_MAX_DSTACKS);
	__type(key, struct pb_dstack_key);
	__type(value, struct pb_dstack);
} dstacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, PB_MAX_STACKS);
	__type(key, __u32);
	__uint(value_size, PB_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* A begun stall or compaction run, by tid and what began. */
struct inflight {
	__u64 start;
	__s64 order;		/* for D sleeps: the stack id */
};

enum { IF_DIRECT, IF_MEMCG, IF_COMPACT, IF_DSLEEP };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PB_MAX_INFLIGHT);
	__type(key, __u64);
	__type(value, struct inflight);
} inflight SEC(".maps");

static __always_inline __u64
key_of(__u32 tid, int what)
{
	return (__u64)tid << 2 | what;
}

static __always_inline struct pb_cum *
cum_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cum, &zero);
}

/* v within [0, n) (n a power of 2), in a form the verifier can see:
 * clang drops a mask it can prove redundant, barrier_var() stops it. */
static __always_inline __u32
index_of(long v, __u32 n)
{
	__u32 i = v < 0 ? 0 : v >= n ? n - 1 : (__u32)v;

	barrier_var(i);
	return i & (n - 1);
}

static __always_inline __u32
order_of(long o)
{
	return index_of(o, PB_ORDERS);
}

static __always_inline __u32
node_of(long n)
{
	return index_of(n, PB_NODES);
}

/* model/probes.c's probe_bucket_of(). */
static __always_inline __u32
bucket_of(__u64 ns)
{
	__u64 us = ns / 1000;
	__u32 b = 0;

	for (int i = 0; i < PB_BUCKETS - 1; i++) {
		if (us < 2)
			break;
		us >>= 1;
		b++;
	}
	return b;
}

static __always_inline void
hist_add(struct pb_hist *h, __u64 ns)
{
	__u32 b = bucket_of(ns);

	h->count++;
	h->sum_ns += ns;
	b = index_of(b, 32);
	if (b < PB_BUCKETS)
		h->bucket[b]++;
}

static __always_inline void
begin(int what, long order)
{
	__u64 key = key_of((__u32)bpf_get_current_pid_tgid(), what);
	struct inflight v = { .start = bpf_ktime_get_ns(), .order = order };

	bpf_map_update_elem(&inflight, &key, &v, BPF_ANY);
}

/* Ends what the current task began: its latency in *ns, its order. */
static __always_inline bool
end(int what, __u64 *ns, __u32 *order)
{
	__u64 key = key_of((__u32)bpf_get_current_pid_tgid(), what);
	struct inflight *v = bpf_map_lookup_elem(&inflight, &key);

	if (!v)
		return false;
	*ns = bpf_ktime_get_ns() - v->start;
	*order = order_of(v->order);
	bpf_map_delete_elem(&inflight, &key);
	return true;
}

/* A stall of kind k that lasted ns: cumulative, then this tick's. */
static __always_inline void
stall(int k, __u64 ns, __u32 order, __u64 reclaimed)
{
	struct pb_cum *c = cum_get();
	__u32 par = parity & 1;
	struct pb_tick *t = bpf_map_lookup_elem(&tick, &par);
	struct pb_task_key key = { .parity = par, .tid = (__u32)bpf_get_current_pid_tgid() };
	struct pb_task *p;

	if (!c || k < 0 || k >= PB_KINDS)
		return;
	hist_add(&c->stall_lat[k], ns);
	c->stall_order_count[k][order & (PB_ORDERS - 1)]++;
	c->stall_order_ns[k][order & (PB_ORDERS - 1)] += ns;
	c->stall_reclaimed[k] += reclaimed;
	if (t && ns > t->stall_max_ns[k])
		t->stall_max_ns[k] = ns;
	/* One task runs on one CPU at a time: its entry has one writer. */
	p = bpf_map_lookup_elem(&tasks, &key);
	if (!p) {
		struct pb_task z = {};

		bpf_get_current_comm(z.comm, sizeof(z.comm));
		bpf_map_update_elem(&tasks, &key, &z, BPF_NOEXIST);
		if (!(p = bpf_map_lookup_elem(&tasks, &key))) {
			c->tasks_lost++;
			return;
		}
	}
	p->count++;
	p->total_ns += ns;
	if (ns > p->max_ns)
		p->max_ns = ns;
	p->kinds |= 1u << k;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin, int order, gfp_t gfp)
{
	begin(IF_DIRECT, order);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_end, unsigned long nr_reclaimed)
{
	__u64 ns;
	__u32 o;

	if (end(IF_DIRECT, &ns, &o))
		stall(0, ns, o, nr_reclaimed);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin, int order, gfp_t gfp)
{
	begin(IF_MEMCG, order);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end, unsigned long nr_reclaimed)
{
	__u64 ns;
	__u32 o;

	if (end(IF_MEMCG, &ns, &o))
		stall(1, ns, o, nr_reclaimed);
	return 0;
}

SEC("tp_btf/mm_compaction_begin")
int BPF_PROG(compact_begin, struct compact_control *cc)
{
	begin(IF_COMPACT, BPF_CORE_READ(cc, order));
	return 0;
}

SEC("tp_btf/mm_compaction_end")
int BPF_PROG(compact_end, struct compact_control *cc, unsigned long zone_start,
	     unsigned long zone_end, bool sync, int status)
{
	struct pb_cum *c;
	__u32 o, r = PB_RESULT_OTHER;
	__u64 ns;

	if (!end(IF_COMPACT, &ns, &o) || !(c = cum_get()))
		return 0;
	if (status >= 0 && status < PB_KRESULTS)
		r = compact_map[index_of(status, PB_KRESULTS)];
	r = r < PB_RESULTS ? r : PB_RESULT_OTHER;
	barrier_var(r);
	if (r >= PB_RESULTS)
		return 0;
	c->compact_result[r]++;
	hist_add(&c->compact_lat[r], ns);
	if (BPF_CORE_READ(cc, direct_compaction))
		stall(2, ns, o, 0);
	return 0;
}

SEC("tp_btf/mm_compaction_try_to_compact_pages")
int BPF_PROG(compact_try, int order)
{
	struct pb_cum *c = cum_get();

	if (c)
		c->compact_try[order_of(order)]++;
	return 0;
}

SEC("tp_btf/mm_compaction_deferred")
int BPF_PROG(compact_deferred, struct zone *zone, int order)
{
	struct pb_cum *c = cum_get();

	if (c)
		c->compact_deferred[order_of(order)]++;
	return 0;
}

/* reclaim_throttle() passes its enum vmscan_throttle_state (0 to 3). */
SEC("tp_btf/mm_vmscan_throttled")
int BPF_PROG(throttled, int nid, int usec_timeout, int usec_delayed, int reason)
{
	struct pb_cum *c = cum_get();

	__u32 r = index_of(reason, PB_REASONS);

	if (!c || reason < 0 || reason >= PB_REASONS)
		return 0;
	c->throttle_count[r]++;
	c->throttle_us[r] += usec_delayed > 0 ? usec_delayed : 0;
	return 0;
}

static __always_inline void
fallback(int alloc_order, int fallback_order, int alloc_mt, int fallback_mt, int owner)
{
	struct pb_cum *c = cum_get();
	__u32 o = order_of(alloc_order);

	if (!c)
		return;
	if (alloc_mt >= 0 && alloc_mt < PB_MTYPES && fallback_mt >= 0 && fallback_mt < PB_MTYPES)
		c->fallback[o][index_of(alloc_mt, PB_MTYPES)][index_of(fallback_mt, PB_MTYPES)]++;
	if (fallback_order < (int)pageblock_order)
		c->fallback_fragmenting[o]++;
	if (owner)
		c->fallback_owner[o]++;
}

/*
 * The classic tracepoint's record has change_ownership, which the
 * kernel computes from the pageblock after the steal; the typed one has
 * only the arguments. The reader loads this one where tracefs has the
 * event, else extfrag_btf (then fallback_owner stays 0).
 */
SEC("tp/kmem/mm_page_alloc_extfrag")
int extfrag_tp(struct trace_event_raw_mm_page_alloc_extfrag *ctx)
{
	fallback(BPF_CORE_READ(ctx, alloc_order), BPF_CORE_READ(ctx, fallback_order),
		 BPF_CORE_READ(ctx, alloc_migratetype), BPF_CORE_READ(ctx, fallback_migratetype),
		 BPF_CORE_READ(ctx, change_ownership));
	return 0;
}

SEC("tp_btf/mm_page_alloc_extfrag")
int BPF_PROG(extfrag_btf, struct page *page, int alloc_order, int fallback_order,
	     int alloc_mt, int fallback_mt)
{
	fallback(alloc_order, fallback_order, alloc_mt, fallback_mt, 0);
	return 0;
}

SEC("tp_btf/mm_vmscan_kswapd_wake")
int BPF_PROG(kswapd_wake, int nid, int zid, int order)
{
	struct pb_cum *c = cum_get();
	__u32 n = node_of(nid);

	if (!c)
		return 0;
	c->kswapd_wakes[n]++;
	c->kswapd_wake_order[order_of(order)]++;
	kswapd_since[n] = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/mm_vmscan_kswapd_sleep")
int BPF_PROG(kswapd_sleep, int nid)
{
	struct pb_cum *c = cum_get();
	__u32 n = node_of(nid);
	__u64 since = kswapd_since[n];

	if (c && since)
		c->kswapd_awake_ns[n] += bpf_ktime_get_ns() - since;
	kswapd_since[n] = 0;
	return 0;
}

SEC("tp_btf/mm_compaction_kcompactd_wake")
int BPF_PROG(kcompactd_wake, int nid, int order)
{
	struct pb_cum *c = cum_get();
	__u32 n = node_of(nid);

	if (!c)
		return 0;
	c->kcompactd_wakes[n]++;
	c->kcompactd_wake_order[order_of(order)]++;
	kcompactd_since[n] = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/mm_compaction_kcompactd_sleep")
int BPF_PROG(kcompactd_sleep, int nid)
{
	struct pb_cum *c = cum_get();
	__u32 n = node_of(nid);
	__u64 since = kcompactd_since[n];

	if (c && since)
		c->kcompactd_awake_ns[n] += bpf_ktime_get_ns() - since;
	kcompactd_since[n] = 0;
	return 0;
}

static __always_inline void
reclaim_write(void)
{
	struct pb_cum *c = cum_get();

	if (c)
		c->reclaim_writes++;
}

SEC("tp_btf/mm_vmscan_write_folio")
int BPF_PROG(write_folio)
{
	reclaim_write();
	return 0;
}

/* Before 6.0 (folios). */
SEC("tp_btf/mm_vmscan_writepage")
int BPF_PROG(writepage)
{
	reclaim_write();
	return 0;
}

/*
 * D episodes: from a switch out in D to the switch back in. Every context
 * switch runs this, so the common one (prev not in D, next with no D
 * sleep begun) does the least: the state's two bits, then one look-up for
 * next; the clock, the stack and the cumulative figures only when an
 * episode begins or ends.
 *
 * Before Linux 5.18 the tracepoint has no prev_state argument (and
 * reading a fourth one fails the load): the reader says which, and
 * without it the state is prev's own field (__state from 5.14, state
 * before), as bcc's libbpf-tools read it.
 */
const volatile bool switch_has_state = true;

struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline bool
dsleep_begins(unsigned long long *ctx, struct task_struct *prev)
{
	unsigned int st;

	if (switch_has_state)
		st = (unsigned int)ctx[3];
	else if (bpf_core_field_exists(prev->__state))
		st = BPF_CORE_READ(prev, __state);
	else
		st = (unsigned int)BPF_CORE_READ((struct task_struct___old *)prev, state);
	return (st & TASK_UNINTERRUPTIBLE_BIT) && !(st & TASK_NOLOAD_BIT);
}

static __always_inline void
dsleep_lost(void)
{
	struct pb_cum *c = cum_get();

	if (c)
		c->dsleep_lost++;
}

/* next's D sleep of ns on stack id ended: counted when long enough. */
static __always_inline void
dsleep_end(struct task_struct *next, __u64 ns, __s64 id)
{
	struct pb_dstack_key dk = { .parity = parity & 1, .stackid = id < 0 ? -1 : (__s32)id };
	struct pb_cum *c;
	struct pb_dstack *d;

	if (ns < dsleep_min_ns || !(c = cum_get()))
		return;
	hist_add(&c->dsleep, ns);
	d = bpf_map_lookup_elem(&dstacks, &dk);
	if (!d) {
		struct pb_dstack z = {};

		bpf_map_update_elem(&dstacks, &dk, &z, BPF_NOEXIST);
		if (!(d = bpf_map_lookup_elem(&dstacks, &dk))) {
			c->dsleep_lost++;
			return;
		}
	}
	/* Tasks on several CPUs may end a sleep on one stack at once. */
	__sync_fetch_and_add(&d->count, 1);
	__sync_fetch_and_add(&d->total_ns, ns);
	if (ns > d->max_ns)
		d->max_ns = ns;
	d->last_tid = next->pid;
	BPF_CORE_READ_STR_INTO(&d->last_comm, next, comm);
}

/*
 * The D sleep begun, in the task's own storage (Linux 5.12 for tracing
 * programs): next's look-up is a pointer that is NULL for a task that
 * never slept in D, with no hashing. Made only at a switch out in D, as
 * the kernel's runqslower makes its own in sched_switch. start 0: none.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct inflight);
} dsleep_store SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(dsleep_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct inflight *v;
	__u64 start;

	if (dsleep_begins(ctx, prev)) {
		__s64 id = bpf_get_stackid(ctx, &stacks, 0);

		v = bpf_task_storage_get(&dsleep_store, prev, NULL,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (v) {
			v->start = bpf_ktime_get_ns();
			v->order = id;
		} else {
			dsleep_lost();
		}
	}
	/* A task with no BPF storage of any kind has none of ours: one load
	 * and no call (the field is there with CONFIG_BPF_SYSCALL). */
	if (bpf_core_field_exists(next->bpf_storage) && !next->bpf_storage)
		return 0;
	v = bpf_task_storage_get(&dsleep_store, next, NULL, 0);
	if (!v || !(start = v->start))
		return 0;
	v->start = 0;
	dsleep_end(next, bpf_ktime_get_ns() - start, v->order);
	return 0;
}

/* The same by a hash of tids, where tracing programs have no task storage. */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct inflight *v;
	__u64 key, ns;
	__s64 id;

	if (dsleep_begins(ctx, prev)) {
		struct inflight nv = { .order = bpf_get_stackid(ctx, &stacks, 0) };
		__u64 pkey = key_of((__u32)prev->pid, IF_DSLEEP);

		nv.start = bpf_ktime_get_ns();
		if (bpf_map_update_elem(&inflight, &pkey, &nv, BPF_ANY) != 0)
			dsleep_lost();
	}
	key = key_of((__u32)next->pid, IF_DSLEEP);
	v = bpf_map_lookup_elem(&inflight, &key);
	if (!v)
		return 0;
	ns = bpf_ktime_get_ns() - v->start;
	id = v->order;
	bpf_map_delete_elem(&inflight, &key);
	dsleep_end(next, ns, id);
	return 0;
}
