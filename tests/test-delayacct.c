/*
 * Delay accounting's table and tick, on a made-up source of totals (the
 * ops of source/delayacct.h): first sight, increases, a tid reused, a
 * task gone, the switch off, not allowed, the top's order, eviction from
 * a small table, and that a read allocates nothing; the decoding of a
 * struct taskstats by its version and length; and the task scan's list
 * of the tasks that ran (taskscan_ran) on a made-up proc tree of more
 * tasks than it keeps a tick.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/taskstats.h>

#include "tap.h"
#include "alloc-count.h"
#include "model/delays.h"
#include "model/tasks.h"
#include "source/delayacct.h"
#include "source/taskscan.h"

#define MS		1000000ull
#define MAX_FAKE	256

struct fake {
	int enabled;		/* what kernel.task_delayacct reads */
	int err;		/* every get fails so, when not 0 */
	unsigned long gets;
	struct delayacct_totals t[MAX_FAKE];	/* by tid; tid 0: gone */
};

static struct fake fk;

static int
fake_get(void *ctx, int tid, struct delayacct_totals *out)
{
	struct fake *f = ctx;

	f->gets++;
	if (f->err != 0)
		return f->err;
	if (tid <= 0 || tid >= MAX_FAKE || f->t[tid].tid == 0)
		return -ESRCH;
	*out = f->t[tid];
	return 0;
}

static int
fake_enabled(void *ctx)
{
	return ((struct fake *)ctx)->enabled;
}

static struct delayacct *
fake_open(size_t slots)
{
	struct delayacct_ops ops = { fake_get, fake_enabled, NULL, &fk, NULL };
	char why[120];

	return delayacct_open_ops(&ops, slots, why, sizeof(why));
}

static void
fake_task(int tid, const char *comm, uint64_t btime)
{
	struct delayacct_totals *t = &fk.t[tid];

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->btime = btime;
	t->version = 16;
	t->kinds = (1u << DELAY_KIND_COUNT) - 1;
}

static void
fake_wait(int tid, enum delay_kind k, uint64_t ns)
{
	fk.t[tid].ns[k] += ns;
	fk.t[tid].count[k]++;
}

static struct delays out;

static void
read_tids(struct delayacct *d, const int *tids, size_t n)
{
	delayacct_read(d, tids, n, &out);
}

