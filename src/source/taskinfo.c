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
 */

#include "source/taskinfo.h"

#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "parse/stack.h"
#include "util/clock.h"
#include "util/thread.h"

#define ENTRIES_MAX	512	/* twice the blocked tasks a scan lists */
#define STACKS_MAX	256	/* as many */
#define STACK_PACKED	2048	/* a packed stack: 64 frames of 31 bytes */
#define STACK_READ	(16 * 1024)	/* 64 frames of ~100 bytes */
#define CMDLINE_MAX	160	/* as struct blocked_task's */
#define USER_MAX	32
#define FREE_WAIT_MS	200	/* for a worker before it is left behind */
#define SCHED_READ	512	/* se.exec_start is its third line */
#define STAT_READ	1024	/* a task's stat line, to its processor field */
#define STAT_PROCESSOR	36	/* field 39, counted from the state (3) */
#define STATUS_READ	1024	/* a status file, to its Uid line */
#define USERS_KEPT	8	/* uid to name, the last looked up */

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
	bool ran_want;		/* read its sched file too, once */
	bool ran_have;		/* ran_at is known */
	double ran_at;		/* clock_mono() when it last ran, at the latest */
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
	bool reading;		/* the worker is in a read */
	unsigned long reading_scan;	/* the scan that asked for it */
	struct entry e[ENTRIES_MAX];
	int n;
	struct stack_entry s[STACKS_MAX];
	int n_s;

	bool proc2;		/* the scan reads /proc: details through
				 * libproc2 when live */

	/* The worker's alone. */
	bool live;		/* the real /proc */
	bool pids_tried;
	struct pids_info *pids;	/* once libproc2 is set up, else NULL */
	int root_fd;		/* stacks, and cmdlines when not live */
	char cmdline[CMDLINE_MAX];
	char user[USER_MAX];
	struct stack st;
	char stackbuf[STACK_READ];
	char schedbuf[SCHED_READ];
	bool cpus_known;	/* cpus: the worker's own CPUs, to go back to */
	cpu_set_t cpus;
	struct {
		unsigned uid;
		char name[USER_MAX];
	} users[USERS_KEPT];
	int n_users, next_user;
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

/* The name of uid as libproc2 gives it: the user's, else the number. */
static void
user_name(struct taskinfo *ti, unsigned uid)
{
	struct passwd pw, *found = NULL;
	char buf[1024];
	int k;

	for (k = 0; k < ti->n_users; k++) {
		if (ti->users[k].uid == uid) {
			snprintf(ti->user, sizeof(ti->user), "%s",
			    ti->users[k].name);
			return;
		}
	}
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &found) == 0 &&
	    found != NULL)
		snprintf(ti->user, sizeof(ti->user), "%s", pw.pw_name);
	else
		snprintf(ti->user, sizeof(ti->user), "%u", uid);
	k = ti->n_users < USERS_KEPT ? ti->n_users++ : ti->next_user++ % USERS_KEPT;
	ti->users[k].uid = uid;
	memcpy(ti->users[k].name, ti->user, sizeof(ti->users[k].name));
}

/* The effective user of <root>/P, from its status file's Uid line. */
static void
read_user(struct taskinfo *ti, int tgid)
{
	static const char key[] = "\nUid:";
	char path[32], *buf = ti->stackbuf, *p, *end;
	unsigned long uid;
	ssize_t r;
	int fd;

	_Static_assert(sizeof(ti->stackbuf) > STATUS_READ, "room for status");
	snprintf(path, sizeof(path), "%d/status", tgid);
	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	do
		r = read(fd, buf, STATUS_READ - 1);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r <= 0)
		return;
	buf[r] = '\0';
	if ((p = strstr(buf, key)) == NULL)
		return;
	/* Real, effective, saved, filesystem: the second. */
	(void)strtoul(p + sizeof(key) - 1, &end, 10);
	if (end == p + sizeof(key) - 1)
		return;
	p = end;
	uid = strtoul(p, &end, 10);
	if (end == p || uid > UINT32_MAX)
		return;
	user_name(ti, (unsigned)uid);
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
	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0) {
		r = -errno;
		/* No stack file in a task's directory that is there: the
		 * kernel has no CONFIG_STACKTRACE. Else the task is gone. */
		snprintf(path, sizeof(path), "%d/task/%d", tgid, tid);
		if (r == -ENOENT && faccessat(ti->root_fd, path, F_OK, 0) < 0)
			r = -ESRCH;
		return (int)r;
	}
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
	if (stack_parse(ti->stackbuf, n, &ti->st, NULL) != 0)
		return -EINVAL;
	/* Empty: it was on a CPU when read, so not blocked then. */
	return ti->st.n > 0 ? 0 : -ESRCH;
}

