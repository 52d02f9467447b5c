/*
 * The task scan's directories and descriptors: <root> and each process's
 * task directory listed with getdents64() into the scanner's own buffer,
 * the new listing merged with the last by tid (a tid hash) so that every
 * task keeps its held descriptors and its time in D, and the descriptors
 * opened under the cap that the RLIMIT_NOFILE hard limit sets (see the top
 * of taskscan.c). Nothing here allocates unless an array must grow.
 */

#include "source/taskscan-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define FD_RESERVE		64	/* descriptors left to the rest of pagetop */
#define FD_CAP_MAX		(1 << 20)

/* Makes room for need elements in *arr, doubling: 0 or -ENOMEM. */
int
taskscan_grow(void *arr, size_t *cap, size_t need, size_t size)
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

void
taskscan_fd_limit_raise(struct taskscan *ts)
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
int
taskscan_root_list(struct taskscan *ts)
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
			if ((err = taskscan_grow(&ts->tgids, &ts->cap_tgids,
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

	if (taskscan_grow(&ts->t_next, &ts->cap_t_next, *n + 1, sizeof(*e)) != 0)
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
int
taskscan_task_open(struct taskscan *ts, const struct task *e, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "%d/task/%d/%s", e->tgid, e->tid, name);
	return openat(ts->root_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
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
		if (taskscan_grow(&ts->t_next, &ts->cap_t_next, *n_t + op->count,
		    sizeof(*ts->t_next)) != 0)
			return -ENOMEM;
		memcpy(ts->t_next + *n_t, ts->t + op->start,
		    op->count * sizeof(*ts->t));
		*n_t += op->count;
		op->kept = true;
	} else if ((r = task_dir_list(ts, n_t, tgid)) <= 0)
		return r;	/* gone (0) or out of memory */
	if (taskscan_grow(&ts->p_next, &ts->cap_p_next, *n_p + 1, sizeof(*np)) != 0)
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
		if ((e->fd = taskscan_task_open(ts, e, "stat")) >= 0)
			ts->held++;
	}
	for (i = 0; i < ts->n_t && ts->held < ts->fd_cap && !ts->no_sched;
	    i++) {
		e = &ts->t[i];
		if (e->fd < 0 || e->sfd >= 0)
			continue;
		if ((e->sfd = taskscan_task_open(ts, e, "schedstat")) >= 0) {
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
int
taskscan_relist(struct taskscan *ts)
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
