/*
 * The task scan, on a made-up proc tree (blocked times, shared stacks,
 * relisting, the descriptor cap, allocations), on one with schedstat
 * files (the stat reads skipped for tasks that did not run) and on the
 * live /proc: a
 * parent blocked in vfork() (tests/vfork-helper), then thousands of
 * short-lived threads (tests/thread-churn) for leaks of descriptors and
 * stale tasks. The helpers are looked for next to this program. The
 * details worker (taskinfo.c) on a made-up tree whose cmdline is a FIFO
 * nobody writes: its read blocks, the scans must not.
 *
 * Allocations are counted by replacing malloc, calloc and realloc with
 * counting wrappers around glibc's own; a sanitizer build has its own
 * allocator, and those checks are skipped there. Only the scanning
 * thread counts (counting is per thread): the details worker allocates
 * inside libproc2 when a process blocks anew, off the scan's path.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "source/taskinfo.h"
#include "source/taskscan.h"
#include "parse/taskstat.h"
#include "model/taskgroups.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED_BUILD 1
#endif
#endif

/* model/tasks.h keeps stacks packed: unpacked here to look at. */
static struct stack sc_;

#ifndef SANITIZED_BUILD
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static _Thread_local volatile bool counting;
static volatile unsigned long n_allocs;

void *
malloc(size_t size)
{
	if (counting)
		n_allocs++;
	return __libc_malloc(size);
}

void *
calloc(size_t n, size_t size)
{
	if (counting)
		n_allocs++;
	return __libc_calloc(n, size);
}

void *
realloc(void *p, size_t size)
{
	if (counting)
		n_allocs++;
	return __libc_realloc(p, size);
}
#define CAN_COUNT 1
#else
static bool counting;
static unsigned long n_allocs;
#define CAN_COUNT 0
#endif

/* The tasks structure is large: one, shared by the checks. */
static struct tasks out;
static char helper_dir[PATH_MAX];

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
nap(double secs)
{
	struct timespec t;

	t.tv_sec = (time_t)secs;
	t.tv_nsec = (long)((secs - (double)t.tv_sec) * 1e9);
	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

/* One scan; the allocations it made. */
static unsigned long
scan(struct taskscan *ts, double mono)
{
	unsigned long before = n_allocs;

	counting = true;
	taskscan_read(ts, mono, &out);
	counting = false;
	return n_allocs - before;
}

/* More tasks than any scan saw before: the scan's arrays may have had to
 * grow (they double), which is an allocation by design. A parallel build
 * makes new highs often. */
static bool
tasks_grew(void)
{
	static uint32_t most;
	bool grew = out.total > most;

	if (out.total > most)
		most = out.total;
	return grew;
}

/*
 * Whether the last scan found blocked a process that the one before did
 * not: libproc2 was then asked about it, which allocates. Other tests
 * running at the same time start their own blocked tasks. Or a scan
 * that saw more tasks than ever.
 */
static bool
blocked_anew(void)
{
	static int prev[TASKS_MAX_BLOCKED], n_prev;
	bool anew = false;
	int i, k;

	for (i = 0; i < out.n_blocked && !anew; i++) {
		for (k = 0; k < n_prev && prev[k] != out.b[i].tgid; k++)
			;
		anew = k == n_prev;
	}
	for (i = 0; i < out.n_blocked; i++)
		prev[i] = out.b[i].tgid;
	n_prev = out.n_blocked;
	return anew || tasks_grew();
}

static const struct blocked_task *
find_blocked(int tid)
{
	int i;

	for (i = 0; i < out.n_blocked; i++) {
		if (out.b[i].tid == tid)
			return &out.b[i];
	}
	return NULL;
}

static int
count_dir(const char *path, bool digits_only)
{
	DIR *d;
	struct dirent *de;
	int n = 0;

	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (digits_only && (de->d_name[0] < '0' || de->d_name[0] > '9'))
			continue;
		n++;
	}
	closedir(d);
	return n;
}

static int
count_fds(void)
{
	return count_dir("/proc/self/fd", false);
}

/* Entries under /proc/[0-9]* /task, counted apart from the scanner. */
static int
count_live_tasks(void)
{
	DIR *d;
	struct dirent *de;
	char path[64];
	int n = 0, k;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/task", de->d_name);
		if ((k = count_dir(path, true)) > 0)
			n += k;
	}
	closedir(d);
	return n;
}

/* ---- A made-up proc tree. ---- */

