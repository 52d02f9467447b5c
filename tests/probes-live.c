/*
 * The kernel probes, opened for real, for tests/probes.sh:
 *	probes-live [-m DSLEEP_MIN_NS] [-s FUNC] [-i SECONDS] [-- COMMAND ARGS...]
 * reads once, runs COMMAND (reading every -i seconds meanwhile, 0.25 by
 * default), reads again when it has exited, and prints key=value lines:
 * t0.KEY and t1.KEY, the cumulative figures at the two reads; acc.KEY,
 * this tick's own figures summed over every read in between (acc.stack_*
 * only for the D stacks with FUNC in them); read_allocs, the allocations
 * made by every read; dsleep_path, how D sleeps are timed ("task storage",
 * "tid hash", "none"). Unavailable: state=unavailable and why=..., exit 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc-count.h"
#include "source/probes.h"

static struct probes pr;

static uint64_t
sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

#define SUM(a) sum((const uint64_t *)(a), sizeof(a) / sizeof(uint64_t))

static void
print_cum(const char *t, const struct probes *p)
{
	uint64_t runs = SUM(p->compact_result);

	printf("%s.attached=%u\n%s.missing=%u\n", t, p->attached, t, p->missing);
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		const struct probe_stall *s = &p->stall[k];

		printf("%s.%s_count=%llu\n%s.%s_ns=%llu\n%s.%s_reclaimed=%llu\n"
		       "%s.%s_order_count=%llu\n%s.%s_buckets=%llu\n",
		       t, probe_stall_name(k), (unsigned long long)s->lat.count,
		       t, probe_stall_name(k), (unsigned long long)s->lat.sum_ns,
		       t, probe_stall_name(k), (unsigned long long)s->reclaimed,
		       t, probe_stall_name(k), (unsigned long long)SUM(s->order_count),
		       t, probe_stall_name(k), (unsigned long long)SUM(s->lat.bucket));
	}
	printf("%s.compact_runs=%llu\n", t, (unsigned long long)runs);
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		printf("%s.compact_%s=%llu\n", t, probe_compact_result_name(r),
		       (unsigned long long)p->compact_result[r]);
	printf("%s.compact_try=%llu\n%s.compact_deferred=%llu\n", t,
	       (unsigned long long)SUM(p->compact_try), t,
	       (unsigned long long)SUM(p->compact_deferred));
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++)
		printf("%s.throttle_%s=%llu\n", t, probe_throttle_name(r),
		       (unsigned long long)p->throttle_count[r]);
	printf("%s.fallbacks=%llu\n%s.fallback_fragmenting=%llu\n%s.fallback_owner=%llu\n",
	       t, (unsigned long long)SUM(p->fallback), t,
	       (unsigned long long)SUM(p->fallback_fragmenting), t,
	       (unsigned long long)SUM(p->fallback_owner));
	/* The kernel's MIGRATE_RECLAIMABLE is 2: what negative dentries ask. */
	uint64_t recl = 0;
	for (int o = 0; o < PROBE_ORDERS; o++)
		recl += sum(p->fallback[o][2], PROBE_MIGRATETYPES);
	printf("%s.fallback_reclaimable=%llu\n", t, (unsigned long long)recl);
	printf("%s.kswapd_wakes=%llu\n%s.kswapd_awake_ns=%llu\n", t,
	       (unsigned long long)SUM(p->kswapd_wakes), t,
	       (unsigned long long)SUM(p->kswapd_awake_ns));
	printf("%s.kcompactd_wakes=%llu\n%s.kcompactd_awake_ns=%llu\n", t,
	       (unsigned long long)SUM(p->kcompactd_wakes), t,
	       (unsigned long long)SUM(p->kcompactd_awake_ns));
	printf("%s.reclaim_writes=%llu\n", t, (unsigned long long)p->reclaim_writes);
	printf("%s.dsleep_count=%llu\n%s.dsleep_ns=%llu\n%s.dsleep_lost=%llu\n", t,
	       (unsigned long long)p->dsleep.count, t, (unsigned long long)p->dsleep.sum_ns, t,
	       (unsigned long long)p->dsleep_lost);
}

struct acc {
	uint64_t stack_count, stack_total, stack_max, stall_tasks, task_stall_ns;
	uint64_t tick_max[STALL_KIND_COUNT];
	char stack[512];
};

