/*
 * The kernel probes in the history. An entry's moment holds, with the
 * probes on, running sums of their increases (probe-derive.c's probe_tick:
 * a new epoch counts what the new probes counted), so two entries
 * give what happened between them and a window's histogram is its last
 * entry's buckets less its first's. The tick's own lists go into a ring
 * of HIST_PROBE_TICKS ticks: a window over them is then exact whichever
 * entry is shown, which aggregating at push time could not be once the
 * shown entry moves back (a maximum cannot be taken out again). D stacks
 * are named once, when first seen, with their wait reason.
 */
#include "model/history-probes.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/history-int.h"
#include "model/probe-derive.h"
#include "model/sample-copy.h"

#define N_SUMS	(M_PR_END - M_PR_STALL)

struct ring_dstack {
	int16_t stack;			/* -1: the table was full */
	uint32_t count;
	uint64_t total_ns, max_ns;
	int32_t last_tid;
	char last_comm[16];
};

/* A tick's lists are runs in two pools. Each run goes to the lowest
 * place the runs of the ring's other ticks leave free (first fit), so the
 * pools' pages are touched as far as the ticks' lists reach together:
 * a pool used as a ring moving on every tick was touched whole (48 KB
 * of D stacks) within minutes, at a stack or two a tick. A pool holds
 * twice every tick's lists at their longest (m): the other 63 runs hold
 * at most 63 m and leave at most 64 holes, and 65 m of room cannot all
 * lie in holes shorter than m (64 (m - 1) < 65 m), so a run always fits.
 * The room past what is used costs address space only. */
#define RING_TASKS	(2 * HIST_PROBE_TICKS * PROBE_TOP_TASKS)
#define RING_DSTACKS	(2 * HIST_PROBE_TICKS * PROBE_TOP_STACKS)

struct ring_tick {
	uint64_t seq;			/* UINT64_MAX: empty */
	uint16_t task0, ds0;		/* its runs' first, in the pools */
	uint8_t n_tasks, n_dstacks;
};
_Static_assert(RING_TASKS <= UINT16_MAX && RING_DSTACKS <= UINT16_MAX, "task0, ds0");

struct hist_stack {
	unsigned long sig;
	int n;
	char first[STACK_FUNC_LEN];
	uint8_t category;
	char reason[REASON_TEXT_LEN];
	char frame[STACK_FUNC_LEN];
};

struct hist_probes {
	const struct reasons *rs;
	bool have_last;			/* last holds a push with the probes on */
	struct probes last;		/* its cumulative figures only: no lists */
	struct probe_tick tick;		/* its scratch: both are big */
	uint64_t sum[N_SUMS];
	int n_whys;
	char whys[HIST_WHYS][sizeof(((struct probes *)0)->why)];
	int n_stacks;
	struct hist_stack stacks[HIST_STACKS];
	struct stack scratch;		/* 7.5 KB: not on the C stack */
	struct ring_tick ring[HIST_PROBE_TICKS];
	struct probe_task task_pool[RING_TASKS];
	struct ring_dstack ds_pool[RING_DSTACKS];
	/* A window's lists, gathered here before they are sorted. */
	struct hist_probe_task tasks[HIST_PROBE_TICKS * PROBE_TOP_TASKS];
	struct hist_probe_dstack dstacks[HIST_STACKS + 1];
};

bool
hist_probes_new(struct history *h)
{
	if (!(h->pr = calloc(1, sizeof(*h->pr))))
		return false;
	hist_probes_reset(h);
	return true;
}

void
hist_probes_free(struct history *h)
{
	free(h->pr);
	h->pr = NULL;
}

void
hist_probes_reset(struct history *h)
{
	struct hist_probes *pr = h->pr;

	pr->have_last = false;
	memset(pr->sum, 0, sizeof(pr->sum));
	for (int i = 0; i < HIST_PROBE_TICKS; i++)
		pr->ring[i].seq = UINT64_MAX;
}

void
history_set_reasons(struct history *h, const struct reasons *rs)
{
	h->pr->rs = rs;
}

/* The tick's increases (probe-derive.c), in the moment's order from
 * M_PR_STALL; the tick's own figures (maxima) are 0 here. */
