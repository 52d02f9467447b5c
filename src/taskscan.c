/*
 * The task scan. Reading every thread's state is the most expensive thing
 * pagetop does, so each step is the cheapest one measured (bench/):
 *
 *	list (rare)			tick (always)
 *	-----------			-------------
 *	<root>/stat "processes"	->	changed? list again
 *	getdents64 <root>, each		pread <root>/P/task/T/stat at 0,
 *	  <root>/P/task; merge with	  one held descriptor per task ->
 *	  the held tasks by tid,	  state after the last ')' ->
 *	  keeping their descriptors	  by_state; gone: close, drop
 *	  and blocked times		for the few in D: wchan, stack,
 *					  then libproc2 for cmdline, user
 *
 * "processes" in /proc/stat counts every fork and clone since boot, so a
 * new task always moves it; a vanished task shows as a failed pread. The
 * directories are listed again when either happened, and every
 * RELIST_SECS as a safety net. Listing uses getdents64() into a buffer of
 * our own, so even a listing allocates nothing unless an array has to
 * grow (they double, and only up to the number of tasks seen).
 *
 * One descriptor is held per task, up to the RLIMIT_NOFILE hard limit
 * less FD_RESERVE for the rest of the program; the soft limit is raised
 * to the hard one when the scan starts. Tasks beyond that are opened,
 * read and closed on every tick, and the note says how many.
 */

#include "taskscan.h"

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

#include <libproc2/pids.h>

#include "taskstat.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define RELIST_SECS		10.0	/* list again at least this often */
#define FD_RESERVE		64	/* descriptors left to the rest of pagetop */
#define FD_CAP_MAX		(1 << 20)
/* A task's stat line is about 330 bytes; the state is within the first
 * 80 (pid, comm of up to 64 bytes, state). A short read is fine: see
 * taskstat.c. */
#define STAT_READ		512
#define PROCSTAT_START		(16 * 1024)
#define PROCSTAT_MAX		(16 * 1024 * 1024)
#define DENTS_SIZE		(32 * 1024)
#define STACK_READ		(16 * 1024)	/* 64 frames of ~100 bytes */
#define WCHAN_READ		64
#define TASKS_START		1024
#define PIDS_BATCH		255	/* procps_pids_select() takes at most 255 */

struct task {
	int tid;		/* 0: gone, to be dropped */
	int tgid;
	int fd;			/* its stat, or -1: reopened each tick */
	bool moved;		/* carried over into the listing being made */
	bool in_d;		/* in D at the last tick */
	bool since_start;
	uint64_t wchan_hash;	/* of the wchan it was blocked on */
	double since;		/* mono when first seen in D on that wchan */
};

/* A blocked task's process details, kept while it stays blocked so that
 * libproc2 is asked only about tasks that just blocked. */
struct detail {
	int tgid;
	char cmdline[160];
	char user[32];
};

/* What libproc2 is asked for, in this order (see PIDS_VAL below). */
enum { ITEM_PID, ITEM_CMDLINE, ITEM_EUSER };
static enum pids_item pids_items[] = {
	PIDS_ID_PID, PIDS_CMDLINE, PIDS_ID_EUSER
};

struct taskscan {
	char root[PATH_MAX];
	int root_fd;		/* -1 when root could not be opened */
	int root_err;
	bool live;		/* root is /proc itself: libproc2 sees the same */

	int stat_fd;		/* <root>/stat, for "processes" */
	char *procstat;
	size_t procstat_cap;
	uint64_t processes;	/* at the last listing */
	bool have_processes;

	bool relist;		/* a task vanished: list again */
	bool listed;
	double listed_at;
	int list_err;		/* errno of the last listing, 0 when fine */
	unsigned long scans;

	struct task *t;		/* listing order: by tgid, threads in order */
	size_t n, cap;
	struct task *next;	/* the next listing, swapped in */
	size_t next_cap;
	int *slots;		/* tid -> index + 1 in t, open addressing */
	size_t n_slots;

	size_t held;		/* descriptors open in t */
	size_t fd_cap;
	unsigned long fd_limit;
	size_t reopened;	/* tasks read with open/pread/close */
	bool fds_short;		/* EMFILE while reopening */