static void
accumulate(struct acc *a, const struct probes *p, const char *func)
{
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		if (p->stall[k].tick_max_ns > a->tick_max[k])
			a->tick_max[k] = p->stall[k].tick_max_ns;
	a->stall_tasks += (uint64_t)p->n_tasks;
	for (int i = 0; i < p->n_tasks; i++)
		a->task_stall_ns += p->task[i].total_ns;
	for (int i = 0; func && i < p->n_dstacks; i++) {
		const struct probe_dstack *d = &p->dstack[i];
		bool has = false;

		for (int f = 0; f < d->stack.n; f++)
			has |= strcmp(d->stack.func[f], func) == 0;
		if (!has)
			continue;
		a->stack_count += d->count;
		a->stack_total += d->total_ns;
		if (d->max_ns > a->stack_max)
			a->stack_max = d->max_ns;
		if (!a->stack[0])
			for (int f = 0; f < d->stack.n; f++) {
				size_t n = strlen(a->stack);

				snprintf(a->stack + n, sizeof(a->stack) - n, "%s%s", f ? "," : "",
					 d->stack.func[f]);
			}
	}
}

#ifdef COUNT_ALLOCS
static long read_allocs;
#endif

static void
read_counted(struct probe_source *ps)
{
#ifdef COUNT_ALLOCS
	long before = allocs;

	probes_read(ps, &pr);
	read_allocs += allocs - before;
#else
	probes_read(ps, &pr);
#endif
}

int
main(int argc, char **argv)
{
	struct probes_opts o = { 0 };
	struct probe_source *ps;
	const char *func = NULL;
	double every = 0.25;
	struct acc a = { 0 };
	char why[256];
	pid_t child = -1;
	int c, st = 0;

	while ((c = getopt(argc, argv, "m:s:i:")) != -1) {
		switch (c) {
		case 'm':
			o.dsleep_min_ns = strtoull(optarg, NULL, 10);
			break;
		case 's':
			func = optarg;
			break;
		case 'i':
			every = atof(optarg);
			break;
		default:
			fprintf(stderr, "usage: probes-live [-m NS] [-s FUNC] [-i S] [-- CMD...]\n");
			return 2;
		}
	}
	if (!(ps = probes_open(&o, why, sizeof(why)))) {
		printf("state=unavailable\nwhy=%s\n", why);
		return 0;
	}
	probes_name_by_kernel(ps);
	read_counted(ps);
	printf("state=on\nwhy=%s\ndsleep_path=%s\n", pr.why, probes_dsleep_path(ps));
	print_cum("t0", &pr);
	fflush(stdout);
	if (optind < argc) {
		if ((child = fork()) == 0) {
			execvp(argv[optind], argv + optind);
			perror(argv[optind]);
			_exit(127);
		}
		for (;;) {
			struct timespec ts = { (time_t)every, (long)((every - (int)every) * 1e9) };

			nanosleep(&ts, NULL);
			read_counted(ps);
			accumulate(&a, &pr, func);
			if (waitpid(child, &st, WNOHANG) == child)
				break;
		}
	}
	read_counted(ps);
	accumulate(&a, &pr, func);
	print_cum("t1", &pr);
	printf("acc.stack_count=%llu\nacc.stack_total_ns=%llu\nacc.stack_max_ns=%llu\n"
	       "acc.stack=%s\nacc.stall_tasks=%llu\nacc.task_stall_ns=%llu\n",
	       (unsigned long long)a.stack_count, (unsigned long long)a.stack_total,
	       (unsigned long long)a.stack_max, a.stack, (unsigned long long)a.stall_tasks,
	       (unsigned long long)a.task_stall_ns);
	{
		unsigned long kn, passes;

		probes_names_count(ps, &kn, &passes);
		printf("names.kernel=%lu\nnames.passes=%lu\n", kn, passes);
	}
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		printf("acc.%s_tick_max_ns=%llu\n", probe_stall_name(k),
		       (unsigned long long)a.tick_max[k]);
#ifdef COUNT_ALLOCS
	printf("read_allocs=%ld\n", read_allocs);
#else
	printf("read_allocs=unknown\n");
#endif
	probes_close(ps);
	return child > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 0;
}