static void
tick_figures(const struct probe_tick *t, uint64_t inc[N_SUMS])
{
	memset(inc, 0, N_SUMS * sizeof(inc[0]));
#define R(m) inc[(m) - M_PR_STALL]
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		const struct probe_tick_hist *l = &t->stall[k];

		R(M_PR_STALL + k * PS_FIELDS + PS_N) = l->count;
		R(M_PR_STALL + k * PS_FIELDS + PS_US) = l->sum_ns / 1000;
		for (int b = 0; b < PROBE_BUCKETS; b++)
			R(M_PR_STALL + k * PS_FIELDS + PS_BUCKET + b) = l->bucket[b];
		R(M_PR_RECLAIMED) += t->reclaimed[k];
	}
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++) {
		R(M_PR_THROTTLE + r * 2) = t->throttle_count[r];
		R(M_PR_THROTTLE + r * 2 + 1) = t->throttle_us[r];
	}
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int a = 0; a < PROBE_MIGRATETYPES; a++)
			for (int m = 0; m < PROBE_MIGRATETYPES; m++) {
				R(M_PR_FB_ORDER + o) += t->fallback[o][a][m];
				R(M_PR_FB_PAIR + a * PROBE_MIGRATETYPES + m) += t->fallback[o][a][m];
			}
	R(M_PR_FB_FRAG) = t->fallback_fragmenting;
	R(M_PR_FB_OWNER) = t->fallback_owner;
	R(M_PR_KSWAPD_WAKES) = t->kswapd_wakes;
	R(M_PR_KSWAPD_US) = t->kswapd_awake_ns / 1000;
	R(M_PR_KCOMPACTD_WAKES) = t->kcompactd_wakes;
	R(M_PR_KCOMPACTD_US) = t->kcompactd_awake_ns / 1000;
	R(M_PR_WRITES) = t->reclaim_writes;
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		R(M_PR_COMPACT_R + r) = t->compact_result[r];
	R(M_PR_DS_COUNT) = t->dsleep.count;
	R(M_PR_DS_US) = t->dsleep.sum_ns / 1000;
	R(M_PR_DS_LOST) = t->dsleep_lost;
#undef R
}

static bool
is_tick_own(int i)
{
	int m = i + M_PR_STALL;

	if (m == M_PR_DS_MAX_US)
		return true;
	return m < M_PR_THROTTLE && (m - M_PR_STALL) % PS_FIELDS == PS_MAX_US;
}

static uint64_t
intern_why(struct hist_probes *pr, const char *why)
{
	if (!why[0])
		return 0;
	for (int i = 0; i < pr->n_whys; i++)
		if (strcmp(pr->whys[i], why) == 0)
			return (uint64_t)i + 1;
	if (pr->n_whys == HIST_WHYS)
		return 0;
	snprintf(pr->whys[pr->n_whys], sizeof(pr->whys[0]), "%s", why);
	return (uint64_t)++pr->n_whys;
}

/* The index of d's stack in the table, matched with the reasons when new;
 * -1 once the table is full. */
static int
intern_stack(struct hist_probes *pr, const struct probe_dstack *d)
{
	struct stack *st = &pr->scratch;
	struct reason_match rm;
	struct hist_stack *hs;
	unsigned long sig;
	int n = d->stack.n < 0 ? 0 : d->stack.n > PROBE_STACK_FRAMES ? PROBE_STACK_FRAMES :
	    d->stack.n;

	st->n = n;
	for (int i = 0; i < n; i++) {
		snprintf(st->f[i].func, sizeof(st->f[i].func), "%s", d->stack.func[i]);
		st->f[i].module[0] = '\0';
	}
	sig = stack_signature(st);
	for (int i = 0; i < pr->n_stacks; i++)
		if (pr->stacks[i].sig == sig && pr->stacks[i].n == n &&
		    strcmp(pr->stacks[i].first, n ? st->f[0].func : "") == 0)
			return i;
	if (pr->n_stacks == HIST_STACKS)
		return -1;
	hs = &pr->stacks[pr->n_stacks];
	hs->sig = sig;
	hs->n = n;
	snprintf(hs->first, sizeof(hs->first), "%s", n ? st->f[0].func : "");
	reasons_match(pr->rs, st, NULL, &rm);
	hs->category = (uint8_t)rm.category;
	/* A probe's stack with no frames was not named (yet), which is not
	 * the task scan's "needs root". */
	snprintf(hs->reason, sizeof(hs->reason), "%s", n == 0 ? "stack not named yet" :
		 rm.reason ? rm.reason : "");
	snprintf(hs->frame, sizeof(hs->frame), "%s",
		 rm.frame >= 0 && rm.frame < n ? st->f[rm.frame].func : "");
	return pr->n_stacks++;
}

