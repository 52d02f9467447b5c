/*
 * What the task scan shows of a task in D: its wchan, read here (the read
 * takes none of the task's sleeping locks), and its kernel stack, command
 * line and user as far as the taskinfo worker has read them (those reads
 * can block for as long as the task is stuck, so they are never made on
 * the scan's thread). Stacks are shared by the tasks blocked alike.
 */

#include "source/taskscan-int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "source/taskinfo.h"
#include "util/readall.h"

#define WCHAN_READ		64

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * One read of <root>/P/task/T/<name> into buf (NUL-terminated): the
 * length, or -errno. Only for files that take none of the target's
 * sleeping locks (wchan: a ptrace check under a spinlock); the others are
 * the taskinfo worker's.
 */
static ssize_t
task_file_read(struct taskscan *ts, const struct task *e, const char *name,
    char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "%d/task/%d/%s", e->tgid, e->tid, name);
	return readat_once(ts->root_fd, path, O_NONBLOCK, buf, size);
}

/* Why a task has no stack, from taskinfo_stack()'s answer. */
static enum stack_missing
stack_why(int r)
{
	switch (r) {
	case -EACCES:
	case -EPERM:
		return STACK_DENIED;
	case -ENOENT:
		return STACK_NO_FILE;
	case -ESRCH:
		return STACK_RUNNING;
	case -EAGAIN:
		return STACK_PENDING;
	case -EBUSY:
		return STACK_BUSY;
	default:
		return STACK_FAILED;
	}
}

/*
 * The kernel stack of a blocked task, as an index into out->stacks shared
 * with the tasks blocked alike; -1 when it cannot be read or none was
 * read yet, with why. The taskinfo worker reads it (the read takes the
 * target's exec lock, see taskinfo.c): this is the last one it read, at
 * the previous tick or before when it is busy or stuck. The first
 * EACCES/EPERM (no CAP_SYS_ADMIN in the initial namespace) or ENOENT (no
 * CONFIG_STACKTRACE) stops the tries for the rest of the tick. An empty
 * stack (the task was running when read) is none: the task is grouped
 * by its wchan.
 */
static void
stack_get(struct taskscan *ts, struct blocked_task *b, bool anew,
    struct tasks *out, double *ran_at)
{
	struct stack *st;
	char packed[STACK_PACKED_MAX];
	unsigned long sig;
	size_t len;
	int k, r;

	b->stack = -1;
	if (ran_at != NULL)
		*ran_at = NAN;
	if (ts->info == NULL) {
		b->stack_why = STACK_FAILED;
		return;
	}
	if (out->stack_err != 0 && ran_at == NULL) {
		b->stack_why = stack_why(-out->stack_err);
		return;
	}
	/* Read whole, then kept packed (model/tasks.h). */
	st = &ts->scratch;
	r = taskinfo_stack(ts->info, b->tgid, b->tid, anew, ts->scans, st,
	    ran_at);
	if (r == 0 && st->n == 0)
		r = -ESRCH;
	if (r == 0 && out->stack_err != 0)
		r = -out->stack_err;
	if (r == -EACCES || r == -EPERM || r == -ENOENT)
		out->stack_err = -r;
	if (r < 0) {
		b->stack_why = stack_why(r);
		return;
	}
	b->stack_why = STACK_HAVE;
	sig = stack_signature(st);
	len = stack_pack(st, packed, sizeof(packed));
	if ((k = tasks_stack_find(out, packed, len, sig)) < 0 &&
	    (k = tasks_stack_add_packed(out, packed, len, sig)) < 0) {
		b->stack_why = STACK_NOT_KEPT;
		return;
	}
	b->stack = k;
}

/*
 * Blocked task i's stack; and for a task in D at the first scan, which
 * pagetop did not see block, when it last ran once the worker has read
 * it (se.exec_start): a real start for its wait in place of the first
 * scan's. Only the worker reads the sched file: it takes the task's
 * locks, as the stack does.
 */
