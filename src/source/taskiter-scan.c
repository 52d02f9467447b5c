/*
 * The task scan's tick through the BPF task iterator (taskiter.h): the
 * kernel counts every task's state and lists those in D, so no task
 * directory is listed and no descriptor held per thread. What only /proc
 * gives of a blocked task (wchan, and stack, cmdline and user through
 * the taskinfo worker) is read as the /proc scan reads it
 * (taskscan-blocked.c), and the blocked tasks keep their time in D from
 * tick to tick here: the iterator walks tasks in tid order, so the last
 * tick's entry is nearly always the next one looked at.
 *
 * Where the kernel's iterator never shows pid 1 (taskiter_hides_init),
 * its threads are read from <root>/1/task/T/stat each tick, through
 * descriptors held from one listing to the next (up to INIT_HELD of
 * them), as the /proc scan holds its own: the listing, and an open and a
 * close per thread, were a tenth of the tick. The directory is listed
 * again when a thread's read fails (it exited) or the leader's thread
 * count is not the number held.
 */
#include "source/taskscan-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "parse/taskstat.h"
#include "source/taskinfo.h"
#include "source/taskiter.h"
#include "source/taskscan.h"

#define FIRST_WAIT_MS	100	/* as taskscan.c's, for pagetop snapshot */
#define PF_KTHREAD	0x00200000	/* in a stat line's flags */
#define INIT_PROC_ID	1ul	/* pid 1 is never another process */
#define INIT_HELD	64	/* pid 1's threads read through held descriptors */
#define INIT_RETRY	10	/* ticks between tries to hold them, when more */
#define STAT_READ	512

/* A thread of pid 1, with its stat held open. */
struct init_task {
	int tid;
	int fd;
};

/* One thread's line as read this tick, before it counts. */
struct init_line {
	struct taskstat st;
	bool kthread;
};

struct taskiter_scan {
	struct taskiter *it;
	struct taskiter_out out;
	struct task d[2][TI_MAX_D];	/* the last tick's and this one's */
	size_t n[2];
	int cur;
	bool hides_init;	/* pid 1's threads read from /proc */
	struct init_task init[INIT_HELD];
	int n_init;		/* held */
	bool init_listed;	/* init[] is the last listing's; false: list */
	bool init_many;		/* more than INIT_HELD: walked, not held */
};

static void
init_release(struct taskiter_scan *is)
{
	for (int k = 0; k < is->n_init; k++)
		close(is->init[k].fd);
	is->n_init = 0;
	is->init_listed = false;
}

void
taskiter_scan_free(struct taskiter_scan *is)
{
	if (!is)
		return;
	init_release(is);
	taskiter_close(is->it);
	free(is);
}

void
taskscan_set_iter(struct taskscan *ts, struct taskiter *it, const char *why)
{
	taskiter_scan_free(ts->iter);
	ts->iter = NULL;
	snprintf(ts->iter_why, sizeof(ts->iter_why), "%s", why ? why : "");
	if (!it)
		return;
	if (!ts->live || !(ts->iter = calloc(1, sizeof(*ts->iter)))) {
		snprintf(ts->iter_why, sizeof(ts->iter_why), "%s",
		    ts->live ? "out of memory" : "not this machine's /proc");
		taskiter_close(it);
		return;
	}
	ts->iter->it = it;
	ts->iter->hides_init = taskiter_hides_init(it);
	ts->iter_why[0] = '\0';
}

void
taskscan_how(const struct taskscan *ts, char *buf, size_t size)
{
	if (ts->iter && ts->iter->hides_init)
		snprintf(buf, size, "BPF task iterator (pid 1 from /proc)");
	else if (ts->iter)
		snprintf(buf, size, "BPF task iterator");
	else if (ts->iter_why[0])
		snprintf(buf, size, "/proc (task iterator: %s)", ts->iter_why);
	else
		snprintf(buf, size, "/proc");
}

/* Task tid of tgid as held: the last tick's entry for it when it was in
 * D then, looked for at *last first. NULL when the list is full. */
