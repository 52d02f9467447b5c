/*
 * Blocked tasks' details, read off the scan thread.
 *
 *	scan thread			worker thread
 *	-----------			-------------
 *	taskinfo_get(tgid):		waits for PENDING entries
 *	  known -> copy			takes the oldest asked: READING,
 *	  else  -> PENDING, signal	  unlocks
 *	  copy the placeholder		reads /proc (may block for as long
 *	taskinfo_stack(tid):		  as the target is stuck)
 *	  PENDING again (each tick),	locks, stores it if the entry is
 *	  copy the last one read	  still that task's: KNOWN
 *
 * The mutex guards the entries only; nobody holds it across a read, so
 * the scan waits at most for a few copies. There is one worker: a read
 * stuck on one process delays the details and stacks asked after it,
 * never the scan, which shows the last stacks read meanwhile. libproc2
 * is only used by that thread (its pids_info and its user-name cache are
 * not shared).
 *
 * Stacks are here too: /proc/P/task/T/stack takes the target's exec
 * lock (cred_guard_mutex before 5.7, exec_update_lock since), which an
 * exec holds while it waits, for the other threads to die or for the old
 * mm's mmap lock.
 *
 * libproc2 is the /proc scan's: it is loaded with dlopen() by the
 * worker, the first time a blocked task's details are wanted while the
 * scan reads /proc. With the libsystemd, libgcrypt and others it pulls
 * in it costs about 1 MB of resident memory, which a scan through the
 * BPF task iterator (which reads no /proc) and a box where nothing
 * blocks need not pay: there, and where it cannot be loaded, command
 * lines are read plainly and users from the status file's effective
 * uid (getpwuid_r, the last few kept).
 *
 * A stuck read cannot be cancelled: it sleeps in the kernel (killable at
 * best: only a fatal signal ends it) and libproc2 is not cancel-safe. So
 * taskinfo_free waits a little for the worker, then detaches it and
 * leaves it the memory: it frees everything when its read returns.
 *
 * Here: the entries, the asking and the worker. What the worker reads is
 * in taskinfo-read.c and taskinfo-proc2.c (taskinfo-int.h).
 */

#include "source/taskinfo.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/taskinfo-int.h"
#include "util/clock.h"
#include "util/thread.h"

#define FREE_WAIT_MS	200	/* for a worker before it is left behind */

static void
taskinfo_destroy(struct taskinfo *ti)
{
	taskinfo_proc2_free(ti);
	if (ti->root_fd >= 0)
		close(ti->root_fd);
	pthread_cond_destroy(&ti->work);
	pthread_cond_destroy(&ti->done);
	pthread_cond_destroy(&ti->idle);
	pthread_mutex_destroy(&ti->mtx);
	free(ti);
}

/* The oldest pending entry of either kind into *d or *se, or false.
 * Called locked. */
static bool
pending_oldest(struct taskinfo *ti, struct entry **d, struct stack_entry **se)
{
	unsigned long asked = 0;
	int k;

	*d = NULL;
	*se = NULL;
	for (k = 0; k < ti->n; k++) {
		if (ti->e[k].state == ENTRY_PENDING &&
		    (asked == 0 || ti->e[k].asked < asked)) {
			*d = &ti->e[k];
			asked = (*d)->asked;
		}
	}
	for (k = 0; k < ti->n_s; k++) {
		if (ti->s[k].state == ENTRY_PENDING &&
		    (asked == 0 || ti->s[k].asked < asked)) {
			*se = &ti->s[k];
			*d = NULL;
			asked = (*se)->asked;
		}
	}
	return asked != 0;
}

