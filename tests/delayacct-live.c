/*
 * Delay accounting on the live system, for tests/delayacct.sh: a task
 * scan of /proc gives the tasks that ran, delayacct asks taskstats about
 * them, for TICKS ticks of SECONDS each. Prints key=value lines:
 *
 *	state, why, version, kinds	at the last tick
 *	states				every tick's state, comma-separated
 *	asked, answered, first_seen	summed over the ticks
 *	total_<kind>_ns			summed over the ticks
 *	allocs				in delayacct_read and taskscan_ran
 *					after the first two ticks (-1: not
 *					counted, a sanitizer build)
 *
 * and with -w TID, for that task: in how many ticks it was among those
 * that ran (watch_ran) and among the top (watch_top, after its first),
 * its comm there, its block I/O wait summed over those ticks
 * (watch_delay_blkio_ns) and, over the same ticks, the increase of
 * delayacct_blkio_ticks (field 42 of /proc/TID/stat, in clock ticks) as
 * nanoseconds (watch_stat_blkio_ns): the kernel's own reading through
 * another door.
 *
 * Usage: delayacct-live [-w TID] [-n TICKS] [-i SECONDS]
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc-count.h"
#include "model/delays.h"
#include "model/tasks.h"
#include "parse/taskstat.h"
#include "source/delayacct.h"
#include "source/taskscan.h"
#include "util/clock.h"
#include "util/text.h"

static struct tasks tasks;
static struct delays dl;
static int tids[TASKSCAN_RAN_MAX];

/* delayacct_blkio_ticks of tid, or -1 when it has gone. */
static long long
stat_blkio(int tid)
{
	char path[64], buf[1024];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = read(fd, buf, sizeof(buf));
	close(fd);
	if (r <= 0)
		return -1;
	return taskstat_field(buf, (size_t)r, 42);
}

static void
nap(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

int
main(int argc, char **argv)
{
	char why[160], esc[TEXT_ESCAPED_SIZE(sizeof(dl.why))];
	char states[512] = "", comm[TEXT_ESCAPED_SIZE(DELAYS_COMM_LEN)] = "";
	uint64_t total[DELAY_KIND_COUNT] = { 0 }, w_delay = 0, w_stat = 0;
	unsigned long asked = 0, answered = 0, first_seen = 0;
	int watch = 0, ticks = 6, w_ran = 0, w_capped = 0, w_top = 0, k, c, i;
	long long prev_stat = -1, cur_stat;
	double interval = 0.25;
#ifdef COUNT_ALLOCS
	long n_allocs = 0;
#endif
	struct taskscan *ts;
	struct delayacct *d;
	bool ran, prev_asked = false;
	size_t n, j;

	while ((c = getopt(argc, argv, "w:n:i:")) != -1) {
		switch (c) {
		case 'w': watch = atoi(optarg); break;
		case 'n': ticks = atoi(optarg); break;
		case 'i': interval = atof(optarg); break;
		default:
			fprintf(stderr, "usage: delayacct-live [-w TID] "
			    "[-n TICKS] [-i SECONDS]\n");
			return 2;
		}
	}
	if ((ts = taskscan_new("/proc")) == NULL ||
	    (d = delayacct_open(why, sizeof(why))) == NULL) {
		fprintf(stderr, "delayacct-live: %s\n", ts ? why : "out of memory");
		return 1;
	}
	for (k = 0; k < ticks; k++) {
		if (k > 0)
			nap(interval);
		taskscan_read(ts, clock_mono(), &tasks);
		cur_stat = watch > 0 ? stat_blkio(watch) : -1;
#ifdef COUNT_ALLOCS
		long before = allocs;
#endif
		n = taskscan_ran(ts, tids, TASKSCAN_RAN_MAX);
		delayacct_read(d, tids, n, &dl);
#ifdef COUNT_ALLOCS
		if (k >= 2)
			n_allocs += allocs - before;
#endif
		snprintf(states + strlen(states), sizeof(states) - strlen(states),
		    "%s%s", k ? "," : "", delays_state_name(dl.state));
		asked += dl.asked;
		answered += dl.answered;
		first_seen += dl.first_seen;
		for (i = 0; i < DELAY_KIND_COUNT; i++)
			total[i] += dl.total_ns[i];
		if (watch <= 0)
			continue;
		for (ran = false, j = 0; j < n; j++)
			ran |= tids[j] == watch;
		w_ran += ran;
		/* More ran than a tick keeps (the first tick on a box of more
		 * than TASKSCAN_RAN_MAX tasks): the rest wait their turn. */
		w_capped += !ran && taskscan_ran_seen(ts) > n;
		if (getenv("DELAYACCT_DEBUG") != NULL)
			fprintf(stderr, "tick %d: ran %d, asked %u, first %u, "
			    "top %d, stat %lld\n", k, ran, dl.asked,
			    dl.first_seen, dl.n_top, cur_stat);
		for (i = 0; i < dl.n_top; i++) {
			if (dl.top[i].tid != watch || !prev_asked ||
			    prev_stat < 0 || cur_stat < 0)
				continue;
			w_top++;
			w_delay += dl.top[i].ns[DELAY_BLKIO];
			w_stat += (uint64_t)(cur_stat - prev_stat) *
			    (1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK));
			text_esc(comm, sizeof(comm), dl.top[i].comm);
		}
		/* Its next increase is since now only if it was asked now. */
		prev_asked = ran;
		prev_stat = cur_stat;
	}
	printf("state=%s\n", delays_state_name(dl.state));
	printf("why=%s\n", text_esc(esc, sizeof(esc), dl.why));
	printf("version=%u\nkinds=", dl.version);
	for (i = 0, c = 0; i < DELAY_KIND_COUNT; i++)
		if (dl.kinds & (1u << i))
			printf("%s%s", c++ ? "," : "", delay_kind_name(i));
	printf("\nstates=%s\n", states);
	printf("asked=%lu\nanswered=%lu\nfirst_seen=%lu\n", asked, answered,
	    first_seen);
	for (i = 0; i < DELAY_KIND_COUNT; i++)
		printf("total_%s_ns=%llu\n", delay_kind_name(i),
		    (unsigned long long)total[i]);
#ifdef COUNT_ALLOCS
	printf("allocs=%ld\n", n_allocs);
#else
	printf("allocs=-1\n");
#endif
	if (watch > 0)
		printf("watch_ran=%d\nwatch_capped=%d\nwatch_top=%d\nwatch_comm=%s\n"
		    "watch_delay_blkio_ns=%llu\nwatch_stat_blkio_ns=%llu\n",
		    w_ran, w_capped, w_top, comm, (unsigned long long)w_delay,
		    (unsigned long long)w_stat);
	delayacct_close(d);
	taskscan_free(ts);
	return 0;
}