static struct task *
task_carry(struct taskiter_scan *is, int tid, int tgid, size_t *last)
{
	const struct task *prev = is->d[!is->cur];
	size_t np = is->n[!is->cur], k = *last;
	struct task *e;

	if (is->n[is->cur] == TI_MAX_D)
		return NULL;
	e = &is->d[is->cur][is->n[is->cur]++];
	if (k >= np || prev[k].tid != tid)
		for (k = 0; k < np && prev[k].tid != tid; k++)
			;
	if (k < np && prev[k].tgid == tgid) {
		*e = prev[k];
		*last = k + 1;
	} else {
		memset(e, 0, sizeof(*e));
		e->tid = tid;
		e->tgid = tgid;
		e->fd = e->sfd = -1;
	}
	e->state = 'D';
	return e;
}

/* A task in D into out, through the /proc scan's reads. */
static void
blocked(struct taskscan *ts, struct taskiter_scan *is, int tid, int tgid,
    const char *comm, bool kthread, unsigned long proc_id, size_t *last,
    double mono, struct tasks *out)
{
	struct taskstat st;
	struct task *e;

	if (!(e = task_carry(is, tid, tgid, last))) {
		out->truncated = true;
		return;
	}
	memset(&st, 0, sizeof(st));
	st.pid = tid;
	st.state = 'D';
	memcpy(st.comm, comm, sizeof(st.comm));
	st.comm[sizeof(st.comm) - 1] = '\0';
	taskscan_blocked_add(ts, e, &st, kthread, proc_id, mono, out);
}

/*
 * <root>/1/task listed, and each thread's stat opened into is->init: 0, or
 * -errno (-E2BIG: more threads than INIT_HELD, the rest not held).
 */
static int
init_list(struct taskscan *ts, struct taskiter_scan *is)
{
	_Alignas(8) char dents[4096];
	char path[32];
	struct dirent64 *d;
	long n, off;
	int dfd, fd, err = 0;

	init_release(is);
	if ((dfd = openat(ts->root_fd, "1/task", O_RDONLY | O_DIRECTORY |
	    O_NONBLOCK | O_CLOEXEC)) < 0)
		return -errno;
	while ((n = syscall(SYS_getdents64, dfd, dents, sizeof(dents))) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct dirent64 *)(void *)(dents + off);
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			if (is->n_init == INIT_HELD) {
				err = -E2BIG;
				continue;
			}
			snprintf(path, sizeof(path), "%.16s/stat", d->d_name);
			if ((fd = openat(dfd, path, O_RDONLY | O_NONBLOCK |
			    O_CLOEXEC)) < 0)
				continue;	/* gone since the listing */
			is->init[is->n_init++] = (struct init_task){
				.tid = atoi(d->d_name), .fd = fd };
		}
	}
	if (n < 0 && err == 0)
		err = -errno;
	close(dfd);
	is->init_listed = err == 0;
	return err;
}

/*
 * The held threads' lines into lines: how many. Strict, -1 when the
 * holding is stale (a thread gone, or the leader counts another number of
 * threads); else a thread gone is left out, as one gone before the
 * listing would be.
 */
static int
init_lines(struct taskiter_scan *is, bool strict, struct init_line *lines)
{
	char buf[STAT_READ];
	long long nthreads = -1;
	ssize_t r;
	int k, m = 0;

	for (k = 0; k < is->n_init; k++) {
		do
			r = pread(is->init[k].fd, buf, sizeof(buf), 0);
		while (r < 0 && errno == EINTR);
		if (r <= 0 && strict)
			return -1;	/* ESRCH, or nothing: it exited */
		if (r <= 0 || taskstat_parse(buf, (size_t)r, &lines[m].st, NULL) != 0)
			continue;	/* unreadable: not counted */
		lines[m].kthread = (taskstat_field(buf, (size_t)r, 9) &
		    PF_KTHREAD) != 0;
		if (lines[m].st.pid == 1)
			nthreads = taskstat_field(buf, (size_t)r, 20);
		m++;
	}
	if (strict && nthreads != is->n_init)
		return -1;
	return m;
}

/* One line of pid 1's into out. */
static void
init_count(struct taskscan *ts, struct taskiter_scan *is,
    const struct init_line *l, size_t *last, double mono, struct tasks *out)
{
	out->by_state[(unsigned char)l->st.state]++;
	out->total++;
	if (l->st.state == 'D')
		blocked(ts, is, l->st.pid, 1, l->st.comm, l->kthread,
		    INIT_PROC_ID, last, mono, out);
}

