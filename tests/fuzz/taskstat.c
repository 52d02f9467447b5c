/*
 * taskstat_parse on any bytes (a /proc/PID/task/TID/stat). What parses
 * has a pid and ppid that are not negative, a letter for a state and a
 * command name that is a string, and, written back as the kernel prints
 * it ("%d (%s) %c %d ..."), parses to the same. What does not parse says
 * why on line 1 (or 0, empty).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/taskstat.h"

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	struct taskstat ts, again;
	char text[128];
	int r = taskstat_parse((const char *)data, len, &ts, &err), n;

	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("taskstat: returned %d", r);
		fuzz_check_error("taskstat", &err, data, len);
		return;
	}
	fuzz_check_name("taskstat comm", ts.comm, sizeof(ts.comm));
	if (ts.pid < 0 || ts.ppid < 0 ||
	    !((ts.state >= 'A' && ts.state <= 'Z') || (ts.state >= 'a' && ts.state <= 'z')))
		fuzz_fail("taskstat: pid %d ppid %d state %d", ts.pid, ts.ppid, ts.state);

	n = snprintf(text, sizeof(text), "%d (%s) %c %d 1 2 0 -1 4194560\n", ts.pid, ts.comm,
		     ts.state, ts.ppid);
	if (taskstat_parse(text, (size_t)n, &again, &err) != 0)
		fuzz_fail("taskstat: written back as %s does not parse: %s", text, err.msg);
	if (again.pid != ts.pid || again.ppid != ts.ppid || again.state != ts.state ||
	    strcmp(again.comm, ts.comm) != 0)
		fuzz_fail("taskstat: written back as %s parses different", text);
}

FUZZ_TARGET(taskstat, run, "tests/fixtures/proc/stat")