static char fake[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake, rel);
	/* Rewritten in place: the scanner holds the stat files open. */
	if ((f = fopen(path, "w")) == NULL) {
		printf("Bail out! cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void
mkdirs(const char *rel)
{
	char path[PATH_MAX + 64], *p;

	snprintf(path, sizeof(path), "%s/%s", fake, rel);
	for (p = path + strlen(fake) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	mkdir(path, 0755);
}

static const char jbd2_stack[] =
    "[<0>] jbd2_log_wait_commit+0xac/0x120 [jbd2]\n"
    "[<0>] ext4_sync_file+0x1b4/0x380\n"
    "[<0>] do_fsync+0x38/0x70\n"
    "[<0>] __x64_sys_fsync+0x10/0x20\n";

/* A task's files; a leader's line counts the threads of its directory
 * (num_threads, field 20), as the kernel's does. */
static void
fake_task(int tgid, int tid, const char *comm, char state, const char *wchan,
    const char *stack)
{
	char rel[64], path[PATH_MAX + 64], line[256];
	int nthreads = 1;

	snprintf(rel, sizeof(rel), "%d/task/%d", tgid, tid);
	mkdirs(rel);
	if (tid == tgid) {
		snprintf(path, sizeof(path), "%s/%d/task", fake, tgid);
		nthreads = count_dir(path, true);
	}
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", tgid, tid);
	snprintf(line, sizeof(line), "%d (%s) %c 1 %d %d 0 -1 4194560 0 0 0 0 "
	    "0 0 0 0 20 0 %d 0 100 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 "
	    "1 0 0 17 0 0 0 0 0 0\n", tid, comm, state, tgid, tgid, nthreads);
	put(rel, line);
	snprintf(rel, sizeof(rel), "%d/task/%d/wchan", tgid, tid);
	put(rel, wchan);
	snprintf(rel, sizeof(rel), "%d/task/%d/stack", tgid, tid);
	put(rel, stack);
}

static void
fake_state(int tgid, int tid, const char *comm, char state)
{
	fake_task(tgid, tid, comm, state, state == 'D' ? "io_schedule" : "0",
	    state == 'D' ? jbd2_stack : "");
}

static void
fake_processes(int n)
{
	char text[128];

	snprintf(text, sizeof(text), "cpu  1 2 3 4\nintr 5 6\nctxt 7\n"
	    "btime 8\nprocesses %d\nprocs_running 1\n", n);
	put("stat", text);
}

static void
check_fake(void)
{
	struct taskscan *ts;
	const struct blocked_task *b, *b2;
	unsigned long allocs = 0;
	char cmd[PATH_MAX + 16];
	double t;

	snprintf(fake, sizeof(fake), "%s/taskscan-XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fake) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	fake_processes(10);
	mkdirs("self");		/* not a number: ignored */
	fake_state(100, 100, "db", 'S');
	fake_task(100, 101, "db writer", 'D', "jbd2_log_wait_commit", jbd2_stack);
	fake_state(100, 102, "db)(x", 'R');
	fake_state(100, 100, "db", 'S');	/* now counting 3 threads */
	fake_task(200, 200, "rsync", 'D', "io_schedule", jbd2_stack);
	fake_state(300, 300, "kworker/0:1-events", 'I');
	mkdirs("400/task/400");
	put("400/task/400/stat", "garbage");

	if ((ts = taskscan_new(fake)) == NULL) {
		printf("Bail out! taskscan_new failed\n");
		exit(1);
	}
	t = now();
	taskscan_read(ts, 100, &out);	/* warm-up */
	t = now() - t;
	tap_eq_int(out.total, 5, "fake: 5 tasks read (the garbage one not counted)");
	tap_ok(out.by_state['S'] == 1 && out.by_state['D'] == 2 &&
	    out.by_state['R'] == 1 && out.by_state['I'] == 1,
	    "fake: counted by state");
	tap_eq_int(out.n_blocked, 2, "fake: two blocked");
	tap_eq_str(out.note, "", "fake: no note");
	b = find_blocked(101);
	b2 = find_blocked(200);
	if (tap_ok(b != NULL && b2 != NULL, "fake: both blocked tasks listed")) {
		tap_ok(b->tgid == 100 && strcmp(b->comm, "db writer") == 0 &&
		    b->state == 'D', "fake: tid 101 of 100, \"db writer\"");
		tap_eq_str(b->wchan, "jbd2_log_wait_commit", "fake: wchan");
		tap_eq_str(b2->wchan, "io_schedule", "fake: the other wchan");
		tap_ok(b->since == 100 && b->since_start && b2->since_start,
		    "fake: blocked at the first scan: since_start");
		tap_ok(b->stack >= 0 && b->stack == b2->stack &&
		    out.n_stacks == 1, "fake: the same stack, shared: the "
		    "first scan waited %.1f ms for the worker", t * 1000);
		if (b->stack >= 0)
			tap_ok(tasks_stack(&out, b->stack, &sc_)->n == 4 &&
			    strcmp(tasks_stack(&out, b->stack, &sc_)->f[0].func,
			    "jbd2_log_wait_commit") == 0,
			    "fake: stack frames read");
		tap_ok(b->cmdline[0] == '\0' && b->user[0] == '\0',
		    "fake: no cmdline files: no details");
	}

	allocs += scan(ts, 105);
	b = find_blocked(101);
	tap_ok(b != NULL && b->since == 100 && b->since_start,
	    "fake: still blocked: since kept");

	/* A stack read again while blocked: the new one within a few. */
	put("200/task/200/stack", "[<0>] folio_wait_bit_common+0x1/0x2\n"
	    "[<0>] filemap_fault+0x3/0x4\n");
	for (t = now(); now() - t < 2; nap(0.005)) {
		taskscan_read(ts, 105, &out);
		if ((b2 = find_blocked(200)) != NULL && b2->stack >= 0 &&
		    strcmp(tasks_stack(&out, b2->stack, &sc_)->f[0].func,
		    "folio_wait_bit_common") == 0)
			break;
	}
	tap_ok(b2 != NULL && b2->stack >= 0 && out.n_stacks == 2 &&
	    tasks_stack(&out, b2->stack, &sc_)->n == 2, "fake: a stack that changed is "
	    "shown within %.0f ms", (now() - t) * 1000);

	/* "0" is no wchan (running for an instant, or hidden): no change. */
	put("100/task/101/wchan", "0");
	allocs += scan(ts, 106);
	b = find_blocked(101);
	tap_ok(b != NULL && b->since == 100 && b->wchan[0] == '\0',
	    "fake: a wchan of \"0\" keeps the time");
	put("100/task/101/wchan", "jbd2_log_wait_commit");
	allocs += scan(ts, 107);
	b = find_blocked(101);
	tap_ok(b != NULL && b->since == 100, "fake: and so does its return");

	put("100/task/101/wchan", "folio_wait_bit_common");
	allocs += scan(ts, 110);
	b = find_blocked(101);
	tap_ok(b != NULL && b->since == 110 && !b->since_start,
	    "fake: another wchan restarts the time");
	b2 = find_blocked(200);
	tap_ok(b2 != NULL && b2->since == 100 && b2->since_start,
	    "fake: the other one is untouched");

	fake_state(100, 101, "db writer", 'S');
	allocs += scan(ts, 115);
	tap_ok(find_blocked(101) == NULL && out.n_blocked == 1,
	    "fake: left D: not listed");
	fake_task(100, 101, "db writer", 'D', "folio_wait_bit_common",
	    jbd2_stack);
	allocs += scan(ts, 120);
	b = find_blocked(101);
	tap_ok(b != NULL && b->since == 120 && !b->since_start,
	    "fake: blocked again: counted from now");

	/* A task that went away and a new one, with "processes" moved. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/200'", fake);
	if (system(cmd) != 0)
		printf("# rm failed\n");
	/*
	 * A removed file stays readable through the descriptor held on it,
	 * where a procfs read would fail: the fake tree sees a task gone
	 * one tick late.
	 */
	fake_state(500, 500, "new", 'S');
	fake_processes(11);
	allocs += scan(ts, 121);
	allocs += scan(ts, 121.5);
	tap_ok(out.total == 5 && find_blocked(200) == NULL &&
	    out.by_state['D'] == 1, "fake: listed again when processes moved");

	/* A new thread: its leader's num_threads says so. */
	fake_state(100, 103, "db reader", 'S');
	fake_state(100, 100, "db", 'S');
	allocs += scan(ts, 122);
	tap_ok(out.total == 6 && out.by_state['S'] == 3,
	    "fake: a new thread is read in the tick its count moved");
	/* And one fewer: dropped in the same tick. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%.4000s/100/task/103'", fake);
	if (system(cmd) != 0)
		printf("# rm failed\n");
	fake_state(100, 100, "db", 'S');
	allocs += scan(ts, 123);
	allocs += scan(ts, 123.5);
	tap_ok(out.total == 5 && out.by_state['S'] == 2,
	    "fake: a thread gone from the count is dropped");

	/* A process nothing tells of: seen at the safety net. */
	fake_state(600, 600, "sneaky", 'S');
	allocs += scan(ts, 124);
	tap_eq_int(out.total, 5, "fake: not listed while nothing says so");
	allocs += scan(ts, 135);
	tap_eq_int(out.total, 6, "fake: listed at the safety net");

	/* A kernel thread (PF_KTHREAD in its flags) blocked. */
	mkdirs("700/task/700");
	put("700/task/700/stat", "700 (kworker/u8:2+flush-8:0) D 2 0 0 0 -1 "
	    "69238880 0 0 0 0 0 9 0 0 20 0 1 0 22 0 0 18446744073709551615 "
	    "0 0 0 0 0 0 0 2147483647 0 1 0 0 17 0 0 0 0 0 0\n");
	put("700/task/700/wchan", "wb_wait_for_completion");
	put("700/task/700/stack", jbd2_stack);
	fake_processes(12);
	allocs += scan(ts, 136);
	b = find_blocked(700);
	tap_ok(b != NULL && b->cmdline[0] == '\0' &&
	    strcmp(b->user, "root") == 0 &&
	    strcmp(b->comm, "kworker/u8:2+fl") == 0,
	    "fake: a blocked kernel thread: no command line, root");

	/* No schedstat files in this tree: every stat is read. */
	fake_state(100, 102, "db)(x", 'S');
	allocs += scan(ts, 137);
	tap_ok(out.by_state['R'] == 0 && out.by_state['S'] == 4,
	    "fake: without schedstat, a changed stat is read at the next tick");

	if (CAN_COUNT)
		tap_eq_u64(allocs, 0, "fake: scans and listings after the "
		    "first allocate nothing");
	else
		tap_ok(1, "fake: allocations # SKIP sanitizer build");
	taskscan_free(ts);

	ts = taskscan_new("/nonexistent-proc-root");
	taskscan_read(ts, 1, &out);
	tap_ok(out.total == 0 && strstr(out.note, "nonexistent") != NULL,
	    "a missing root says so: \"%s\"", out.note);
	taskscan_free(ts);
}

/*
 * With RLIMIT_NOFILE at 64 + 3, three tasks hold descriptors and the
 * others are reopened each tick. In a child: limits cannot be put back.
 */
static void
check_fd_cap(void)
{
	struct rlimit rl = { 67, 67 };
	struct taskscan *ts;
	unsigned want;
	pid_t pid;
	int status, i;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		for (i = 3; i < 1024; i++)
			close(i);
		ts = taskscan_new(fake);
		taskscan_read(ts, 200, &out);
		want = out.total;
		taskscan_free(ts);
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			_exit(2);
		ts = taskscan_new(fake);
		taskscan_read(ts, 200, &out);
		taskscan_read(ts, 201, &out);
		printf("# with a limit of 67: total %u of %u, note \"%s\"\n",
		    out.total, want, out.note);
		fflush(stdout);
		_exit(out.total == want && strncmp(out.note,
		    "descriptor limit 67: ", 21) == 0 && strstr(out.note,
		    " tasks reopened each tick") != NULL ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "descriptor cap: the tasks beyond it are reopened and counted");
}

/* ---- A made-up proc tree with schedstat files. ---- */

static void
fake_sched(int tgid, int tid, const char *text)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "%d/task/%d/schedstat", tgid, tid);
	put(rel, text);
}

/*
 * The scan reads a task's stat when its schedstat moved, and otherwise
 * only at its safety-net tick: the tick where scans % 10 (counted from 0)
 * is tid % 10. The tids below are picked so that the ticks that prove a
 * skip are not theirs.
 */
static void
check_sched(void)
{
	struct taskscan *ts;
	const struct blocked_task *b;
	struct rlimit rl;
	unsigned long allocs = 0;
	char cmd[PATH_MAX + 16];
	double t;
	int n, status;
	pid_t pid;

	snprintf(fake, sizeof(fake), "%s/taskscan-XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fake) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	fake_processes(20);
	fake_state(1000, 1005, "worker", 'S');
	fake_state(1000, 1006, "worker", 'S');
	fake_state(1000, 1007, "busy", 'R');
	fake_task(1000, 1009, "flusher", 'D', "io_schedule", jbd2_stack);
	fake_state(1000, 1000, "app", 'S');
	fake_sched(1000, 1000, "5000000 100000 50\n");
	fake_sched(1000, 1005, "2000000 30000 20\n");
	fake_sched(1000, 1006, "3000000 40000 30\n");
	fake_sched(1000, 1007, "9000000 50000 90\n");
	fake_sched(1000, 1009, "4000000 60000 40\n");
	fake_state(2000, 2000, "never", 'S');
	fake_sched(2000, 2000, "0 0 0\n");	/* says nothing */

	if ((ts = taskscan_new(fake)) == NULL) {
		printf("Bail out! taskscan_new failed\n");
		exit(1);
	}
	taskscan_read(ts, 100, &out);	/* scans 0 */
	tap_ok(out.total == 6 && out.by_state['S'] == 4 &&
	    out.by_state['R'] == 1 && out.by_state['D'] == 1 &&
	    out.n_blocked == 1, "sched: 6 tasks read, counted by state");
	tap_eq_str(out.note, "", "sched: no note");

	/* Stats changed behind our back, schedstats not. */
	fake_state(1000, 1005, "worker", 'R');
	fake_state(2000, 2000, "never", 'T');
	allocs += scan(ts, 101);	/* 1 */
	tap_ok(out.total == 6 && out.by_state['S'] == 3 &&
	    out.by_state['R'] == 1 && out.by_state['T'] == 1,
	    "sched: a task whose schedstat did not move keeps its state "
	    "(its stat is not read)");
	tap_eq_int(out.by_state['T'], 1,
	    "sched: one whose schedstat is \"0 0 0\" is read every tick");

	fake_sched(1000, 1005, "2000100 30000 21\n");
	allocs += scan(ts, 102);	/* 2 */
	tap_ok(out.total == 6 && out.by_state['S'] == 2 &&
	    out.by_state['R'] == 2, "sched: one whose schedstat moved is "
	    "read again");

	/* The safety net: 1006 is read at the tick where scans % 10 is 6. */
	fake_state(1000, 1006, "worker", 'T');
	for (n = 1; n <= 12; n++) {
		allocs += scan(ts, 102 + n);	/* 3, 4, ... */
		if (out.by_state['T'] == 2)
			break;
	}
	tap_eq_int(n, 4, "sched: an unmoved task is read at its safety-net "
	    "tick, within %d", 10);

	/* In D: read every tick, whatever its schedstat. */
	b = find_blocked(1009);
	tap_ok(b != NULL && b->since == 100 && b->since_start,
	    "sched: the blocked task is listed every tick, since kept");
	fake_state(1000, 1009, "flusher", 'S');
	allocs += scan(ts, 107);	/* 7 */
	tap_ok(out.n_blocked == 0 && out.by_state['D'] == 0 &&
	    out.by_state['S'] == 2, "sched: a task in D is read every tick: "
	    "seen leaving D though its schedstat did not move");

	/* A thread made by another: the leader did not run, but
	 * "processes" moved, so its num_threads is read. */
	fake_state(1000, 1008, "worker", 'S');
	fake_sched(1000, 1008, "100 0 1\n");
	fake_state(1000, 1000, "app", 'S');	/* counts 6 threads */
	fake_processes(21);
	allocs += scan(ts, 108);	/* 8 */
	tap_ok(out.total == 7 && out.by_state['S'] == 3,
	    "sched: a new thread is read in the tick processes moved, its "
	    "leader not having run");
	allocs += scan(ts, 109);	/* 9 */
	tap_ok(out.total == 7 && out.by_state['S'] == 3,
	    "sched: and kept at the next tick");

	/* A process without schedstat: read every tick. */
	fake_state(3000, 3000, "old", 'S');
	fake_processes(22);
	allocs += scan(ts, 110);	/* 10 */
	fake_state(3000, 3000, "old", 'R');
	allocs += scan(ts, 111);	/* 11 */
	tap_ok(out.total == 8 && out.by_state['R'] == 3,
	    "sched: a task without schedstat falls back to its stat every "
	    "tick");
	/* While the others still skip (1005 and 1007: not tick 12's). */
	fake_state(1000, 1007, "busy", 'S');
	allocs += scan(ts, 112);	/* 12 */
	tap_eq_int(out.by_state['R'], 3,
	    "sched: the others still skip their stat");

	if (CAN_COUNT)
		tap_eq_u64(allocs, 0, "sched: scans after the first allocate "
		    "nothing");
	else
		tap_ok(1, "sched: allocations # SKIP sanitizer build");
	taskscan_free(ts);

	/*
	 * Descriptors for every stat but no schedstat (8 tasks, a limit of
	 * 64 + 8): the stat ones come first, nothing is reopened, and every
	 * stat is read every tick (1005 and 1007 are not ticks 1-3's). In a child: limits cannot be put back.
	 */
	fflush(stdout);
	if ((pid = fork()) == 0) {
		for (n = 3; n < 1024; n++)
			close(n);
		rl.rlim_cur = rl.rlim_max = 64 + 8;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			_exit(2);
		ts = taskscan_new(fake);
		taskscan_read(ts, 200, &out);
		fake_state(1000, 1005, "worker", 'D');
		fake_state(1000, 1007, "busy", 'T');
		for (t = 201; t < 204; t++)
			taskscan_read(ts, t, &out);
		printf("# with a limit of 72: total %u, D %u, T %u, note \"%s\"\n",
		    out.total, out.by_state['D'], out.by_state['T'], out.note);
		fflush(stdout);
		_exit(out.total == 8 && out.by_state['D'] == 1 &&
		    out.by_state['T'] == 3 && out.note[0] == '\0' ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "sched: descriptors short: stat ones first, every stat read");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", fake);
}

/* ---- The details worker, on a made-up tree. ---- */

static void
put_bytes(const char *rel, const char *bytes, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake, rel);
	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(bytes, 1, len, f) != len) {
		printf("Bail out! cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fclose(f);
}

/*
 * 200 blocks with a readable cmdline: its details come within a few
 * scans. Then 300 blocks with a cmdline that is a FIFO nobody writes:
 * the worker's open blocks there, as a read of a stuck process's
 * /proc/P/cmdline would, and the scans must go on as fast as before.
 * Freeing the scanner must not wait for the worker; once the read
 * returns (we open the FIFO for writing and close it), the worker frees
 * what it holds.
 */
static void
check_details(void)
{
	static const char argv200[] = "rsync\0-a\0/src\0/dst\0";
	struct taskscan *ts, *ts2;
	const struct blocked_task *b, *b2;
	char fifo[PATH_MAX + 64], cmd[PATH_MAX + 16];
	unsigned long allocs = 0;
	double t, t0, worst = 0, mono = 100;
	int fds0, fd, scans = 0;

	snprintf(fake, sizeof(fake), "%s/taskscan-XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fake) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	fake_processes(10);
	fake_task(200, 200, "rsync", 'D', "io_schedule", jbd2_stack);
	put_bytes("200/cmdline", argv200, sizeof(argv200) - 1);
	fake_state(250, 250, "cp", 'S');
	put_bytes("250/cmdline", "cp\0a\0b\0", 7);
	fake_state(300, 300, "stuck", 'S');
	snprintf(fifo, sizeof(fifo), "%s/300/cmdline", fake);
	if (mkfifo(fifo, 0600) != 0) {
		printf("Bail out! mkfifo %s: %s\n", fifo, strerror(errno));
		exit(1);
	}

	fds0 = count_fds();
	if ((ts = taskscan_new(fake)) == NULL) {
		printf("Bail out! taskscan_new failed\n");
		exit(1);
	}
	taskscan_read(ts, mono, &out);
	b = find_blocked(200);
	tap_ok(b != NULL && strcmp(b->cmdline, "rsync -a /src /dst") == 0 &&
	    b->user[0] == '\0' && b->stack >= 0, "details: the first scan "
	    "waits for them (briefly): \"%s\"", b ? b->cmdline : "(gone)");

	/* Later ones come from the worker, a scan or two late. */
	fake_state(250, 250, "cp", 'D');
	allocs += scan(ts, ++mono);
	b = find_blocked(250);
	tap_ok(b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) == 0 &&
	    b->user[0] == '\0' && b->stack == -1, "details: pending when "
	    "first seen: \"%s\"", b ? b->cmdline : "(gone)");
	t0 = now();
	do {
		nap(0.005);
		allocs += scan(ts, ++mono);
		b = find_blocked(250);
	} while (b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) == 0 &&
	    now() - t0 < 2);
	tap_ok(b != NULL && strcmp(b->cmdline, "cp a b") == 0 &&
	    b->stack >= 0, "details: \"%s\" and its stack within %.0f ms",
	    b ? b->cmdline : "(gone)", (now() - t0) * 1000);

	/* 300 blocks: the worker gets stuck in its cmdline. */
	fake_state(300, 300, "stuck", 'D');
	t0 = now();
	while (now() - t0 < 0.5) {
		t = now();
		allocs += scan(ts, ++mono);
		t = now() - t;
		if (t > worst)
			worst = t;
		scans++;
		nap(0.02);
	}
	b = find_blocked(300);
	b2 = find_blocked(200);
	tap_ok(b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) == 0,
	    "details: the stuck one still pending after 0.5 s: \"%s\"",
	    b ? b->cmdline : "(not listed)");
	tap_ok(b2 != NULL && strcmp(b2->cmdline, "rsync -a /src /dst") == 0 &&
	    b2->stack >= 0, "details: the known ones (and stacks) still "
	    "shown");
	tap_ok(worst < 0.05, "details: %d scans while the worker is stuck, "
	    "the slowest %.1f ms (< 50)", scans, worst * 1000);

	/* A scanner started now: its first scan waits, but not long. */
	ts2 = taskscan_new(fake);
	t = now();
	taskscan_read(ts2, mono, &out);
	t = now() - t;
	b = find_blocked(300);
	tap_ok(t < 0.3 && b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) == 0,
	    "details: a first scan with a stuck one takes %.0f ms", t * 1000);
	taskscan_free(ts2);
	if (CAN_COUNT)
		tap_eq_u64(allocs, 0, "details: scans after the first "
		    "allocate nothing");
	else
		tap_ok(1, "details: allocations # SKIP sanitizer build");

	t = now();
	taskscan_free(ts);
	t = now() - t;
	tap_ok(t < 0.5, "details: freed in %.0f ms with the worker stuck",
	    t * 1000);

	/* Let the reads return: the workers free what they hold. */
	if ((fd = open(fifo, O_WRONLY | O_NONBLOCK)) >= 0)
		close(fd);
	for (t0 = now(); count_fds() != fds0 && now() - t0 < 2; nap(0.01))
		;
	tap_eq_int(count_fds(), fds0, "details: no descriptor left once the "
	    "stuck read returned");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", fake);
}

/* ---- The live /proc. ---- */

/* Starts a helper with one argument; its pid comes first on its stdout. */
static pid_t
helper_start(const char *name, const char *arg, int *announced)
{
	char path[PATH_MAX + 32], line[32];
	int pfd[2];
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", helper_dir, name);
	if (access(path, X_OK) != 0 || pipe(pfd) != 0)
		return -1;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(path, path, arg, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], line, sizeof(line) - 1);
	close(pfd[0]);
	line[n > 0 ? n : 0] = '\0';
	*announced = atoi(line);
	return pid;
}

