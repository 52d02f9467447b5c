/*
 * The task iterator's two walks (src/source/taskiter.c): the open-coded
 * one, used on Linux 6.7 and later, and iter/task's (PAGETOP_TASKITER_WALK=0)
 * see the same tasks. 400 threads started between two reads are each
 * listed by tid as having run, and none is listed once they are gone:
 * those checks are exact, since they name this test's own threads. The
 * counts (400 more tasks, all asleep, as many as before once gone) are
 * the machine's, and other tests' tasks come and go meanwhile: they are
 * checked within SLACK. Needs root and kernel BTF in a build with the
 * probes; skipped otherwise.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "source/taskiter.h"
#include "tap.h"

#define THREADS	400
#define SLACK	120	/* other tests' tasks come and go meanwhile (make -j2 check: +-100 seen) */

static struct taskiter_out o[2][3];
static int pipe_fd[2];
static _Atomic uint32_t tids[THREADS];

static void *
sleeper(void *arg)
{
	char c;

	tids[(intptr_t)arg] = (uint32_t)gettid();
	/* S until the write end is closed */
	if (read(pipe_fd[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

static bool
near(long a, long b)
{
	return labs(a - b) <= SLACK;
}

static bool
listed_ran(const struct taskiter_out *out, uint32_t tid)
{
	for (size_t i = 0; i < out->n_ran; i++)
		if (out->ran[i] == tid)
			return true;
	return false;
}

/* How many of our threads' tids out lists as having run. */
static int
ours_listed(const struct taskiter_out *out, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += listed_ran(out, tids[i]);
	return k;
}

static bool
kernel_has_walk(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	return uname(&u) == 0 && sscanf(u.release, "%d.%d", &maj, &min) == 2 &&
	    (maj > 6 || (maj == 6 && min >= 7));
}

int
main(void)
{
	static pthread_t th[THREADS];
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	struct taskiter *it[2];
	char why[256] = "";
	int w, i, r[2][3];

	setenv("PAGETOP_TASKITER_WALK", "1", 1);
	it[0] = taskiter_open(why, sizeof(why));
	if (!it[0]) {
		tap_ok(1, "the walks # SKIP no task iterator: %s", why);
		return tap_done();
	}
	setenv("PAGETOP_TASKITER_WALK", "0", 1);
	it[1] = taskiter_open(why, sizeof(why));
	unsetenv("PAGETOP_TASKITER_WALK");
	if (!tap_ok(it[1] != NULL, "iter/task's walk loads too%s%s", *why ? ": " : "", why))
		return tap_done();
	tap_ok(taskiter_walks(it[0]) == kernel_has_walk(),
	    "the open-coded walk is used where the kernel has it (6.7): %s",
	    taskiter_walks(it[0]) ? "yes" : "no");
	tap_ok(!taskiter_walks(it[1]), "PAGETOP_TASKITER_WALK=0: iter/task's walk");
	tap_ok(taskiter_hides_init(it[0]) == taskiter_hides_init(it[1]),
	    "both walks agree on whether pid 1 is hidden (%s)",
	    taskiter_hides_init(it[0]) ? "hidden" : "shown");

	/* The counts are the machine's: other tests' tasks come and go
	 * meanwhile. A round whose counts moved by more than SLACK besides
	 * ours is taken again, up to 5 times. */
	for (int round = 0; round < 5; round++) {
		bool calm = true;

		for (w = 0; w < 2; w++)
			r[w][0] = taskiter_read(it[w], &o[w][0]);
		if (pipe(pipe_fd) != 0)
			return 1;
		memset(tids, 0, sizeof(tids));
		for (i = 0; i < THREADS; i++)
			if (pthread_create(&th[i], NULL, sleeper, (void *)(intptr_t)i) != 0)
				break;
		/* each thread has run (told its tid) before the next read */
		for (int k = 0; k < i; k++)
			while (!tids[k])
				sched_yield();
		/* off the CPU and on again: the reader has run since the last read */
		nanosleep(&nap, NULL);
		for (w = 0; w < 2; w++)
			r[w][1] = taskiter_read(it[w], &o[w][1]);
		close(pipe_fd[1]);
		for (int k = 0; k < i; k++)
			pthread_join(th[k], NULL);
		close(pipe_fd[0]);
		for (w = 0; w < 2; w++)
			r[w][2] = taskiter_read(it[w], &o[w][2]);
		for (w = 0; w < 2; w++)
			calm = calm && near((long)o[w][1].total - (long)o[w][0].total, i) &&
			    near((long)o[w][2].total, (long)o[w][0].total) &&
			    near((long)o[w][1].by_state['S'] - (long)o[w][0].by_state['S'], i);
		if (calm || i != THREADS)
			break;
		printf("# round %d: other tasks came and went; again\n", round + 1);
	}
	tap_eq_int(i, THREADS, "%d threads started", THREADS);

	for (w = 0; w < 2; w++) {
		const char *name = w ? "iter/task" : "open-coded";
		const struct taskiter_out *a = &o[w][0], *b = &o[w][1], *c = &o[w][2];

		tap_ok(r[w][0] == 0 && r[w][1] == 0 && r[w][2] == 0,
		    "%s: the reads succeed (%d %d %d)", name, r[w][0], r[w][1], r[w][2]);
		tap_ok(near((long)b->total - (long)a->total, THREADS),
		    "%s: %d threads more: %u tasks, then %u", name, THREADS,
		    a->total, b->total);
		tap_ok(near((long)b->by_state['S'] - (long)a->by_state['S'], THREADS),
		    "%s: all sleeping: S %u, then %u", name, a->by_state['S'],
		    b->by_state['S']);
		tap_ok(listed_ran(b, (uint32_t)gettid()),
		    "%s: the reading thread is listed as having run (%zu listed)",
		    name, b->n_ran);
		tap_eq_int(ours_listed(b, i), THREADS,
		    "%s: each of the %d threads is listed by tid as having run",
		    name, THREADS);
		tap_eq_int(ours_listed(c, i), 0,
		    "%s: none of them is listed once gone", name);
		tap_ok(near((long)c->total, (long)a->total),
		    "%s: the threads gone: %u tasks, as %u before", name,
		    c->total, a->total);
	}
	tap_ok(near((long)o[0][1].total, (long)o[1][1].total),
	    "the two walks count alike: %u and %u", o[0][1].total, o[1][1].total);
	taskiter_close(it[0]);
	taskiter_close(it[1]);
	return tap_done();
}
