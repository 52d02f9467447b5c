/* The history's probe figures: samples made here from increases drawn at
 * random, so every tick's and window's figure is known independently
 * (sums of what was drawn), through block edges, a ring that wraps, a
 * reattach (new epoch) and ticks without probes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-count.h"

/* Sanitizer builds count nothing: the checks are skipped there. */
#ifdef COUNT_ALLOCS
#define ALLOCS()	allocs
#else
#define ALLOCS()	0L
#endif
#include "model/history.h"
#include "model/history-probes.h"
#include "tap.h"

#define N	300
#define CAP	200

static struct sample s;
/* What was drawn for each tick: its increases and its own maxima. */
static struct {
	bool on;
	uint64_t count[STALL_KIND_COUNT], us[STALL_KIND_COUNT], bucket[STALL_KIND_COUNT][PROBE_BUCKETS];
	uint64_t max_us[STALL_KIND_COUNT];
	uint64_t thr[THROTTLE_REASON_COUNT], fb_order[PROBE_ORDERS], fb_pair[4][4];
	uint64_t kswapd_us, writes, ds_count;
	int tid;
} drawn[N];

static uint64_t
draw(int n)
{
	return (uint64_t)(rand() % n);
}

/* Tick i's sample: the cumulative figures of the epoch in force plus
 * this tick's increases. */
static void
make(int i, struct probes *cum, bool reattach)
{
	struct probes *p = &s.probes;

	s.wall = 1e6 + i;
	s.mono = i;
	if (reattach)
		memset(cum, 0, sizeof(*cum));
	cum->state = PROBES_ON;
	cum->epoch = reattach ? (uint64_t)i + 1000 : cum->epoch ? cum->epoch : 1;
	drawn[i].on = true;
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		uint64_t c = draw(5);

		drawn[i].count[k] = c;
		cum->stall[k].lat.count += c;
		for (uint64_t j = 0; j < c; j++) {
			uint64_t us = 1 + draw(200000);
			int b = probe_bucket_of(us * 1000);

			drawn[i].us[k] += us;
			drawn[i].bucket[k][b]++;
			cum->stall[k].lat.bucket[b]++;
			cum->stall[k].lat.sum_ns += us * 1000;
			if (us > drawn[i].max_us[k])
				drawn[i].max_us[k] = us;
		}
		cum->stall[k].tick_max_ns = drawn[i].max_us[k] * 1000;
	}
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++)
		cum->throttle_count[r] += drawn[i].thr[r] = draw(3);
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int a = 0; a < 4; a++)
			for (int t = 0; t < 4; t++) {
				uint64_t v = a != t && o < 4 ? draw(3) : 0;

				cum->fallback[o][a][t] += v;
				drawn[i].fb_order[o] += v;
				drawn[i].fb_pair[a][t] += v;
			}
	drawn[i].kswapd_us = draw(1000);
	cum->kswapd_awake_ns[i % 2] += drawn[i].kswapd_us * 1000;
	cum->reclaim_writes += drawn[i].writes = draw(100);
	/* One D stack a tick, of two kinds; one task a tick, of three. */
	drawn[i].ds_count = 1;
	cum->dsleep.count++;
	*p = *cum;
	p->n_dstacks = 1;
	p->dstack[0].count = 1;
	p->dstack[0].total_ns = p->dstack[0].max_ns = (uint64_t)(i + 1) * 1000;
	p->dstack[0].stack.n = 2;
	strcpy(p->dstack[0].stack.func[0], "schedule");
	strcpy(p->dstack[0].stack.func[1], i % 2 ? "jbd2_log_wait_commit" : "folio_wait_bit");
	p->n_tasks = 1;
	drawn[i].tid = 100 + i % 3;
	p->task[0].tid = drawn[i].tid;
	snprintf(p->task[0].comm, sizeof(p->task[0].comm), "t%d", i % 3);
	p->task[0].kinds = 1u << (i % 3);
	p->task[0].count = 2;
	p->task[0].total_ns = 10000;
	p->task[0].max_ns = (uint64_t)i;
}

