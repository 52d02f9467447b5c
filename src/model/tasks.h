/* What the task scan found in one tick: counts per state and the blocked
 * tasks with their stacks. Filled by source/taskscan.c, read by the model,
 * the recording and every output. */
#ifndef PAGETOP_TASKS_H
#define PAGETOP_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/stack.h"

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

#endif
