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
 * libproc2 is loaded with dlopen() by the worker, the first time a
 * blocked task's details are wanted: with the libsystemd, libgcrypt and
 * others it pulls in it costs about 1 MB of resident memory, which a
 * dashboard on a box where nothing blocks need not pay. Where it cannot
 * be loaded, command lines are read plainly and users are not known.
 *
 * A stuck read cannot be cancelled: it sleeps in the kernel (killable at
 * best: only a fatal signal ends it) and libproc2 is not cancel-safe. So
 * taskinfo_free waits a little for the worker, then detaches it and
 * leaves it the memory: it frees everything when its read returns.
 */

#include "source/taskinfo.h"

#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "parse/stack.h"

#define ENTRIES_MAX	512	/* twice the blocked tasks a scan lists */
#define STACKS_MAX	256	/* as many */
#define STACK_PACKED	2048	/* a packed stack: 64 frames of 31 bytes */
#define STACK_READ	(16 * 1024)	/* 64 frames of ~100 bytes */
#define CMDLINE_MAX	160	/* as struct blocked_task's */
#define USER_MAX	32
#define FREE_WAIT_MS	200	/* for a worker before it is left behind */

enum entry_state { ENTRY_FREE, ENTRY_PENDING, ENTRY_READING, ENTRY_KNOWN };

struct entry {
	enum entry_state state;
	int tgid;
	unsigned long proc_id;
	char comm[16];
	unsigned long used;	/* the scan that last asked */
	unsigned long asked;	/* order of the asking, oldest read first */
	unsigned long gen;	/* moves when the entry is given to another */
	char cmdline[CMDLINE_MAX];
	char user[USER_MAX];
};

/* A blocked task's stack, read again at every tick that asks. */
struct stack_entry {
	enum entry_state state;
	int tgid, tid;
	unsigned long used, asked, gen;
	bool have;		/* packed holds the last one read */
	int err;		/* of the last read, 0 */
	uint16_t len;
	char packed[STACK_PACKED];	/* stack_pack(): touched only as far as it goes */
};

/* What libproc2 is asked for, in this order (see PIDS_VAL below). Without
 * PIDS_CMD, an empty command line comes back as "[(null)]". */
enum { ITEM_PID, ITEM_CMDLINE, ITEM_EUSER, ITEM_CMD };
static enum pids_item pids_items[] = {
	PIDS_ID_PID, PIDS_CMDLINE, PIDS_ID_EUSER, PIDS_CMD
};

struct taskinfo {
	pthread_mutex_t mtx;
	pthread_cond_t work;	/* an entry is pending, or stop */
	pthread_cond_t done;	/* the worker has stopped */
	pthread_cond_t idle;	/* the worker found nothing to do */
	pthread_t thread;
	bool stop;
	bool running;
	bool orphaned;		/* freed while reading: the worker frees */
	unsigned long asks;
	unsigned long gens;
	int stack_denied;	/* EACCES or EPERM: stacks need root */
	struct entry e[ENTRIES_MAX];
	int n;
	struct stack_entry s[STACKS_MAX];
	int n_s;

	/* The worker's alone. */
	bool live;		/* the real /proc: details through libproc2 */
	bool pids_tried;
	struct pids_info *pids;	/* once libproc2 is set up, else NULL */
	int root_fd;		/* stacks, and cmdlines when not live */
	char cmdline[CMDLINE_MAX];
	char user[USER_MAX];
	struct stack st;
	char stackbuf[STACK_READ];
};

/* The libproc2 calls we make, set once by proc2_load(). */
static struct {
	int (*pids_new)(struct pids_info **info, enum pids_item *items, int numitems);
	struct pids_fetch *(*pids_select)(struct pids_info *info, unsigned *these,
					  int numthese, enum pids_select_type which);
	int (*pids_unref)(struct pids_info **info);
} proc2;
static pthread_once_t proc2_once = PTHREAD_ONCE_INIT;
static bool proc2_loaded;

static void
proc2_load(void)
{
	void *dl = dlopen(PROC2_SONAME, RTLD_NOW | RTLD_LOCAL);
	void *a, *b, *c;

	if (dl == NULL)
		return;
	a = dlsym(dl, "procps_pids_new");
	b = dlsym(dl, "procps_pids_select");
	c = dlsym(dl, "procps_pids_unref");
	if (a == NULL || b == NULL || c == NULL) {
		dlclose(dl);
		return;
	}
	/* POSIX guarantees a function pointer survives this round trip. */
	memcpy(&proc2.pids_new, &a, sizeof(a));
	memcpy(&proc2.pids_select, &b, sizeof(b));
	memcpy(&proc2.pids_unref, &c, sizeof(c));
	proc2_loaded = true;	/* and never unloaded */
}

/* On the worker: libproc2 set up, once; ti->pids stays NULL if it cannot. */
static void
pids_setup(struct taskinfo *ti)
{
	static pthread_mutex_t setup = PTHREAD_MUTEX_INITIALIZER;

	ti->pids_tried = true;
	pthread_once(&proc2_once, proc2_load);
	if (!proc2_loaded)
		return;
	/* Its first use sets up globals: two workers at once (two scanners,
	 * as in the tests) must not race there. */
	pthread_mutex_lock(&setup);
	if (proc2.pids_new(&ti->pids, pids_items,
	    (int)(sizeof(pids_items) / sizeof(pids_items[0]))) < 0)
		ti->pids = NULL;
	pthread_mutex_unlock(&setup);
}