/* The threads of pid 1 as the /proc scan reads a process it lists anew
 * (an open, a read and a close each), when there are too many to hold. */
static void
init_walk(struct taskscan *ts, struct taskiter_scan *is, size_t *last,
    double mono, struct tasks *out)
{
	_Alignas(8) char dents[4096];
	char path[32], buf[STAT_READ];
	struct init_line l;
	struct dirent64 *d;
	long n, off;
	ssize_t r;
	int dfd, fd;

	if ((dfd = openat(ts->root_fd, "1/task", O_RDONLY | O_DIRECTORY |
	    O_NONBLOCK | O_CLOEXEC)) < 0)
		return;
	while ((n = syscall(SYS_getdents64, dfd, dents, sizeof(dents))) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct dirent64 *)(void *)(dents + off);
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%.16s/stat", d->d_name);
			if ((fd = openat(dfd, path, O_RDONLY | O_NONBLOCK |
			    O_CLOEXEC)) < 0)
				continue;
			r = pread(fd, buf, sizeof(buf), 0);
			close(fd);
			if (r <= 0 || taskstat_parse(buf, (size_t)r, &l.st, NULL) != 0)
				continue;
			l.kthread = (taskstat_field(buf, (size_t)r, 9) &
			    PF_KTHREAD) != 0;
			init_count(ts, is, &l, last, mono, out);
		}
	}
	close(dfd);
}

/* The threads of pid 1, from <root>/1/task, where the iterator hides it. */
static void
init_read(struct taskscan *ts, struct taskiter_scan *is, size_t *last,
    double mono, struct tasks *out)
{
	struct init_line lines[INIT_HELD];
	int m = -1;

	/* Too many to hold: walked, and held again if fewer at a full
	 * listing's beat. */
	if (is->init_many && ts->scans % INIT_RETRY != 0) {
		init_walk(ts, is, last, mono, out);
		return;
	}
	if (is->init_listed)
		m = init_lines(is, true, lines);
	/* Listed again: what it reads then is what counts. */
	if (m < 0) {
		is->init_many = init_list(ts, is) == -E2BIG;
		if (is->init_many) {
			init_release(is);
			init_walk(ts, is, last, mono, out);
			return;
		}
		m = init_lines(is, false, lines);
	}
	for (int k = 0; k < m; k++)
		init_count(ts, is, &lines[k], last, mono, out);
}

int
taskiter_scan_read(struct taskscan *ts, double mono, struct tasks *out)
{
	struct taskiter_scan *is = ts->iter;
	struct taskiter_out *o = &is->out;
	size_t i, last = 0;
	int r;

	if ((r = taskiter_read(is->it, o)) != 0) {
		snprintf(ts->iter_why, sizeof(ts->iter_why), "read failed: %s; "
		    "/proc scanned since", strerror(-r));
		taskiter_scan_free(is);
		ts->iter = NULL;
		return r;
	}
	memcpy(out->by_state, o->by_state, sizeof(out->by_state));
	out->total = o->total;
	is->cur = !is->cur;
	is->n[is->cur] = 0;
	for (i = 0; i < o->n_d; i++) {
		const struct ti_task *t = o->d[i];

		/* The leader's start time tells one process from the next
		 * that takes its pid, as the /proc scan's ids do. */
		blocked(ts, is, (int)t->tid, (int)t->tgid, t->comm,
		    t->what & TI_F_KTHREAD, (unsigned long)t->leader_start,
		    &last, mono, out);
	}
	if (is->hides_init)
		init_read(ts, is, &last, mono, out);
	/* Who ran, for delay accounting, as the /proc scan tells it. */
	for (i = 0; i < o->n_ran; i++)
		taskscan_ran_note(ts, (int)o->ran[i]);
	if (o->d_seen > o->n_d)
		out->truncated = true;
	if (out->n_blocked > 0)
		taskscan_details_fill(ts, out);
	/* A first scan may be all a caller takes: as taskscan_read. */
	if (out->n_blocked > 0 && ts->scans == 0 && ts->info != NULL) {
		taskinfo_wait(ts->info, FIRST_WAIT_MS);
		tasks_stacks_clear(out);
		out->stack_err = 0;
		for (int k = 0; k < out->n_blocked; k++)
			taskscan_stack_get(ts, k, false, mono, out);
		taskscan_details_fill(ts, out);
	}
	return 0;
}
