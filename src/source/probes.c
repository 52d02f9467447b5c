/*
 * The kernel probes as a source (probes.h). At open, the loader
 * (probes-load.c, in a forked child) loads what the running kernel has
 * and hands back the maps and links by descriptor. Each read flips the
 * parity of the tick's sets, waits for the programs in flight (an RCU
 * grace period: updating a map-in-map waits for one), then sums the
 * per-CPU figures and drains the other set into buffers sized at open.
 */
#include "config.h"
#include "source/probes.h"
#include "source/bpf-child.h"
#include "source/bpf-privilege.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
probes_unavailable(struct probes *out, const char *why)
{
	memset(out, 0, sizeof(*out));
	out->state = PROBES_UNAVAILABLE;
	snprintf(out->why, sizeof(out->why), "%s", why);
}

#ifndef HAVE_PROBES

struct probe_source {
	int unused;
};

struct probe_source *
probes_open(const struct probes_opts *o, char *why, size_t size)
{
	(void)o;
	snprintf(why, size, "built without kernel probes (configure: %s)", PROBES_WHY);
	return NULL;
}

void
probes_read(struct probe_source *p, struct probes *out)
{
	(void)p;
	probes_unavailable(out, "built without kernel probes (configure: " PROBES_WHY ")");
}

void
probes_close(struct probe_source *p)
{
	(void)p;
}

void
probes_name_by_kernel(struct probe_source *p)
{
	(void)p;
}

void
probes_names_count(const struct probe_source *p, unsigned long *kernel, unsigned long *passes)
{
	(void)p;
	*kernel = *passes = 0;
}

const char *
probes_dsleep_path(const struct probe_source *p)
{
	(void)p;
	return "none";
}

#else

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/zero-map.h"
#include "source/probes-bpf.h"
#include "source/probes-int.h"
#include "source/probes-syms.h"
#include "source/ksym.h"
#include "model/sample-copy.h"
#include "source/probes.skel.h"

_Static_assert(PB_BUCKETS == PROBE_BUCKETS && PB_ORDERS == PROBE_ORDERS &&
	       PB_MTYPES == PROBE_MIGRATETYPES && PB_NODES == PROBE_NODES &&
	       PB_KINDS == STALL_KIND_COUNT && PB_RESULTS == COMPACT_R_COUNT &&
	       PB_REASONS == THROTTLE_REASON_COUNT && PB_RESULT_OTHER == COMPACT_R_OTHER,
	       "probes-bpf.h follows model/probes.h");
_Static_assert(sizeof(struct pb_cum) % 8 == 0, "pb_cum is summed as __u64s");

/* The parent holds no bpf_object: maps, the mapped .bss and links by fd. */
struct probe_source {
	int fd[PROBES_NMAPS];
	int link[PROBES_NPROGS];
	int n_links;
	struct probes_bpf__bss *bss;	/* bss_len bytes mapped */
	size_t bss_len;
	uint32_t attached, missing;
	int dsleep_path;		/* enum probes_dsleep_path */
	bool task_storage;		/* asked for (not PAGETOP_PROBES_TASK_STORAGE=0) */
	char why[sizeof(((struct probes *)0)->why)];
	uint64_t epoch, dsleep_min_ns;
	int ncpu;
	int sync_outer, sync_inner;	/* a map-in-map: updating it waits for RCU */
	struct pb_cum *cum;		/* ncpu of them; the first, their sum */
	struct pb_tick *tick, *tick_zero;	/* ncpu each */
	struct pb_task_key *task_keys;	/* 2 * PB_MAX_TASKS, mapped */
	struct pb_dstack_key *ds_keys;	/* 2 * PB_MAX_DSTACKS, mapped */
	struct {
		int32_t id;
		struct pb_dstack v;
	} top_ds[PROBE_TOP_STACKS];
	uint64_t ips[PB_STACK_DEPTH];
	struct probes_syms *syms;
	struct ksym *namer;		/* NULL: names from kallsyms */
};

