/*
 * PSI triggers are polled for POLLPRI alone: a pressure file is always
 * readable, so a poll that also asks for POLLIN returns at once, and the
 * loops that wait on it spin (pagetop record took a whole CPU). The tests'
 * stand-in FIFO is polled for POLLIN. As root, a real trigger on this
 * machine's /proc/pressure/memory is registered and polled the same way.
 *
 * A firing is taken only when the file's totals bear it out: the kernel's
 * "average" triggers (2 s windows, what an unprivileged trigger gets) fire
 * with a tenth of the threshold stalled, and a burst is ten times the CPU.
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "source/psi-trigger.h"
#include "tap.h"

int
main(void)
{
	struct psi_trigger t;
	struct pollfd p[PSI_TRIGGER_MAX];
	char why[200] = "";
	int n;

	memset(&t, 0, sizeof(t));
	t.n = 2;
	t.fd[0] = 7;
	t.fd[1] = 8;
	n = psi_trigger_pollfds(&t, p, PSI_TRIGGER_MAX);
	tap_eq_int(n, 2, "both triggers handed out");
	tap_ok(p[0].events == POLLPRI && p[1].events == POLLPRI,
	    "a trigger is polled for POLLPRI alone (events %#x, %#x)", p[0].events, p[1].events);
	t.stand_in = true;
	t.n = 1;
	n = psi_trigger_pollfds(&t, p, PSI_TRIGGER_MAX);
	tap_ok(n == 1 && p[0].events == POLLIN, "the stand-in FIFO for POLLIN");

	/* Threshold 200 ms in a 2 s window; totals every 0.25 s. */
	memset(&t, 0, sizeof(t));
	t.n = 1;
	t.thr_us = 200000;
	t.win_us = 2000000;
	tap_ok(psi_trigger_founded(&t, 0, 1.0, 0), "nothing kept: the kernel is taken at its word");
	psi_trigger_seen_add(&t, 0, 10.0, 1000000);
	psi_trigger_seen_add(&t, 0, 10.1, 1000000);
	tap_eq_int(t.n_seen[0], 1, "totals closer than window/8 are not kept");
	tap_ok(!psi_trigger_founded(&t, 0, 11.5, 1000000 + 11000),
	    "1.5 s after the start, 11 ms stalled: not borne out");
	tap_ok(psi_trigger_founded(&t, 0, 11.5, 1000000 + 160000),
	    "1.5 s after the start, 160 ms stalled: borne out (pro rata, 150 ms)");
	tap_ok(!psi_trigger_founded(&t, 0, 10.2, 1000000 + 40000),
	    "0.2 s after the start, 40 ms: not (at least a quarter of the threshold)");
	for (int k = 1; k <= 40; k++)
		psi_trigger_seen_add(&t, 0, 10.0 + 0.25 * k, 1000000 + 10000 * (uint64_t)k);
	tap_eq_int(t.n_seen[0], PSI_TRIGGER_SEEN, "the oldest totals make room");
	tap_ok(t.seen[0][0].t > 16.2 && t.seen[0][0].t < 16.3,
	    "16 totals kept, window/8 apart: the oldest at %.2f, two windows back", t.seen[0][0].t);
	/* At 20.0 the total is 1,400,000; 2 s before, 1,320,000. */
	tap_ok(!psi_trigger_founded(&t, 0, 20.0, 1400000 + 68000),
	    "148 ms in the last window: not borne out");
	tap_ok(psi_trigger_founded(&t, 0, 20.0, 1400000 + 130000),
	    "210 ms in the last window: borne out");

	if (psi_trigger_open(&t, "/proc", NULL, why, sizeof(why)) < 0) {
		tap_ok(1, "a real trigger # SKIP %s", why);
		tap_ok(1, "a real trigger's poll # SKIP %s", why);
		tap_ok(1, "a real trigger's total # SKIP %s", why);
		return tap_done();
	}
	n = psi_trigger_pollfds(&t, p, PSI_TRIGGER_MAX);
	tap_ok(n >= 1, "a real trigger on this machine (%d)", n);
	tap_ok(t.n_seen[0] == 1 && t.seen[0][0].total > 0 && t.thr_us > 0 && t.win_us > 0,
	    "its file's total kept at the start (%llu us), threshold %llu us in %llu us",
	    (unsigned long long)t.seen[0][0].total, (unsigned long long)t.thr_us,
	    (unsigned long long)t.win_us);
	/* Firing (POLLPRI) is possible on a busy machine; being readable
	 * (POLLIN) is what must not come back. */
	poll(p, (nfds_t)n, 100);
	tap_ok(!(p[0].revents & POLLIN) && (n < 2 || !(p[1].revents & POLLIN)),
	    "its poll does not return for the file being readable");
	psi_trigger_close(&t);
	return tap_done();
}
