/*
 * The kernel probes' loader (probes-int.h), run in the child that
 * bpf-child.h forks. What the running kernel has comes from its BTF (a
 * tracepoint exists where the typedef btf_trace_NAME does, as bcc's
 * libbpf-tools check; whether sched_switch passes prev_state), the
 * kernel's compact_result names are mapped to pagetop's, the pageblock
 * order read; only the programs whose tracepoints exist are loaded, and
 * D sleeps are timed in task storage where tracing programs have it.
 * The descriptors go back to probes.c; the child exits after, so nothing
 * here is freed.
 */
#include "config.h"

#ifdef HAVE_PROBES

#include "source/probes-int.h"
#include "source/bpf-child.h"
#include "source/probes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "source/probes-bpf.h"
#include "source/bpf-blob.h"
#include "source/probes.skel.h"

#define PROBES_TRACEFS	"/sys/kernel/tracing/events/kmem/mm_page_alloc_extfrag/id"

/* A program and the tracepoint (its BTF name) it needs. */
struct probes_prog {
	enum probe_id id;
	const char *tp;			/* without the btf_trace_ prefix */
	const char *hide;		/* the name PAGETOP_PROBES_HIDE takes */
};

static const struct probes_prog probes_progs[] = {
	{ PROBE_DIRECT_RECLAIM, "mm_vmscan_direct_reclaim_begin", "vmscan:mm_vmscan_direct_reclaim_begin" },
	{ PROBE_DIRECT_RECLAIM, "mm_vmscan_direct_reclaim_end", "vmscan:mm_vmscan_direct_reclaim_end" },
	{ PROBE_MEMCG_RECLAIM, "mm_vmscan_memcg_reclaim_begin", "vmscan:mm_vmscan_memcg_reclaim_begin" },
	{ PROBE_MEMCG_RECLAIM, "mm_vmscan_memcg_reclaim_end", "vmscan:mm_vmscan_memcg_reclaim_end" },
	{ PROBE_COMPACTION, "mm_compaction_begin", "compaction:mm_compaction_begin" },
	{ PROBE_COMPACTION, "mm_compaction_end", "compaction:mm_compaction_end" },
	{ PROBE_COMPACT_TRY, "mm_compaction_try_to_compact_pages",
	  "compaction:mm_compaction_try_to_compact_pages" },
	{ PROBE_COMPACT_DEFER, "mm_compaction_deferred", "compaction:mm_compaction_deferred" },
	{ PROBE_THROTTLE, "mm_vmscan_throttled", "vmscan:mm_vmscan_throttled" },
	{ PROBE_EXTFRAG, "mm_page_alloc_extfrag", "kmem:mm_page_alloc_extfrag" },
	{ PROBE_KSWAPD, "mm_vmscan_kswapd_wake", "vmscan:mm_vmscan_kswapd_wake" },
	{ PROBE_KSWAPD, "mm_vmscan_kswapd_sleep", "vmscan:mm_vmscan_kswapd_sleep" },
	{ PROBE_KCOMPACTD, "mm_compaction_kcompactd_wake", "compaction:mm_compaction_kcompactd_wake" },
	{ PROBE_KCOMPACTD, "mm_compaction_kcompactd_sleep", "compaction:mm_compaction_kcompactd_sleep" },
	{ PROBE_WRITE_FOLIO, "mm_vmscan_write_folio", "vmscan:mm_vmscan_write_folio" },
	{ PROBE_WRITE_FOLIO, "mm_vmscan_writepage", "vmscan:mm_vmscan_writepage" },
	{ PROBE_DSLEEP, "sched_switch", "sched:sched_switch" },
};
_Static_assert(sizeof(probes_progs) / sizeof(probes_progs[0]) == PROBES_NPROGS, "probes-int.h");
_Static_assert(PROBES_NMAPS + PROBES_NPROGS <= BPF_CHILD_FDS, "one hand-over");

static struct bpf_program *
probes_program(struct probes_bpf *k, size_t i)
{
	struct bpf_program *const all[PROBES_NPROGS] = {
		k->progs.direct_begin, k->progs.direct_end, k->progs.memcg_begin,
		k->progs.memcg_end, k->progs.compact_begin, k->progs.compact_end,
		k->progs.compact_try, k->progs.compact_deferred, k->progs.throttled,
		k->progs.extfrag_btf, k->progs.kswapd_wake, k->progs.kswapd_sleep,
		k->progs.kcompactd_wake, k->progs.kcompactd_sleep, k->progs.write_folio,
		k->progs.writepage, k->progs.sched_switch,
	};

	return all[i];
}

