/* Blocked tasks grouped by how they wait: the same stack (or, without
 * stacks, the same wchan), with the reason the wait-reason table gives:
 * "7 tasks - journal: waiting for the ext4 journal to commit - longest 41s". */
#ifndef PAGETOP_TASKGROUPS_H
#define PAGETOP_TASKGROUPS_H

#include <stdbool.h>

#include "model/reasons.h"
#include "model/tasks.h"

struct task_group {
	unsigned long sig;		/* what its tasks share */
	enum wait_category category;
	char reason[REASON_TEXT_LEN];
	int count;
	double longest;			/* seconds blocked, of its longest-blocked task */
	bool at_least;			/* that task was blocked before pagetop looked */
	int stack;			/* index into tasks.stacks, -1 without stacks */
	int oldest;			/* index into tasks.b of the longest-blocked task */
};

/* A stack's match kept from one build to the next, by signature. */
#define TASK_GROUPS_MEMO	16
struct task_group_memo {
	unsigned long sig;
	const struct reasons *rs;
	enum wait_category category;
	char reason[REASON_TEXT_LEN];
};

struct task_groups {
	int n;
	struct task_group g[TASKS_MAX_BLOCKED];
	int n_tasks;
	int of_task[TASKS_MAX_BLOCKED];	/* the group of each blocked task */
	/* The last stacks matched (zeroed with the struct): a task blocked
	 * over many samples is matched once, not at each (export). */
	int n_memo, next_memo;
	struct task_group_memo memo[TASK_GROUPS_MEMO];
	/* Where a stack is unpacked to be matched: the builder's own (the
	 * tick's; export's workers build at once), or NULL for a static one
	 * that only one thread may use. */
	struct stack *scratch;
};

enum task_groups_order { GROUPS_BY_COUNT, GROUPS_BY_LONGEST };

/* Groups the blocked tasks of t at monotonic time now. Never allocates.
 * out is zeroed before its first build (it keeps matches between builds). */
void task_groups_build(const struct tasks *t, const struct reasons *rs, double now,
		       struct task_groups *out);
/* src's groups and tasks into dst, without its memo or scratch: a copy
 * to sort (the dashboard's every draw), of the few groups there are, not
 * of the 33 KB of room. */
void task_groups_copy(struct task_groups *dst, const struct task_groups *src);
/* Sorts the groups, keeping of_task right. */
void task_groups_sort(struct task_groups *gs, enum task_groups_order by);
/* Why a task has no stack, in words: "it ran before its stack was read". */
const char *task_stack_missing_text(enum stack_missing why);
/* Where its since comes from, as JSON says it: "seen", "start", "sched". */
const char *task_since_name(enum blocked_since from);
/* How long task i of t has been blocked at now, in seconds. */
double task_blocked_for(const struct tasks *t, int i, double now);

#endif
