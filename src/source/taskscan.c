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
 */

#include "source/taskscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "source/taskinfo.h"
#include "parse/taskstat.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define RELIST_SECS		10.0	/* list everything at least this often */
#define FD_RESERVE		64	/* descriptors left to the rest of pagetop */
#define FD_CAP_MAX		(1 << 20)
/* A task's stat line is about 330 bytes; what we parse ends within the
 * first ~200 (pid, comm of up to 64 bytes, 17 short fields). */
#define STAT_READ		512
#define SCHED_READ		96	/* three numbers of up to 20 digits */
#define STAT_EVERY		10	/* every stat read at least this often */
#define PROCSTAT_START		(16 * 1024)
#define PROCSTAT_MAX		(16 * 1024 * 1024)
#define DENTS_SIZE		(32 * 1024)
#define WCHAN_READ		64
#define ARRAY_START		256
#define PF_KTHREAD		0x00200000	/* in a stat line's flags */
#define FIRST_WAIT_MS		100	/* for the worker, at the first scan */

struct task {
	int tid;		/* 0: gone, dropped at the next listing */
	int tgid;
	int fd;			/* its stat, or -1: opened each tick */
	int sfd;		/* its schedstat, or -1: stat read every tick */
	char state;		/* at the last stat read, 0: none or unparsed */
	uint64_t sched_sig;	/* of its schedstat then, 0: none */
	bool fresh;		/* listed this tick, not read yet */
	bool moved;		/* carried into the listing being made */
	bool in_d;		/* in D at the last tick */
	bool since_start;
	uint64_t wchan_hash;	/* of the wchan it is blocked on */
	double since;		/* mono when first seen in D on that wchan */
};

/* A process: its threads are t[start .. start + count). */
struct proc {
	int tgid;
	bool dirty;		/* its task directory must be listed again */
	bool kept;		/* carried whole into the listing being made */
	int nthreads;		/* from its leader's line, -1 unknown */
	unsigned long id;	/* new when the process is new or its leader gone */
	size_t start, count;
};

/* Open addressing, key 0 empty: tid -> task, or tgid -> proc. */
struct slot {
	int key;
	int val;
};

struct index {
	struct slot *s;
	size_t size;		/* a power of two, at least twice the keys */
};

struct taskscan {
	char root[PATH_MAX];
	int root_fd;		/* -1 when root could not be opened */
	int root_err;
	bool live;		/* root is /proc itself: libproc2 sees the same */

	int stat_fd;		/* <root>/stat, for "processes" */
	char *procstat;
	size_t procstat_cap;
	uint64_t processes;	/* at the last listing of <root> */
	bool have_processes;
	double listed_at;	/* mono of the last full listing */
	int list_err;		/* errno of the last listing of <root> */
	unsigned long scans;

	struct task *t, *t_next;	/* by process, in <root>'s order */
	size_t n_t, cap_t, cap_t_next;
	struct proc *p, *p_next;
	size_t n_p, cap_p, cap_p_next;
	int *tgids;		/* <root> as listed this tick */
	size_t n_tgids, cap_tgids;
	bool root_listed;	/* tgids is this tick's */
	bool full;		/* list every task directory this tick */
	bool any_dirty;
	struct index by_tid;	/* tasks of dirty processes */
	struct index by_tgid;	/* processes */

	size_t held;		/* descriptors open in t */
	size_t fd_cap;
	unsigned long fd_limit;
	size_t reopened;	/* tasks read with open/pread/close */
	bool fds_short;		/* EMFILE while reopening */
	bool no_sched;		/* schedstat missing: not opened till full */

	struct taskinfo *info;	/* stacks, cmdlines, users; NULL: none */
	unsigned long proc_ids;	/* the last one given */
	/* Of out->b[i]: */
	bool kthread[TASKS_MAX_BLOCKED];
	unsigned long b_proc_id[TASKS_MAX_BLOCKED];
	unsigned long sigs[TASKS_MAX_STACKS];
	struct stack scratch;	/* a stack read when all slots are taken */

	_Alignas(8) char dents[DENTS_SIZE];	/* struct dirent64 records */
};