/* Reads stack entry se, unlocking meanwhile. Called locked. */
static void
work_stack(struct taskinfo *ti, struct stack_entry *se)
{
	unsigned long gen = se->gen;
	int tgid = se->tgid, tid = se->tid, r, rr = -1;
	bool ran = se->ran_want && !se->ran_have, denied = ti->stack_denied != 0;
	double at = 0;

	se->state = ENTRY_READING;
	ti->reading = true;
	ti->reading_scan = se->used;
	pthread_mutex_unlock(&ti->mtx);
	if (ran)
		rr = taskinfo_read_last_ran(ti, tgid, tid, &at);
	r = denied ? 0 : taskinfo_read_stack(ti, tgid, tid);	/* may block */
	pthread_mutex_lock(&ti->mtx);
	ti->reading = false;
	if (r == -EACCES || r == -EPERM)
		ti->stack_denied = -r;
	if (se->gen != gen || se->state != ENTRY_READING)
		return;		/* given to another task meanwhile */
	se->state = ENTRY_KNOWN;
	if (rr == 0) {
		se->ran_have = true;
		se->ran_at = at;
	}
	if (denied)
		return;
	/* A task seen running keeps the stack it was blocked with. */
	if (r == -ESRCH && se->have)
		return;
	se->err = -r;
	if (r == 0) {
		size_t n = stack_pack(&ti->st, se->packed, sizeof(se->packed));

		/* Deeper than fits: its innermost frames, which say why it waits. */
		while (n == 0 && ti->st.n > 0) {
			ti->st.n--;
			n = stack_pack(&ti->st, se->packed, sizeof(se->packed));
		}
		se->len = (uint16_t)n;
		se->have = true;
	}
}

/* Reads the details of entry d, unlocking meanwhile. Called locked. */
static void
work_details(struct taskinfo *ti, struct entry *d)
{
	unsigned long gen = d->gen;
	char comm[16];
	int tgid = d->tgid;
	bool by_proc2 = ti->live && ti->proc2;

	d->state = ENTRY_READING;
	memcpy(comm, d->comm, sizeof(comm));
	ti->reading = true;
	ti->reading_scan = d->used;
	pthread_mutex_unlock(&ti->mtx);
	ti->cmdline[0] = ti->user[0] = '\0';
	if (by_proc2 && !ti->pids_tried)
		taskinfo_proc2_setup(ti);
	if (by_proc2 && ti->pids != NULL)	/* may block */
		taskinfo_proc2_read(ti, tgid);
	else {
		taskinfo_read_cmdline(ti, tgid, comm);
		if (ti->live)
			taskinfo_read_user(ti, tgid);
	}
	pthread_mutex_lock(&ti->mtx);
	ti->reading = false;
	if (d->gen != gen || d->state != ENTRY_READING)
		return;		/* given to another process meanwhile */
	memcpy(d->cmdline, ti->cmdline, sizeof(d->cmdline));
	memcpy(d->user, ti->user, sizeof(d->user));
	d->state = ENTRY_KNOWN;
}

static void *
taskinfo_worker(void *arg)
{
	struct taskinfo *ti = arg;
	struct stack_entry *se;
	struct entry *d;

	ti->cpus_known = sched_getaffinity(0, sizeof(ti->cpus), &ti->cpus) == 0;
	pthread_mutex_lock(&ti->mtx);
	while (!ti->stop) {
		if (!pending_oldest(ti, &d, &se)) {
			pthread_cond_broadcast(&ti->idle);
			pthread_cond_wait(&ti->work, &ti->mtx);
		} else if (se != NULL)
			work_stack(ti, se);
		else
			work_details(ti, d);
	}
	if (ti->orphaned) {
		pthread_mutex_unlock(&ti->mtx);
		taskinfo_destroy(ti);
		return NULL;
	}
	ti->running = false;
	pthread_cond_signal(&ti->done);
	pthread_mutex_unlock(&ti->mtx);
	return NULL;
}

struct taskinfo *
taskinfo_new(const char *root, bool live)
{
	struct taskinfo *ti;
	pthread_condattr_t ca;

	if ((ti = calloc(1, sizeof(*ti))) == NULL)
		return NULL;
	ti->root_fd = -1;
	pthread_mutex_init(&ti->mtx, NULL);
	pthread_cond_init(&ti->work, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ti->done, &ca);
	pthread_cond_init(&ti->idle, &ca);
	pthread_condattr_destroy(&ca);
	/* libproc2 is set up by the worker when first needed: its first use
	 * allocates (on the worker, never on the scan), and each select
	 * after it a few times for a process that blocks for the first time. */
	ti->live = live;
	ti->proc2 = true;
	ti->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ti->running = true;
	if (thread_start(&ti->thread, taskinfo_worker, ti) != 0) {
		taskinfo_destroy(ti);
		return NULL;
	}
	return ti;
}