static char
live_state(int pid)
{
	char path[64], buf[512];
	struct taskstat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((fd = open(path, O_RDONLY)) < 0)
		return '\0';
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || taskstat_parse(buf, (size_t)n, &st, NULL) != 0)
		return '\0';
	return st.state;
}

static bool
stack_has_vfork(const struct stack *st)
{
	int i;

	for (i = 0; i < st->n; i++) {
		if (strstr(st->f[i].func, "vfork") != NULL ||
		    strcmp(st->f[i].func, "kernel_clone") == 0)
			return true;
	}
	return false;
}

static void
check_vfork(void)
{
	struct taskscan *ts, *ts2;
	const struct blocked_task *b;
	struct passwd *pw;
	void *volatile kept;
	double since = 0, held = 0, t, t0, d;
	unsigned long a, first = 0, allocs = 0;
	int quiet = 0;
	bool same_since = true, grows = true, all_found = true;
	int pid = 0, i, live, k, status;
	pid_t child;

	ts = taskscan_new(NULL);
	taskscan_read(ts, now(), &out);
	t0 = now();
	child = helper_start("vfork-helper", "4", &pid);
	if (child < 0 || pid <= 0) {
		tap_ok(1, "vfork: # SKIP %s/vfork-helper not found", helper_dir);
		taskscan_free(ts);
		return;
	}
	for (t = now(); live_state(pid) != 'D' && now() - t < 3; nap(0.01))
		;
	tap_ok(live_state(pid) == 'D', "vfork: the helper's parent %d is in D",
	    pid);

	/* A scanner that starts now finds it already blocked: since when
	 * it last ran (its sched file), which is after the helper started
	 * (issue 12, item 17); else at least since the first scan. */
	nap(0.2);
	ts2 = taskscan_new("/proc");
	t = now();
	taskscan_read(ts2, t, &out);
	b = find_blocked(pid);
	d = b ? task_blocked_for(&out, (int)(b - out.b), t) : -1;
	if (b != NULL && b->since_from == SINCE_SCHED)
		tap_ok(!b->since_start && d >= 0.15 && d <= t - t0,
		    "vfork: blocked at a scanner's first scan: %.3f s, since "
		    "it last ran (sched), within the %.3f s since it started",
		    d, t - t0);
	else
		tap_ok(b != NULL && b->since_start,
		    "vfork: blocked at a scanner's first scan: since_start");
	taskscan_free(ts2);

	/* The details come from the worker, within a few scans. */
	t = now();
	do {
		a = scan(ts, now());
		if (blocked_anew())
			first += a;
		else
			allocs += a;
		b = find_blocked(pid);
		if (b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) != 0)
			break;
		nap(0.01);
	} while (now() - t < 2);
	tap_ok(b != NULL && strcmp(b->cmdline, TASKINFO_PENDING) != 0,
	    "vfork: details read within %.0f ms", (now() - t) * 1000);

	for (i = 0; i < 5; i++) {
		t = now();
		k = count_live_tasks();
		a = scan(ts, t);
		if (blocked_anew())
			first += a;	/* libproc2 was asked */
		else {
			allocs += a;
			quiet++;
		}
		live = count_live_tasks();
		if ((b = find_blocked(pid)) == NULL) {
			all_found = false;
			break;
		}
		if (i == 0) {
			since = b->since;
			tap_ok(b->tgid == pid && b->state == 'D',
			    "vfork: tid %d listed in D", pid);
			tap_eq_str(b->comm, "vfork-helper", "vfork: comm");
			tap_ok(!b->since_start && since > 0 && since <= t,
			    "vfork: first seen at a later scan: no since_start");
			tap_ok(out.by_state['D'] >= 1, "vfork: by_state['D'] %u",
			    out.by_state['D']);
			/* Between the counts before and after the scan, with
			 * room for what a parallel build starts meanwhile. */
			tap_ok((int)out.total >= (k < live ? k : live) - 20 - k / 20 &&
			    (int)out.total <= (k > live ? k : live) + 20 + k / 20,
			    "vfork: total %u is about the %d to %d tasks under "
			    "/proc", out.total, k, live);
			tap_ok(strstr(b->cmdline, "vfork-helper") != NULL,
			    "vfork: cmdline \"%s\"", b->cmdline);
			pw = getpwuid(geteuid());
			tap_eq_str(b->user, pw ? pw->pw_name : "?", "vfork: user");
			tap_ok(b->wchan[0] == '\0' || strchr(b->wchan, ' ') == NULL,
			    "vfork: wchan \"%s\" is a symbol or none", b->wchan);
			if (b->stack >= 0)
				tap_ok(stack_has_vfork(tasks_stack(&out, b->stack, &sc_)),
				    "vfork: stack has a vfork frame (%s ...)",
				    tasks_stack(&out, b->stack, &sc_)->f[0].func);
			else
				tap_ok(1, "vfork: stack # SKIP not readable: %s",
				    strerror(out.stack_err));
		} else {
			same_since &= b->since == since;
			grows &= t - b->since > held;
		}
		held = t - b->since;
		nap(0.3);
	}
	tap_ok(all_found, "vfork: found at every scan");
	tap_ok(same_since, "vfork: since does not move while it is blocked");
	tap_ok(grows, "vfork: and mono - since grows (%.2f s at the end)", held);
	if (CAN_COUNT) {
		/* The counter counts: the scans' zeros mean something. */
		a = n_allocs;
		counting = true;
		kept = malloc(16);	/* volatile: not optimised away */
		counting = false;
		free(kept);
		tap_ok(n_allocs == a + 1, "vfork: the allocation counter "
		    "works (%lu allocations in scans that saw a process block "
		    "anew)", first);
	}
	if (CAN_COUNT && quiet > 0)
		tap_eq_u64(allocs, 0, "vfork: %d scans with the same tasks "
		    "blocked allocate nothing", quiet);
	else if (CAN_COUNT)
		tap_ok(1, "vfork: allocations # SKIP new tasks blocked at "
		    "every scan");
	else
		tap_ok(1, "vfork: allocations # SKIP sanitizer build");

	waitpid(child, &status, 0);
	taskscan_read(ts, now(), &out);
	tap_ok(find_blocked(pid) == NULL, "vfork: gone once the helper exited");
	taskscan_free(ts);
}