static void
test_basics(void)
{
	struct delayacct *d;
	int one[] = { 10 }, two[] = { 10, 11 }, gone[] = { 12 };

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = fake_open(0);
	tap_ok(d != NULL, "opened on a made-up source");
	tap_eq_int(delayacct_slots(d), 16384, "the default table");

	fake_task(10, "dd", 1000);
	fake_wait(10, DELAY_BLKIO, 7 * MS);
	read_tids(d, one, 1);
	tap_eq_int(out.state, DELAYS_ON, "on");
	tap_eq_int(out.first_seen, 1, "first sight: a baseline");
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 0, "... and no increase");
	tap_eq_int(out.n_top, 0, "... nor a place in the top");

	fake_wait(10, DELAY_BLKIO, 5 * MS);
	fake_wait(10, DELAY_RECLAIM, 3 * MS);
	fake_wait(10, DELAY_CPU, 1 * MS);
	fk.t[10].btime = 1001;	/* the kernel's rounding */
	read_tids(d, one, 1);
	tap_eq_int(out.first_seen, 0, "seen again, begin time a second on: "
	    "the same task");
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 5 * MS, "block I/O: the increase");
	tap_eq_u64(out.total_ns[DELAY_RECLAIM], 3 * MS, "reclaim: the increase");
	tap_eq_u64(out.total_count[DELAY_RECLAIM], 1, "... one wait");
	tap_eq_int(out.n_top, 1, "in the top");
	tap_eq_int(out.top[0].tid, 10, "... by tid");
	tap_eq_str(out.top[0].comm, "dd", "... and comm");
	tap_eq_u64(out.top[0].ns[DELAY_CPU], 1 * MS, "... with its CPU wait");
	tap_eq_int(out.kinds, (1 << DELAY_KIND_COUNT) - 1, "the kinds given");

	read_tids(d, one, 1);
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 0, "no wait since: no increase");
	tap_eq_int(out.n_top, 0, "... and no place in the top");

	/* Another task with the same tid: lower totals. */
	fake_task(10, "cc1", 1001);
	fake_wait(10, DELAY_BLKIO, 1 * MS);
	fake_task(11, "make", 900);
	read_tids(d, two, 2);
	tap_eq_int(out.first_seen, 2, "a tid reused (totals went down): a "
	    "baseline");
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 0, "... not a wrapped increase");
	fake_wait(10, DELAY_BLKIO, 2 * MS);
	read_tids(d, two, 2);
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 2 * MS, "... its increases after");
	tap_eq_str(out.top[0].comm, "cc1", "... under its own comm");

	/* Same tid, higher totals, begun later. */
	fake_task(11, "sh", 950);
	fake_wait(11, DELAY_SWAPIN, 9 * MS);
	read_tids(d, two, 2);
	tap_eq_int(out.first_seen, 1, "a tid reused (begun later): a baseline");
	tap_eq_u64(out.total_ns[DELAY_SWAPIN], 0, "... not its lifetime as "
	    "one tick");

	read_tids(d, gone, 1);
	tap_eq_int(out.gone, 1, "a task gone: counted as gone");
	tap_eq_int(out.answered, 0, "... not answered");

	fk.err = -EPERM;
	read_tids(d, one, 1);
	tap_eq_int(out.state, DELAYS_UNAVAILABLE, "not allowed: unavailable");
	tap_ok(strstr(out.why, "CAP_NET_ADMIN") != NULL, "... why: %s", out.why);
	fk.err = 0;
	fk.gets = 0;
	read_tids(d, one, 1);
	tap_eq_int(out.state, DELAYS_UNAVAILABLE, "... and stays so");
	tap_eq_u64(fk.gets, 0, "... without asking again");
	delayacct_close(d);

	fk.enabled = 0;
	d = fake_open(0);
	read_tids(d, one, 1);
	tap_eq_int(out.state, DELAYS_OFF, "kernel.task_delayacct 0: off");
	tap_ok(strstr(out.why, "sysctl kernel.task_delayacct=1") != NULL,
	    "... says how to turn it on: %s", out.why);
	tap_eq_u64(fk.gets, 0, "... and asks nothing");
	delayacct_close(d);

	fk.enabled = -ENOENT;
	d = fake_open(0);
	read_tids(d, one, 1);
	tap_eq_int(out.state, DELAYS_ON, "no switch (before 5.14): read");
	tap_ok(out.why[0] != '\0', "... with a note: %s", out.why);
	delayacct_close(d);
}

static void
test_top(void)
{
	struct delayacct *d;
	int tids[12], i;

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = fake_open(0);
	for (i = 0; i < 12; i++) {
		tids[i] = 20 + i;
		fake_task(20 + i, "t", 5);
	}
	read_tids(d, tids, 12);
	/* 20..24: block I/O 1..5 ms; 25..29: compaction 1..5 ms; 30: only
	 * a CPU wait; 31: thrashing 1 ms and block I/O 9 ms. */
	for (i = 0; i < 5; i++) {
		fake_wait(20 + i, DELAY_BLKIO, (uint64_t)(i + 1) * MS);
		fake_wait(25 + i, DELAY_COMPACT, (uint64_t)(i + 1) * MS);
	}
	fake_wait(30, DELAY_CPU, 50 * MS);
	fake_wait(31, DELAY_THRASHING, 1 * MS);
	fake_wait(31, DELAY_BLKIO, 9 * MS);
	read_tids(d, tids, 12);
	tap_eq_int(out.n_top, DELAYS_TOP_TASKS, "the top holds %d",
	    DELAYS_TOP_TASKS);
	tap_eq_int(out.top[0].tid, 29, "memory waits first: the longest");
	tap_eq_int(out.top[4].tid, 31, "... a tie on memory broken by block I/O");
	tap_eq_int(out.top[5].tid, 25, "... then by tid");
	tap_eq_int(out.top[6].tid, 24, "then block I/O alone, longest first");
	tap_eq_int(out.top[7].tid, 23, "... the rest left out");
	for (i = 0; i < out.n_top; i++)
		if (out.top[i].tid == 30)
			break;
	tap_ok(i == out.n_top, "a CPU wait alone does not rank");
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 24 * MS, "the totals count "
	    "every task, not only the top");
	delayacct_close(d);
}

