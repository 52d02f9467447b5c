/*
 * The option values the commands share (cmd-opts.h): each kind parsed in
 * one place, with its range and its one message, so that "-d 25d" or
 * "--since -2h" is refused the same way by every command.
 */
#include "cmd/cmd-opts.h"
#include "source/live.h"
#include "source/psi-trigger.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/recfile.h"
#include "util/duration.h"

/* "pagetop: [CMD: ]OPT: " and the rest; returns EXIT_USAGE. */
static int __attribute__((format(printf, 3, 4)))
cmd_opt_error(const char *cmd, const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pagetop: %s%s%s: ", cmd ? cmd : "", cmd ? ": " : "", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int
cmd_opt_interval(const char *cmd, const char *opt, const char *arg, double *out)
{
	double v;

	if (duration_parse(arg, &v) < 0 || !(v >= CMD_OPT_INTERVAL_MIN) ||
	    !(v <= CMD_OPT_INTERVAL_MAX))
		return cmd_opt_error(cmd, opt, "'%s' is not 0.1 seconds or more, up to a day", arg);
	*out = v;
	return 0;
}

int
cmd_opt_duration(const char *cmd, const char *opt, const char *arg, double *out)
{
	double v;

	if (duration_parse(arg, &v) < 0 || !(v > 0) || !(v <= CMD_OPT_DURATION_MAX))
		return cmd_opt_error(cmd, opt, "'%s' is not a duration up to 366 days "
				     "(e.g. 90s, 30m, 1h, 2d)", arg);
	*out = v;
	return 0;
}

int
cmd_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *out)
{
	char *end;
	double v = strtod(arg, &end);

	/* strtod also takes " 5", "+5", "inf" and "nan". */
	if (end == arg || !((arg[0] >= '0' && arg[0] <= '9') || arg[0] == '.') || !isfinite(v))
		goto bad;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		v *= 1024;
		end++;
		break;
	case 'm': case 'M':
		v *= 1024 * 1024;
		end++;
		break;
	case 'g': case 'G':
		v *= 1024.0 * 1024 * 1024;
		end++;
		break;
	case 't': case 'T':
		v *= 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	default:
		goto bad;
	}
	if (*end && strcmp(end, "B") != 0 && strcmp(end, "iB") != 0)
		goto bad;
	if (!(v >= (double)CMD_OPT_SIZE_MIN) || !(v <= (double)CMD_OPT_SIZE_MAX))
		goto bad;
	*out = (uint64_t)v;
	return 0;
bad:
	return cmd_opt_error(cmd, opt, "'%s' is not a size from 4k to 1T (e.g. 100M)", arg);
}

int
cmd_opt_count(const char *cmd, const char *opt, const char *arg, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < 1 || v > CMD_OPT_COUNT_MAX)
		return cmd_opt_error(cmd, opt, "'%s' is not a positive count (up to %ld)", arg,
				     CMD_OPT_COUNT_MAX);
	*out = v;
	return 0;
}

int
cmd_opt_time(const char *cmd, const char *opt, const char *arg, const struct when_span *span,
	     double *out)
{
	char why[WHEN_WHY_MAX];

	if (when_parse(arg, span, out, why, sizeof(why)) < 0)
		return cmd_opt_error(cmd, opt, "%s", why);
	return 0;
}

static bool
cmd_opt_span_mark(const void *ctx, size_t i, struct when_mark *m)
{
	size_t n;
	const struct rec_mark *rm = rec_reader_marks(ctx, &n);

	if (i >= n)
		return false;
	*m = (struct when_mark){ rm[i].wall, rm[i].sample, rm[i].text };
	return true;
}

static size_t
cmd_opt_span_find(const void *ctx, double t)
{
	return rec_reader_find(ctx, t);
}

void
cmd_opt_recording_span(const struct rec_reader *r, size_t n, struct when_span *span)
{
	*span = (struct when_span){
		.first = rec_reader_time(r, 0), .last = rec_reader_time(r, n - 1), .count = n,
		.mark = cmd_opt_span_mark, .find = cmd_opt_span_find, .ctx = r,
	};
}

