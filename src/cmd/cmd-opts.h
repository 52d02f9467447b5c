/*
 * The option values the commands share, parsed once with one message each:
 * intervals, durations, sizes, counts, and times on a recording.
 *
 * Each cmd_opt_*() takes the command's name for the message (NULL for
 * none), the option as typed ("-d", "--since") and its argument. It returns
 * 0 with the value in *out, or EXIT_USAGE after one line on stderr:
 *   pagetop: [CMD: ]OPT: 'ARG' WHAT IS WRONG
 * so a getopt loop reads
 *	case 'd':
 *		if ((r = cmd_opt_interval(NULL, "-d", optarg, &delay)) != 0)
 *			return r;
 * Every number has a range, below; a value outside it, NaN or an infinity
 * is an error, never clamped. man/pagetop.1 gives the same ranges.
 *
 * Times (dump --at, report and export --since/--until, replay --at) are
 * util/when.h's forms; they can only be checked once the recording is
 * open, against its span. The replay dashboard's g key, which must not
 * print, calls when_parse() itself and shows its why.
 */
#ifndef PAGETOP_CMD_OPTS_H
#define PAGETOP_CMD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"
#include "util/when.h"

struct rec_reader;

/* -d/--delay, --flush, --pagetypeinfo-every: seconds, 0.1 to a day. */
#define CMD_OPT_INTERVAL_MIN	0.1
#define CMD_OPT_INTERVAL_MAX	86400.0
/* --duration, --history: more than 0, up to 366 days. */
#define CMD_OPT_DURATION_MAX	(366 * 86400.0)
/* --max-size: bytes, 4k to 1T ("100M"; k, M, G, T are powers of 1024). */
#define CMD_OPT_SIZE_MIN	4096ull
#define CMD_OPT_SIZE_MAX	(1ull << 40)
/* -n/--iterations: 1 to 10^9. */
#define CMD_OPT_COUNT_MAX	1000000000L

/* Seconds in [CMD_OPT_INTERVAL_MIN, CMD_OPT_INTERVAL_MAX], as duration_parse()
 * takes them ("0.5", "2m"). */
int cmd_opt_interval(const char *cmd, const char *opt, const char *arg, double *out);
/* Seconds in (0, CMD_OPT_DURATION_MAX]. */
int cmd_opt_duration(const char *cmd, const char *opt, const char *arg, double *out);
/* Bytes in [CMD_OPT_SIZE_MIN, CMD_OPT_SIZE_MAX]: "500M", "2G", "100k",
 * "1.5G", with an optional B or iB, or bytes. */
int cmd_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *out);
/* A whole number in [1, CMD_OPT_COUNT_MAX]. */
int cmd_opt_count(const char *cmd, const char *opt, const char *arg, long *out);

/* A time on the recording whose samples span span (util/when.h), in *out
 * within it. */
int cmd_opt_time(const char *cmd, const char *opt, const char *arg,
		 const struct when_span *span, double *out);
/* The span of a recording's n samples (n > 0). */
void cmd_opt_recording_span(const struct rec_reader *r, size_t n, struct when_span *span);
/*
 * --since and --until (either NULL: that end of the recording) as the
 * samples [*from, *to) of the recording's n samples (n > 0): those at or
 * after since and at or before until, to the millisecond (as dump and the
 * JSON print times). *from == *to when there are none (since after
 * until); each time outside the recording is an error.
 */
int cmd_opt_span(const char *cmd, const struct rec_reader *r, size_t n, const char *since,
		 const char *until, size_t *from, size_t *to);

/* --dsleep-min: the shortest D sleep the probes count, 0.01ms to 10s. */
#define CMD_OPT_DSLEEP_MIN	0.00001
#define CMD_OPT_DSLEEP_MAX	10.0

/* The kernel probes' options, for the live commands' option tables. */
#define CMD_OPT_NO_PROBES	0x100
#define CMD_OPT_DSLEEP		0x101
#define CMD_OPT_NO_DELAYACCT	0x102
/* Bursts: --burst INTERVAL (0: off; else CMD_OPT_INTERVAL_MIN up),
 * --no-burst, --burst-for DURATION, --burst-trigger SPEC. */
#define CMD_OPT_BURST		0x103
#define CMD_OPT_NO_BURST	0x104
#define CMD_OPT_BURST_FOR	0x105
#define CMD_OPT_BURST_TRIGGER	0x106
#define CMD_OPT_PROBES_LONG \
	{ "no-probes", no_argument, NULL, CMD_OPT_NO_PROBES }, \
	{ "dsleep-min", required_argument, NULL, CMD_OPT_DSLEEP }, \
	{ "no-delayacct", no_argument, NULL, CMD_OPT_NO_DELAYACCT }, \
	{ "burst", required_argument, NULL, CMD_OPT_BURST }, \
	{ "no-burst", no_argument, NULL, CMD_OPT_NO_BURST }, \
	{ "burst-for", required_argument, NULL, CMD_OPT_BURST_FOR }, \
	{ "burst-trigger", required_argument, NULL, CMD_OPT_BURST_TRIGGER }

/*
 * The options of every command that samples the live system: -d,
 * --pagetypeinfo-every, --proc-root, --kmsg, --no-probes, --dsleep-min,
 * --no-delayacct, --burst, --no-burst, --burst-for, --burst-trigger as
 * getopt_long returns them ('d', 'P', 'r', 'k', CMD_OPT_NO_PROBES, ...). 0 when c was one (taken into lo), EXIT_USAGE after
 * its message, -1 when c is not a live option.
 */
struct live_opts;
int cmd_opt_live(int c, const char *arg, struct live_opts *lo);
/* The live feed for a headless command: NULL after one line on stderr.
 * What the feed noted is printed; bad input (a malformed table) then
 * gives NULL too, unless the command carries on with *bad set (snapshot). */
struct feed *cmd_live_open(const struct live_opts *lo, bool *bad);

/* "usage: pagetop NAME USAGE" (without NAME for the dashboard): on stdout
 * for --help (then 0), else on stderr (then EXIT_USAGE). */
int cmd_opt_usage(const struct cmd_entry *e, bool help);

#endif
