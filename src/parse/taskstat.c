/*
 * /proc/PID/task/TID/stat, the first four fields:
 *
 *	1020 ((a b ) ( c d) ) R 28378 1020 28378 34842 ...
 *
 * comm is printed raw between parentheses: it may hold spaces, '(' , ')'
 * and even '\n', so the name ends at the LAST ')' of the buffer (the
 * numeric fields after it never hold one). The kernel keeps 15 bytes of a
 * task's name, but since 4.18 it prints longer names for workqueue workers
 * ("kworker/0:1-virtio_vsock") and since 6.x for kernel threads with full
 * names, up to 63 bytes: those are cut to fit struct taskstat.
 *
 * Only pid, comm, state and ppid are read; the rest (39 fields on illumos
 * LX, 44 on 2.6.32, 52 today, more tomorrow) is not looked at, so a buffer
 * that holds only the start of the line is fine as long as ppid is whole
 * (a blank must follow it).
 *
 * The task scan also takes two numbers further on (num_threads, flags),
 * counted by blanks from the last ')' (taskstat_field), and keeps a
 * signature of each task's schedstat to tell whether it ran since the
 * last tick (taskstat_sched_sig).
 */

#include "parse/taskstat.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* At most this much of a bad token is quoted in a message. */
#define SHOWN_MAX 24

static int
shown(size_t len)
{
	return (int)(len < SHOWN_MAX ? len : SHOWN_MAX);
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\n' || c == '\t';
}

/* The span of decimal digits (and a leading '-') starting at p. */
static struct span
number_at(const char *p, const char *end)
{
	struct span s = { p, 0 };

	if (p < end && *p == '-')
		s.len++;
	while (p + s.len < end && p[s.len] >= '0' && p[s.len] <= '9')
		s.len++;
	return s;
}

int
taskstat_parse(const char *buf, size_t len, struct taskstat *out,
    struct parse_error *err)
{
	const char *end = buf + len, *open, *close, *p;
	struct span w;

	memset(out, 0, sizeof(*out));
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (len == 0)
		return parse_fail(err, 0, "empty");

	w = number_at(buf, end);
	if (w.len == 0 || span_to_int(w, &out->pid) != 0 || out->pid < 0)
		return parse_fail(err, 1, "expected a pid, got \"%.*s\"",
		    shown(len), buf);
	open = buf + w.len;
	if (end - open < 2 || open[0] != ' ' || open[1] != '(')
		return parse_fail(err, 1, "no \" (\" after pid %d", out->pid);
	open++;

	if ((close = memrchr(open + 1, ')', (size_t)(end - open - 1))) == NULL)
		return parse_fail(err, 1, "no ')' after the command name");
	w.s = open + 1;
	w.len = (size_t)(close - w.s);
	span_copy(w, out->comm, sizeof(out->comm));

	p = close + 1;
	if (end - p < 3 || p[0] != ' ' || p[2] != ' ')
		return parse_fail(err, 1,
		    "expected \" STATE \" after the command name");
	if (!((p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= 'a' && p[1] <= 'z')))
		return parse_fail(err, 1, "state '%c' is not a letter",
		    p[1] > ' ' && p[1] < 0x7f ? p[1] : '?');
	out->state = p[1];

	p += 3;
	w = number_at(p, end);
	if (w.len == 0 || p + w.len == end || !is_blank(p[w.len]))
		return parse_fail(err, 1, "no whole ppid after the state");
	if (span_to_int(w, &out->ppid) != 0 || out->ppid < 0)
		return parse_fail(err, 1, "bad ppid \"%.*s\"", shown(w.len),
		    w.s);
	return 0;
}

long long
taskstat_field(const char *buf, size_t len, int n)
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

/* FNV-1a, with the low bit set so that only "0 0 0" is 0. */
uint64_t
taskstat_sched_sig(const char *buf, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	if (len >= 5 && memcmp(buf, "0 0 0", 5) == 0)
		return 0;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
	return h | 1;
}