	struct pids_info *pids;
	struct detail details[TASKS_MAX_BLOCKED];
	int n_details;
	struct detail new_details[TASKS_MAX_BLOCKED];
	unsigned tgids[TASKS_MAX_BLOCKED];
	unsigned long sigs[TASKS_MAX_STACKS];
	struct stack scratch;	/* a stack read when all slots are taken */

	_Alignas(8) char dents[DENTS_SIZE];	/* struct dirent64 records */
	char stackbuf[STACK_READ];
};

static int
fd_limit_raise(struct taskscan *ts)
{
	struct rlimit rl;
	rlim_t max;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -errno;
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
	return 0;
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
	ts->cap = ts->next_cap = TASKS_START;
	ts->n_slots = 2 * TASKS_START;
	ts->procstat = malloc(ts->procstat_cap);
	ts->t = calloc(ts->cap, sizeof(*ts->t));
	ts->next = calloc(ts->next_cap, sizeof(*ts->next));
	ts->slots = calloc(ts->n_slots, sizeof(*ts->slots));
	if (!ts->procstat || !ts->t || !ts->next || !ts->slots) {
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
	 * libproc2 reads /proc whatever our root is, so it only fills in
	 * details for the real thing. It is set up once here; it allocates
	 * on every procps_pids_select(), which we call only on ticks where
	 * a task newly blocked (see details_fill).
	 */
	if (ts->live && procps_pids_new(&ts->pids, pids_items,
	    (int)(sizeof(pids_items) / sizeof(pids_items[0]))) < 0)
		ts->pids = NULL;
	return ts;
}

void
taskscan_free(struct taskscan *ts)
{
	size_t i;

	if (ts == NULL)
		return;
	for (i = 0; i < ts->n; i++) {
		if (ts->t[i].fd >= 0)
			close(ts->t[i].fd);
	}
	if (ts->stat_fd >= 0)
		close(ts->stat_fd);
	if (ts->root_fd >= 0)
		close(ts->root_fd);
	if (ts->pids != NULL)
		procps_pids_unref(&ts->pids);
	free(ts->procstat);
	free(ts->t);
	free(ts->next);
	free(ts->slots);
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
	char *nb;

	if (ts->stat_fd < 0)
		return -ENOENT;
	for (;;) {
		if (n == ts->procstat_cap) {
			if (ts->procstat_cap >= PROCSTAT_MAX)
				return -EFBIG;
			if ((nb = realloc(ts->procstat,
			    ts->procstat_cap * 2)) == NULL)
				return -ENOMEM;
			ts->procstat = nb;
			ts->procstat_cap *= 2;
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

static size_t
slot_of(const struct taskscan *ts, int tid)
{
	return ((uint32_t)tid * 2654435761u) & (ts->n_slots - 1);
}

/* Indexes the current tasks by tid; the table stays at least twice the
 * number of tasks. */
static int
slots_build(struct taskscan *ts)
{
	size_t i, s;
	int *ns;

	if (ts->n * 2 > ts->n_slots) {
		s = ts->n_slots;
		while (ts->n * 2 > s)
			s *= 2;
		if ((ns = calloc(s, sizeof(*ns))) == NULL)
			return -ENOMEM;
		free(ts->slots);
		ts->slots = ns;
		ts->n_slots = s;
	} else
		memset(ts->slots, 0, ts->n_slots * sizeof(*ts->slots));
	for (i = 0; i < ts->n; i++) {
		s = slot_of(ts, ts->t[i].tid);
		while (ts->slots[s] != 0)
			s = (s + 1) & (ts->n_slots - 1);
		ts->slots[s] = (int)i + 1;
	}
	return 0;
}

/* The current task with this tid, or NULL. */
static struct task *
slots_find(struct taskscan *ts, int tid)
{
	size_t s = slot_of(ts, tid);

	struct task *e;

	while (ts->slots[s] != 0) {
		e = &ts->t[ts->slots[s] - 1];
		if (e->tid == tid && !e->moved)
			return e;
		s = (s + 1) & (ts->n_slots - 1);
	}
	return NULL;
}

/* Adds tgid/tid to the next listing, carrying over what we held. */
static int
list_add(struct taskscan *ts, size_t *n_next, int tgid, int tid)
{
	struct task *old, *e, *nb;

	if (*n_next == ts->next_cap) {
		if ((nb = realloc(ts->next, 2 * ts->next_cap *
		    sizeof(*nb))) == NULL)
			return -ENOMEM;
		ts->next = nb;
		ts->next_cap *= 2;
	}
	e = &ts->next[(*n_next)++];
	if ((old = slots_find(ts, tid)) != NULL && old->tgid == tgid) {
		*e = *old;
		old->moved = true;	/* its descriptor now belongs to e */
		return 0;
	}
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	e->tgid = tgid;
	e->fd = -1;
	return 0;
}

/* The threads of process tgid. */
static int
list_process(struct taskscan *ts, size_t *n_next, int tgid)
{
	char path[32];
	struct dirent64 *de;
	ssize_t r, off;
	int fd, tid, err = 0;

	snprintf(path, sizeof(path), "%d/task", tgid);
	if ((fd = openat(ts->root_fd, path, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return 0;	/* gone since /proc was listed */
	while (err == 0 && (r = getdents64(fd, ts->dents,
	    sizeof(ts->dents))) > 0) {
		for (off = 0; off < r && err == 0; off += de->d_reclen) {
			de = (struct dirent64 *)(void *)(ts->dents + off);
			if ((tid = name_to_id(de->d_name)) > 0)
				err = list_add(ts, n_next, tgid, tid);
		}
	}
	close(fd);
	return err;
}

static int
stat_open(struct taskscan *ts, const struct task *e)
{
	char path[48];

	snprintf(path, sizeof(path), "%d/task/%d/stat", e->tgid, e->tid);
	return openat(ts->root_fd, path, O_RDONLY | O_CLOEXEC);
}

/*
 * Lists <root>/[0-9]* /task/[0-9]* again into ts->next, carrying over the
 * descriptors and blocked times of tasks we already held; closes those of
 * tasks no longer listed; opens the new ones while under the cap.
 */
static int
list(struct taskscan *ts, double mono)
{
	struct dirent64 *de;
	struct task *swap;
	size_t i, n_next = 0, cap_swap;
	ssize_t r, off;
	int fd, tgid, err;

	ts->listed = true;
	ts->listed_at = mono;
	ts->relist = false;
	if ((err = slots_build(ts)) != 0)
		return err;
	if ((fd = openat(ts->root_fd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return -errno;
	err = 0;
	while (err == 0 && (r = getdents64(fd, ts->dents,
	    sizeof(ts->dents))) > 0) {
		/* The per-process listing reuses the buffer: copy the
		 * ids out first. */
		int ids[DENTS_SIZE / 24];
		int k, n_ids = 0;

		for (off = 0; off < r; off += de->d_reclen) {
			de = (struct dirent64 *)(void *)(ts->dents + off);
			if ((tgid = name_to_id(de->d_name)) > 0 &&
			    n_ids < (int)(sizeof(ids) / sizeof(ids[0])))
				ids[n_ids++] = tgid;
		}
		for (k = 0; k < n_ids && err == 0; k++)
			err = list_process(ts, &n_next, ids[k]);
	}
	if (r < 0 && err == 0)
		err = -errno;
	close(fd);
	if (err != 0) {
		/* Keep what we had: next owns no descriptor of its own. */
		for (i = 0; i < ts->n; i++)
			ts->t[i].moved = false;
		return err;
	}

	for (i = 0; i < ts->n; i++) {
		if (!ts->t[i].moved && ts->t[i].fd >= 0) {
			close(ts->t[i].fd);
			ts->held--;
		}
	}
	for (i = 0; i < n_next; i++)
		ts->next[i].moved = false;
	swap = ts->t;
	ts->t = ts->next;
	ts->next = swap;
	cap_swap = ts->cap;
	ts->cap = ts->next_cap;
	ts->next_cap = cap_swap;
	ts->n = n_next;

	for (i = 0; i < ts->n && ts->held < ts->fd_cap; i++) {
		if (ts->t[i].fd < 0 && (ts->t[i].fd = stat_open(ts,
		    &ts->t[i])) >= 0)
			ts->held++;
	}
	return 0;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* One read of <root>/P/task/T/<name> into buf (NUL-terminated): the
 * length, or -errno. */
static ssize_t
task_file_read(struct taskscan *ts, const struct task *e, const char *name,
    char *buf, size_t size, bool whole)
{
	char path[64];
	size_t n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%d/task/%d/%s", e->tgid, e->tid, name);
	if ((fd = openat(ts->root_fd, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	do {
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		n += (size_t)r;
	} while (whole && r > 0 && n < size - 1);
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

static bool
stack_same(const struct stack *a, const struct stack *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++) {
		if (strcmp(a->f[i].func, b->f[i].func) != 0 ||
		    strcmp(a->f[i].module, b->f[i].module) != 0)
			return false;
	}
	return true;
}

/*
 * The kernel stack of a blocked task, as an index into out->stacks shared
 * with the tasks blocked alike; -1 when it cannot be read. The first
 * EACCES/EPERM (no CAP_SYS_ADMIN in the initial namespace) or ENOENT
 * (no CONFIG_STACKTRACE) stops the tries for the rest of the tick.
 */
static int
stack_read(struct taskscan *ts, const struct task *e, struct tasks *out)
{
	struct stack *st;
	unsigned long sig;
	ssize_t r;
	int k;

	if (out->stack_err != 0)
		return -1;
	r = task_file_read(ts, e, "stack", ts->stackbuf, sizeof(ts->stackbuf),
	    true);
	if (r == -EACCES || r == -EPERM || r == -ENOENT) {
		out->stack_err = (int)-r;
		return -1;
	}
	if (r < 0)
		return -1;
	/* Parse into the next free slot, or the scratch one when full. */
	st = out->n_stacks < TASKS_MAX_STACKS ?
	    &out->stacks[out->n_stacks] : &ts->scratch;
	if (stack_parse(ts->stackbuf, (size_t)r, st, NULL) != 0)
		return -1;
	sig = stack_signature(st);
	for (k = 0; k < out->n_stacks; k++) {
		if (ts->sigs[k] == sig && stack_same(&out->stacks[k], st))
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
    double mono, struct tasks *out)
{
	struct blocked_task *b;
	char wchan[WCHAN_READ];
	uint64_t h;

	if (out->n_blocked == TASKS_MAX_BLOCKED) {
		/* Not shown: keep the time it blocked, skip the reads. */
		out->truncated = true;
		if (!e->in_d) {
			e->since = mono;
			e->since_start = ts->scans == 0;
		}
		e->in_d = true;
		return;
	}
	b = &out->b[out->n_blocked++];
	b->tid = e->tid;
	b->tgid = e->tgid;
	b->state = 'D';
	memcpy(b->comm, st->comm, sizeof(b->comm));

	if (task_file_read(ts, e, "wchan", wchan, sizeof(wchan), false) < 0 ||
	    strcmp(wchan, "0") == 0)
		wchan[0] = '\0';
	snprintf(b->wchan, sizeof(b->wchan), "%.*s", (int)sizeof(b->wchan) - 1,
	    wchan);
	h = hash_str(wchan);
	if (!e->in_d || e->wchan_hash != h) {
		/* Blocked anew, or on something else: start again. */
		e->since = mono;
		e->since_start = ts->scans == 0;
		e->wchan_hash = h;
	}
	e->in_d = true;
	b->since = e->since;
	b->since_start = e->since_start;
	b->stack = stack_read(ts, e, out);
	b->cmdline[0] = '\0';
	b->user[0] = '\0';
}

/* The index of tgid's details in d, or -1. */
static int
details_find(const struct detail *d, int n, int tgid)
{
	int i;

	for (i = 0; i < n; i++) {
		if (d[i].tgid == tgid)
			return i;
	}
	return -1;
}

/*
 * Command line and user of the blocked tasks' processes. Those still
 * blocked since the last tick keep what we had; the others are asked of
 * libproc2 in one procps_pids_select(). That allocates (and may look the
 * user up through NSS), which is acceptable only because it happens on
 * ticks where tasks newly blocked, never in the steady state. Reading a
 * cmdline takes the target's mmap lock: a process whose lock is held by a
 * stuck writer can make this wait.
 */
static void
details_fill(struct taskscan *ts, struct tasks *out)
{
	struct pids_fetch *f;
	struct pids_stack *s;
	const struct detail *d;
	struct detail *nd;
	int i, j, k, n_new = 0, n_ask = 0, tgid;
	const char *str;

	for (i = 0; i < out->n_blocked; i++) {
		tgid = out->b[i].tgid;
		if (details_find(ts->new_details, n_new, tgid) >= 0)
			continue;
		nd = &ts->new_details[n_new++];
		if ((j = details_find(ts->details, ts->n_details, tgid)) >= 0)
			*nd = ts->details[j];
		else {
			nd->tgid = tgid;
			nd->cmdline[0] = nd->user[0] = '\0';
			ts->tgids[n_ask++] = (unsigned)tgid;
		}
	}
	for (k = 0; ts->pids != NULL && k < n_ask; k += PIDS_BATCH) {
		f = procps_pids_select(ts->pids, ts->tgids + k,
		    n_ask - k < PIDS_BATCH ? n_ask - k : PIDS_BATCH,
		    PIDS_SELECT_PID);
		if (f == NULL)
			break;
		for (i = 0; i < f->counts->total; i++) {
			s = f->stacks[i];
			tgid = PIDS_VAL(ITEM_PID, s_int, s, ts->pids);
			if ((j = details_find(ts->new_details, n_new,
			    tgid)) < 0)
				continue;
			nd = &ts->new_details[j];
			str = PIDS_VAL(ITEM_CMDLINE, str, s, ts->pids);
			/* libproc2 shows a kernel thread's empty command
			 * line as "-": say so with "". */
			if (str != NULL && strcmp(str, "-") != 0)
				snprintf(nd->cmdline, sizeof(nd->cmdline),
				    "%s", str);
			str = PIDS_VAL(ITEM_EUSER, str, s, ts->pids);
			if (str != NULL)
				snprintf(nd->user, sizeof(nd->user), "%s",
				    str);
		}
	}
	memcpy(ts->details, ts->new_details, n_new * sizeof(*ts->details));
	ts->n_details = n_new;
	for (i = 0; i < out->n_blocked; i++) {
		d = &ts->details[details_find(ts->details, n_new,
		    out->b[i].tgid)];
		memcpy(out->b[i].cmdline, d->cmdline, sizeof(d->cmdline));
		memcpy(out->b[i].user, d->user, sizeof(d->user));
	}
}

/* Drops the tasks marked gone, keeping the order. */
static void
compact(struct taskscan *ts)
{
	size_t i, k = 0;

	for (i = 0; i < ts->n; i++) {
		if (ts->t[i].tid > 0)
			ts->t[k++] = ts->t[i];
	}
	ts->n = k;
}

/* Reads every task's state; false when the task is gone. */
static bool
task_read(struct taskscan *ts, struct task *e, double mono, struct tasks *out)
{
	char buf[STAT_READ];
	struct taskstat st;
	ssize_t r;
	int fd = e->fd;

	if (fd < 0) {
		if ((fd = stat_open(ts, e)) < 0) {
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
	 * memrchr(')') (bench/, 5,000 tasks): 0.5% of a tick, for one
	 * parser tested on every fixture.
	 */
	if (taskstat_parse(buf, (size_t)r, &st, NULL) != 0)
		return true;	/* unreadable line: not counted */
	out->by_state[(unsigned char)st.state]++;
	out->total++;
	if (st.state == 'D')
		blocked_add(ts, e, &st, mono, out);
	else
		e->in_d = false;
	return true;
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
	size_t i;
	bool gone = false, moved;
	int r;

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

	/* Read the counter before listing: a fork during the listing then
	 * shows as a change at the next tick. */
	r = processes_read(ts, &processes);
	moved = r == 0 && (!ts->have_processes || processes != ts->processes);
	if (!ts->listed || ts->relist || moved || mono - ts->listed_at >=
	    RELIST_SECS || mono < ts->listed_at) {
		ts->list_err = -list(ts, mono);
		if (r == 0) {
			ts->processes = processes;
			ts->have_processes = true;
		}
	}

	for (i = 0; i < ts->n; i++) {
		if (!task_read(ts, &ts->t[i], mono, out)) {
			if (ts->t[i].fd >= 0) {
				close(ts->t[i].fd);
				ts->held--;
			}
			ts->t[i].tid = 0;
			gone = true;
		}
	}
	if (gone) {
		compact(ts);
		ts->relist = true;
	}
	if (out->n_blocked > 0)
		details_fill(ts, out);
	else
		ts->n_details = 0;
	note_set(ts, out);
	ts->scans++;
}