/* The figures drawn over (a, b], summed; false when a tick had none. */
static bool
check_sum(const struct history *h, uint64_t a, uint64_t b, const char *what)
{
	struct hist_probe_sum got;
	uint64_t want_count = 0, want_us = 0, want_max = 0, want_b7 = 0, want_fb2 = 0,
	    want_pair = 0, want_ks = 0, want_wr = 0, want_thr = 0;
	bool ok;

	ok = history_probe_sum(h, a, b, &got);
	for (uint64_t i = a + 1; i <= b; i++) {
		want_count += drawn[i].count[STALL_DIRECT];
		want_us += drawn[i].us[STALL_COMPACT];
		if (drawn[i].max_us[STALL_MEMCG] > want_max)
			want_max = drawn[i].max_us[STALL_MEMCG];
		want_b7 += drawn[i].bucket[STALL_DIRECT][7];
		want_fb2 += drawn[i].fb_order[2];
		want_pair += drawn[i].fb_pair[2][1];
		want_ks += drawn[i].kswapd_us;
		want_wr += drawn[i].writes;
		want_thr += drawn[i].thr[THROTTLE_NOPROGRESS];
	}
	return ok && got.stall[STALL_DIRECT].count == want_count &&
	    got.stall[STALL_COMPACT].sum_ns == want_us * 1000 &&
	    got.stall_max_ns[STALL_MEMCG] == want_max * 1000 &&
	    got.stall[STALL_DIRECT].bucket[7] == want_b7 && got.fb_order[2] == want_fb2 &&
	    got.fb_pair[2][1] == want_pair && got.kswapd_awake_us == want_ks &&
	    got.reclaim_writes == want_wr && got.throttle_count[THROTTLE_NOPROGRESS] == want_thr &&
	    got.seconds == (double)(b - a) && got.ds_count == b - a && what;
}

/* Whether tick t of h reads back the nd D stacks and nt tasks pushed as
 * tick i (counts i * 100 + k). */
static bool
tick_reads_own(struct history *h, uint64_t t, int i, int nd, int nt)
{
	static struct hist_probe_task tasks[HIST_PROBE_TASKS];
	static struct hist_probe_dstack ds[HIST_PROBE_DSTACKS];
	uint64_t want = 0, got = 0, want_t = 0, got_t = 0;
	int n, more;

	for (int k = 0; k < nd; k++)
		want += (uint64_t)i * 100 + (uint64_t)k;
	n = history_probe_dstacks(h, t - 1, t, ds, HIST_PROBE_DSTACKS, &more);
	for (int k = 0; k < n; k++)
		got += ds[k].count;
	for (int k = 0; k < nt; k++)
		want_t += (uint64_t)i * 100 + (uint64_t)k;
	n = history_probe_tasks(h, t - 1, t, tasks, HIST_PROBE_TASKS, &more);
	for (int k = 0; k < n; k++)
		got_t += tasks[k].count;
	return got == want && got_t == want_t && n == nt;
}

