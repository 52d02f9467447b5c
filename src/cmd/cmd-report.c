/* pagetop report FILE: a recording summarised as text that fits a mail. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "source/replay.h"
#include "output/report.h"

static int cmd_report_exec(int, char **);

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.usage = "FILE [--since TIME] [--until TIME]",
	.summary = "summarise a recording in plain text that fits a mail (78 columns)",
	.exec = cmd_report_exec,
};

static int
cmd_report_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *since = NULL, *until = NULL, *path;
	struct report *rep = NULL;
	struct feed *f;
	struct replay *rp;
	char why[600];
	size_t n, from, to, lost;
	int c, status = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_report_entry, true);
		default:
			return cmd_opt_usage(&cmd_report_entry, false);
		}
	}
	if (optind + 1 != argc)
		return cmd_opt_usage(&cmd_report_entry, false);
	path = argv[optind];
	if (!(f = replay_feed_open(path, why, sizeof(why)))) {
		cmd_print_lines(stderr, why);
		return 1;
	}
	rp = replay_feed_replay(f);
	/* Without the wait-reason table the groups still form; their reasons
	 * are bare frames. */
	if (f->note[0])
		cmd_print_lines(stderr, f->note);
	n = feed_count(f);
	if (n == 0) {
		cmd_say("%s: no samples", path);
		goto out;
	}
	/* [from, to): the samples from --since to --until. */
	if ((status = cmd_opt_span("report", rp->r, n, since, until, &from, &to)) != 0)
		goto out;
	status = 1;
	if (from >= to) {
		cmd_say("%s: no samples between --since and --until", path);
		goto out;
	}
	if (!(rep = report_new(f, f->tick.rs, path))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	lost = report_feed(rep, f, from, to - 1);
	/* Damage and samples that do not decode are warnings, said as dump
	 * and export say them: what could be read is still summarised. */
	snprintf(why, sizeof(why), "%s", f->why);
	/* The first one's why, as dump and export give it (only on a
	 * damaged file: a second pass up to it). */
	for (size_t i = from; lost > 0 && i < to; i++)
		if (feed_seek(f, i) < 0) {
			snprintf(why, sizeof(why), "%s", f->why);
			break;
		}
	report_print(rep, stdout);
	status = cmd_recording_status(rp, path, to - from - lost, lost, why);
	if (fflush(stdout) != 0)
		status = 1;
out:
	report_free(rep);
	feed_close(f);
	return status;
}
