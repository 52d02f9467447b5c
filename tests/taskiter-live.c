/*
 * Both task scans of this machine, for tests/taskiter.sh:
 *	taskiter-live [-r READS]
 * scans /proc, then through the BPF task iterator, then /proc again, and
 * prints key=value lines: how (the iterator scan's taskscan_how), and for
 * each of proc0, iter and proc1 its total, its count per state letter
 * (KEY.S=N) and its blocked tasks (KEY.d=tid tgid comm); read_allocs,
 * the allocations made by READS (default 5) reads of the iterator after
 * its open. Then the iterator scan's second tick (iter2: pid 1's threads
 * through the descriptors held from the first, where the iterator hides
 * it) and /proc's again (proc2), and scan_allocs, what that tick
 * allocated. Without the iterator: how says why, iter.* are not printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc-count.h"
#include "model/tasks.h"
#include "source/taskiter.h"
#include "source/taskscan.h"
#include "util/clock.h"
#include "util/text.h"

static struct tasks t;
static struct taskiter_out raw;

static void
print_scan(const char *key, struct taskscan *ts)
{
	static const char letters[] = TI_LETTERS;
	char comm[TEXT_ESCAPED_SIZE(sizeof(t.b[0].comm))];

	taskscan_read(ts, clock_mono(), &t);
	printf("%s.total=%u\n", key, t.total);
	for (const char *l = letters; *l; l++)
		printf("%s.%c=%u\n", key, *l, t.by_state[(unsigned char)*l]);
	for (int i = 0; i < t.n_blocked; i++)
		printf("%s.d=%d %d %s\n", key, t.b[i].tid, t.b[i].tgid,
		    text_esc(comm, sizeof(comm), t.b[i].comm));
}

int
main(int argc, char **argv)
{
	char why[128] = "", own_why[128] = "", how[160];
	struct taskscan *proc, *iter;
	struct taskiter *it, *own;
	int reads = 5, c;

	while ((c = getopt(argc, argv, "r:")) != -1) {
		if (c != 'r') {
			fprintf(stderr, "usage: taskiter-live [-r READS]\n");
			return 2;
		}
		reads = atoi(optarg);
	}
	/* Both iterators load (a fork each) before the scans start their
	 * worker threads, as live.c does: a lock a thread held at a fork
	 * stays held in the child. A raw one of our own is read alone below. */
	it = taskiter_open(why, sizeof(why));
	own = it ? taskiter_open(own_why, sizeof(own_why)) : NULL;
	if (!(proc = taskscan_new("/proc")) || !(iter = taskscan_new("/proc"))) {
		fprintf(stderr, "taskiter-live: out of memory\n");
		return 1;
	}
	taskscan_set_iter(iter, it, why);
	taskscan_how(iter, how, sizeof(how));
	printf("how=%s\n", how);
	print_scan("proc0", proc);
	if (it)
		print_scan("iter", iter);
	print_scan("proc1", proc);
	if (it) {
		long before = 0;

#ifdef COUNT_ALLOCS
		before = allocs;
#endif
		print_scan("iter2", iter);
#ifdef COUNT_ALLOCS
		printf("scan_allocs=%ld\n", allocs - before);
#endif
		(void)before;
		print_scan("proc2", proc);
	}
	if (it) {
		long before;
		int bad = 0;

		if (!own) {
			fprintf(stderr, "taskiter-live: second open: %s\n", own_why);
			return 1;
		}
		taskiter_read(own, &raw);
		before = 0;
#ifdef COUNT_ALLOCS
		before = allocs;
#endif
		for (int i = 0; i < reads; i++)
			bad += taskiter_read(own, &raw) != 0;
#ifdef COUNT_ALLOCS
		printf("read_allocs=%ld\n", allocs - before);
#endif
		(void)before;
		printf("read_errors=%d\n", bad);
		taskiter_close(own);
	}
	taskscan_free(proc);
	taskscan_free(iter);
	return 0;
}