/* se.exec_start of a sched file ("se.exec_start   :   4619567.623221",
 * milliseconds) in nanoseconds: 0 or -errno. */
static int
read_exec_start(struct taskinfo *ti, const char *path, uint64_t *ns)
{
	static const char key[] = "\nse.exec_start";
	char *p, *end;
	uint64_t ms = 0, frac = 0;
	ssize_t r;
	int fd, digits = 0;

	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	do
		r = read(fd, ti->schedbuf, sizeof(ti->schedbuf) - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return (int)r;
	ti->schedbuf[r] = '\0';
	if ((p = strstr(ti->schedbuf, key)) == NULL)
		return -EINVAL;
	p += sizeof(key) - 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != ':')
		return -EINVAL;
	while (*p == ' ')
		p++;
	end = p;
	for (; *end >= '0' && *end <= '9' && ms < UINT64_MAX / 100; end++)
		ms = ms * 10 + (uint64_t)(*end - '0');
	if (end == p || *end != '.')
		return -EINVAL;
	for (end++; *end >= '0' && *end <= '9' && digits < 6; end++, digits++)
		frac = frac * 10 + (uint64_t)(*end - '0');
	if (digits != 6 || ms > UINT64_MAX / 1000000)
		return -EINVAL;
	*ns = ms * 1000000 + frac;
	return *ns != 0 ? 0 : -ENODATA;	/* 0: reset by a migration */
}

/* The CPU task tid last ran on (its stat's processor): 0 or -errno. */
static int
read_processor(struct taskinfo *ti, int tgid, int tid, int *cpu)
{
	char path[64], buf[STAT_READ], *p;
	long v;
	ssize_t r;
	int fd, k;

	snprintf(path, sizeof(path), "%d/task/%d/stat", tgid, tid);
	if ((fd = openat(ti->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	do
		r = read(fd, buf, sizeof(buf) - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return (int)r;
	buf[r] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)
		return -EINVAL;
	for (k = 0, p++; k < STAT_PROCESSOR && *p != '\0'; k++)
		p = strchr(p + 1, ' ') != NULL ? strchr(p + 1, ' ') : p + strlen(p);
	v = *p == ' ' ? strtol(p + 1, NULL, 10) : -1;
	if (v < 0 || v >= CPU_SETSIZE)
		return -EINVAL;
	*cpu = (int)v;
	return 0;
}

/*
 * How long ago task tid last ran, in seconds: its se.exec_start against
 * the worker's own, both in the scheduler's task clock. That clock is a
 * CPU's own (it leaves out the time spent in interrupts and the time
 * stolen by the hypervisor, so CPUs drift apart: 100 ms on a 2-CPU VM
 * after an hour), so the worker moves to the CPU the task sleeps on
 * first; where it cannot, no answer. Its own exec_start there is at most
 * a tick behind that clock's now and the clock leaves out what it does
 * not count of the wait: the time blocked it gives is a lower bound.
 * *at in clock_mono()'s seconds. 0 or -errno.
 */
static int
read_last_ran(struct taskinfo *ti, int tgid, int tid, double *at)
{
	char path[64];
	uint64_t self, them;
	cpu_set_t one;
	int r, cpu = 0;

	if (!ti->cpus_known)
		return -ENOTSUP;
	if ((r = read_processor(ti, tgid, tid, &cpu)) < 0)
		return r;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		return -errno;
	snprintf(path, sizeof(path), "%d/task/%d/sched", tgid, tid);
	if ((r = read_exec_start(ti, path, &them)) == 0)
		r = read_exec_start(ti, "thread-self/sched", &self);
	*at = clock_mono();
	sched_setaffinity(0, sizeof(ti->cpus), &ti->cpus);
	if (r < 0)
		return r;
	*at -= self > them ? (double)(self - them) / 1e9 : 0;
	return 0;
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
		rr = read_last_ran(ti, tgid, tid, &at);
	r = denied ? 0 : read_stack(ti, tgid, tid);	/* may block */
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
		pids_setup(ti);
	if (by_proc2 && ti->pids != NULL)	/* may block */
		read_live(ti, tgid);
	else {
		read_plain(ti, tgid, comm);
		if (ti->live)
			read_user(ti, tgid);
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
