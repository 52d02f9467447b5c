#include "model/stall-events.h"

#include <string.h>

/* Whether tasks a and b (of their samples, with stack signatures sa, sb)
 * are blocked the same way: by stack when both have one, else by wchan. */
static bool
same_way(const struct tasks *ta, int a, unsigned long sa, const struct tasks *tb, int b,
	 unsigned long sb)
{
	if (ta->b[a].stack >= 0 && tb->b[b].stack >= 0)
		return sa == sb;
	return strcmp(ta->b[a].wchan, tb->b[b].wchan) == 0;
}

int
stall_new_blocked(const struct sample *prev, const struct sample *cur, int *tasks, int cap)
{
	/* Each stack hashed once: a day's report calls this every sample. */
	unsigned long psig[TASKS_MAX_BLOCKED], csig[TASKS_MAX_BLOCKED];
	int first[TASKS_MAX_BLOCKED];
	const struct tasks *pt = &prev->tasks, *ct = &cur->tasks;
	int n = 0;

	if (!sample_has(prev, SRC_TASKS) || !sample_has(cur, SRC_TASKS))
		return 0;
	for (int j = 0; j < pt->n_blocked; j++)
		psig[j] = pt->b[j].stack >= 0 ? tasks_stack_signature(pt, pt->b[j].stack) : 0;
	for (int i = 0; i < ct->n_blocked; i++) {
		bool seen = false;

		csig[i] = ct->b[i].stack >= 0 ? tasks_stack_signature(ct, ct->b[i].stack) : 0;
		for (int j = 0; j < pt->n_blocked && !seen; j++)
			seen = same_way(pt, j, psig[j], ct, i, csig[i]);
		/* A new way already named by an earlier task of cur. */
		for (int k = 0; k < n && !seen; k++)
			seen = same_way(ct, first[k], csig[first[k]], ct, i, csig[i]);
		if (seen)
			continue;
		if (n < cap)
			tasks[n] = i;
		first[n++] = i;
	}
	return n;
}

unsigned
stall_events(const struct sample *prev, const struct counters *pc,
	     const struct sample *cur, const struct counters *cc, bool *stalling,
	     int *new_task)
{
	unsigned ev = 0;
	bool was = *stalling;

	*new_task = -1;
	if (sample_has(prev, SRC_PSI_MEMORY) && sample_has(cur, SRC_PSI_MEMORY) &&
	    prev->psi[PSI_MEMORY].some.avg10 < STALL_PSI_MEMORY &&
	    cur->psi[PSI_MEMORY].some.avg10 >= STALL_PSI_MEMORY)
		ev |= STALL_EV_PSI_MEMORY;
	if (sample_has(prev, SRC_VMSTAT) && sample_has(cur, SRC_VMSTAT)) {
		*stalling = cc->v[CTR_ALLOCSTALL] > pc->v[CTR_ALLOCSTALL] ||
		    cc->v[CTR_COMPACT_STALL] > pc->v[CTR_COMPACT_STALL];
		if (*stalling && !was)
			ev |= STALL_EV_RECLAIM;
	}
	if (stall_new_blocked(prev, cur, new_task, 1) > 0)
		ev |= STALL_EV_BLOCKED;
	return ev;
}