/* 20 scans allocate nothing, whatever forks, unless a process blocks
 * anew (libproc2 is asked about it then). */
static void
check_steady(void)
{
	struct taskscan *ts;
	unsigned long a, allocs = 0;
	int i, quiet = 0;

	if (!CAN_COUNT) {
		tap_ok(1, "steady state: # SKIP sanitizer build");
		return;
	}
	ts = taskscan_new(NULL);
	taskscan_read(ts, 1000, &out);
	taskscan_read(ts, 1000, &out);
	blocked_anew();
	for (i = 0; i < 20; i++) {
		a = scan(ts, 1000);
		if (!blocked_anew()) {
			allocs += a;
			quiet++;
		}
	}
	if (quiet < 10)
		tap_ok(1, "steady state: # SKIP tasks blocked anew at most scans");
	else
		tap_eq_u64(allocs, 0, "steady state: %d scans without tasks "
		    "blocked anew allocate nothing", quiet);
	taskscan_free(ts);
}

static void
check_churn(void)
{
	struct taskscan *ts;
	double t0;
	int pid = 0, status, base0, base, fds, scans = 0, i, j, dup = 0, bad = 0;
	int per;
	pid_t child;

	base0 = count_fds();
	ts = taskscan_new(NULL);
	base = count_fds();
	child = helper_start("thread-churn", "3", &pid);
	if (child < 0 || pid <= 0) {
		tap_ok(1, "churn: # SKIP %s/thread-churn not found", helper_dir);
		taskscan_free(ts);
		return;
	}
	t0 = now();
	while (waitpid(child, &status, WNOHANG) == 0) {
		taskscan_read(ts, now(), &out);
		scans++;
		if (out.total == 0 || out.n_blocked < 0 ||
		    out.n_blocked > TASKS_MAX_BLOCKED)
			bad++;
		for (i = 0; i < out.n_blocked; i++) {
			if (out.b[i].tid <= 0 || out.b[i].state != 'D')
				bad++;
			for (j = 0; j < i; j++)
				dup += out.b[j].tid == out.b[i].tid;
		}
		nap(0.05);
		if (now() - t0 > 30) {
			kill(child, SIGKILL);
			break;
		}
	}
	tap_ok(scans >= 10, "churn: %d scans during the churn", scans);
	tap_eq_int(bad, 0, "churn: every scan sane");
	tap_eq_int(dup, 0, "churn: no task listed twice");

	taskscan_read(ts, now(), &out);
	fds = count_fds();
	per = access("/proc/self/schedstat", R_OK) == 0 ? 2 : 1;
	tap_ok(abs(fds - (base + per * (int)out.total)) <= 2 * per,
	    "churn: afterwards %d descriptors per task (stat%s): %d open, "
	    "%d before, %u tasks", per, per == 2 ? ", schedstat" : "", fds,
	    base, out.total);
	i = count_live_tasks();
	tap_ok(abs((int)out.total - i) <= 20 + i / 20,
	    "churn: no stale tasks: total %u, %d under /proc", out.total, i);
	taskscan_free(ts);
	tap_eq_int(count_fds(), base0, "churn: all closed when freed");
}

