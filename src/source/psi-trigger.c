/*
 * PSI triggers on pressure/memory and pressure/io (psi-trigger.h). The
 * kernel holds a trigger for as long as its descriptor is open, and
 * refuses one on anything but its own pressure files: a tree of captured
 * files gets a why, never a write.
 */
#include "source/psi-trigger.h"
#include "parse/psi.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PSI_WINDOW_MIN_US	500000u
#define PSI_WINDOW_MAX_US	10000000u
#define PSI_UNPRIV_STEP_US	2000000u	/* an unprivileged window's multiple */
#define PROC_SUPER_MAGIC	0x9fa0
#define PSI_READ		256	/* two lines of a pressure file */

static const char *const psi_trigger_files[PSI_TRIGGER_MAX] = { "memory", "io" };

/* The spec's threshold and window; false when it is not the kernel's form. */
static bool
psi_trigger_scan(const char *spec, unsigned long *thr, unsigned long *win)
{
	char kind[8], tail;

	if (sscanf(spec, "%7s %lu %lu %c", kind, thr, win, &tail) != 3)
		return false;
	return strcmp(kind, "some") == 0 || strcmp(kind, "full") == 0;
}

/* fd[i]'s stall total of the spec's kind, in microseconds: 0, or -errno. */
static int
psi_trigger_total(const struct psi_trigger *t, int i, uint64_t *total)
{
	char buf[PSI_READ];
	struct psi p;
	ssize_t r;

	do
		r = pread(t->fd[i], buf, sizeof(buf), 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (psi_parse(buf, (size_t)r, &p, NULL) != 0)
		return -EINVAL;
	if (!(t->full ? p.full.present : p.some.present))
		return -ENOENT;
	*total = t->full ? p.full.total : p.some.total;
	return 0;
}

void
psi_trigger_seen_add(struct psi_trigger *t, int i, double now, uint64_t total)
{
	struct psi_trigger_seen *s = t->seen[i];
	int *n = &t->n_seen[i];

	if (*n > 0 && now - s[*n - 1].t < (double)t->win_us / 8e6)
		return;
	if (*n == PSI_TRIGGER_SEEN) {
		memmove(s, s + 1, (PSI_TRIGGER_SEEN - 1) * sizeof(*s));
		(*n)--;
	}
	s[(*n)++] = (struct psi_trigger_seen){ .t = now, .total = total };
}

bool
psi_trigger_founded(const struct psi_trigger *t, int i, double now, uint64_t total)
{
	const struct psi_trigger_seen *s = t->seen[i], *base = NULL;
	double win = (double)t->win_us / 1e6, share = 1;
	uint64_t grew;

	if (t->n_seen[i] == 0 || t->win_us == 0)
		return true;
	/* The newest total from a window ago or more, else the oldest. */
	for (int k = t->n_seen[i] - 1; k >= 0 && !base; k--)
		if (s[k].t <= now - win)
			base = &s[k];
	if (!base) {
		base = &s[0];
		share = (now - base->t) / win;
		if (share < 0.25)
			share = 0.25;
	}
	grew = total > base->total ? total - base->total : 0;
	return (double)grew >= share * (double)t->thr_us;
}

/* Keeps fd[i]'s total at now; false when it cannot be read. */
static bool
psi_trigger_note(struct psi_trigger *t, int i, double now, uint64_t *total)
{
	if (t->stand_in || psi_trigger_total(t, i, total) != 0)
		return false;
	psi_trigger_seen_add(t, i, now, *total);
	return true;
}

int
psi_trigger_spec_check(const char *spec, char *why, size_t size)
{
	unsigned long thr, win;

	if (strlen(spec) >= PSI_TRIGGER_SPEC_MAX || !psi_trigger_scan(spec, &thr, &win)) {
		snprintf(why, size, "is not \"some|full THRESHOLD_US WINDOW_US\" "
			 "(e.g. \"%s\")", PSI_TRIGGER_SPEC);
		return -EINVAL;
	}
	if (win < PSI_WINDOW_MIN_US || win > PSI_WINDOW_MAX_US) {
		snprintf(why, size, "has a window of %lu us: the kernel takes 500000 to 10000000",
			 win);
		return -EINVAL;
	}
	if (thr == 0 || thr > win) {
		snprintf(why, size, "has a threshold of %lu us: more than 0, up to the window",
			 thr);
		return -EINVAL;
	}
	return 0;
}

/* The stand-in of the test hook: a FIFO, readable when it fired. */
static int
psi_trigger_open_stand_in(struct psi_trigger *t, const char *path, char *why, size_t size)
{
	struct stat st;

	if ((t->fd[0] = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0 ||
	    fstat(t->fd[0], &st) < 0 || !S_ISFIFO(st.st_mode)) {
		int e = t->fd[0] < 0 ? errno : EINVAL;

		snprintf(why, size, "PAGETOP_PSI_TRIGGER=%.200s: %s", path,
			 e == EINVAL ? "not a FIFO" : strerror(e));
		psi_trigger_close(t);
		return -e;
	}
	t->n = 1;
	t->stand_in = true;
	return 0;
}

/* The kernel lets a window that is not a multiple of 2 s to holders of
 * CAP_SYS_RESOURCE only (root in a container may lack it). */
static bool
psi_trigger_privileged(void)
{
	char line[256];
	unsigned long long eff = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return geteuid() == 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return found ? (eff >> 24 & 1) != 0 : geteuid() == 0;	/* CAP_SYS_RESOURCE */
}

/* One line for the kernel's refusal to register spec on path. */
static int
psi_trigger_refused(const char *path, const char *spec, int e, char *why, size_t size)
{
	unsigned long thr = 0, win = 0;

	psi_trigger_scan(spec, &thr, &win);
	if (e == EACCES || e == EROFS)
		snprintf(why, size, "needs write access to %.200s (root)", path);
	else if (e == ENOENT)
		snprintf(why, size, "no PSI (%.200s: %s)", path, strerror(e));
	else if ((e == EINVAL || e == EPERM) && win % PSI_UNPRIV_STEP_US &&
		 !psi_trigger_privileged())
		snprintf(why, size, "a window of %gs needs CAP_SYS_RESOURCE (else a multiple "
			 "of 2s)", (double)win / 1e6);
	else if (e == EPERM)
		snprintf(why, size, "needs root to write to %.200s", path);
	else if (e == EINVAL)
		snprintf(why, size, "the kernel refused \"%.64s\" on %.200s", spec, path);
	else
		snprintf(why, size, "%.200s: %s", path, strerror(e));
	return -e;
}

static int
psi_trigger_register(struct psi_trigger *t, const char *root, const char *spec, char *why,
		     size_t size)
{
	struct statfs sf;
	char path[4096];
	int r;

	unsigned long thr = 0, win = 0;
	uint64_t total;

	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if ((r = psi_trigger_spec_check(spec, why, size)) < 0)
		return r;
	psi_trigger_scan(spec, &thr, &win);
	t->thr_us = thr;
	t->win_us = win;
	t->full = strncmp(spec, "full", 4) == 0;
	for (int i = 0; i < PSI_TRIGGER_MAX; i++) {
		snprintf(path, sizeof(path), "%s/pressure/%s", root, psi_trigger_files[i]);
		/* A captured file would take the spec as its new content. */
		if (statfs(path, &sf) == 0 && sf.f_type != PROC_SUPER_MAGIC) {
			snprintf(why, size, "%.200s is not the kernel's (a trigger needs /proc)",
				 path);
			psi_trigger_close(t);
			return -ENOTSUP;
		}
		if ((t->fd[i] = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0 ||
		    write(t->fd[i], spec, strlen(spec) + 1) < 0) {
			r = psi_trigger_refused(path, spec, errno, why, size);
			psi_trigger_close(t);
			return r;
		}
		t->n = i + 1;
		/* Where the first firing is measured from. */
		psi_trigger_note(t, i, clock_mono(), &total);
	}
	return 0;
}

int
psi_trigger_open(struct psi_trigger *t, const char *root, const char *spec, char *why,
		 size_t size)
{
	const char *stand_in = getenv("PAGETOP_PSI_TRIGGER");
	int r;

	*t = (struct psi_trigger){ .fd = { -1, -1 }, .last_fire = -1 };
	if (stand_in && stand_in[0])
		return psi_trigger_open_stand_in(t, stand_in, why, size);
	r = psi_trigger_register(t, root, spec ? spec : PSI_TRIGGER_SPEC, why, size);
	if (r == -EINVAL && !spec && !psi_trigger_privileged() &&
	    psi_trigger_register(t, root, PSI_TRIGGER_SPEC_UNPRIV, why, size) == 0)
		r = 0;
	if (r == 0 && size)
		why[0] = '\0';
	return r;
}

void
psi_trigger_close(struct psi_trigger *t)
{
	for (int i = 0; i < PSI_TRIGGER_MAX; i++) {
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = -1;
	}
	t->n = 0;
	memset(t->n_seen, 0, sizeof(t->n_seen));
}

int
psi_trigger_pollfds(const struct psi_trigger *t, struct pollfd *p, int max)
{
	int k = 0;

	/* A pressure file is always readable: a trigger says POLLPRI only;
	 * the tests' stand-in FIFO says POLLIN. */
	for (int i = 0; i < t->n && k < max; i++)
		p[k++] = (struct pollfd){ .fd = t->fd[i],
		    .events = t->stand_in ? POLLIN : POLLPRI };
	return k;
}

bool
psi_trigger_take(struct psi_trigger *t, int fd, short revents, double now)
{
	bool fired = false;
	char buf[64];

	for (int i = 0; i < t->n; i++) {
		if (t->fd[i] != fd)
			continue;
		if (t->stand_in) {
			if (revents & POLLIN)
				while (read(fd, buf, sizeof(buf)) > 0)
					fired = true;
		} else if (revents & POLLPRI) {
			uint64_t total;

			/* Unreadable: the kernel's word is all there is. */
			fired = !psi_trigger_note(t, i, now, &total) ||
			    psi_trigger_founded(t, i, now, total);
			if (!fired)
				t->unfounded++;
		}
	}
	if (fired) {
		t->last_fire = now;
		t->fired++;
	}
	return fired;
}

bool
psi_trigger_check(struct psi_trigger *t, double now)
{
	struct pollfd p[PSI_TRIGGER_MAX];
	bool fired = false;
	uint64_t total;

	for (int i = 0; i < t->n; i++)
		psi_trigger_note(t, i, now, &total);
	psi_trigger_pollfds(t, p, PSI_TRIGGER_MAX);
	if (t->n == 0 || poll(p, (nfds_t)t->n, 0) <= 0)
		return false;
	for (int i = 0; i < t->n; i++)
		if (p[i].revents && psi_trigger_take(t, p[i].fd, p[i].revents, now))
			fired = true;
	return fired;
}
