/*
 * The kernel probes as a source (BPF on tracepoints, probes.bpf.c): what
 * the running kernel has is probed at open, the rest left out and named;
 * probes_read() fills model/probes.h's struct once a tick, allocating
 * nothing.
 *
 * Test hooks (environment): PAGETOP_PROBES_HIDE="vmscan:mm_vmscan_throttled,
 * sched:sched_switch" treats those tracepoints as missing;
 * PAGETOP_PROBES_BTF=FILE reads the kernel's types from FILE instead of
 * /sys/kernel/btf/vmlinux (a file that does not exist: no BTF);
 * PAGETOP_PROBES_TASK_STORAGE=0 times D sleeps by the hash of tids, as
 * on a kernel whose tracing programs have no task storage (before 5.12).
 */
#ifndef PAGETOP_SOURCE_PROBES_H
#define PAGETOP_SOURCE_PROBES_H

#include <stddef.h>
#include <stdint.h>

#include "model/probes.h"

#define PROBES_DSLEEP_MIN_NS	1000000ull	/* 1 ms */

struct probes_opts {
	uint64_t dsleep_min_ns;		/* 0: PROBES_DSLEEP_MIN_NS */
};

struct probe_source;

/* NULL with one line in why when they cannot load (not root, no BTF, BPF
 * locked down, built without, out of memory). */
struct probe_source *probes_open(const struct probes_opts *o, char *why, size_t size);
/* This tick's figures into *out (state PROBES_ON). */
void probes_read(struct probe_source *p, struct probes *out);
void probes_close(struct probe_source *p);
/* New stack addresses named by the kernel (ksym.h) from now on, where it
 * loads (a fork: call it before threads start), kallsyms otherwise; after
 * the task iterator, which needs descriptors more; not under a limit of
 * fewer than 128 descriptors (PAGETOP_KSYM=0: never, for the tests). */
void probes_name_by_kernel(struct probe_source *p);
/* Stack addresses the kernel named (ksym.h), and passes over kallsyms
 * made where it could not: what names the D stacks, for the tests. */
void probes_names_count(const struct probe_source *p, unsigned long *kernel,
			unsigned long *passes);
/* How D sleeps are timed: "task storage", "tid hash" (the kernel has no
 * task storage for tracing programs, or the test hook; also said in the
 * sample's why), "none" (not attached). */
const char *probes_dsleep_path(const struct probe_source *p);
/* *out for probes that did not open: UNAVAILABLE with why. */
void probes_unavailable(struct probes *out, const char *why);

#endif