/* name in the comma-separated list env, "group:name" as the hook takes them. */
static bool
probes_hidden(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static bool
probes_tp_exists(const struct btf *btf, const char *tp)
{
	char name[96];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

/* The kernel's enum compact_result, by name, to enum probe_compact_result. */
static void
probes_map_results(const struct btf *btf, volatile __u8 *map)
{
	static const struct {
		const char *name;
		enum probe_compact_result r;
	} names[] = {
		{ "COMPACT_SUCCESS", COMPACT_R_SUCCESS },
		{ "COMPACT_PARTIAL_SKIPPED", COMPACT_R_PARTIAL_SKIPPED },
		{ "COMPACT_COMPLETE", COMPACT_R_COMPLETE },
		{ "COMPACT_SKIPPED", COMPACT_R_SKIPPED },
		{ "COMPACT_DEFERRED", COMPACT_R_DEFERRED },
		{ "COMPACT_CONTENDED", COMPACT_R_CONTENDED },
		{ "COMPACT_NO_SUITABLE_PAGE", COMPACT_R_NO_SUITABLE_PAGE },
		{ "COMPACT_CONTINUE", COMPACT_R_CONTINUE },
		{ "COMPACT_NOT_SUITABLE_ZONE", COMPACT_R_NOT_SUITABLE_ZONE },
	};
	__s32 id = btf__find_by_name_kind(btf, "compact_result", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;

	if (id <= 0 || !(t = btf__type_by_id(btf, (__u32)id)))
		return;
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(btf, e->name_off);

		if (!n || e->val < 0 || e->val >= PB_KRESULTS)
			continue;
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strcmp(n, names[k].name) == 0)
				map[e->val] = (__u8)names[k].r;
	}
}

/* log2(hpage_pmd_size / page size): HPAGE_PMD_ORDER, which is the
 * pageblock order wherever huge pages are built in; 9 (x86-64's) else. */
static unsigned
probes_pageblock_order(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "re");
	unsigned long long sz = 0, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	unsigned order = 0;

	if (f) {
		if (fscanf(f, "%llu", &sz) != 1)
			sz = 0;
		fclose(f);
	}
	if (!sz || !page || sz < page)
		return 9;
	while ((page << order) < sz && order < 20)
		order++;
	return order;
}

/* "BPF locked down (lockdown: integrity)" when the kernel is. */
static bool
probes_locked_down(char *why, size_t size)
{
	char buf[128], *b, *e;
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");
	bool on = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (b = strchr(buf, '[')) && (e = strchr(b, ']'))) {
		*e = '\0';
		if (strcmp(b + 1, "none") != 0) {
			snprintf(why, size, "BPF locked down (lockdown: %s)", b + 1);
			on = true;
		}
	}
	fclose(f);
	return on;
}

static int
probes_libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The loader's objects: it exits holding them, reachable from here so
 * that valgrind counts none of them lost. */
static struct {
	struct probes_bpf *volatile skel;	/* volatile: stored, never read */
	struct btf *volatile btf;
	struct bpf_link *link[PROBES_NPROGS];
} probes_loader;

/* Whether sched_switch passes prev_state (Linux 5.18): its BTF typedef,
 * a pointer to void (*)(void *, bool, prev, next, unsigned int). */
static bool
probes_switch_has_state(const struct btf *btf)
{
	__s32 id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;

	for (int hops = 0; t && hops < 4 && !btf_is_func_proto(t); hops++)
		t = btf_is_typedef(t) || btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	return t && btf_is_func_proto(t) && btf_vlen(t) >= 5;
}

/*
 * The probes opened, configured and loaded, with D sleeps in task storage
 * or not (ts); prog[] what to attach. NULL with f->why. The map type is
 * Linux 5.11's, for LSM programs; tracing programs have its helpers from
 * 5.12: a kernel with the one and not the other fails the load, and the
 * caller tries again without.
 */