int
main(void)
{
	static struct probes cum;
	static struct reasons rs;
	static struct hist_probe_task tasks[HIST_PROBE_TASKS];
	static struct hist_probe_dstack ds[HIST_PROBE_DSTACKS];
	const char table[] = "50 journal jbd2_log_wait_commit waiting for the journal\n";
	struct parse_error perr;
	struct history *h;
	uint64_t first, last, w;
	uint32_t missing;
	const char *why;
	int wrong = 0, more, n;
	long before = 0;

	(void)before;

	srand(13);
	tap_ok(reasons_parse(table, sizeof(table) - 1, false, &rs, &perr) == 0, "a reason table");
	memset(&s, 0, sizeof(s));
	h = history_new(CAP, 4, &s);
	history_set_reasons(h, &rs);
	/* Ticks 0..99 on; 100..104 unavailable; 105..299 on again after a
	 * reattach (a new epoch, counting from zero). */
	for (int i = 0; i < N; i++) {
		if (i == 1)
			before = ALLOCS();	/* the first push may set up stdio's locale */
		if (i >= 100 && i < 105) {
			memset(&s.probes, 0, sizeof(s.probes));
			s.probes.state = PROBES_UNAVAILABLE;
			snprintf(s.probes.why, sizeof(s.probes.why), "needs root (CAP_BPF, CAP_PERFMON)");
			s.mono = i;
			s.wall = 1e6 + i;
			drawn[i].on = false;
		} else {
			make(i, &cum, i == 105);
		}
		history_push(h, &s, NULL);
	}
#ifdef COUNT_ALLOCS
#ifdef COUNT_ALLOCS
	tap_ok(ALLOCS() == before, "300 pushes with probes allocate nothing");
#else
	(void)before;
	tap_ok(1, "300 pushes with probes allocate nothing # SKIP sanitizer build");
#endif
#else
	tap_ok(1, "# skip: allocations not counted here");
#endif
	history_range(h, &first, &last);
	tap_eq_u64(first, (uint64_t)(N - CAP), "the ring holds the last 200");
	/* Every tick held (with one before it) against what was drawn. */
	for (uint64_t i = first + 1; i <= last; i++)
		if (drawn[i].on && drawn[i - 1].on && i != 105 && !check_sum(h, i - 1, i, "tick"))
			wrong++;
	tap_eq_int(wrong, 0, "every tick's figures are what was drawn (through block edges)");
	tap_ok(!history_probe_sum(h, 102, 103, &(struct hist_probe_sum){ 0 }),
	       "probes unavailable: no figures");
	tap_eq_int(history_probes_state(h, 103, &missing, &why), PROBES_UNAVAILABLE,
		   "unavailable kept");
	tap_eq_str(why, "needs root (CAP_BPF, CAP_PERFMON)", "with its why");
	tap_eq_int(history_probes_state(h, 120, NULL, &why), PROBES_ON, "on again");
	tap_eq_str(why, "", "no why when on");
	/* The reattach: the new epoch's first figures are its increases. */
	tap_ok(check_sum(h, 105, 106, "x"), "after a reattach counting goes on");
	tap_ok(check_sum(h, 110, 299, "window"), "a window of 189 ticks: sums and maxima");
	{
		struct hist_probe_sum a, b;
		uint64_t hist_sum = 0, each = 0;

		/* The window's histogram from its edges = the ticks' added up. */
		history_probe_sum(h, 150, 299, &a);
		for (uint64_t i = 150; i < 299; i++) {
			history_probe_sum(h, i, i + 1, &b);
			each += b.stall[STALL_MEMCG].bucket[16];
		}
		for (uint64_t i = 151; i <= 299; i++)
			hist_sum += drawn[i].bucket[STALL_MEMCG][16];
		tap_ok(a.stall[STALL_MEMCG].bucket[16] == hist_sum && each == hist_sum,
		       "window histogram from its first and last entry: %llu",
		       (unsigned long long)hist_sum);
	}
	tap_ok(history_probe_window(h, 299, &w) && w == 299 - HIST_PROBE_TICKS,
	       "window: %d ticks back", HIST_PROBE_TICKS);
	tap_ok(history_probe_window(h, 108, &w) && w == 105, "window: starts where the probes do");
	tap_ok(!history_probe_window(h, 104, &w), "window: not over unavailable ticks");

	/* Tasks over the last 6 ticks (294..299): tids 100..102 twice each. */
	n = history_probe_tasks(h, 293, 299, tasks, HIST_PROBE_TASKS, &more);
	tap_eq_int(n, 3, "three tasks in six ticks");
	tap_ok(tasks[0].count == 4 && tasks[0].total_ns == 20000 && more == 0,
	       "each: two ticks' counts and totals");
	{
		int t100 = -1;

		for (int i = 0; i < n; i++)
			if (tasks[i].tid == 100)
				t100 = i;
		/* tid 100 at ticks 294 and 297: max 297, kinds 1 << 0 */
		tap_ok(t100 >= 0 && tasks[t100].max_ns == 297 && tasks[t100].kinds == 1 &&
		       strcmp(tasks[t100].comm, "t0") == 0, "tid 100: its max, kinds and comm");
	}
	n = history_probe_tasks(h, 293, 299, tasks, 2, &more);
	tap_ok(n == 2 && more == 1, "two shown, one more");
	n = history_probe_tasks(h, 50, 299, tasks, HIST_PROBE_TASKS, &more);
	tap_ok(n == 3 && tasks[0].count <= 2 * HIST_PROBE_TICKS, "only the ring's ticks are listed");

	/* D stacks over 290..299: odd ticks journal, even folio_wait_bit. */
	n = history_probe_dstacks(h, 289, 299, ds, HIST_PROBE_DSTACKS, &more);
	tap_eq_int(n, 2, "two stacks");
	{
		enum wait_category cat;
		const char *frame, *r0 = history_stack_reason(h, ds[0].stack, &cat, &frame);
		uint64_t odd = 0, even = 0;

		for (int i = 290; i <= 299; i++)
			*(i % 2 ? &odd : &even) += (uint64_t)(i + 1) * 1000;
		tap_ok(ds[0].count == 5 && ds[0].total_ns == odd && ds[0].max_ns == 300 * 1000,
		       "journal stack: 5 sleeps, their total and max");
		tap_ok(strcmp(r0, "waiting for the journal") == 0 && cat == WAIT_JOURNAL &&
		       strcmp(frame, "jbd2_log_wait_commit") == 0, "its reason from the table");
		tap_ok(ds[1].total_ns == even, "the other stack's total");
		tap_eq_str(history_stack_reason(h, ds[1].stack, NULL, NULL), "folio_wait_bit",
			   "no rule: the first frame that is not schedule");
	}
	before = ALLOCS();
	for (int i = 0; i < 50; i++) {
		history_probe_tasks(h, 200, 299, tasks, HIST_PROBE_TASKS, &more);
		history_probe_dstacks(h, 200, 299, ds, HIST_PROBE_DSTACKS, &more);
		history_probe_sum(h, 200, 299, &(struct hist_probe_sum){ 0 });
	}
#ifdef COUNT_ALLOCS
#ifdef COUNT_ALLOCS
	tap_ok(ALLOCS() == before, "the screens' queries allocate nothing");
#else
	tap_ok(1, "the screens' queries allocate nothing # SKIP sanitizer build");
#endif
#else
	tap_ok(1, "# skip: allocations not counted here");
#endif
	history_reset(h);
	tap_eq_int(history_probe_tasks(h, 0, 10, tasks, 8, &more), 0, "a reset empties the ring");

	/* Lists of every length up to the longest, the pools wrapping many
	 * times: each tick of the ring still reads back its own. Tick i lists
	 * i % 17 D stacks (of four kinds) and i % 9 tasks (tids 1000..1007),
	 * each count told apart by its tick and place. */
	memset(&cum, 0, sizeof(cum));
	for (int i = 0; i < N; i++) {
		struct probes *p = &s.probes;

		cum.state = PROBES_ON;
		cum.epoch = 1;
		*p = cum;
		s.mono = 1000 + i;
		s.wall = 2e6 + i;
		p->n_dstacks = i % (PROBE_TOP_STACKS + 1);
		for (int k = 0; k < p->n_dstacks; k++) {
			p->dstack[k].count = (uint64_t)i * 100 + (uint64_t)k;
			p->dstack[k].total_ns = p->dstack[k].max_ns = 1000;
			p->dstack[k].stack.n = 2;
			strcpy(p->dstack[k].stack.func[0], "schedule");
			snprintf(p->dstack[k].stack.func[1], sizeof(p->dstack[k].stack.func[1]),
				 "wait_%d", k % 4);
		}
		p->n_tasks = i % (PROBE_TOP_TASKS + 1);
		for (int k = 0; k < p->n_tasks; k++) {
			p->task[k].tid = 1000 + k;
			p->task[k].count = (uint64_t)i * 100 + (uint64_t)k;
			p->task[k].total_ns = 1;
			snprintf(p->task[k].comm, sizeof(p->task[k].comm), "w%d", k);
		}
		history_push(h, &s, NULL);
	}
	history_range(h, &first, &last);
	wrong = 0;
	for (uint64_t t = last - HIST_PROBE_TICKS + 2; t <= last; t++) {
		int i = (int)(t - first) + N - CAP, nd = i % (PROBE_TOP_STACKS + 1);
		int nt = i % (PROBE_TOP_TASKS + 1);

		if (!tick_reads_own(h, t, i, nd, nt))
			wrong++;
	}
	tap_eq_int(wrong, 0, "lists of every length, the pools wrapping: each tick reads its own");

	/* Lengths drawn at random, runs of ticks with long lists among short
	 * ones, so that the pools' holes come in every size: each tick of the
	 * ring still reads back its own (a run's place is the lowest free). */
	history_reset(h);
	wrong = 0;
	for (int i = 0, nds[HIST_PROBE_TICKS], nts[HIST_PROBE_TICKS]; i < 20 * N; i++) {
		struct probes *p = &s.probes;
		static unsigned long rnd = 12345;
		uint64_t hi;

		rnd = rnd * 6364136223846793005ul + 1442695040888963407ul;
		*p = cum;
		s.mono = 5000 + i;
		s.wall = 3e6 + i;
		p->n_dstacks = (int)((rnd >> 33) % (PROBE_TOP_STACKS + 1));
		p->n_tasks = (int)((rnd >> 45) % (PROBE_TOP_TASKS + 1));
		if ((rnd >> 20) % 4)
			p->n_dstacks /= 8, p->n_tasks /= 4;	/* mostly short */
		nds[i % HIST_PROBE_TICKS] = p->n_dstacks;
		nts[i % HIST_PROBE_TICKS] = p->n_tasks;
		for (int k = 0; k < p->n_dstacks; k++) {
			p->dstack[k].count = (uint64_t)i * 100 + (uint64_t)k;
			p->dstack[k].total_ns = p->dstack[k].max_ns = 1000;
			p->dstack[k].stack.n = 2;
			strcpy(p->dstack[k].stack.func[0], "schedule");
			snprintf(p->dstack[k].stack.func[1], sizeof(p->dstack[k].stack.func[1]),
				 "wait_%d", k % 4);
		}
		for (int k = 0; k < p->n_tasks; k++) {
			p->task[k].tid = 1000 + k;
			p->task[k].count = (uint64_t)i * 100 + (uint64_t)k;
			p->task[k].total_ns = 1;
			snprintf(p->task[k].comm, sizeof(p->task[k].comm), "w%d", k);
		}
		history_push(h, &s, NULL);
		if (i < HIST_PROBE_TICKS || i % 7)
			continue;
		history_range(h, &first, &hi);
		for (int back = 0; back < HIST_PROBE_TICKS - 1; back++) {
			int j = i - back, nd = nds[j % HIST_PROBE_TICKS], nt = nts[j % HIST_PROBE_TICKS];

			if (!tick_reads_own(h, hi - (uint64_t)back, j, nd, nt))
				wrong++;
		}
	}
	tap_eq_int(wrong, 0, "lists of random lengths: each tick of the ring reads its own");
	history_free(h);
	return tap_done();
}