void
probes_close(struct probe_source *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n_links; i++)
		close(p->link[i]);
	if (p->bss)
		munmap(p->bss, p->bss_len);
	for (int i = 0; i < PROBES_NMAPS; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	if (p->sync_outer >= 0)
		close(p->sync_outer);
	if (p->sync_inner >= 0)
		close(p->sync_inner);
	free(p->cum);
	free(p->tick);
	free(p->tick_zero);
	zero_unmap(p->task_keys, 2 * PB_MAX_TASKS * sizeof(*p->task_keys));
	zero_unmap(p->ds_keys, 2 * PB_MAX_DSTACKS * sizeof(*p->ds_keys));
	probes_syms_free(p->syms);
	ksym_close(p->namer);
	free(p);
}

/* Below this many descriptors the namer's one is the task iterator's
 * (one a read) and the scan's: names come from kallsyms. */
#define PROBES_NAMER_NOFILE	128

void
probes_name_by_kernel(struct probe_source *p)
{
	struct rlimit rl;
	char why[160];

	if (p->namer || (getenv("PAGETOP_KSYM") && strcmp(getenv("PAGETOP_KSYM"), "0") == 0))
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < PROBES_NAMER_NOFILE)
		return;
	if ((p->namer = ksym_open(why, sizeof(why))))
		probes_syms_set_namer(p->syms, p->namer);
}

void
probes_names_count(const struct probe_source *p, unsigned long *kernel, unsigned long *passes)
{
	*kernel = p->syms ? probes_syms_kernel_named(p->syms) : 0;
	*passes = p->syms ? probes_syms_passes(p->syms) : 0;
}

static uint64_t
probes_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The line that says what did not attach. */
static void
probes_missing_line(struct probe_source *p)
{
	size_t n = 0;

	p->why[0] = '\0';
	for (int id = 0; id < PROBE_ID_COUNT; id++) {
		if (!(p->missing & (1u << id)))
			continue;
		n += (size_t)snprintf(p->why + n, sizeof(p->why) - n, "%s%s", n ? ", " : "missing: ",
				      probe_tracepoint(id));
		if (n >= sizeof(p->why))
			break;
	}
	/* The D sleeps' slower way, said (the other is the rule). */
	if (p->dsleep_path == PROBES_DSLEEP_HASH && n < sizeof(p->why))
		snprintf(p->why + n, sizeof(p->why) - n, "%sD sleeps by tid hash: %s", n ? "; " : "",
			 p->task_storage ? "no task storage" : "PAGETOP_PROBES_TASK_STORAGE=0");
}

const char *
probes_dsleep_path(const struct probe_source *p)
{
	return p->dsleep_path == PROBES_DSLEEP_TASK_STORAGE ? "task storage" :
	    p->dsleep_path == PROBES_DSLEEP_HASH ? "tid hash" : "none";
}

static int
probes_alloc(struct probe_source *p)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo);

	p->ncpu = libbpf_num_possible_cpus();
	if (p->ncpu <= 0)
		return -EINVAL;
	p->cum = calloc((size_t)p->ncpu, sizeof(*p->cum));
	p->tick = calloc((size_t)p->ncpu, sizeof(*p->tick));
	p->tick_zero = calloc((size_t)p->ncpu, sizeof(*p->tick_zero));
	/* The keys of a drain: a tick fills them only as far as the map
	 * holds keys (a few, mostly). */
	p->task_keys = zero_map(2 * PB_MAX_TASKS * sizeof(*p->task_keys));
	p->ds_keys = zero_map(2 * PB_MAX_DSTACKS * sizeof(*p->ds_keys));
	p->syms = probes_syms_new("/proc/kallsyms");
	if (!p->cum || !p->tick || !p->tick_zero || !p->task_keys || !p->ds_keys || !p->syms)
		return -ENOMEM;
	p->sync_inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "pt_sync_in", 4, 4, 1, NULL);
	if (p->sync_inner < 0)
		return -errno;
	mo.inner_map_fd = p->sync_inner;
	p->sync_outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "pt_sync", 4, 4, 1, &mo);
	return p->sync_outer < 0 ? -errno : 0;
}