static void
deadline(struct timespec *until, int ms)
{
	clock_gettime(CLOCK_MONOTONIC, until);
	until->tv_nsec += ms * 1000000L;
	until->tv_sec += until->tv_nsec / 1000000000L;
	until->tv_nsec %= 1000000000L;
}

void
taskinfo_free(struct taskinfo *ti)
{
	struct timespec until;

	if (ti == NULL)
		return;
	deadline(&until, FREE_WAIT_MS);

	pthread_mutex_lock(&ti->mtx);
	ti->stop = true;
	pthread_cond_signal(&ti->work);
	while (ti->running && pthread_cond_timedwait(&ti->done, &ti->mtx,
	    &until) != ETIMEDOUT)
		;
	if (ti->running) {
		/* Stuck in a read: it frees all when that returns. */
		ti->orphaned = true;
		pthread_mutex_unlock(&ti->mtx);
		pthread_detach(ti->thread);
		return;
	}
	pthread_mutex_unlock(&ti->mtx);
	pthread_join(ti->thread, NULL);
	taskinfo_destroy(ti);
}

/* Whether any entry is waiting for the worker or being read. Called
 * locked. */
static bool
busy(const struct taskinfo *ti)
{
	int k;

	for (k = 0; k < ti->n; k++) {
		if (ti->e[k].state == ENTRY_PENDING ||
		    ti->e[k].state == ENTRY_READING)
			return true;
	}
	for (k = 0; k < ti->n_s; k++) {
		if (ti->s[k].state == ENTRY_PENDING ||
		    ti->s[k].state == ENTRY_READING)
			return true;
	}
	return false;
}

void
taskinfo_proc2(struct taskinfo *ti, bool on)
{
	pthread_mutex_lock(&ti->mtx);
	ti->proc2 = on;
	pthread_mutex_unlock(&ti->mtx);
}

bool
taskinfo_wait(struct taskinfo *ti, int ms)
{
	struct timespec until;
	bool idle;

	deadline(&until, ms);
	pthread_mutex_lock(&ti->mtx);
	while (busy(ti) && pthread_cond_timedwait(&ti->idle, &ti->mtx,
	    &until) != ETIMEDOUT)
		;
	idle = !busy(ti);
	pthread_mutex_unlock(&ti->mtx);
	return idle;
}

/* The entry of that process, or NULL. Called locked. */
static struct entry *
entry_find(struct taskinfo *ti, int tgid, unsigned long proc_id,
    const char *comm)
{
	struct entry *d;
	int k;

	for (k = 0; k < ti->n; k++) {
		d = &ti->e[k];
		if (d->state != ENTRY_FREE && d->tgid == tgid &&
		    d->proc_id == proc_id && strcmp(d->comm, comm) == 0)
			return d;
	}
	return NULL;
}

/* A pending entry for that process, in place of the one unused longest
 * (at most a scan's blocked tasks are in use: never one of this scan's).
 * Called locked. */
static struct entry *
entry_add(struct taskinfo *ti, int tgid, unsigned long proc_id,
    const char *comm, unsigned long scan)
{
	struct entry *d;
	int k;

	if (ti->n < ENTRIES_MAX)
		d = &ti->e[ti->n++];
	else {
		d = &ti->e[0];
		for (k = 1; k < ENTRIES_MAX; k++) {
			if (ti->e[k].used < d->used)
				d = &ti->e[k];
		}
	}
	d->state = ENTRY_PENDING;
	d->tgid = tgid;
	d->proc_id = proc_id;
	snprintf(d->comm, sizeof(d->comm), "%s", comm);
	d->used = scan;
	d->asked = ++ti->asks;
	d->gen = ++ti->gens;	/* a read of the old one is dropped */
	d->cmdline[0] = d->user[0] = '\0';
	return d;
}