static void
test_evict(void)
{
	struct delayacct *d;
	int tids[MAX_FAKE], i, round, n, bad = 0, lost = 0;
	unsigned seed = 7;

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = fake_open(16);		/* 12 held at most */
	for (i = 1; i < MAX_FAKE; i++)
		fake_task(i, "t", 1);
	for (i = 0; i < 12; i++)
		tids[i] = i + 1;
	read_tids(d, tids, 12);		/* generation 1: tids 1..12 */
	tap_eq_int(delayacct_held(d), 12, "a small table filled");
	read_tids(d, tids, 6);		/* generation 2: 1..6 again */
	tids[0] = 100;
	read_tids(d, tids, 1);		/* generation 3: a new one */
	tap_eq_int(out.first_seen, 1, "full: a new task held");
	tap_eq_int(delayacct_held(d), 7, "... the oldest generation dropped");
	for (i = 0; i < 7; i++) {
		tids[i] = i + 1;
		fake_wait(i + 1, DELAY_BLKIO, 1 * MS);
	}
	read_tids(d, tids, 7);
	tap_eq_int(out.first_seen, 1, "those seen since are kept; tid 7, "
	    "dropped, is a first sight again");
	tap_eq_u64(out.total_ns[DELAY_BLKIO], 6 * MS, "... the kept give "
	    "their increases");

	/* Many rounds of random sets: a set asked twice in a row is held
	 * whole the second time (the moves of deletion lose nothing), with
	 * its totals right. */
	for (round = 0; round < 2000; round++) {
		n = 1 + (int)(rand_r(&seed) % 10);
		for (i = 0; i < n; i++)
			tids[i] = 1 + (int)(rand_r(&seed) % 200);
		read_tids(d, tids, (size_t)n);
		for (i = 0; i < n; i++)
			fake_wait(tids[i], DELAY_RECLAIM, 1 * MS);
		read_tids(d, tids, (size_t)n);
		lost += out.first_seen;
		if (delayacct_held(d) > 12)
			bad++;
		/* A tid asked twice in the set counts twice: once its
		 * waits, once nothing. */
		if (out.total_ns[DELAY_RECLAIM] == 0 && n > 0)
			bad++;
	}
	tap_eq_int(lost, 0, "2000 rounds of eviction: nothing asked twice "
	    "in a row lost");
	tap_eq_int(bad, 0, "... never more than three quarters held");
	delayacct_close(d);
}

/* Tasks that come and go: any tid answers, those under churn_gone are
 * gone. */
static int churn_gone;

static int
churn_get(void *ctx, int tid, struct delayacct_totals *t)
{
	(void)ctx;
	memset(t, 0, sizeof(*t));
	t->tid = t->tgid = tid;
	t->btime = 1;
	t->version = 16;
	t->kinds = (1u << DELAY_KIND_COUNT) - 1;
	t->ns[DELAY_BLKIO] = (uint64_t)tid * MS;
	return 0;
}

static int
churn_alive(void *ctx, int tid)
{
	(void)ctx;
	return tid < churn_gone ? -ESRCH : 0;
}

static void
test_churn(void)
{
	struct delayacct_ops ops = { churn_get, fake_enabled, NULL, &fk,
	    churn_alive };
	struct delayacct *d;
	int tids[100], round, i, over = 0, lost = 0;
	size_t most = 0;
	char why[120];

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = delayacct_open_ops(&ops, 0, why, sizeof(why));
	tap_ok(d != NULL, "a reader whose tasks come and go");
	/* 100 new tasks a round, each asked twice; all but the last 300
	 * are gone by then. */
	for (round = 0; round < 200; round++) {
		for (i = 0; i < 100; i++)
			tids[i] = 1 + round * 100 + i;
		churn_gone = 1 + round * 100 - 300;
		read_tids(d, tids, 100);
		read_tids(d, tids, 100);
		lost += out.first_seen;
		if (delayacct_held(d) > most)
			most = delayacct_held(d);
		if (delayacct_held(d) > 2048)
			over++;
	}
	tap_ok(delayacct_sweeps(d) > 0, "20,000 tasks: the gone were dropped "
	    "(%zu sweeps)", delayacct_sweeps(d));
	tap_ok(over == 0 && most <= 2048, "... never more than 2,048 held "
	    "(the soft limit's least, twice): at most %zu", most);
	tap_eq_int(lost, 0, "... and none asked twice in a row lost");
	delayacct_close(d);
}

/* The index is hashed over a part that doubles as tasks come: every
 * tid the default table holds, 12,288, asked twice, is found the second
 * time, through each doubling. */
