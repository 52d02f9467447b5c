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
/* The distinct stacks' bytes, packed (stack_pack()): 64 stacks of 30
 * frames fit; a struct stack would take 7.5 KB each. A stack that does
 * not fit is not kept (STACK_NOT_KEPT), like one past TASKS_MAX_STACKS. */
#define TASKS_STACK_BYTES	(48 * 1024)

/* Why a blocked task has no stack (stack -1). The numbers are recorded
 * (pagetop-recording(5), field 28): never change one. */
enum stack_missing {
	STACK_HAVE = 0,		/* it has one */
	STACK_DENIED = 1,	/* no permission: stacks need root */
	STACK_RUNNING = 2,	/* read empty or gone: it ran before the read */
	STACK_PENDING = 3,	/* asked, not read yet: a task that wakes
				 * within a tick is never read */
	STACK_BUSY = 4,		/* the reader was busy with another task */
	STACK_NO_FILE = 5,	/* the kernel keeps none (CONFIG_STACKTRACE) */
	STACK_NOT_KEPT = 6,	/* more distinct stacks than are kept */
	STACK_FAILED = 7,	/* the read failed otherwise */
	STACK_UNSAID = 8,	/* a recording that does not say */
	STACK_MISSING_COUNT
};

/* Where a blocked task's since comes from, recorded too (field 28). */
enum blocked_since {
	SINCE_SEEN = 0,		/* when the scan first saw it in D */
	SINCE_START = 1,	/* in D at the first scan: at least since then */
	SINCE_SCHED = 2,	/* when it last ran: se.exec_start of its
				 * sched file, in the scheduler's clock */
	SINCE_COUNT
};

struct blocked_task {
	int tid;
	int tgid;
	char comm[16];
	char state;		/* 'D' */
	char wchan[48];		/* "" when the kernel shows none ("0") */
	double since;		/* mono seconds when first seen in D with this wchan */
	bool since_start;	/* already in D at the first scan: blocked at least this long */
	enum blocked_since since_from;
	int stack;		/* tasks_stack(t, stack, ...), -1 when not readable */
	enum stack_missing stack_why;	/* STACK_HAVE when stack >= 0 */
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
	/* Stack i is stack_bytes[stack_at[i] .. stack_at[i + 1]), packed;
	 * read and add them with the functions below, never directly. */
	uint32_t stack_at[TASKS_MAX_STACKS + 1];
	unsigned long stack_sig[TASKS_MAX_STACKS];	/* stack_signature() of each */
	uint64_t stacks_lost;	/* bit i: stack i did not fit and is empty
				 * (a recording's); no task refers to it */
	char stack_bytes[TASKS_STACK_BYTES];
	int stack_err;		/* 0, or the errno of reading stacks (EACCES: needs root) */
	char note[128];		/* e.g. the descriptor cap in force, "" when none */
};

/* Stack i of t unpacked into scratch, which it returns; NULL when t has
 * no stack i. */
const struct stack *tasks_stack(const struct tasks *t, int i, struct stack *scratch);
/* Stack i's bytes as stack_pack() writes them, and their length; NULL
 * when t has no stack i. */
const char *tasks_stack_packed(const struct tasks *t, int i, size_t *len);
/* stack_signature() of stack i, kept when it was added; 0 when none. */
unsigned long tasks_stack_signature(const struct tasks *t, int i);
/* Frames in stack i, 0 when none. */
int tasks_stack_frames(const struct tasks *t, int i);
/* Empties the stacks (n_stacks 0). */
void tasks_stacks_clear(struct tasks *t);
/* Adds st (or a stack already packed: len bytes of src, with its
 * signature) as stack n_stacks: its index, or -1 when TASKS_MAX_STACKS
 * are held or its bytes do not fit. */
int tasks_stack_add(struct tasks *t, const struct stack *st);
int tasks_stack_add_packed(struct tasks *t, const char *src, size_t len,
    unsigned long sig);
/* The index of a stack of t with these packed bytes, or -1. */
int tasks_stack_find(const struct tasks *t, const char *src, size_t len,
    unsigned long sig);

#endif
