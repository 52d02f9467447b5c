/*
 * /proc/stat, for the one line the task scan wants:
 *
 *	cpu  32328 0 13556 146622 935 0 641 63 0 0
 *	cpu0 11262 0 5057 79933 172 0 486 33 0 0
 *	intr 2496709 18 73 0 0 ...
 *	ctxt 1671774
 *	btime 1796119652
 *	processes 251668
 *	procs_running 2
 *
 * "processes" counts every fork and clone since boot (the kernel's
 * total_forks), so the scan lists its root again only when it moved. The
 * line comes after one line per CPU and one of every interrupt: tens of
 * kilobytes on a big box, read whole (the reader's buffer grows) and
 * skipped a line at a time. The key is the first word of a line, so
 * "procs_running" or a per-CPU figure never matches; the first such line
 * counts, and what follows its number is not looked at.
 */

#include "parse/procstat.h"

#include <errno.h>

/* At most this much of a bad number is quoted in a message. */
#define SHOWN_MAX	24

int
procstat_parse(const char *buf, size_t len, uint64_t *processes, struct parse_error *err)
{
	struct text_cursor c;
	struct span line, w;

	if (err != NULL) {
		err->line = 0;
		err->msg[0] = '\0';
	}
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		if (!span_next_word(&line, &w) || !span_eq(w, "processes"))
			continue;
		if (!span_next_word(&line, &w))
			return parse_fail(err, c.line, "no number after \"processes\"");
		if (span_to_u64(w, processes) != 0)
			return parse_fail(err, c.line, "bad processes \"%.*s\"",
					  (int)(w.len < SHOWN_MAX ? w.len : SHOWN_MAX), w.s);
		return 0;
	}
	return parse_fail(err, 0, "no \"processes\" line");
}
