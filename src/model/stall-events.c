#include "model/stall-events.h"

#include <string.h>

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
	if (sample_has(prev, SRC_TASKS) && sample_has(cur, SRC_TASKS) && cur->tasks.n_blocked) {
		/* Each stack hashed once: a day's report calls this every sample. */
		unsigned long psig[TASKS_MAX_BLOCKED];
		int np = prev->tasks.n_blocked;

		for (int j = 0; j < np; j++) {
			int pst = prev->tasks.b[j].stack;

			psig[j] = pst >= 0 ? stack_signature(&prev->tasks.stacks[pst]) : 0;
		}
		for (int i = 0; i < cur->tasks.n_blocked && *new_task < 0; i++) {
			bool seen = false;
			int st = cur->tasks.b[i].stack;
			unsigned long sig = st >= 0 ? stack_signature(&cur->tasks.stacks[st]) : 0;

			for (int j = 0; j < np && !seen; j++)
				seen = st >= 0 && prev->tasks.b[j].stack >= 0 ? psig[j] == sig :
				    strcmp(prev->tasks.b[j].wchan, cur->tasks.b[i].wchan) == 0;
			if (!seen) {
				*new_task = i;
				ev |= STALL_EV_BLOCKED;
			}
		}
	}
	return ev;
}
