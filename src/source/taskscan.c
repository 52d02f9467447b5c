/*
 * The task scan. Reading every thread's state is the most expensive thing
 * pagetop does, so each step is the cheapest one measured (bench/):
 *
 *	each tick
 *	---------
 *	<root>/stat "processes" moved? -> getdents64 <root>: the processes
 *	pread <root>/P/task/T/stat at 0 for every task, through one held
 *	  descriptor each -> state -> by_state; for the few in D: wchan,
 *	  and their stacks and processes' cmdline and user as far as the
 *	  taskinfo worker has read them (taskinfo.c: those reads can
 *	  block for as long as the task is stuck)
 *	a process that lost a thread (the pread failed), whose thread count
 *	  (num_threads in its leader's line) is not ours, or that is new:
 *	  getdents64 <root>/P/task, merge by tid keeping descriptors and
 *	  blocked times, read the new threads
 *
 * "processes" in /proc/stat counts every fork and clone since boot, so a
 * new process always moves it; a new thread also changes its process's
 * num_threads. A box where something forks every second costs one listing
 * of <root> per tick, not of every task directory: with 5,000 threads the
 * full listing costs a fifth of the reads themselves. Everything is
 * listed again every RELIST_SECS as a safety net.
 *
 * Listing uses getdents64() into a buffer of our own, so it allocates
 * nothing unless an array must grow (they double, up to the number of
 * tasks seen). One descriptor is held per task, up to the RLIMIT_NOFILE
 * hard limit less FD_RESERVE for the rest of the program; the soft limit
 * is raised to the hard one at start. Tasks beyond that are opened, read
 * and closed on every tick, and the note says how many.
 *
 * Most tasks sleep through most ticks, and a task that has not been on a
 * CPU since the last tick cannot have changed its state: it takes running
 * to sleep, stop, block or exit. So each task's schedstat ("run_ns
 * wait_ns timeslices", about 40% cheaper for the kernel to make than
 * stat) is held open too and pread first; when it reads as at the last
 * tick, the task counts in the state it had and its stat is not read.
 * The one change missed is a wakeup: a task woken but not yet run shows
 * in its old state (S, usually, where it is R) until it runs. The stat
 * is still read every tick for a task that is new, was in D (wchan,
 * stack and comm are wanted anyway), whose last line did not parse, or
 * whose schedstat says nothing ("0 0 0": never run, or an old kernel
 * with schedstats and delay accounting off); for a process's leader when
 * "processes" moved (a thread may have been made: its num_threads); and
 * for every task once every STAT_EVERY ticks, spread by tid, as a safety
 * net. The schedstat is read before the stat, so that a change between
 * the two shows at the next tick.
 *
 * Stat descriptors come first under the cap: a task without one costs an
 * open and a close every tick, one without schedstat only loses the skip,
 * so schedstat descriptors are handed over to stat when short. Without
 * schedstat files (no CONFIG_SCHED_INFO) every stat is read, as before;
 * opening them is tried again at each full listing.
 *
 * This file is the tick; taskscan-dirs.c lists the directories and holds
 * the descriptors, taskscan-blocked.c reads the tasks in D, and the lines
 * read are parsed by parse/procstat.c and parse/taskstat.c.
 */

#include "source/taskscan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "parse/procstat.h"
#include "parse/taskstat.h"
#include "source/taskinfo.h"
#include "source/taskscan-int.h"
#include "util/clock.h"
#include "util/readall.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define RELIST_SECS		10.0	/* list everything at least this often */
/* A task's stat line is about 330 bytes; what we parse ends within the
 * first ~200 (pid, comm of up to 64 bytes, 17 short fields). */
#define STAT_READ		512
#define SCHED_READ		96	/* three numbers of up to 20 digits */
#define STAT_EVERY		10	/* every stat read at least this often */
#define PROCSTAT_START		(16 * 1024)
#define PROCSTAT_MAX		(16 * 1024 * 1024)
#define ARRAY_START		256
#define PF_KTHREAD		0x00200000	/* in a stat line's flags */
#define FIRST_WAIT_MS		100	/* for the worker, at the first scan */