struct probe_source *
probes_open(const struct probes_opts *o, char *why, size_t size)
{
	struct probes_child_arg a = { .btf_path = getenv("PAGETOP_PROBES_BTF"),
				      .hide = getenv("PAGETOP_PROBES_HIDE"), .task_storage = 1 };
	const char *ts = getenv("PAGETOP_PROBES_TASK_STORAGE");
	struct probes_facts f;
	struct probe_source *p;
	int fd[BPF_CHILD_FDS], nfd = 0, r;

	if (a.btf_path && !*a.btf_path)
		a.btf_path = NULL;
	if (access(a.btf_path ? a.btf_path : PROBES_BTF, R_OK) != 0) {
		snprintf(why, size, "kernel has no BTF (%s)", a.btf_path ? a.btf_path : PROBES_BTF);
		return NULL;
	}
	if (!bpf_privileged()) {
		snprintf(why, size, "needs root (CAP_BPF, CAP_PERFMON)");
		return NULL;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	p->sync_outer = p->sync_inner = -1;
	for (int i = 0; i < PROBES_NMAPS; i++)
		p->fd[i] = -1;
	p->task_storage = !(ts && strcmp(ts, "0") == 0);
	a.task_storage = p->task_storage;
	p->dsleep_min_ns = o && o->dsleep_min_ns ? o->dsleep_min_ns : PROBES_DSLEEP_MIN_NS;
	a.dsleep_min_ns = p->dsleep_min_ns;
	if (bpf_child_run(probes_child, &a, &f, sizeof(f), fd, &nfd, why, size) < 0)
		goto fail;
	if (!f.ok || f.n_links < 0 || f.n_links > (int)PROBES_NPROGS ||
	    nfd != PROBES_NMAPS + f.n_links) {
		f.why[sizeof(f.why) - 1] = '\0';
		snprintf(why, size, "%s", f.ok ? "loading the probes: descriptors lost" : f.why);
		for (int i = 0; i < nfd; i++)
			close(fd[i]);
		goto fail;
	}
	memcpy(p->fd, fd, sizeof(p->fd));
	memcpy(p->link, fd + PROBES_NMAPS, (size_t)f.n_links * sizeof(int));
	p->n_links = f.n_links;
	if (f.bss_size < sizeof(*p->bss) ||
	    !(p->bss = bpf_child_mmap(p->fd[PROBES_FD_BSS], f.bss_size, &p->bss_len))) {
		snprintf(why, size, "mapping the probes' globals: %s",
			 f.bss_size < sizeof(*p->bss) ? "too small" : strerror(errno));
		goto fail;
	}
	if ((r = probes_alloc(p)) < 0) {
		snprintf(why, size, "%s", r == -ENOMEM ? "out of memory" : strerror(-r));
		goto fail;
	}
	p->attached = f.attached;
	p->dsleep_path = f.dsleep_path;
	p->missing = ((1u << PROBE_ID_COUNT) - 1) & ~f.attached;
	probes_missing_line(p);
	p->epoch = probes_now();
	return p;
fail:
	probes_close(p);
	return NULL;
}

static void
probes_hist(struct probe_hist *h, const struct pb_hist *b)
{
	h->count = b->count;
	h->sum_ns = b->sum_ns;
	memcpy(h->bucket, b->bucket, sizeof(h->bucket));
}

/* The per-CPU copies summed, into out's cumulative figures. */
static void
probes_read_cum(struct probe_source *p, struct probes *out)
{
	const size_t nw = sizeof(struct pb_cum) / sizeof(__u64);
	/* Summed into the first CPU's copy: a struct of its own for the
	 * sum was 13 KB more, touched every tick. */
	__u64 *sum = (__u64 *)&p->cum[0];
	const struct pb_cum *s = &p->cum[0];
	__u32 zero = 0;

	if (bpf_map_lookup_elem(p->fd[PROBES_FD_CUM], &zero, p->cum) == 0)
		for (int c = 1; c < p->ncpu; c++) {
			const __u64 *v = (const __u64 *)&p->cum[c];

			for (size_t w = 0; w < nw; w++)
				sum[w] += v[w];
		}
	else
		memset(&p->cum[0], 0, sizeof(p->cum[0]));
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		struct probe_stall *st = &out->stall[k];

		probes_hist(&st->lat, &s->stall_lat[k]);
		memcpy(st->order_count, s->stall_order_count[k], sizeof(st->order_count));
		memcpy(st->order_ns, s->stall_order_ns[k], sizeof(st->order_ns));
		st->reclaimed = s->stall_reclaimed[k];
	}
	memcpy(out->compact_result, s->compact_result, sizeof(out->compact_result));
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		probes_hist(&out->compact_lat[r], &s->compact_lat[r]);
	memcpy(out->compact_try, s->compact_try, sizeof(out->compact_try));
	memcpy(out->compact_deferred, s->compact_deferred, sizeof(out->compact_deferred));
	memcpy(out->throttle_count, s->throttle_count, sizeof(out->throttle_count));
	memcpy(out->throttle_us, s->throttle_us, sizeof(out->throttle_us));
	/* 8 KB, mostly zeros: pages of the sample left zero stay untouched. */
	sample_copy_bytes(out->fallback, s->fallback, sizeof(out->fallback));
	memcpy(out->fallback_fragmenting, s->fallback_fragmenting, sizeof(out->fallback_fragmenting));
	memcpy(out->fallback_owner, s->fallback_owner, sizeof(out->fallback_owner));
	memcpy(out->kswapd_wakes, s->kswapd_wakes, sizeof(out->kswapd_wakes));
	memcpy(out->kswapd_wake_order, s->kswapd_wake_order, sizeof(out->kswapd_wake_order));
	memcpy(out->kswapd_awake_ns, s->kswapd_awake_ns, sizeof(out->kswapd_awake_ns));
	memcpy(out->kcompactd_wakes, s->kcompactd_wakes, sizeof(out->kcompactd_wakes));
	memcpy(out->kcompactd_wake_order, s->kcompactd_wake_order,
	       sizeof(out->kcompactd_wake_order));
	memcpy(out->kcompactd_awake_ns, s->kcompactd_awake_ns, sizeof(out->kcompactd_awake_ns));
	out->reclaim_writes = s->reclaim_writes;
	probes_hist(&out->dsleep, &s->dsleep);
	out->dsleep_lost = s->dsleep_lost;
}

