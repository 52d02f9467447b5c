/*
 * PSI triggers (Documentation/accounting/psi.rst): a spec such as
 * "some 100000 1000000" written to <root>/pressure/memory and io, each on
 * its own descriptor held open, makes the kernel signal POLLPRI on it when
 * that much stall (microseconds) happened within the window. The live feed
 * samples fast while a trigger has fired within burst_for seconds.
 *
 * Polling a trigger takes its event (the kernel clears it), so whoever
 * polls the descriptors must hand what it saw to psi_trigger_take().
 *
 * A firing is taken only when the pressure file's own total bears it out:
 * at least the threshold of stall over the last window (pro rata while
 * less than a window's worth of totals is kept, at start). Without
 * CAP_SYS_RESOURCE the kernel makes an "average" trigger (a 2 s window),
 * and on Linux 6.18 one fired within 2 s of being made, and again later,
 * with 11 and 68 ms of stall in its window against a threshold of 200 ms
 * (a patch for such triggers starting from the wrong total, "psi: Fix avg
 * trigger being fired unexpectedly", was posted in 2024). Each firing
 * taken means 5 s of samples at 10 a second: ten times the CPU.
 *
 * Test hook (environment): PAGETOP_PSI_TRIGGER=PATH, a FIFO, stands in for
 * the kernel's triggers: a byte written to it is a firing.
 */
#ifndef PAGETOP_SOURCE_PSI_TRIGGER_H
#define PAGETOP_SOURCE_PSI_TRIGGER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PSI_TRIGGER_SPEC	"some 100000 1000000"
/* The default without CAP_SYS_RESOURCE: the same share over the shortest
 * window the kernel allows then (a multiple of 2 s). */
#define PSI_TRIGGER_SPEC_UNPRIV	"some 200000 2000000"
#define PSI_TRIGGER_MAX		2	/* memory and io */
#define PSI_TRIGGER_SPEC_MAX	64
#define PSI_TRIGGER_SEEN	16	/* totals kept a trigger, window/8 apart */

/* A trigger's file's stall total (microseconds) at a mono time. */
struct psi_trigger_seen {
	double t;
	uint64_t total;
};

struct psi_trigger {
	int fd[PSI_TRIGGER_MAX];
	int n;
	bool stand_in;		/* fd[0] is PAGETOP_PSI_TRIGGER's FIFO */
	double last_fire;	/* mono time of the last firing; -1: none yet */
	unsigned long fired;	/* firings seen */
	unsigned long unfounded;	/* firings the totals did not bear out */
	char spec[PSI_TRIGGER_SPEC_MAX];	/* the spec registered */
	bool full;		/* the spec's "full" (else "some") */
	uint64_t thr_us, win_us;
	/* Of fd[i], oldest first: what a firing is checked against. */
	struct psi_trigger_seen seen[PSI_TRIGGER_MAX][PSI_TRIGGER_SEEN];
	int n_seen[PSI_TRIGGER_MAX];
};

/*
 * Checks a spec as the kernel will: "some|full THRESHOLD WINDOW" in
 * microseconds, the window 500 ms to 10 s, the threshold above 0 and not
 * over the window. 0, or -EINVAL with why.
 */
int psi_trigger_spec_check(const char *spec, char *why, size_t size);
/*
 * Registers spec (NULL: PSI_TRIGGER_SPEC, or PSI_TRIGGER_SPEC_UNPRIV when
 * the kernel refuses that for want of CAP_SYS_RESOURCE) on root's
 * pressure/memory and pressure/io. 0; or -errno with one line in why, and
 * no trigger: no PSI, a root whose pressure files are not the kernel's, no
 * write access, a window an unprivileged user may not ask for, a spec the
 * kernel refused.
 */
int psi_trigger_open(struct psi_trigger *t, const char *root, const char *spec, char *why,
		     size_t size);
void psi_trigger_close(struct psi_trigger *t);
/* The descriptors to poll, with their events; how many, at most max. */
int psi_trigger_pollfds(const struct psi_trigger *t, struct pollfd *p, int max);
/* A poll saw revents on fd: true when fd is a trigger's and it fired, as
 * the file's totals bear out (then recorded at mono time now). */
bool psi_trigger_take(struct psi_trigger *t, int fd, short revents, double now);
/* Keeps each trigger's file's total at mono time now, and polls every
 * trigger without waiting; true when one fired. */
bool psi_trigger_check(struct psi_trigger *t, double now);
/*
 * Whether a firing at now is borne out by a total of total microseconds
 * then, against those kept: a growth of the threshold over the last window,
 * or pro rata over less (at least a quarter of it) while less is kept.
 * True when nothing was kept (nothing to tell by).
 */
bool psi_trigger_founded(const struct psi_trigger *t, int i, double now,
			 uint64_t total);
/* Keeps fd[i]'s total at now, when window/8 has passed since the last. */
void psi_trigger_seen_add(struct psi_trigger *t, int i, double now, uint64_t total);

#endif