void
taskscan_stack_get(struct taskscan *ts, int i, bool anew, double mono,
    struct tasks *out)
{
	struct blocked_task *b = &out->b[i];
	struct task *e = ts->b_task[i];
	bool ask = e->since_from == SINCE_START;
	double ran_at, ago;

	stack_get(ts, b, anew, out, ask ? &ran_at : NULL);
	if (ask && !isnan(ran_at)) {
		/* Against the clock when this scan began: mono may be
		 * another (a test's), and the read may be this scan's. */
		ago = ts->began - ran_at;
		e->since = mono - (ago > 0 ? ago : 0);
		e->since_start = false;
		e->since_from = SINCE_SCHED;
	}
	b->since = e->since;
	b->since_start = e->since_start;
	b->since_from = e->since_from;
}

/* A task seen in D: its entry in out, and how long it has been blocked. */
void
taskscan_blocked_add(struct taskscan *ts, struct task *e, const struct taskstat *st,
    bool kthread, unsigned long proc_id, double mono, struct tasks *out)
{
	struct blocked_task *b;
	char wchan[WCHAN_READ];
	bool anew = !e->in_d;
	uint64_t h;

	if (out->n_blocked == TASKS_MAX_BLOCKED) {
		/* Not shown: keep the time it blocked, skip the reads. */
		out->truncated = true;
		if (!e->in_d) {
			e->since = mono;
			e->since_start = ts->scans == 0;
			e->since_from = e->since_start ? SINCE_START : SINCE_SEEN;
			e->wchan_hash = 0;
		}
		e->in_d = true;
		return;
	}
	ts->kthread[out->n_blocked] = kthread;
	ts->b_proc_id[out->n_blocked] = proc_id;
	ts->b_task[out->n_blocked] = e;
	b = &out->b[out->n_blocked++];
	b->tid = e->tid;
	b->tgid = e->tgid;
	b->state = 'D';
	memcpy(b->comm, st->comm, sizeof(b->comm));

	if (task_file_read(ts, e, "wchan", wchan, sizeof(wchan)) < 0 ||
	    strcmp(wchan, "0") == 0)
		wchan[0] = '\0';
	snprintf(b->wchan, sizeof(b->wchan), "%.*s", (int)sizeof(b->wchan) - 1,
	    wchan);
	/*
	 * Blocked anew, or on something else: start again. No wchan ("0")
	 * is no news: the kernel shows it for an instant while the task
	 * goes to sleep or wakes up, to readers without ptrace access, and
	 * always on 4.14-5.15 x86 kernels without frame pointers.
	 */
	h = wchan[0] != '\0' ? hash_str(wchan) : 0;
	if (!e->in_d || (h != 0 && e->wchan_hash != 0 && h != e->wchan_hash)) {
		e->since = mono;
		e->since_start = ts->scans == 0;
		e->since_from = e->since_start ? SINCE_START : SINCE_SEEN;
		e->wchan_hash = h;
	} else if (h != 0)
		e->wchan_hash = h;
	e->in_d = true;
	taskscan_stack_get(ts, out->n_blocked - 1, anew, mono, out);
	b->cmdline[0] = '\0';
	b->user[0] = '\0';
}

/*
 * Command line and user of the blocked tasks' processes. Kernel threads
 * have none and run as root; the others are asked of the taskinfo worker,
 * which never makes us wait: reading a cmdline takes the target's mmap
 * lock, held or waited on by the very tasks we list. Until it has read
 * one, it shows as TASKINFO_PENDING with no user. No allocation here: the
 * worker's libproc2 calls allocate, on its own thread.
 */
void
taskscan_details_fill(struct taskscan *ts, struct tasks *out)
{
	struct blocked_task *b;
	int i;

	for (i = 0; i < out->n_blocked; i++) {
		b = &out->b[i];
		if (ts->kthread[i]) {
			b->cmdline[0] = '\0';
			snprintf(b->user, sizeof(b->user), "root");
		} else if (ts->info != NULL)
			taskinfo_get(ts->info, b->tgid, ts->b_proc_id[i],
			    b->comm, ts->scans, b->cmdline, sizeof(b->cmdline),
			    b->user, sizeof(b->user));
	}
}
