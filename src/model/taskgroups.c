#include "model/taskgroups.h"

#include <stdio.h>
#include <string.h>

double
task_blocked_for(const struct tasks *t, int i, double now)
{
	double d = now - t->b[i].since;

	return d > 0 ? d : 0;
}

const char *
task_stack_missing_text(enum stack_missing why)
{
	static const char *const text[STACK_MISSING_COUNT] = {
		[STACK_HAVE] = "read",
		[STACK_DENIED] = "no permission: kernel stacks need root (CAP_SYS_ADMIN)",
		[STACK_RUNNING] = "it was running when its stack was read",
		[STACK_PENDING] = "not read yet when sampled (a task that wakes within a tick never is)",
		[STACK_BUSY] = "not read: the stack reader was busy with another task",
		[STACK_NO_FILE] = "the kernel keeps no stacks (no CONFIG_STACKTRACE)",
		[STACK_NOT_KEPT] = "not kept: more distinct stacks than pagetop keeps",
		[STACK_FAILED] = "the read failed",
		[STACK_UNSAID] = "not recorded (the recording does not say why)",
	};

	return (unsigned)why < STACK_MISSING_COUNT ? text[why] : text[STACK_UNSAID];
}

const char *
task_since_name(enum blocked_since from)
{
	switch (from) {
	case SINCE_START:
		return "start";
	case SINCE_SCHED:
		return "sched";
	case SINCE_SEEN:
	default:
		return "seen";
	}
}

/* FNV-1a of a string: the key of tasks without a stack, by wchan. */
static unsigned long
hash_str(const char *s)
{
	unsigned long h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct task_group_memo *
memo_find(struct task_groups *gs, unsigned long sig, const struct reasons *rs)
{
	for (int i = 0; i < gs->n_memo && i < TASK_GROUPS_MEMO; i++)
		if (gs->memo[i].sig == sig && gs->memo[i].rs == rs)
			return &gs->memo[i];
	return NULL;
}

static void
memo_add(struct task_groups *gs, unsigned long sig, const struct reasons *rs,
	 const struct task_group *g)
{
	struct task_group_memo *me = &gs->memo[(unsigned)gs->next_memo % TASK_GROUPS_MEMO];

	me->sig = sig;
	me->rs = rs;
	me->category = g->category;
	memcpy(me->reason, g->reason, sizeof(me->reason));
	gs->next_memo = (int)(((unsigned)gs->next_memo + 1) % TASK_GROUPS_MEMO);
	if (gs->n_memo < TASK_GROUPS_MEMO)
		gs->n_memo++;
}

void
task_groups_build(const struct tasks *t, const struct reasons *rs, double now,
		  struct task_groups *out)
{
	out->n = 0;
	out->n_tasks = t->n_blocked;
	for (int i = 0; i < t->n_blocked; i++) {
		const struct blocked_task *b = &t->b[i];
		bool has = b->stack >= 0 && b->stack < t->n_stacks;
		unsigned long sig = has ? tasks_stack_signature(t, b->stack) :
			hash_str(b->wchan) ^ 0x5bd1e995u;
		double d = task_blocked_for(t, i, now);
		struct task_group *g = NULL;
		int k;

		for (k = 0; k < out->n; k++)
			if (out->g[k].sig == sig) {
				g = &out->g[k];
				break;
			}
		if (!g) {
			struct reason_match m;
			static struct stack empty;	/* .bss, not .rodata: never backed */
			static struct stack sc;	/* out->scratch's stand-in: one thread only */
			const struct stack *st = NULL;
			struct task_group_memo *me = NULL;
			/* A stack of no frames is matched by its wchan. */
			bool keep = !has || tasks_stack_frames(t, b->stack) > 0;

			g = &out->g[out->n++];
			memset(g, 0, sizeof(*g));
			g->sig = sig;
			g->stack = b->stack;
			g->oldest = i;
			g->longest = -1;
			if (keep && (me = memo_find(out, sig, rs))) {
				g->category = me->category;
				memcpy(g->reason, me->reason, sizeof(g->reason));
			} else {
				if (has)
					st = tasks_stack(t, b->stack, out->scratch ? out->scratch : &sc);
				reasons_match(rs, st ? st : &empty, b->wchan, &m);
				g->category = m.category;
				snprintf(g->reason, sizeof(g->reason), "%s", m.reason ? m.reason : "?");
				if (keep)
					memo_add(out, sig, rs, g);
			}
		}
		out->of_task[i] = k;
		g->count++;
		if (d > g->longest) {
			g->longest = d;
			g->oldest = i;
			g->at_least = b->since_start;
		}
	}
}

static bool
group_before(const struct task_group *a, const struct task_group *b, enum task_groups_order by)
{
	if (by == GROUPS_BY_LONGEST && a->longest != b->longest)
		return a->longest > b->longest;
	if (a->count != b->count)
		return a->count > b->count;
	return a->longest > b->longest;
}

void
task_groups_copy(struct task_groups *dst, const struct task_groups *src)
{
	dst->n = src->n < 0 ? 0 : src->n > TASKS_MAX_BLOCKED ? TASKS_MAX_BLOCKED : src->n;
	memcpy(dst->g, src->g, (size_t)dst->n * sizeof(dst->g[0]));
	dst->n_tasks = src->n_tasks < 0 ? 0 : src->n_tasks > TASKS_MAX_BLOCKED ? TASKS_MAX_BLOCKED :
		       src->n_tasks;
	memcpy(dst->of_task, src->of_task, (size_t)dst->n_tasks * sizeof(dst->of_task[0]));
	dst->n_memo = dst->next_memo = 0;
	dst->scratch = NULL;
}

void
task_groups_sort(struct task_groups *gs, enum task_groups_order by)
{
	int map[TASKS_MAX_BLOCKED];

	/* Insertion sort: a handful of groups, and no allocation. */
	for (int k = 0; k < gs->n; k++)
		map[k] = k;
	for (int i = 1; i < gs->n; i++) {
		struct task_group g = gs->g[i];
		int m = map[i], j = i - 1;

		while (j >= 0 && group_before(&g, &gs->g[j], by)) {
			gs->g[j + 1] = gs->g[j];
			map[j + 1] = map[j];
			j--;
		}
		gs->g[j + 1] = g;
		map[j + 1] = m;
	}
	/* map[new] = old; of_task holds old indices. */
	{
		int inv[TASKS_MAX_BLOCKED];

		for (int k = 0; k < gs->n; k++)
			inv[map[k]] = k;
		for (int i = 0; i < gs->n_tasks; i++)
			gs->of_task[i] = inv[gs->of_task[i]];
	}
}