static void
test_grow(void)
{
	struct delayacct_ops ops = { churn_get, fake_enabled, NULL, &fk, NULL };
	static int tids[12288];
	struct delayacct *d;
	int i, first = 0, again = 0;
	char why[120];

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = delayacct_open_ops(&ops, 0, why, sizeof(why));
	for (i = 0; i < 12288; i++)
		tids[i] = 7 + i * 13;
	for (i = 0; i < 12288; i += 96) {
		read_tids(d, tids + i, 96);
		first += out.first_seen;
	}
	tap_eq_int(first, 12288, "12,288 tasks come in 128 reads: each a first sight");
	tap_eq_int(delayacct_held(d), 12288, "... all held");
	read_tids(d, tids, 12288);
	again = out.first_seen;
	tap_eq_int(again, 0, "... asked again at once: each one found");
	delayacct_close(d);
}

static void
test_allocs(void)
{
	struct delayacct *d;
	int tids[64], i, k;
	long before;

	memset(&fk, 0, sizeof(fk));
	fk.enabled = 1;
	d = fake_open(64);
	for (i = 0; i < 64; i++) {
		tids[i] = i + 1;
		fake_task(i + 1, "t", 1);
	}
#ifdef COUNT_ALLOCS
	before = allocs;
	for (k = 0; k < 50; k++) {
		for (i = 0; i < 64; i++)
			fake_wait(i + 1, DELAY_BLKIO, MS);
		/* 48 held of 64 asked: eviction every read. */
		read_tids(d, tids, 64);
	}
	tap_eq_int(allocs - before, 0, "reads allocate nothing, evicting "
	    "included");
#else
	(void)before;
	(void)k;
	(void)tids;
	tap_ok(1, "allocations # SKIP a sanitizer build");
#endif
	delayacct_close(d);
}

static void
test_decode(void)
{
	struct taskstats ts;
	struct delayacct_totals t;

	memset(&ts, 0, sizeof(ts));
	ts.version = 8;
	ts.blkio_delay_total = 11;
	ts.freepages_delay_total = 22;
	ts.thrashing_delay_total = 33;
	ts.compact_delay_total = 44;
	ts.ac_pid = 77;
	ts.ac_tgid = 70;
	ts.ac_btime = 5;
	ts.ac_btime64 = 6;
	memcpy(ts.ac_comm, "kswapd0", 8);
	tap_eq_int(delayacct_decode(&ts, sizeof(ts), &t), 0, "version 8 decoded");
	tap_ok((t.kinds & (1u << DELAY_RECLAIM)) && t.ns[DELAY_RECLAIM] == 22,
	    "... has reclaim (from 7)");
	tap_ok(!(t.kinds & (1u << DELAY_THRASHING)) && t.ns[DELAY_THRASHING] == 0,
	    "... not thrashing (from 9)");
	tap_ok(!(t.kinds & (1u << DELAY_COMPACT)), "... nor compaction (from 11)");
	tap_eq_u64(t.btime, 5, "... the 32-bit begin time (64-bit from 10)");
	tap_eq_int(t.tgid, 0, "... no tgid (from 12)");
	tap_eq_str(t.comm, "kswapd0", "... its comm");
	ts.version = 12;
	delayacct_decode(&ts, sizeof(ts), &t);
	tap_ok((t.kinds & (1u << DELAY_COMPACT)) && t.ns[DELAY_COMPACT] == 44 &&
	    t.ns[DELAY_THRASHING] == 33 && t.btime == 6 && t.tgid == 70,
	    "version 12: compaction, thrashing, btime64, tgid");
	delayacct_decode(&ts, offsetof(struct taskstats, compact_count), &t);
	tap_ok(!(t.kinds & (1u << DELAY_COMPACT)) && (t.kinds &
	    (1u << DELAY_THRASHING)), "a struct cut before compaction: not "
	    "read past its end");
	tap_eq_int(delayacct_decode(&ts, 16, &t), -EINVAL, "too short: refused");
}

/* ---- taskscan_ran on a made-up proc tree. ---- */

#define RAN_TASKS	600	/* more than TASKSCAN_RAN_MAX */

static char tree[PATH_MAX];

