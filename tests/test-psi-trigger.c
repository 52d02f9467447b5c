/*
 * PSI triggers are polled for POLLPRI alone: a pressure file is always
 * readable, so a poll that also asks for POLLIN returns at once, and the
 * loops that wait on it spin (pagetop record took a whole CPU). The tests'
 * stand-in FIFO is polled for POLLIN. As root, a real trigger on this
 * machine's /proc/pressure/memory is registered and polled the same way.
 */
#include <poll.h>
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

	if (psi_trigger_open(&t, "/proc", NULL, why, sizeof(why)) < 0) {
		tap_ok(1, "a real trigger # SKIP %s", why);
		tap_ok(1, "a real trigger's poll # SKIP %s", why);
		return tap_done();
	}
	n = psi_trigger_pollfds(&t, p, PSI_TRIGGER_MAX);
	tap_ok(n >= 1, "a real trigger on this machine (%d)", n);
	/* Firing (POLLPRI) is possible on a busy machine; being readable
	 * (POLLIN) is what must not come back. */
	poll(p, (nfds_t)n, 100);
	tap_ok(!(p[0].revents & POLLIN) && (n < 2 || !(p[1].revents & POLLIN)),
	    "its poll does not return for the file being readable");
	psi_trigger_close(&t);
	return tap_done();
}