/* Makes room for need elements in *arr, doubling: 0 or -ENOMEM. */
static int
grow(void *arr, size_t *cap, size_t need, size_t size)
{
	void *nb;
	size_t c = *cap;

	if (need <= c)
		return 0;
	while (c < need)
		c *= 2;
	if ((nb = realloc(*(void **)arr, c * size)) == NULL)
		return -ENOMEM;
	*(void **)arr = nb;
	*cap = c;
	return 0;
}

/* Empties ix, sized for n keys. */
static int
index_reset(struct index *ix, size_t n)
{
	struct slot *s;
	size_t size = ix->size;

	while (size < 2 * n)
		size *= 2;
	if (size != ix->size) {
		if ((s = calloc(size, sizeof(*s))) == NULL)
			return -ENOMEM;
		free(ix->s);
		ix->s = s;
		ix->size = size;
	} else
		memset(ix->s, 0, size * sizeof(*ix->s));
	return 0;
}

static void
index_put(struct index *ix, int key, int val)
{
	size_t i = ((uint32_t)key * 2654435761u) & (ix->size - 1);

	while (ix->s[i].key != 0)
		i = (i + 1) & (ix->size - 1);
	ix->s[i].key = key;
	ix->s[i].val = val;
}

/* The value of key, or -1. */
static int
index_get(const struct index *ix, int key)
{
	size_t i = ((uint32_t)key * 2654435761u) & (ix->size - 1);

	while (ix->s[i].key != 0) {
		if (ix->s[i].key == key)
			return ix->s[i].val;
		i = (i + 1) & (ix->size - 1);
	}
	return -1;
}