static void
taskinfo_destroy(struct taskinfo *ti)
{
	if (ti->pids != NULL)
		proc2.pids_unref(&ti->pids);
	if (ti->root_fd >= 0)
		close(ti->root_fd);
	pthread_cond_destroy(&ti->work);
	pthread_cond_destroy(&ti->done);
	pthread_cond_destroy(&ti->idle);
	pthread_mutex_destroy(&ti->mtx);
	free(ti);
}

/* Through libproc2: an empty command line (a zombie) comes back as
 * "[comm]". */
static void
read_live(struct taskinfo *ti, int tgid)
{
	struct pids_fetch *f;
	struct pids_stack *s;
	const char *str;
	unsigned pid = (unsigned)tgid;

	f = proc2.pids_select(ti->pids, &pid, 1, PIDS_SELECT_PID);
	if (f == NULL || f->counts->total < 1)
		return;
	s = f->stacks[0];
	if ((str = PIDS_VAL(ITEM_CMDLINE, str, s, ti->pids)) != NULL)
		snprintf(ti->cmdline, sizeof(ti->cmdline), "%s", str);
	if ((str = PIDS_VAL(ITEM_EUSER, str, s, ti->pids)) != NULL)
		snprintf(ti->user, sizeof(ti->user), "%s", str);
}

/* A made-up tree: <root>/P/cmdline by plain read (so that a test can make
 * it block), its NULs as spaces, "[comm]" when empty. No user. */
static void
read_plain(struct taskinfo *ti, int tgid, const char *comm)
{
	char path[32], *buf = ti->cmdline;
	size_t n = 0, i;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%d/cmdline", tgid);
	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	/* What does not fit is not kept: no need to read it. */
	while (n < sizeof(ti->cmdline) - 1) {
		r = read(fd, buf + n, sizeof(ti->cmdline) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++) {
		if (buf[i] == '\0')
			buf[i] = ' ';
		else if ((unsigned char)buf[i] < ' ')
			buf[i] = '?';
	}
	buf[n] = '\0';
	if (n == 0)
		snprintf(ti->cmdline, sizeof(ti->cmdline), "[%s]", comm);
}

/* <root>/P/task/T/stack parsed into ti->st: 0 or -errno. */
static int
read_stack(struct taskinfo *ti, int tgid, int tid)
{
	char path[64];
	size_t n = 0;
	ssize_t r = 0;
	int fd;

	snprintf(path, sizeof(path), "%d/task/%d/stack", tgid, tid);
	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	while (n < sizeof(ti->stackbuf) - 1) {
		r = read(fd, ti->stackbuf + n, sizeof(ti->stackbuf) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			r = -errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (r < 0)
		return (int)r;
	ti->stackbuf[n] = '\0';
	return stack_parse(ti->stackbuf, n, &ti->st, NULL) == 0 ? 0 : -EINVAL;
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
	int tgid = se->tgid, tid = se->tid, r;

	se->state = ENTRY_READING;
	pthread_mutex_unlock(&ti->mtx);
	r = read_stack(ti, tgid, tid);	/* may block */
	pthread_mutex_lock(&ti->mtx);
	if (r == -EACCES || r == -EPERM)
		ti->stack_denied = -r;
	if (se->gen != gen || se->state != ENTRY_READING)
		return;		/* given to another task meanwhile */
	se->state = ENTRY_KNOWN;
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

	d->state = ENTRY_READING;
	memcpy(comm, d->comm, sizeof(comm));
	pthread_mutex_unlock(&ti->mtx);
	ti->cmdline[0] = ti->user[0] = '\0';
	if (ti->live && !ti->pids_tried)
		pids_setup(ti);
	if (ti->pids != NULL)	/* may block */
		read_live(ti, tgid);
	else
		read_plain(ti, tgid, comm);
	pthread_mutex_lock(&ti->mtx);
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
	ti->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ti->running = true;
	if (pthread_create(&ti->thread, NULL, taskinfo_worker, ti) != 0) {
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
 * (EACCES or EPERM for good: stacks need root); -EAGAIN when none was
 * read yet. Asks for a new read unless one is pending or in progress
 * (stuck, maybe). anew: the task has just blocked, an older stack is
 * not its own.
 */
int
taskinfo_stack(struct taskinfo *ti, int tgid, int tid, bool anew,
    unsigned long scan, struct stack *st)
{
	struct stack_entry *se = NULL;
	int k, r;

	pthread_mutex_lock(&ti->mtx);
	if (ti->stack_denied != 0) {
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
		se->state = ENTRY_KNOWN;
	}
	se->used = scan;
	if (se->state == ENTRY_KNOWN) {
		se->state = ENTRY_PENDING;
		se->asked = ++ti->asks;
		pthread_cond_signal(&ti->work);
	}
	if (se->have) {
		stack_unpack(se->packed, se->len, st);
		r = 0;
	} else
		r = se->err != 0 ? -se->err : -EAGAIN;
	pthread_mutex_unlock(&ti->mtx);
	return r;
}