/* A daemon awake now has been so since it woke: count that too. */
static void
probes_read_awake(struct probe_source *p, struct probes *out)
{
	uint64_t now = probes_now();

	for (int n = 0; n < PROBE_NODES; n++) {
		uint64_t ks = p->bss->kswapd_since[n], kc = p->bss->kcompactd_since[n];

		if (ks && now > ks)
			out->kswapd_awake_ns[n] += now - ks;
		if (kc && now > kc)
			out->kcompactd_awake_ns[n] += now - kc;
	}
}

/* Inserts v into the n-long list sorted by total_ns, longest first. */
static void
probes_top_task(struct probes *out, const struct pb_task_key *k, const struct pb_task *v)
{
	struct probe_task t = { .tid = (int32_t)k->tid, .kinds = (uint8_t)v->kinds,
				.count = (uint32_t)v->count, .total_ns = v->total_ns,
				.max_ns = v->max_ns };
	int i = out->n_tasks;

	memcpy(t.comm, v->comm, sizeof(t.comm));
	t.comm[sizeof(t.comm) - 1] = '\0';
	if (i == PROBE_TOP_TASKS) {
		if (out->task[i - 1].total_ns >= t.total_ns)
			return;
		i--;
	} else {
		out->n_tasks++;
	}
	for (; i > 0 && out->task[i - 1].total_ns < t.total_ns; i--)
		out->task[i] = out->task[i - 1];
	out->task[i] = t;
}

static void
probes_drain_tasks(struct probe_source *p, __u32 par, struct probes *out)
{
	int fd = p->fd[PROBES_FD_TASKS], n = 0;
	struct pb_task_key k, *prev = NULL;
	struct pb_task v;

	while (n < 2 * PB_MAX_TASKS && bpf_map_get_next_key(fd, prev, &k) == 0) {
		p->task_keys[n] = k;
		prev = &p->task_keys[n];
		if (k.parity == par)
			n++;
	}
	out->n_tasks = 0;
	for (int i = 0; i < n; i++) {
		if (bpf_map_lookup_and_delete_elem(fd, &p->task_keys[i], &v) != 0 &&
		    (bpf_map_lookup_elem(fd, &p->task_keys[i], &v) != 0 ||
		     bpf_map_delete_elem(fd, &p->task_keys[i]) != 0))
			continue;
		probes_top_task(out, &p->task_keys[i], &v);
	}
}