/* The lowest start of n places in a pool of cap that no run of the
 * ring's ticks holds (the tick being pushed has left it). */
static unsigned
ring_place(const struct hist_probes *pr, bool ds, unsigned n, unsigned cap)
{
	unsigned at = 0;
	bool moved = n > 0;

	/* Past every run in the way: a start before its end would meet it. */
	while (moved) {
		moved = false;
		for (int i = 0; i < HIST_PROBE_TICKS; i++) {
			const struct ring_tick *rt = &pr->ring[i];
			unsigned r0 = ds ? rt->ds0 : rt->task0;
			unsigned rn = ds ? rt->n_dstacks : rt->n_tasks;

			if (rt->seq != UINT64_MAX && rn && r0 < at + n && at < r0 + rn) {
				at = r0 + rn;
				moved = true;
			}
		}
	}
	return at + n <= cap ? at : 0;	/* always fits: see RING_TASKS */
}

static void
push_ring(struct hist_probes *pr, const struct probes *p, uint64_t seq)
{
	struct ring_tick *rt = &pr->ring[seq % HIST_PROBE_TICKS];
	int nt = p->n_tasks < 0 ? 0 : p->n_tasks > PROBE_TOP_TASKS ? PROBE_TOP_TASKS : p->n_tasks;
	int nd = p->n_dstacks < 0 ? 0 : p->n_dstacks > PROBE_TOP_STACKS ? PROBE_TOP_STACKS :
	    p->n_dstacks;

	rt->task0 = (uint16_t)ring_place(pr, false, (unsigned)nt, RING_TASKS);
	rt->ds0 = (uint16_t)ring_place(pr, true, (unsigned)nd, RING_DSTACKS);
	rt->seq = seq;
	rt->n_tasks = (uint8_t)nt;
	for (int i = 0; i < nt; i++)
		pr->task_pool[rt->task0 + i] = p->task[i];
	rt->n_dstacks = (uint8_t)nd;
	for (int i = 0; i < nd; i++) {
		const struct probe_dstack *d = &p->dstack[i];
		struct ring_dstack *r = &pr->ds_pool[rt->ds0 + i];

		r->stack = (int16_t)intern_stack(pr, d);
		r->count = d->count;
		r->total_ns = d->total_ns;
		r->max_ns = d->max_ns;
		r->last_tid = d->last_tid;
		memcpy(r->last_comm, d->last_comm, sizeof(r->last_comm));
	}
}

void
hist_push_probes(struct history *h, struct hist_moment *m, const struct sample *s, uint64_t seq)
{
	struct hist_probes *pr = h->pr;
	const struct probes *p = &s->probes;
	uint64_t inc[N_SUMS], ds_max = 0;

	pr->ring[seq % HIST_PROBE_TICKS].seq = UINT64_MAX;
	if (p->state != PROBES_ON && p->state != PROBES_UNAVAILABLE)
		return;
	m->v[M_PR_STATE] = (uint64_t)p->state;
	m->v[M_PR_WHY] = intern_why(pr, p->why);
	m->v[M_PR_MISSING] = p->missing;
	if (p->state != PROBES_ON)
		return;
	/* The first push has nothing before it to count from: its tick is 0
	 * (PTICK_FIRST); a reattach counts what the new probes counted. */
	probe_tick(pr->have_last ? &pr->last : NULL, p, &pr->tick);
	tick_figures(&pr->tick, inc);
	for (int i = 0; i < N_SUMS; i++) {
		if (is_tick_own(i))
			continue;
		pr->sum[i] += inc[i];
		m->v[M_PR_STALL + i] = pr->sum[i];
	}
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		m->v[M_PR_STALL + k * PS_FIELDS + PS_MAX_US] = p->stall[k].tick_max_ns / 1000;
	for (int i = 0; i < p->n_dstacks && i < PROBE_TOP_STACKS; i++)
		if (p->dstack[i].max_ns > ds_max)
			ds_max = p->dstack[i].max_ns;
	m->v[M_PR_DS_MAX_US] = ds_max / 1000;
	/* The next tick's differences read the cumulative figures only,
	 * which come before the tick's own lists: those (17 KB of D stacks,
	 * mostly empty rows) are left out, and their pages never touched,
	 * nor those of figures that stay zero. */
	sample_copy_bytes(&pr->last, p, offsetof(struct probes, n_tasks));
	pr->have_last = true;
	push_ring(pr, p, seq);
}

