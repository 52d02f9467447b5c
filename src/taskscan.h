/*
 * The task scan: every thread of every process, every tick, as cheaply as
 * the kernel allows. Each task's stat and schedstat files stay open and
 * are pread() from offset 0. A task whose schedstat did not change has not
 * run since the last tick, so its state cannot have changed and its stat
 * is not read; stat is read for tasks that ran, are new, are in D, and for
 * every task once in ten ticks. Directories are listed again only when
 * /proc/stat's "processes" (forks since boot) moved or a task vanished.
 * For the few tasks in state D it reads wchan; their kernel stacks (root
 * only) and, with libproc2, command lines and users are read by a worker
 * thread (taskinfo.c), because those reads take locks a blocked task may
 * hold (mmap_lock, cred_guard_mutex) and must never stall the scan.
 */
#ifndef PAGETOP_TASKSCAN_H
#define PAGETOP_TASKSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stack.h"

#define TASKS_MAX_BLOCKED	256
#define TASKS_MAX_STACKS	64

struct blocked_task {
	int tid;
	int tgid;
	char comm[16];
	char state;		/* 'D' */
	char wchan[48];		/* "" when the kernel shows none ("0") */
	double since;		/* mono seconds when first seen in D with this wchan */
	bool since_start;	/* already in D at the first scan: blocked at least this long */
	int stack;		/* index into tasks.stacks, -1 when not readable */
	char cmdline[160];	/* "" for kernel threads */
	char user[32];
};

struct tasks {
	uint32_t by_state[128];	/* count per state letter, indexed by the letter */
	uint32_t total;		/* threads seen */
	int n_blocked;
	bool truncated;		/* more blocked tasks than TASKS_MAX_BLOCKED */
	struct blocked_task b[TASKS_MAX_BLOCKED];
	int n_stacks;		/* distinct stacks, shared by tasks blocked alike */
	struct stack stacks[TASKS_MAX_STACKS];
	int stack_err;		/* 0, or the errno of reading stacks (EACCES: needs root) */
	char note[128];		/* e.g. the descriptor cap in force, "" when none */
};

struct taskscan;

/* Scans <root> (a procfs). NULL only when out of memory; a root that
 * cannot be listed gives scans whose note says why. */
struct taskscan *taskscan_new(const char *root);
void taskscan_free(struct taskscan *ts);
/* One tick at monotonic time mono. */
void taskscan_read(struct taskscan *ts, double mono, struct tasks *out);

#endif