/*
 * Why a blocked task has no stack, and where its blocked time starts
 * (issue 12, items 13, 14 and 17). 500 was running when its stack was
 * read (an empty stack file): no stack, grouped by its wchan, never an
 * empty stack of its own. 510 was in D before the first scan and its
 * sched file says it last ran 30 s before the reader's own: blocked since
 * then, from "sched". 520 has no sched file: at least since the first
 * scan. Then 530 blocks with a stack that is a FIFO nobody writes: not
 * read yet at first, and 540, blocking while the worker is stuck there,
 * was not read because the worker was busy. None of them says "denied".
 */
static void
check_stack_why(void)
{
	struct taskscan *ts;
	const struct blocked_task *b;
	static struct task_groups gs;
	static struct reasons rs;	/* empty: every stack is "other" */
	char fifo[PATH_MAX + 64], cmd[PATH_MAX + 16], why[128];
	double mono = 100, d;
	int fd, k;

	snprintf(fake, sizeof(fake), "%s/taskscan-XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fake) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	fake_processes(10);
	fake_task(500, 500, "woke", 'D', "io_schedule", "");
	fake_task(510, 510, "fsync", 'D', "jbd2_log_wait_commit", jbd2_stack);
	put("510/task/510/sched", "fsync (510, #threads: 1)\n"
	    "----------------------------------------------------------------\n"
	    "se.exec_start                                :       1000.000000\n"
	    "se.vruntime                                  :         12.542417\n");
	mkdirs("thread-self");
	put("thread-self/sched", "test (1, #threads: 1)\n"
	    "----------------------------------------------------------------\n"
	    "se.exec_start                                :      31000.500000\n");
	fake_task(520, 520, "old", 'D', "io_schedule", jbd2_stack);
	if ((ts = taskscan_new(fake)) == NULL) {
		printf("Bail out! taskscan_new failed\n");
		exit(1);
	}
	taskscan_read(ts, mono, &out);

	b = find_blocked(500);
	tap_ok(b != NULL && b->stack == -1 && b->stack_why == STACK_RUNNING,
	    "why: an empty stack is none: it was running (stack %d, why %d)",
	    b ? b->stack : -9, b ? (int)b->stack_why : -9);
	task_groups_build(&out, &rs, mono, &gs);
	tap_ok(b != NULL && gs.g[gs.of_task[b - out.b]].stack == -1 &&
	    gs.g[gs.of_task[b - out.b]].count == 1 && out.n_stacks == 1,
	    "why: it is grouped by its wchan, with no empty stack kept "
	    "(%d stacks)", out.n_stacks);
	snprintf(why, sizeof(why), "%s", task_stack_missing_text(STACK_RUNNING));
	tap_ok(strstr(why, "running") != NULL && strstr(why, "root") == NULL,
	    "why: said as \"%s\"", why);

	b = find_blocked(510);
	d = b ? task_blocked_for(&out, (int)(b - out.b), mono) : -1;
	tap_ok(b != NULL && b->since_from == SINCE_SCHED && !b->since_start &&
	    d > 29.9 && d < 30.1 && b->stack >= 0,
	    "since: in D before the first scan, blocked since it last ran: "
	    "%.4f s (sched)", d);
	b = find_blocked(520);
	tap_ok(b != NULL && b->since_from == SINCE_START && b->since_start &&
	    task_blocked_for(&out, (int)(b - out.b), mono) == 0,
	    "since: without a sched file, at least since the first scan");
	nap(0.05);
	taskscan_read(ts, ++mono, &out);
	b = find_blocked(510);
	d = b ? task_blocked_for(&out, (int)(b - out.b), mono) : -1;
	tap_ok(b != NULL && b->since_from == SINCE_SCHED && d > 30.9 &&
	    d < 31.1, "since: it keeps it at the next scan (%.4f s)", d);

	/* 530's stack is a FIFO: the worker gets stuck reading it. */
	nap(0.05);
	fake_processes(11);
	fake_task(530, 530, "stuck", 'D', "io_schedule", "");
	snprintf(fifo, sizeof(fifo), "%s/530/task/530/stack", fake);
	unlink(fifo);
	if (mkfifo(fifo, 0600) != 0) {
		printf("Bail out! mkfifo %s: %s\n", fifo, strerror(errno));
		exit(1);
	}
	taskscan_read(ts, ++mono, &out);
	b = find_blocked(530);
	tap_ok(b != NULL && b->stack == -1 && b->stack_why == STACK_PENDING &&
	    out.stack_err == 0, "why: just blocked, not read yet (why %d)",
	    b ? (int)b->stack_why : -9);
	b = find_blocked(510);
	tap_ok(b != NULL && b->since_from == SINCE_SCHED && b->stack >= 0,
	    "since: a task pagetop saw block is not asked again");
	nap(0.05);
	taskscan_read(ts, ++mono, &out);
	nap(0.05);
	fake_processes(12);
	fake_task(540, 540, "next", 'D', "io_schedule", jbd2_stack);
	taskscan_read(ts, ++mono, &out);
	b = find_blocked(540);
	tap_ok(b != NULL && b->stack == -1 && b->stack_why == STACK_BUSY,
	    "why: blocked while the reader is stuck on another: busy (why %d)",
	    b ? (int)b->stack_why : -9);
	b = find_blocked(540);
	tap_ok(b != NULL && b->since_from == SINCE_SEEN && !b->since_start,
	    "since: one that blocked under pagetop's eyes: seen");
	for (k = 0; k < out.n_blocked; k++)
		if (out.b[k].stack_why == STACK_DENIED)
			break;
	tap_ok(k == out.n_blocked, "why: none says denied (as root or not)");

	if ((fd = open(fifo, O_WRONLY | O_NONBLOCK)) >= 0)
		close(fd);
	taskscan_free(ts);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", fake);
}

int
main(int argc, char **argv)
{
	char cmd[PATH_MAX + 16], *slash;

	snprintf(helper_dir, sizeof(helper_dir), "%s", argv[0]);
	if ((slash = strrchr(helper_dir, '/')) != NULL)
		*slash = '\0';
	else
		snprintf(helper_dir, sizeof(helper_dir), ".");
	(void)argc;

	check_fake();
	check_fd_cap();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", fake);
	check_sched();
	check_details();
	check_stack_why();
	check_vfork();
	check_steady();
	check_churn();
	return tap_done();
}