static struct probes_bpf *
probes_child_load(const struct probes_child_arg *a, const struct btf *btf, bool ts,
		  struct bpf_program **prog, struct probes_facts *f)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct probes_bpf *skel;
	bool extfrag_tp = false;
	int r;

	oo.btf_custom_path = a->btf_path;
	if (bpf_blob_check("probes", f->why, sizeof(f->why)) < 0)
		return NULL;
	if (!(skel = probes_loader.skel = probes_bpf__open_opts(&oo))) {
		snprintf(f->why, sizeof(f->why), "opening the probes: %s", strerror(errno));
		return NULL;
	}
	skel->rodata->dsleep_min_ns = a->dsleep_min_ns;
	skel->rodata->pageblock_order = probes_pageblock_order();
	skel->rodata->switch_has_state = probes_switch_has_state(btf);
	probes_map_results(btf, skel->rodata->compact_map);
	for (size_t i = 0; i < PROBES_NPROGS; i++) {
		const struct probes_prog *pp = &probes_progs[i];
		bool ok = probes_tp_exists(btf, pp->tp) && !probes_hidden(a->hide, pp->hide);

		/* The older name of a tracepoint counts only without the newer. */
		if (i > 0 && pp->id == probes_progs[i - 1].id && pp->id == PROBE_WRITE_FOLIO &&
		    prog[i - 1])
			ok = false;
		prog[i] = ok ? probes_program(skel, i) : NULL;
		bpf_program__set_autoload(probes_program(skel, i), ok);
	}
	for (size_t i = 0; i < PROBES_NPROGS; i++) {
		/* The classic extfrag tracepoint, where tracefs has it. */
		if (probes_progs[i].id == PROBE_EXTFRAG && prog[i] &&
		    access(PROBES_TRACEFS, R_OK) == 0) {
			bpf_program__set_autoload(prog[i], false);
			prog[i] = skel->progs.extfrag_tp;
			extfrag_tp = true;
		}
		if (probes_progs[i].id == PROBE_DSLEEP && prog[i] && ts) {
			bpf_program__set_autoload(prog[i], false);
			prog[i] = skel->progs.dsleep_switch;
			f->dsleep_path = PROBES_DSLEEP_TASK_STORAGE;
		} else if (probes_progs[i].id == PROBE_DSLEEP) {
			ts = false;
			f->dsleep_path = prog[i] ? PROBES_DSLEEP_HASH : PROBES_DSLEEP_NONE;
		}
	}
	bpf_program__set_autoload(skel->progs.extfrag_tp, extfrag_tp);
	bpf_program__set_autoload(skel->progs.dsleep_switch, ts);
	bpf_map__set_autocreate(skel->maps.dsleep_store, ts);
	if ((r = probes_bpf__load(skel)) != 0) {
		if (!((r == -EPERM || errno == EPERM) && probes_locked_down(f->why, sizeof(f->why))))
			snprintf(f->why, sizeof(f->why), "loading the probes: %s", strerror(-r));
		probes_bpf__destroy(skel);
		probes_loader.skel = NULL;
		return NULL;
	}
	return skel;
}

/* In the loader (bpf-child.h): the kernel's BTF parsed, the programs
 * whose tracepoints exist loaded and attached, their descriptors handed
 * back. It exits after, so nothing here is freed. */
void
probes_child(void *arg, void *facts, int *fd, int *nfd)
{
	const struct probes_child_arg *a = arg;
	struct probes_facts *f = facts;
	struct bpf_program *prog[PROBES_NPROGS] = { 0 };
	struct bpf_link **link = probes_loader.link;
	const char *path = a->btf_path ? a->btf_path : PROBES_BTF;
	struct probes_bpf *skel;
	uint32_t have = 0;
	struct btf *btf;
	bool ts;

	if (!getenv("PAGETOP_PROBES_DEBUG"))
		libbpf_set_print(probes_libbpf_quiet);
	if (!(btf = probes_loader.btf = btf__parse(path, NULL))) {
		snprintf(f->why, sizeof(f->why), "kernel has no BTF (%s: %s)", path,
			 strerror(errno));
		return;
	}
	ts = a->task_storage && libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) == 1;
	skel = probes_child_load(a, btf, ts, prog, f);
	if (!skel && ts && f->dsleep_path == PROBES_DSLEEP_TASK_STORAGE)
		skel = probes_child_load(a, btf, false, prog, f);
	btf__free(btf);
	probes_loader.btf = NULL;
	if (!skel)
		return;
	if (!skel->bss) {
		snprintf(f->why, sizeof(f->why), "the probes' globals are not mapped");
		return;
	}
	for (size_t i = 0; i < PROBES_NPROGS; i++)
		if (prog[i])
			link[i] = bpf_program__attach(prog[i]);
	/* A probe is attached when all its programs are. */
	for (int id = 0; id < PROBE_ID_COUNT; id++) {
		bool all = true, any = false;

		for (size_t i = 0; i < PROBES_NPROGS; i++) {
			if (probes_progs[i].id != (enum probe_id)id)
				continue;
			if (id == PROBE_WRITE_FOLIO) {
				any |= link[i] != NULL;
				continue;
			}
			any = true;
			all &= link[i] != NULL;
		}
		if (any && all)
			have |= 1u << id;
	}
	fd[PROBES_FD_CUM] = bpf_map__fd(skel->maps.cum);
	fd[PROBES_FD_TICK] = bpf_map__fd(skel->maps.tick);
	fd[PROBES_FD_TASKS] = bpf_map__fd(skel->maps.tasks);
	fd[PROBES_FD_DSTACKS] = bpf_map__fd(skel->maps.dstacks);
	fd[PROBES_FD_STACKS] = bpf_map__fd(skel->maps.stacks);
	fd[PROBES_FD_BSS] = bpf_map__fd(skel->maps.bss);
	*nfd = PROBES_NMAPS;
	for (size_t i = 0; i < PROBES_NPROGS; i++)
		if (link[i])
			fd[(*nfd)++] = bpf_link__fd(link[i]);
	f->n_links = *nfd - PROBES_NMAPS;
	f->bss_size = (uint32_t)bpf_map__value_size(skel->maps.bss);
	f->attached = have;
	f->ok = 1;
}

#endif /* HAVE_PROBES */
