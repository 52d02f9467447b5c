/*
 * What the taskinfo worker reads of a blocked task, each a plain read of
 * a file under the proc root: its command line, its user (the status
 * file's effective uid, named with getpwuid_r), its kernel stack, and
 * when it last ran (its sched file, read from the CPU it sleeps on). Any
 * of them may block for as long as the task is stuck: the worker holds
 * no lock meanwhile (taskinfo.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/taskinfo-int.h"
#include "util/clock.h"
#include "util/readall.h"

#define STAT_READ	1024	/* a task's stat line, to its processor field */
#define STAT_PROCESSOR	36	/* field 39, counted from the state (3) */
#define STATUS_READ	1024	/* a status file, to its Uid line */

/* One read of <root>/path: util/readall.h. */
static ssize_t
read_once(const struct taskinfo *ti, const char *path, char *buf, size_t size)
{
	return readat_once(ti->root_fd, path, 0, buf, size);
}

/* A made-up tree: <root>/P/cmdline by plain read (so that a test can make
 * it block), its NULs as spaces, "[comm]" when empty. No user. */
void
taskinfo_read_cmdline(struct taskinfo *ti, int tgid, const char *comm)
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
void
taskinfo_read_user(struct taskinfo *ti, int tgid)
{
	static const char key[] = "\nUid:";
	char path[32], *buf = ti->stackbuf, *p, *end;
	unsigned long uid;

	_Static_assert(sizeof(ti->stackbuf) > STATUS_READ, "room for status");
	snprintf(path, sizeof(path), "%d/status", tgid);
	if (read_once(ti, path, buf, STATUS_READ) <= 0)
		return;
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
int
taskinfo_read_stack(struct taskinfo *ti, int tgid, int tid)
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
	int digits = 0;

	if ((r = read_once(ti, path, ti->schedbuf, sizeof(ti->schedbuf))) < 0)
		return (int)r;
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
	int k;

	snprintf(path, sizeof(path), "%d/task/%d/stat", tgid, tid);
	if ((r = read_once(ti, path, buf, sizeof(buf))) < 0)
		return (int)r;
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
int
taskinfo_read_last_ran(struct taskinfo *ti, int tgid, int tid, double *at)
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