enum probes_state
history_probes_state(const struct history *h, uint64_t seq, uint32_t *missing, const char **why)
{
	const struct hist_moment *m;
	uint64_t w;

	if (missing)
		*missing = 0;
	if (why)
		*why = "";
	if (!history_has(h, seq))
		return PROBES_NONE;
	m = hist_moment_at(h, seq);
	w = m->v[M_PR_WHY];
	if (missing)
		*missing = (uint32_t)m->v[M_PR_MISSING];
	if (why && w && w <= (uint64_t)h->pr->n_whys)
		*why = h->pr->whys[w - 1];
	return (enum probes_state)m->v[M_PR_STATE];
}

bool
history_probe_window(const struct history *h, uint64_t seq, uint64_t *first)
{
	uint64_t lo, hi, from;

	if (!history_range(h, &lo, &hi) || seq < lo || seq > hi || seq == lo)
		return false;
	from = seq - lo > HIST_PROBE_TICKS ? seq - HIST_PROBE_TICKS : lo;
	for (; from < seq; from++)
		if (hist_moment_at(h, from)->v[M_PR_STATE] == PROBES_ON) {
			*first = from;
			return true;
		}
	return false;
}

bool
history_probe_sum(const struct history *h, uint64_t a, uint64_t b, struct hist_probe_sum *out)
{
	uint64_t va[N_SUMS], d[N_SUMS];
	const struct hist_moment *m;

	memset(out, 0, sizeof(*out));
	if (a >= b || !history_has(h, a) || !history_has(h, b))
		return false;
	m = hist_moment_at(h, a);
	if (m->v[M_PR_STATE] != PROBES_ON)
		return false;
	memcpy(va, &m->v[M_PR_STALL], sizeof(va));
	/* The tick maxima over (a, b], walking forward (one entry a step). */
	for (uint64_t s = a + 1; s <= b; s++) {
		m = hist_moment_at(h, s);
		if (m->v[M_PR_STATE] != PROBES_ON)
			continue;
		for (int k = 0; k < STALL_KIND_COUNT; k++) {
			uint64_t us = m->v[M_PR_STALL + k * PS_FIELDS + PS_MAX_US];

			if (us * 1000 > out->stall_max_ns[k])
				out->stall_max_ns[k] = us * 1000;
		}
		if (m->v[M_PR_DS_MAX_US] > out->ds_max_us)
			out->ds_max_us = m->v[M_PR_DS_MAX_US];
	}
	if (m->v[M_PR_STATE] != PROBES_ON)
		return false;
	for (int i = 0; i < N_SUMS; i++)
		d[i] = m->v[M_PR_STALL + i] - va[i];
#define D(f) d[(f) - M_PR_STALL]
	out->seconds = history_mono(h, b) - history_mono(h, a);
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		out->stall[k].count = D(M_PR_STALL + k * PS_FIELDS + PS_N);
		out->stall[k].sum_ns = D(M_PR_STALL + k * PS_FIELDS + PS_US) * 1000;
		for (int i = 0; i < PROBE_BUCKETS; i++)
			out->stall[k].bucket[i] = D(M_PR_STALL + k * PS_FIELDS + PS_BUCKET + i);
	}
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++) {
		out->throttle_count[r] = D(M_PR_THROTTLE + r * 2);
		out->throttle_us[r] = D(M_PR_THROTTLE + r * 2 + 1);
	}
	for (int o = 0; o < PROBE_ORDERS; o++)
		out->fb_order[o] = D(M_PR_FB_ORDER + o);
	for (int x = 0; x < PROBE_MIGRATETYPES; x++)
		for (int y = 0; y < PROBE_MIGRATETYPES; y++)
			out->fb_pair[x][y] = D(M_PR_FB_PAIR + x * PROBE_MIGRATETYPES + y);
	out->fb_fragmenting = D(M_PR_FB_FRAG);
	out->fb_owner = D(M_PR_FB_OWNER);
	out->kswapd_wakes = D(M_PR_KSWAPD_WAKES);
	out->kswapd_awake_us = D(M_PR_KSWAPD_US);
	out->kcompactd_wakes = D(M_PR_KCOMPACTD_WAKES);
	out->kcompactd_awake_us = D(M_PR_KCOMPACTD_US);
	out->reclaim_writes = D(M_PR_WRITES);
	out->reclaimed = D(M_PR_RECLAIMED);
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		out->compact_result[r] = D(M_PR_COMPACT_R + r);
	out->ds_count = D(M_PR_DS_COUNT);
	out->ds_us = D(M_PR_DS_US);
	out->ds_lost = D(M_PR_DS_LOST);
