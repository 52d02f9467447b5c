/*
 * Per-task delay accounting (taskstats): how long the tasks that ran in a
 * tick waited for block I/O, swap-in, reclaim, thrashing pages,
 * compaction and a CPU, as the kernel counts them for each task while
 * kernel.task_delayacct is 1. A second view of who waited, next to the
 * probes (model/probes.h), that needs no BPF. Filled by
 * source/delayacct.c once a tick; every figure is this tick's own (an
 * increase over the tasks asked), so nothing here is cumulative.
 *
 * Fixed size, no pointers: it is recorded. Every number in an enum here
 * is recorded (pagetop-recording(5)): append, never renumber.
 */
#ifndef PAGETOP_DELAYS_H
#define PAGETOP_DELAYS_H

#include <stdint.h>

#define DELAYS_TOP_TASKS	8	/* the tasks that waited longest in a tick */
#define DELAYS_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */

/* Recorded: append only. */
enum delays_state {
	DELAYS_NONE = 0,	/* not asked for (--no-delayacct), or a
				 * recording without them */
	DELAYS_ON = 1,		/* read: the figures are this tick's */
	DELAYS_OFF = 2,		/* kernel.task_delayacct is 0: `why` says how
				 * to turn it on; nothing is read */
	DELAYS_UNAVAILABLE = 3,	/* cannot be read: `why` says why (not root:
				 * TASKSTATS_CMD_GET needs CAP_NET_ADMIN; no
				 * taskstats in the kernel) */
};

/* What a task waited for. Recorded: append only. */
enum delay_kind {
	DELAY_BLKIO = 0,	/* synchronous block I/O */
	DELAY_SWAPIN = 1,	/* page faults that read swap */
	DELAY_RECLAIM = 2,	/* direct reclaim (the kernel's "freepages") */
	DELAY_THRASHING = 3,	/* waiting for a refaulting page (workingset) */
	DELAY_COMPACT = 4,	/* direct compaction */
	DELAY_CPU = 5,		/* runnable, waiting for a CPU (sched_info's
				 * run_delay: in the same reply, so free) */
	DELAY_KIND_COUNT
};

/* The kinds that rank a task first: its waits on memory. */
#define DELAYS_MEMORY_KINDS	((1u << DELAY_SWAPIN) | (1u << DELAY_RECLAIM) | \
				 (1u << DELAY_THRASHING) | (1u << DELAY_COMPACT))

struct delay_task {
	int32_t tid;
	int32_t tgid;			/* 0: not known (taskstats before v12) */
	char comm[DELAYS_COMM_LEN];	/* from the kernel, raw: escape to show */
	uint64_t ns[DELAY_KIND_COUNT];	/* waited in this tick */
	uint32_t count[DELAY_KIND_COUNT];	/* waits that ended in this tick */
};

struct delays {
	enum delays_state state;
	char why[120];			/* with OFF or UNAVAILABLE; with ON, a
					 * note (tasks not asked), or empty */
	uint32_t version;		/* of the kernel's struct taskstats, 0:
					 * none read yet */
	uint32_t kinds;			/* a bit per delay_kind this kernel
					 * counts (by that version) */

	/* Over the tasks asked this tick. */
	uint32_t ran;			/* tasks that ran, by the task scan */
	uint32_t asked;			/* of those, asked (capped) */
	uint32_t answered;		/* with an increase or a baseline */
	uint32_t first_seen;		/* of those, seen for the first time (or
					 * a tid reused): a baseline only */
	uint32_t gone;			/* exited before they were asked */
	uint64_t total_ns[DELAY_KIND_COUNT];
	uint64_t total_count[DELAY_KIND_COUNT];

	/* The tasks that waited longest in this tick: by their wait on
	 * memory (DELAYS_MEMORY_KINDS), then on block I/O, then by tid;
	 * only tasks that waited on one of those (everyone waits for a
	 * CPU, so that wait does not rank). */
	int n_top;
	struct delay_task top[DELAYS_TOP_TASKS];
};

const char *delays_state_name(enum delays_state s);	/* "on", "off", ... */
const char *delay_kind_name(enum delay_kind k);		/* "blkio", "reclaim" */
const char *delay_kind_title(enum delay_kind k);	/* "block I/O" */
/* A task's memory wait in the tick: the sum of DELAYS_MEMORY_KINDS. */
uint64_t delay_task_memory_ns(const struct delay_task *t);

#endif
