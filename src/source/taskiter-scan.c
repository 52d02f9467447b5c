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
 * its threads are read from <root>/1/task each tick, as the /proc scan
 * would: a listing and a stat read per thread, of one process.
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

struct taskiter_scan {
	struct taskiter *it;
	struct taskiter_out out;
	struct task d[2][TI_MAX_D];	/* the last tick's and this one's */
	size_t n[2];
	int cur;
	bool hides_init;	/* pid 1's threads read from /proc */
};

void
taskiter_scan_free(struct taskiter_scan *is)
{
	if (!is)
		return;
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

/* The threads of pid 1, from <root>/1/task, where the iterator hides it. */
static void
init_read(struct taskscan *ts, struct taskiter_scan *is, size_t *last,
    double mono, struct tasks *out)
{
	_Alignas(8) char dents[4096];
	char path[32], buf[512];
	struct taskstat st;
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
			if (r <= 0 || taskstat_parse(buf, (size_t)r, &st, NULL) != 0)
				continue;
			out->by_state[(unsigned char)st.state]++;
			out->total++;
			if (st.state == 'D')
				blocked(ts, is, st.pid, 1, st.comm,
				    (taskstat_field(buf, (size_t)r, 9) &
				    PF_KTHREAD) != 0, INIT_PROC_ID, last, mono,
				    out);
		}
	}
	close(dfd);
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