struct taskscan *
taskscan_new(const char *root)
{
	struct taskscan *ts;
	struct statfs sfs;

	if (root == NULL || *root == '\0')
		root = "/proc";
	if ((ts = calloc(1, sizeof(*ts))) == NULL)
		return NULL;
	ts->root_fd = ts->stat_fd = -1;
	snprintf(ts->root, sizeof(ts->root), "%s", root);
	taskscan_fd_limit_raise(ts);

	ts->procstat_cap = PROCSTAT_START;
	ts->cap_t = ts->cap_t_next = ts->cap_p = ts->cap_p_next =
	    ts->cap_tgids = ARRAY_START;
	ts->by_tid.size = ts->by_tgid.size = 2 * ARRAY_START;
	ts->procstat = malloc(ts->procstat_cap);
	ts->t = calloc(ts->cap_t, sizeof(*ts->t));
	ts->t_next = calloc(ts->cap_t_next, sizeof(*ts->t_next));
	ts->p = calloc(ts->cap_p, sizeof(*ts->p));
	ts->p_next = calloc(ts->cap_p_next, sizeof(*ts->p_next));
	ts->tgids = calloc(ts->cap_tgids, sizeof(*ts->tgids));
	ts->by_tid.s = calloc(ts->by_tid.size, sizeof(struct slot));
	ts->by_tgid.s = calloc(ts->by_tgid.size, sizeof(struct slot));
	if (!ts->procstat || !ts->t || !ts->t_next || !ts->p || !ts->p_next ||
	    !ts->tgids || !ts->by_tid.s || !ts->by_tgid.s) {
		taskscan_free(ts);
		return NULL;
	}

	if (strlen(root) >= sizeof(ts->root))
		ts->root_err = ENAMETOOLONG;
	else if ((ts->root_fd = open(root, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		ts->root_err = errno;
	else {
		ts->stat_fd = openat(ts->root_fd, "stat", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		ts->live = strcmp(root, "/proc") == 0 &&
		    fstatfs(ts->root_fd, &sfs) == 0 &&
		    sfs.f_type == PROC_SUPER_MAGIC;
	}
	/*
	 * libproc2 reads /proc whatever our root is, so it only serves the
	 * real thing; a made-up root gets plain reads of its cmdline files.
	 * Without the worker (out of memory, no thread), no details and no
	 * stacks: their reads may block, and are never made here.
	 */
	if (ts->root_fd >= 0)
		ts->info = taskinfo_new(ts->root, ts->live);
	ts->info_proc2 = true;
	return ts;
}

void
taskscan_free(struct taskscan *ts)
{
	size_t i;

	if (ts == NULL)
		return;
	for (i = 0; ts->t != NULL && i < ts->n_t; i++) {
		if (ts->t[i].fd >= 0)
			close(ts->t[i].fd);
		if (ts->t[i].sfd >= 0)
			close(ts->t[i].sfd);
	}
	if (ts->stat_fd >= 0)
		close(ts->stat_fd);
	if (ts->root_fd >= 0)
		close(ts->root_fd);
	taskinfo_free(ts->info);
	taskiter_scan_free(ts->iter);
	free(ts->procstat);
	free(ts->t);
	free(ts->t_next);
	free(ts->p);
	free(ts->p_next);
	free(ts->tgids);
	free(ts->by_tid.s);
	free(ts->by_tgid.s);
	free(ts);
}

/*
 * "processes N" from <root>/stat: 0, or -errno. The buffer doubles when
 * a big box's per-CPU and interrupt lines outgrow it.
 */
static int
processes_read(struct taskscan *ts, uint64_t *out)
{
	size_t n = 0;
	ssize_t r;

	if (ts->stat_fd < 0)
		return -ENOENT;
	for (;;) {
		r = readall(ts->stat_fd, ts->procstat + n, ts->procstat_cap - n,
		    (off_t)n);
		if (r < 0)
			return (int)r;
		n += (size_t)r;
		if (n < ts->procstat_cap)
			break;
		if (ts->procstat_cap >= PROCSTAT_MAX)
			return -EFBIG;
		if (taskscan_grow(&ts->procstat, &ts->procstat_cap, n + 1, 1) != 0)
			return -ENOMEM;
	}
	return procstat_parse(ts->procstat, n, out, NULL);
}

/*
 * Task tid ran this tick: kept for taskscan_ran. Round robin when more
 * ran than it keeps: see struct taskscan.
 */
void
taskscan_ran_note(struct taskscan *ts, int tid)
{
	size_t j = ts->ran_seen++;

	if (ts->n_ran < TASKSCAN_RAN_MAX) {
		ts->ran[ts->n_ran++] = tid;
		if (j < ts->ran_from)
			ts->ran_before++;
	}
	else if (j >= ts->ran_from && ts->ran_over < ts->ran_before)
		ts->ran[ts->ran_over++] = tid;
	else if (j >= ts->ran_from && !ts->ran_refused) {
		ts->ran_refused = true;
		ts->ran_next = j;
	}
}

size_t
taskscan_ran(const struct taskscan *ts, int *tids, size_t max)
{
	size_t n = ts->n_ran < max ? ts->n_ran : max;

	memcpy(tids, ts->ran, n * sizeof(*tids));
	return n;
}

size_t
taskscan_ran_seen(const struct taskscan *ts)
{
	return ts->ran_seen;
}

/*
 * Reads one task of process p into out; false when it is gone. Its stat
 * is skipped when its schedstat did not move and nothing forces the read
 * (see the top of the file). A leader's line also gives its process's
 * thread count.
 */
static bool
task_read(struct taskscan *ts, struct proc *p, struct task *e, bool force,
    double mono, struct tasks *out)
{
	char buf[STAT_READ];
	struct taskstat st;
	long long flags;
	uint64_t sig;
	ssize_t r;
	int fd = e->fd;

	if (e->sfd >= 0) {
		do
			r = pread(e->sfd, buf, SCHED_READ, 0);
		while (r < 0 && errno == EINTR);
		if (r <= 0)
			return false;	/* exited */
		sig = taskstat_sched_sig(buf, (size_t)r);
		if (!force && sig != 0 && sig == e->sched_sig &&
		    e->state != 0 && !e->in_d) {
			out->by_state[(unsigned char)e->state]++;
			out->total++;
			return true;
		}
		/* New (no signature yet) or moved: it ran. */
		if (sig != 0 && sig != e->sched_sig)
			taskscan_ran_note(ts, e->tid);
		e->sched_sig = sig;
	}
	if (fd < 0) {
		if ((fd = taskscan_task_open(ts, e, "stat")) < 0) {
			if (errno == EMFILE || errno == ENFILE) {
				ts->fds_short = true;
				return true;	/* not read, not gone */
			}
			return false;
		}
		ts->reopened++;
	}
	do
		r = pread(fd, buf, sizeof(buf), 0);
	while (r < 0 && errno == EINTR);
	if (e->fd < 0)
		close(fd);
	/* ESRCH, ENOENT or nothing: the task has exited. */
	if (r <= 0)
		return false;
	/*
	 * The whole parse costs 27 ns a line against 14 ns for a bare
	 * memrchr(')') (5,000 tasks): 0.1% of a tick, for the one parser
	 * tested on every fixture.
	 */
	if (taskstat_parse(buf, (size_t)r, &st, NULL) != 0) {
		e->state = 0;
		return true;	/* unreadable line: not counted */
	}
	e->state = st.state;
	/* Nothing to tell by (no schedstat, or "0 0 0"): on a CPU or in D. */
	if ((e->sfd < 0 || e->sched_sig == 0) &&
	    (st.state == 'R' || st.state == 'D'))
		taskscan_ran_note(ts, e->tid);
	if (e->tid == e->tgid)
		p->nthreads = (int)taskstat_field(buf, (size_t)r, 20);
	out->by_state[(unsigned char)st.state]++;
	out->total++;
	if (st.state == 'D') {
		flags = taskstat_field(buf, (size_t)r, 9);
		taskscan_blocked_add(ts, e, &st, flags >= 0 && (flags & PF_KTHREAD),
		    p->id, mono, out);
	}
	else
		e->in_d = false;
	return true;
}

/*
 * Reads the tasks of every process, or only those listed this tick when
 * fresh, and marks dirty the processes that lost a thread or whose leader
 * counts more or fewer threads than we hold. The count is only that of a
 * leader read this tick: one whose stat was skipped has not run, and no
 * thread was made if "processes" did not move.
 */
static void
procs_read(struct taskscan *ts, bool fresh, double mono, struct tasks *out)
{
	struct proc *p;
	struct task *e;
	size_t i, k, alive;
	bool force;

	for (i = 0; i < ts->n_p; i++) {
		p = &ts->p[i];
		alive = 0;
		if (!fresh)
			p->nthreads = -1;
		for (k = p->start; k < p->start + p->count; k++) {
			e = &ts->t[k];
			if (e->tid == 0)
				continue;
			if (fresh && !e->fresh) {
				alive++;
				continue;
			}
			e->fresh = false;
			force = (unsigned)e->tid % STAT_EVERY ==
			    ts->scans % STAT_EVERY ||
			    (e->tid == e->tgid && ts->root_listed);
			if (task_read(ts, p, e, force, mono, out)) {
				alive++;
				continue;
			}
			/* Without its leader, the pid may be another's. */
			if (e->tid == e->tgid)
				p->id = ++ts->proc_ids;
			if (e->fd >= 0) {
				close(e->fd);
				ts->held--;
				e->fd = -1;
			}
			if (e->sfd >= 0) {
				close(e->sfd);
				ts->held--;
				e->sfd = -1;
			}
			e->tid = 0;
		}
		if (alive != p->count || (p->nthreads >= 0 &&
		    (size_t)p->nthreads != alive))
			p->dirty = true;
		if (p->dirty)
			ts->any_dirty = true;
	}
}

static void
note_set(struct taskscan *ts, struct tasks *out)
{
	if (ts->root_err != 0)
		snprintf(out->note, sizeof(out->note), "cannot open %.64s: %s",
		    ts->root, strerror(ts->root_err));
	else if (ts->list_err != 0)
		snprintf(out->note, sizeof(out->note), "cannot list %.64s: %s",
		    ts->root, strerror(ts->list_err));
	else if (ts->fds_short)
		snprintf(out->note, sizeof(out->note),
		    "out of descriptors: some tasks not read");
	else if (ts->reopened > 0)
		snprintf(out->note, sizeof(out->note),
		    "descriptor limit %lu: %zu tasks reopened each tick",
		    ts->fd_limit, ts->reopened);
	else if (out->n_stacks == TASKS_MAX_STACKS)
		snprintf(out->note, sizeof(out->note),
		    "more than %d distinct stacks: some not kept",
		    TASKS_MAX_STACKS);
}

/* Tells the worker whether the scan reads /proc, when that changes. */
static void
taskscan_proc2(struct taskscan *ts, bool on)
{
	if (ts->info != NULL && ts->info_proc2 != on)
		taskinfo_proc2(ts->info, on);
	ts->info_proc2 = on;
}

void
taskscan_read(struct taskscan *ts, double mono, struct tasks *out)
{
	uint64_t processes;
	int i, r, err;

	/* Clear only the header: the arrays are filled as far as used. */
	memset(out->by_state, 0, sizeof(out->by_state));
	out->total = 0;
	out->n_blocked = 0;
	out->truncated = false;
	tasks_stacks_clear(out);
	out->stack_err = 0;
	out->note[0] = '\0';
	ts->reopened = 0;
	ts->fds_short = false;
	ts->n_ran = ts->ran_seen = ts->ran_before = ts->ran_over = 0;
	ts->ran_refused = false;
	ts->began = clock_mono();
	if (ts->root_fd < 0) {
		note_set(ts, out);
		return;
	}
	/* The BPF task iterator, when it loaded: the rest is /proc's, and
	 * so is libproc2 (taskinfo.c), told before any details are asked. */
	taskscan_proc2(ts, ts->iter == NULL);
	if (ts->iter != NULL && taskiter_scan_read(ts, mono, out) == 0) {
		note_set(ts, out);
		ts->scans++;
		return;
	}
	taskscan_proc2(ts, true);

	/*
	 * The counter is read before <root> is listed, so that a fork
	 * during the listing shows as a change at the next tick. Without
	 * it (no <root>/stat), <root> is listed on every tick.
	 */
	r = processes_read(ts, &processes);
	ts->full = ts->scans == 0 || mono - ts->listed_at >= RELIST_SECS ||
	    mono < ts->listed_at;
	ts->root_listed = false;
	if (ts->full || r != 0 || !ts->have_processes ||
	    processes != ts->processes) {
		err = taskscan_root_list(ts);
		ts->list_err = -err;
		ts->root_listed = err == 0;
		if (err == 0 && r == 0) {
			ts->processes = processes;
			ts->have_processes = true;
		}
	}
	if (ts->full) {
		ts->listed_at = mono;
		ts->no_sched = false;	/* try schedstat again */
	}

	ts->any_dirty = false;
	procs_read(ts, false, mono, out);
	if (ts->full || ts->root_listed || ts->any_dirty) {
		if ((err = taskscan_relist(ts)) != 0)
			ts->list_err = -err;
		procs_read(ts, true, mono, out);
	}
	if (out->n_blocked > 0)
		taskscan_details_fill(ts, out);
	/*
	 * A first scan may be all a caller takes (pagetop snapshot): it
	 * waits a little for the worker, and takes what it read. The
	 * stacks are asked again for that, one read more each.
	 */
	if (out->n_blocked > 0 && ts->scans == 0 && ts->info != NULL) {
		taskinfo_wait(ts->info, FIRST_WAIT_MS);
		tasks_stacks_clear(out);
		out->stack_err = 0;
		for (i = 0; i < out->n_blocked; i++)
			taskscan_stack_get(ts, i, false, mono, out);
		taskscan_details_fill(ts, out);
	}
	note_set(ts, out);
	/* All from ran_from on were kept: the earlier ones come first next. */
	ts->ran_from = ts->ran_refused ? ts->ran_next : 0;
	ts->scans++;
}