static void
tree_put(const char *rel, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	if ((f = fopen(path, "w")) == NULL) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* Process pid, one thread, asleep; its schedstat says it ran run ns. */
static void
tree_task(int pid, unsigned long run)
{
	char rel[64], path[PATH_MAX + 64], line[256];

	snprintf(path, sizeof(path), "%s/%d", tree, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/task", tree, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/task/%d", tree, pid, pid);
	mkdir(path, 0755);
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, pid);
	snprintf(line, sizeof(line), "%d (t) S 1 %d %d 0 -1 4194560 0 0 0 0 "
	    "0 0 0 0 20 0 1 0 100 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 "
	    "1 0 0 17 0 0 0 0 0 0\n", pid, pid, pid);
	tree_put(rel, line);
	snprintf(rel, sizeof(rel), "%d/task/%d/schedstat", pid, pid);
	snprintf(line, sizeof(line), "%lu 0 %lu\n", run, run);
	tree_put(rel, line);
}

static struct tasks scan_out;

static size_t
scan_ran(struct taskscan *ts, double mono, int *tids, bool *seen)
{
	size_t n, i;

	taskscan_read(ts, mono, &scan_out);
	n = taskscan_ran(ts, tids, TASKSCAN_RAN_MAX);
	for (i = 0; i < n; i++)
		if (tids[i] > 1000 && tids[i] <= 1000 + RAN_TASKS)
			seen[tids[i] - 1000] = true;
	return n;
}

static void
test_ran(void)
{
	static int tids[TASKSCAN_RAN_MAX];
	bool seen[RAN_TASKS + 1] = { false }, dup = false;
	struct taskscan *ts;
	int i, all;
	size_t n, k;

	snprintf(tree, sizeof(tree), "/tmp/pagetop-ran.XXXXXX");
	if (mkdtemp(tree) == NULL) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	tree_put("stat", "cpu  1 2 3 4\nprocesses 700\n");
	for (i = 1; i <= RAN_TASKS; i++)
		tree_task(1000 + i, 1);
	ts = taskscan_new(tree);
	n = scan_ran(ts, 1.0, tids, seen);
	tap_eq_int(scan_out.total, RAN_TASKS, "ran: the tree's %d tasks "
	    "scanned", RAN_TASKS);
	tap_eq_int(n, TASKSCAN_RAN_MAX, "new tasks ran: as many kept as fit");
	tap_eq_int(taskscan_ran_seen(ts), RAN_TASKS, "... every one counted");
	for (i = 1; i <= RAN_TASKS; i++)
		tree_task(1000 + i, 2);
	n = scan_ran(ts, 2.0, tids, seen);
	tap_eq_int(n, TASKSCAN_RAN_MAX, "all ran again: as many kept");
	{
		bool once[RAN_TASKS + 1] = { false };

		for (k = 0; k < n; k++) {
			i = tids[k] - 1000;
			if (i < 1 || i > RAN_TASKS || once[i])
				dup = true;
			else
				once[i] = true;
		}
	}
	for (all = 1, i = 1; i <= RAN_TASKS; i++)
		all &= seen[i];
	tap_ok(all && !dup, "... and the two ticks together hold every one: "
	    "the second began where the first stopped");
	for (i = 1; i <= 5; i++)
		tree_task(1000 + i * 100, 3);
	n = scan_ran(ts, 3.0, tids, seen);
	tap_eq_int(n, 5, "five moved: those five");
	for (all = 1, k = 0; k < n; k++)
		all &= tids[k] % 100 == 0;
	tap_ok(all && n == 5, "... by tid");
	n = scan_ran(ts, 4.0, tids, seen);
	tap_eq_int(n, 0, "none moved: none ran (their stats read at the "
	    "safety net do not count)");
	taskscan_free(ts);
	for (i = 1; i <= RAN_TASKS; i++) {
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/%d/task/%d/stat", tree,
		    1000 + i, 1000 + i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%d/task/%d/schedstat", tree,
		    1000 + i, 1000 + i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%d/task/%d", tree, 1000 + i,
		    1000 + i);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/%d/task", tree, 1000 + i);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/%d", tree, 1000 + i);
		rmdir(path);
	}
	snprintf(tree + strlen(tree), sizeof(tree) - strlen(tree), "/stat");
	unlink(tree);
	*strrchr(tree, '/') = '\0';
	rmdir(tree);
}

int
main(void)
{
	test_basics();
	test_top();
	test_evict();
	test_churn();
	test_grow();
	test_allocs();
	test_decode();
	test_ran();
	return tap_done();
}
