/*
 * What probes.c and its loader (probes-load.c, run in the forked child of
 * bpf-child.h) share: the facts the child hands back with the
 * descriptors, in this order.
 */
#ifndef PAGETOP_SOURCE_PROBES_INT_H
#define PAGETOP_SOURCE_PROBES_INT_H

#include <stdint.h>

#define PROBES_BTF	"/sys/kernel/btf/vmlinux"
#define PROBES_NPROGS	17	/* probes-load.c's probes_progs[] */

/* The descriptors the loader hands back, in this order, then the links. */
enum { PROBES_FD_CUM, PROBES_FD_TICK, PROBES_FD_TASKS, PROBES_FD_DSTACKS,
       PROBES_FD_STACKS, PROBES_FD_BSS, PROBES_NMAPS };

/* How D sleeps are timed (probes.bpf.c's two sched_switch programs). */
enum probes_dsleep_path {
	PROBES_DSLEEP_NONE,		/* not attached */
	PROBES_DSLEEP_TASK_STORAGE,	/* the task's own storage */
	PROBES_DSLEEP_HASH,		/* a hash of tids: no task storage for
					 * tracing programs (before 5.12), or
					 * PAGETOP_PROBES_TASK_STORAGE=0 */
};

/* What the loader (probes_child) found. */
struct probes_facts {
	int ok;				/* loaded: the descriptors follow */
	char why[256];			/* not: why */
	uint32_t attached;
	uint32_t bss_size;		/* the .bss map's value size */
	int n_links;
	int dsleep_path;		/* enum probes_dsleep_path */
};

struct probes_child_arg {
	uint64_t dsleep_min_ns;
	const char *btf_path, *hide;
	int task_storage;		/* 0: the hash path, for the tests */
};

/* bpf-child.h's child function: loads, attaches, hands back. */
void probes_child(void *arg, void *facts, int *fd, int *nfd);

#endif