static void
probes_top_dstack(struct probe_source *p, int *n, int32_t id, const struct pb_dstack *v)
{
	int i = *n;

	if (i == PROBE_TOP_STACKS) {
		if (p->top_ds[i - 1].v.total_ns >= v->total_ns)
			return;
		i--;
	} else {
		(*n)++;
	}
	for (; i > 0 && p->top_ds[i - 1].v.total_ns < v->total_ns; i--)
		p->top_ds[i] = p->top_ds[i - 1];
	p->top_ds[i].id = id;
	p->top_ds[i].v = *v;
}

static void
probes_drain_dstacks(struct probe_source *p, __u32 par, struct probes *out)
{
	int fd = p->fd[PROBES_FD_DSTACKS], sfd = p->fd[PROBES_FD_STACKS];
	struct pb_dstack_key k, *prev = NULL;
	struct pb_dstack v;
	int n = 0, top = 0;
	bool queued = false;

	while (n < 2 * PB_MAX_DSTACKS && bpf_map_get_next_key(fd, prev, &k) == 0) {
		p->ds_keys[n] = k;
		prev = &p->ds_keys[n];
		if (k.parity == par)
			n++;
	}
	for (int i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &p->ds_keys[i], &v) != 0)
			continue;
		bpf_map_delete_elem(fd, &p->ds_keys[i]);
		probes_top_dstack(p, &top, p->ds_keys[i].stackid, &v);
	}
	/* Name the new stacks in one pass over kallsyms. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < top; i++) {
			struct probe_dstack *d = &out->dstack[i];
			int32_t id = p->top_ds[i].id;
			int nips = 0;

			if (pass == 0 && id >= 0 && bpf_map_lookup_elem(sfd, &id, p->ips) == 0)
				nips = PB_STACK_DEPTH;
			if (probes_syms_get(p->syms, id, p->ips, nips, d) < 0)
				queued = true;
		}
		if (!queued)
			break;
		probes_syms_resolve(p->syms);
		queued = false;
	}
	for (int i = 0; i < top; i++) {
		struct probe_dstack *d = &out->dstack[i];
		const struct pb_dstack *v2 = &p->top_ds[i].v;

		d->count = (uint32_t)v2->count;
		d->total_ns = v2->total_ns;
		d->max_ns = v2->max_ns;
		d->last_tid = (int32_t)v2->last_tid;
		memcpy(d->last_comm, v2->last_comm, sizeof(d->last_comm));
		d->last_comm[sizeof(d->last_comm) - 1] = '\0';
	}
	out->n_dstacks = top;
}

void
probes_read(struct probe_source *p, struct probes *out)
{
	int tfd = p->fd[PROBES_FD_TICK];
	__u32 par = p->bss->parity & 1, zero = 0;

	/* New events go to the other set; those in flight end first. */
	p->bss->parity = par ^ 1;
	bpf_map_update_elem(p->sync_outer, &zero, &p->sync_inner, BPF_ANY);

	out->state = PROBES_ON;
	memcpy(out->why, p->why, sizeof(out->why));
	out->attached = p->attached;
	out->missing = p->missing;
	out->epoch = p->epoch;
	out->dsleep_min_ns = p->dsleep_min_ns;
	probes_read_cum(p, out);
	probes_read_awake(p, out);
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		out->stall[k].tick_max_ns = 0;
	if (bpf_map_lookup_elem(tfd, &par, p->tick) == 0) {
		for (int c = 0; c < p->ncpu; c++)
			for (int k = 0; k < STALL_KIND_COUNT; k++)
				if (p->tick[c].stall_max_ns[k] > out->stall[k].tick_max_ns)
					out->stall[k].tick_max_ns = p->tick[c].stall_max_ns[k];
		bpf_map_update_elem(tfd, &par, p->tick_zero, BPF_ANY);
	}
	probes_drain_tasks(p, par, out);
	probes_drain_dstacks(p, par, out);
}

#endif /* HAVE_PROBES */