static void
fd_limit_raise(struct taskscan *ts)
{
	struct rlimit rl;
	rlim_t max;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	max = rl.rlim_cur;
	if (max == RLIM_INFINITY || max > FD_CAP_MAX + FD_RESERVE)
		max = FD_CAP_MAX + FD_RESERVE;
	ts->fd_limit = (unsigned long)rl.rlim_cur;
	ts->fd_cap = max > FD_RESERVE ? (size_t)(max - FD_RESERVE) : 0;
}

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
	fd_limit_raise(ts);

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
		ts->stat_fd = openat(ts->root_fd, "stat", O_RDONLY | O_CLOEXEC);
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
	struct text_cursor c;
	struct span line, w;
	size_t n = 0;
	ssize_t r;

	if (ts->stat_fd < 0)
		return -ENOENT;
	for (;;) {
		if (n == ts->procstat_cap) {
			if (ts->procstat_cap >= PROCSTAT_MAX)
				return -EFBIG;
			if (grow(&ts->procstat, &ts->procstat_cap, n + 1, 1) != 0)
				return -ENOMEM;
		}
		r = pread(ts->stat_fd, ts->procstat + n, ts->procstat_cap - n,
		    (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	text_cursor_init(&c, ts->procstat, n);
	while (text_next_line(&c, &line)) {
		if (!span_next_word(&line, &w) || !span_eq(w, "processes"))
			continue;
		if (!span_next_word(&line, &w) || span_to_u64(w, out) != 0)
			return -EINVAL;
		return 0;
	}
	return -ENOENT;
}

/* A directory entry's name as a positive number, or 0. */
static int
name_to_id(const char *s)
{
	long v = 0;

	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > INT_MAX / 10)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return v <= INT_MAX ? (int)v : 0;
}

/* The processes in <root>, in its order, into ts->tgids. */
static int
root_list(struct taskscan *ts)
{
	struct dirent64 *de;
	ssize_t r, off;
	int fd, id, err = 0;

	ts->n_tgids = 0;
	if ((fd = openat(ts->root_fd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return -errno;
	while (err == 0 && (r = getdents64(fd, ts->dents,
	    sizeof(ts->dents))) > 0) {
		for (off = 0; off < r && err == 0; off += de->d_reclen) {
			de = (struct dirent64 *)(void *)(ts->dents + off);
			if ((id = name_to_id(de->d_name)) == 0)
				continue;
			if ((err = grow(&ts->tgids, &ts->cap_tgids,
			    ts->n_tgids + 1, sizeof(*ts->tgids))) == 0)
				ts->tgids[ts->n_tgids++] = id;
		}
	}
	if (r < 0 && err == 0)
		err = -errno;
	close(fd);
	return err;
}

/* Appends tgid/tid to t_next, carrying over the task we had. */
static int
task_add(struct taskscan *ts, size_t *n, int tgid, int tid)
{
	struct task *e, *old;
	int i;

	if (grow(&ts->t_next, &ts->cap_t_next, *n + 1, sizeof(*e)) != 0)
		return -ENOMEM;
	e = &ts->t_next[(*n)++];
	if ((i = index_get(&ts->by_tid, tid)) >= 0 &&
	    (old = &ts->t[i])->tgid == tgid && !old->moved) {
		*e = *old;
		e->moved = false;
		old->moved = true;	/* its descriptor is e's now */
		return 0;
	}
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	e->tgid = tgid;
	e->fd = e->sfd = -1;
	e->fresh = true;
	return 0;
}

/* The threads of tgid from <root>/tgid/task into t_next: how many, or
 * -errno. A process that has gone has none. */
static int
task_dir_list(struct taskscan *ts, size_t *n, int tgid)
{
	char path[32];
	struct dirent64 *de;
	ssize_t r, off;
	size_t n0 = *n;
	int fd, tid, err = 0;

	snprintf(path, sizeof(path), "%d/task", tgid);
	if ((fd = openat(ts->root_fd, path, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return 0;
	while (err == 0 && (r = getdents64(fd, ts->dents,
	    sizeof(ts->dents))) > 0) {
		for (off = 0; off < r && err == 0; off += de->d_reclen) {
			de = (struct dirent64 *)(void *)(ts->dents + off);
			if ((tid = name_to_id(de->d_name)) > 0)
				err = task_add(ts, n, tgid, tid);
		}
	}
	close(fd);
	return err != 0 ? err : (int)(*n - n0);
}

/* <root>/P/task/T/<name> opened, or -1 with errno set. */
static int
task_open(struct taskscan *ts, const struct task *e, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "%d/task/%d/%s", e->tgid, e->tid, name);
	return openat(ts->root_fd, path, O_RDONLY | O_CLOEXEC);
}

/* Appends process tgid to p_next: its old tasks as they were when it is
 * clean (old >= 0), else its task directory listed again. */
static int
proc_add(struct taskscan *ts, size_t *n_t, size_t *n_p, int tgid, int old)
{
	struct proc *np, *op = old >= 0 ? &ts->p[old] : NULL;
	size_t start = *n_t;
	int r;

	if (op != NULL && !op->dirty && !ts->full) {
		if (grow(&ts->t_next, &ts->cap_t_next, *n_t + op->count,
		    sizeof(*ts->t_next)) != 0)
			return -ENOMEM;
		memcpy(ts->t_next + *n_t, ts->t + op->start,
		    op->count * sizeof(*ts->t));
		*n_t += op->count;
		op->kept = true;
	} else if ((r = task_dir_list(ts, n_t, tgid)) <= 0)
		return r;	/* gone (0) or out of memory */
	if (grow(&ts->p_next, &ts->cap_p_next, *n_p + 1, sizeof(*np)) != 0)
		return -ENOMEM;
	np = &ts->p_next[(*n_p)++];
	np->tgid = tgid;
	np->dirty = np->kept = false;
	np->nthreads = op != NULL ? op->nthreads : -1;
	np->id = op != NULL ? op->id : ++ts->proc_ids;
	np->start = start;
	np->count = *n_t - start;
	return 0;
}

/*
 * Opens the descriptors of the tasks that lack them, under the cap: the
 * stat ones first, taking them from schedstat ones when short, then the
 * schedstat ones (see the top of the file).
 */
static void
fds_open(struct taskscan *ts)
{
	struct task *e;
	size_t i, j = ts->n_t;
	char c;

	for (i = 0; i < ts->n_t; i++) {
		e = &ts->t[i];
		if (e->fd >= 0)
			continue;
		if (ts->held >= ts->fd_cap) {
			/* Short: the last schedstat descriptor gives way. */
			while (j > 0 && ts->t[j - 1].sfd < 0)
				j--;
			if (j == 0)
				break;
			close(ts->t[j - 1].sfd);
			ts->t[j - 1].sfd = -1;
			ts->held--;
		}
		if ((e->fd = task_open(ts, e, "stat")) >= 0)
			ts->held++;
	}
	for (i = 0; i < ts->n_t && ts->held < ts->fd_cap && !ts->no_sched;
	    i++) {
		e = &ts->t[i];
		if (e->fd < 0 || e->sfd >= 0)
			continue;
		if ((e->sfd = task_open(ts, e, "schedstat")) >= 0) {
			ts->held++;
			continue;
		}
		/* Missing while the task lives (its stat reads): none at all,
		 * or none we may read. Tried again at the next full listing. */
		if ((errno == ENOENT || errno == EACCES || errno == EPERM) &&
		    pread(e->fd, &c, 1, 0) == 1)
			ts->no_sched = true;
	}
}

/*
 * Makes the next listing: the processes of <root> when it was listed this
 * tick, else the ones we had; the dirty ones (and all of them when
 * ts->full) with their task directories listed again and merged by tid.
 * Closes what is no longer listed, opens what is new while under the cap.
 */
static int
relist(struct taskscan *ts)
{
	struct proc *op;
	void *swap;
	size_t i, k, n_t = 0, n_p = 0, n_keys = 0, cap;
	int err = 0;

	/* Index the tasks that may be carried into a listed directory. */
	for (i = 0; i < ts->n_p; i++) {
		op = &ts->p[i];
		op->kept = false;
		if (op->dirty || ts->full)
			n_keys += op->count;
	}
	if ((err = index_reset(&ts->by_tid, n_keys)) != 0)
		return err;
	for (i = 0; i < ts->n_p; i++) {
		op = &ts->p[i];
		if (!op->dirty && !ts->full)
			continue;
		for (k = op->start; k < op->start + op->count; k++) {
			if (ts->t[k].tid > 0)
				index_put(&ts->by_tid, ts->t[k].tid, (int)k);
		}
	}

	if (ts->root_listed) {
		if ((err = index_reset(&ts->by_tgid, ts->n_p)) != 0)
			return err;
		for (i = 0; i < ts->n_p; i++)
			index_put(&ts->by_tgid, ts->p[i].tgid, (int)i);
		for (i = 0; i < ts->n_tgids && err == 0; i++)
			err = proc_add(ts, &n_t, &n_p, ts->tgids[i],
			    index_get(&ts->by_tgid, ts->tgids[i]));
	} else {
		for (i = 0; i < ts->n_p && err == 0; i++)
			err = proc_add(ts, &n_t, &n_p, ts->p[i].tgid, (int)i);
	}
	if (err != 0) {
		/* Keep what we had; t_next owns no descriptor. */
		for (i = 0; i < ts->n_t; i++)
			ts->t[i].moved = false;
		return err;
	}

	/* Close what did not come along. */
	for (i = 0; i < ts->n_p; i++) {
		op = &ts->p[i];
		if (op->kept)
			continue;
		for (k = op->start; k < op->start + op->count; k++) {
			if (ts->t[k].moved)
				continue;
			if (ts->t[k].fd >= 0) {
				close(ts->t[k].fd);
				ts->held--;
			}
			if (ts->t[k].sfd >= 0) {
				close(ts->t[k].sfd);
				ts->held--;
			}
		}
	}
	swap = ts->t;
	ts->t = ts->t_next;
	ts->t_next = swap;
	cap = ts->cap_t;
	ts->cap_t = ts->cap_t_next;
	ts->cap_t_next = cap;
	swap = ts->p;
	ts->p = ts->p_next;
	ts->p_next = swap;
	cap = ts->cap_p;
	ts->cap_p = ts->cap_p_next;
	ts->cap_p_next = cap;
	ts->n_t = n_t;
	ts->n_p = n_p;
	fds_open(ts);
	return 0;
}

/* Field n (counted from 1, after comm: n > 2) of a stat line that holds
 * an unsigned number, or -1. */
static long long
stat_field(const char *buf, size_t len, int n)
{
	const char *end = buf + len, *p = memrchr(buf, ')', len);
	long long v = 0;
	int field = 2;

	if (p == NULL)
		return -1;
	for (p++; p < end && field < n; p++) {
		if (*p == ' ')
			field++;
	}
	if (field != n || p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9' && v < LLONG_MAX / 10; p++)
		v = v * 10 + (*p - '0');
	return v;
}

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
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%d/task/%d/%s", e->tgid, e->tid, name);
	if ((fd = openat(ts->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	do
		r = read(fd, buf, size - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		r = -errno;
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}

/*
 * The kernel stack of a blocked task, as an index into out->stacks shared
 * with the tasks blocked alike; -1 when it cannot be read or none was
 * read yet. The taskinfo worker reads it (the read takes the target's
 * exec lock, see taskinfo.c): this is the last one it read, at the
 * previous tick or before when it is busy or stuck. The first EACCES/EPERM
 * (no CAP_SYS_ADMIN in the initial namespace) or ENOENT (no
 * CONFIG_STACKTRACE) stops the tries for the rest of the tick.
 */
static int
stack_get(struct taskscan *ts, int tgid, int tid, bool anew,
    struct tasks *out)
{
	struct stack *st;
	unsigned long sig;
	int k, r;

	if (out->stack_err != 0 || ts->info == NULL)
		return -1;
	/* Into the next free slot, or the scratch one when full. */
	st = out->n_stacks < TASKS_MAX_STACKS ?
	    &out->stacks[out->n_stacks] : &ts->scratch;
	r = taskinfo_stack(ts->info, tgid, tid, anew, ts->scans, st);
	if (r == -EACCES || r == -EPERM || r == -ENOENT) {
		out->stack_err = -r;
		return -1;
	}
	if (r < 0)
		return -1;
	sig = stack_signature(st);
	for (k = 0; k < out->n_stacks; k++) {
		if (ts->sigs[k] == sig && stack_equal(&out->stacks[k], st))
			return k;
	}
	if (out->n_stacks == TASKS_MAX_STACKS)
		return -1;
	ts->sigs[out->n_stacks] = sig;
	return out->n_stacks++;
}

/* A task seen in D: its entry in out, and how long it has been blocked. */
static void
blocked_add(struct taskscan *ts, struct task *e, const struct taskstat *st,
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
			e->wchan_hash = 0;
		}
		e->in_d = true;
		return;
	}
	ts->kthread[out->n_blocked] = kthread;
	ts->b_proc_id[out->n_blocked] = proc_id;
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
		e->wchan_hash = h;
	} else if (h != 0)
		e->wchan_hash = h;
	e->in_d = true;
	b->since = e->since;
	b->since_start = e->since_start;
	b->stack = stack_get(ts, e->tgid, e->tid, anew, out);
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
static void
details_fill(struct taskscan *ts, struct tasks *out)
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

/* A schedstat's contents as a number that moves whenever they do; 0 for
 * "0 0 0", which says nothing (see the top of the file). */
static uint64_t
sched_sig(const char *buf, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	if (len >= 5 && memcmp(buf, "0 0 0", 5) == 0)
		return 0;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
	return h | 1;
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
		sig = sched_sig(buf, (size_t)r);
		if (!force && sig != 0 && sig == e->sched_sig &&
		    e->state != 0 && !e->in_d) {
			out->by_state[(unsigned char)e->state]++;
			out->total++;
			return true;
		}
		e->sched_sig = sig;
	}
	if (fd < 0) {
		if ((fd = task_open(ts, e, "stat")) < 0) {
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
	if (e->tid == e->tgid)
		p->nthreads = (int)stat_field(buf, (size_t)r, 20);
	out->by_state[(unsigned char)st.state]++;
	out->total++;
	if (st.state == 'D') {
		flags = stat_field(buf, (size_t)r, 9);
		blocked_add(ts, e, &st, flags >= 0 && (flags & PF_KTHREAD),
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
	out->n_stacks = 0;
	out->stack_err = 0;
	out->note[0] = '\0';
	ts->reopened = 0;
	ts->fds_short = false;
	if (ts->root_fd < 0) {
		note_set(ts, out);
		return;
	}

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
		err = root_list(ts);
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
		if ((err = relist(ts)) != 0)
			ts->list_err = -err;
		procs_read(ts, true, mono, out);
	}
	if (out->n_blocked > 0)
		details_fill(ts, out);
	/*
	 * A first scan may be all a caller takes (pagetop snapshot): it
	 * waits a little for the worker, and takes what it read. The
	 * stacks are asked again for that, one read more each.
	 */
	if (out->n_blocked > 0 && ts->scans == 0 && ts->info != NULL) {
		taskinfo_wait(ts->info, FIRST_WAIT_MS);
		out->n_stacks = 0;
		out->stack_err = 0;
		for (i = 0; i < out->n_blocked; i++)
			out->b[i].stack = stack_get(ts, out->b[i].tgid,
			    out->b[i].tid, false, out);
		details_fill(ts, out);
	}
	note_set(ts, out);
	ts->scans++;
}