#undef D
	return true;
}

/* The ring's tick seq, when it still holds it. */
static const struct ring_tick *
ring_at(const struct history *h, uint64_t seq)
{
	const struct ring_tick *rt = &h->pr->ring[seq % HIST_PROBE_TICKS];

	return rt->seq == seq && history_has(h, seq) ? rt : NULL;
}

/* Longest total first. An insertion sort: glibc's qsort may allocate. */
static void
sort_tasks(struct hist_probe_task *v, int n)
{
	for (int i = 1; i < n; i++) {
		struct hist_probe_task t = v[i];
		int j = i;

		for (; j > 0 && (v[j - 1].total_ns < t.total_ns ||
		    (v[j - 1].total_ns == t.total_ns && v[j - 1].tid > t.tid)); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

int
history_probe_tasks(const struct history *h, uint64_t a, uint64_t b,
		    struct hist_probe_task *out, int max, int *more)
{
	struct hist_probe_task *all = h->pr->tasks;	/* a scratch: no allocation */
	int n = 0;

	for (uint64_t s = a + 1; s <= b && s > a; s++) {
		const struct ring_tick *rt = ring_at(h, s);

		for (int i = 0; rt && i < rt->n_tasks; i++) {
			const struct probe_task *t =
			    &h->pr->task_pool[rt->task0 + i];
			int k = 0;

			while (k < n && all[k].tid != t->tid)
				k++;
			if (k == n) {
				memset(&all[k], 0, sizeof(all[k]));
				all[k].tid = t->tid;
				n++;
			}
			/* The newest name: a thread may rename itself. */
			memcpy(all[k].comm, t->comm, sizeof(all[k].comm));
			all[k].comm[sizeof(all[k].comm) - 1] = '\0';
			all[k].kinds |= t->kinds;
			all[k].count += t->count;
			all[k].total_ns += t->total_ns;
			if (t->max_ns > all[k].max_ns)
				all[k].max_ns = t->max_ns;
		}
	}
	sort_tasks(all, n);
	if (more)
		*more = n > max ? n - max : 0;
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof(out[0]));
	return n;
}

static void
sort_dstacks(struct hist_probe_dstack *v, int n)
{
	for (int i = 1; i < n; i++) {
		struct hist_probe_dstack t = v[i];
		int j = i;

		for (; j > 0 && v[j - 1].total_ns < t.total_ns; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

int
history_probe_dstacks(const struct history *h, uint64_t a, uint64_t b,
		      struct hist_probe_dstack *out, int max, int *more)
{
	struct hist_probe_dstack *all = h->pr->dstacks;
	int n = 0;

	/* By stack index, the table full (-1) last: then the used ones packed. */
	for (int i = 0; i <= HIST_STACKS; i++) {
		memset(&all[i], 0, sizeof(all[i]));
		all[i].stack = i < HIST_STACKS ? i : -1;
	}
	for (uint64_t s = a + 1; s <= b && s > a; s++) {
		const struct ring_tick *rt = ring_at(h, s);

		for (int i = 0; rt && i < rt->n_dstacks; i++) {
			const struct ring_dstack *d =
			    &h->pr->ds_pool[rt->ds0 + i];
			struct hist_probe_dstack *o = &all[d->stack >= 0 ? d->stack : HIST_STACKS];

			o->count += d->count;
			o->total_ns += d->total_ns;
			if (d->max_ns > o->max_ns)
				o->max_ns = d->max_ns;
			o->last_tid = d->last_tid;
			memcpy(o->last_comm, d->last_comm, sizeof(o->last_comm));
			o->last_comm[sizeof(o->last_comm) - 1] = '\0';
		}
	}
	for (int i = 0; i <= HIST_STACKS; i++)
		if (all[i].count)
			all[n++] = all[i];
	sort_dstacks(all, n);
	if (more)
		*more = n > max ? n - max : 0;
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof(out[0]));
	return n;
}

const char *
history_stack_reason(const struct history *h, int stack, enum wait_category *category,
		     const char **frame)
{
	const struct hist_stack *hs;

	if (stack < 0 || stack >= h->pr->n_stacks) {
		if (category)
			*category = WAIT_OTHER;
		if (frame)
			*frame = "";
		return "";
	}
	hs = &h->pr->stacks[stack];
	if (category)
		*category = (enum wait_category)hs->category;
	if (frame)
		*frame = hs->frame;
	return hs->reason;
}