/* Times are given to the millisecond: a sample within half of one of a
 * bound is at it. */
#define CMD_OPT_SLACK	0.0005

int
cmd_opt_span(const char *cmd, const struct rec_reader *r, size_t n, const char *since,
	     const char *until, size_t *from, size_t *to)
{
	struct when_span span;
	double t0, t1;
	size_t last;
	int st = 0;

	cmd_opt_recording_span(r, n, &span);
	t0 = span.first;
	t1 = span.last;
	if ((since && (st = cmd_opt_time(cmd, "--since", since, &span, &t0)) != 0) ||
	    (until && (st = cmd_opt_time(cmd, "--until", until, &span, &t1)) != 0))
		return st;
	t0 -= CMD_OPT_SLACK;
	t1 += CMD_OPT_SLACK;
	*from = rec_reader_find(r, t0);
	if (*from < n && rec_reader_time(r, *from) < t0)
		(*from)++;
	last = rec_reader_find(r, t1);
	*to = rec_reader_time(r, last) <= t1 ? last + 1 : 0;
	if (*to < *from)
		*to = *from;
	return 0;
}

int
cmd_opt_usage(const struct cmd_entry *e, bool help)
{
	FILE *f = help ? stdout : stderr;

	if (e == &cmd_dashboard_entry)
		fprintf(f, "usage: pagetop %s\n", e->usage);
	else
		fprintf(f, "usage: pagetop %s %s\n", e->name, e->usage);
	return help ? 0 : EXIT_USAGE;
}

int
cmd_opt_live(int c, const char *arg, struct live_opts *lo)
{
	switch (c) {
	case 'd':
		return cmd_opt_interval(NULL, "-d", arg, &lo->interval);
	case 'P':
		return cmd_opt_interval(NULL, "--pagetypeinfo-every", arg, &lo->pti_every);
	case 'r':
		lo->root = arg;
		return 0;
	case 'k':
		lo->kmsg = arg;
		return 0;
	case CMD_OPT_NO_PROBES:
		lo->no_probes = true;
		return 0;
	case CMD_OPT_NO_DELAYACCT:
		lo->no_delayacct = true;
		return 0;
	case CMD_OPT_NO_BURST:
		lo->no_burst = true;
		return 0;
	case CMD_OPT_BURST: {
		double v;

		if (duration_parse(arg, &v) == 0 && v == 0) {
			lo->no_burst = true;
			return 0;
		}
		lo->no_burst = false;
		return cmd_opt_interval(NULL, "--burst", arg, &lo->burst);
	}
	case CMD_OPT_BURST_FOR:
		return cmd_opt_duration(NULL, "--burst-for", arg, &lo->burst_for);
	case CMD_OPT_BURST_TRIGGER: {
		char why[160];

		if (psi_trigger_spec_check(arg, why, sizeof(why)) < 0)
			return cmd_opt_error(NULL, "--burst-trigger", "'%s' %s", arg, why);
		lo->burst_trigger = arg;
		return 0;
	}
	case CMD_OPT_DSLEEP: {
		double v;

		if (duration_parse(arg, &v) < 0 || !(v >= CMD_OPT_DSLEEP_MIN) ||
		    !(v <= CMD_OPT_DSLEEP_MAX))
			return cmd_opt_error(NULL, "--dsleep-min", "'%s' is not a duration from "
					     "0.01ms to 10s (e.g. 1ms)", arg);
		lo->dsleep_min_ns = (uint64_t)(v * 1e9 + 0.5);
		return 0;
	}
	}
	return -1;
}

struct feed *
cmd_live_open(const struct live_opts *lo, bool *bad)
{
	struct feed *f;
	char why[512];

	if (!(f = live_open(lo, why, sizeof(why)))) {
		fprintf(stderr, "pagetop: %s\n", why);
		return NULL;
	}
	if (f->note[0])
		cmd_print_lines(stderr, f->note);
	if (f->note_err == EINVAL) {
		if (!bad) {
			feed_close(f);
			return NULL;
		}
		*bad = true;
	}
	return f;
}