bool
taskinfo_get(struct taskinfo *ti, int tgid, unsigned long proc_id,
    const char *comm, unsigned long scan, char *cmdline, size_t cmdline_size,
    char *user, size_t user_size)
{
	struct entry *d;
	bool known;

	pthread_mutex_lock(&ti->mtx);
	if ((d = entry_find(ti, tgid, proc_id, comm)) == NULL) {
		d = entry_add(ti, tgid, proc_id, comm, scan);
		pthread_cond_signal(&ti->work);
	}
	d->used = scan;
	known = d->state == ENTRY_KNOWN;
	snprintf(cmdline, cmdline_size, "%s", known ? d->cmdline :
	    TASKINFO_PENDING);
	snprintf(user, user_size, "%s", known ? d->user : "");
	pthread_mutex_unlock(&ti->mtx);
	return known;
}

/*
 * The last stack read of task tid into *st: 0; -errno of the last read
 * (EACCES or EPERM for good: stacks need root; ESRCH: it was running or
 * gone); -EAGAIN when none was read yet, -EBUSY when that is because the
 * worker has been in another read since the scan before last. Asks for a new
 * read unless one is pending or in progress (stuck, maybe). anew: the
 * task has just blocked, an older stack is not its own. ran_at, unless
 * NULL: the clock_mono() time the task last ran (NAN until read).
 */
int
taskinfo_stack(struct taskinfo *ti, int tgid, int tid, bool anew,
    unsigned long scan, struct stack *st, double *ran_at)
{
	struct stack_entry *se = NULL;
	int k, r;

	pthread_mutex_lock(&ti->mtx);
	if (ti->stack_denied != 0 && ran_at == NULL) {
		r = -ti->stack_denied;
		pthread_mutex_unlock(&ti->mtx);
		return r;
	}
	for (k = 0; k < ti->n_s && se == NULL; k++) {
		if (ti->s[k].state != ENTRY_FREE && ti->s[k].tid == tid &&
		    ti->s[k].tgid == tgid)
			se = &ti->s[k];
	}
	if (se == NULL) {
		/* In place of the one unused longest (never this tick's) when
		 * no scan asked for it lately, else a new one: tasks that
		 * block briefly by the hundred would otherwise touch every
		 * entry in turn, half a megabyte to keep a few stacks. */
		struct stack_entry *lru = NULL;

		for (k = 0; k < ti->n_s; k++)
			if (lru == NULL || ti->s[k].used < lru->used)
				lru = &ti->s[k];
		if (lru != NULL && (lru->used + 2 <= scan || ti->n_s == STACKS_MAX))
			se = lru;
		else
			se = &ti->s[ti->n_s++];
		anew = true;
	}
	if (anew) {
		se->tgid = tgid;
		se->tid = tid;
		se->gen = ++ti->gens;	/* a read of the old one is dropped */
		se->have = false;
		se->err = 0;
		se->ran_want = se->ran_have = false;
		se->state = ENTRY_KNOWN;
	}
	se->used = scan;
	if (ran_at != NULL) {
		se->ran_want = true;
		*ran_at = se->ran_have ? se->ran_at : NAN;
	}
	/* Denied, there is only the sched file to read, once. */
	if (se->state == ENTRY_KNOWN && (ti->stack_denied == 0 ||
	    (se->ran_want && !se->ran_have))) {
		se->state = ENTRY_PENDING;
		se->asked = ++ti->asks;
		pthread_cond_signal(&ti->work);
	}
	if (ti->stack_denied != 0)
		r = -ti->stack_denied;
	else if (se->have) {
		stack_unpack(se->packed, se->len, st);
		r = 0;
	} else if (se->err != 0)
		r = -se->err;
	else if (se->state != ENTRY_READING && ti->reading &&
	    ti->reading_scan + 1 < scan)
		r = -EBUSY;	/* in another read since the scan before last */
	else
		r = -EAGAIN;
	pthread_mutex_unlock(&ti->mtx);
	return r;
}
