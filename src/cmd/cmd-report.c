/* pagetop report FILE: a recording summarised as text that fits a mail. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/paths.h"
#include "model/reasons.h"
#include "source/replay.h"
#include "output/report.h"

static int cmd_report_exec(int, char **);

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.usage = "FILE [--since TIME] [--until TIME]",
	.summary = "summarise a recording in plain text that fits a mail (78 columns)",
	.exec = cmd_report_exec,
};

/* A --since or --until: "+D" counts from the recording's first sample,
 * "-D" back from its last; NAN when s is not a time. */
static double
report_time(const struct replay *rp, const char *s)
{
	size_t n = replay_count(rp);

	return replay_parse_time(rp, s, rec_reader_time(rp->r, s[0] == '-' ? n - 1 : 0));
}

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
	struct reasons *rs = NULL;
	struct report *rep = NULL;
	struct replay *rp;
	char why[600], sys[4096], user[4096];
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
			printf("usage: pagetop report %s\n", cmd_report_entry.usage);
			return 0;
		default:
			fprintf(stderr, "usage: pagetop report %s\n", cmd_report_entry.usage);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: pagetop report %s\n", cmd_report_entry.usage);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (!(rp = replay_open(path, why, sizeof(why)))) {
		fprintf(stderr, "pagetop: %s\n", why);
		return 1;
	}
	n = replay_count(rp);
	if (n == 0) {
		fprintf(stderr, "pagetop: %s: no samples\n", path);
		goto out;
	}
	from = 0;
	to = n - 1;
	for (int k = 0; k < 2; k++) {
		const char *arg = k ? until : since;
		double t;

		if (!arg)
			continue;
		if (isnan(t = report_time(rp, arg))) {
			fprintf(stderr, "pagetop: report: --%s: '%s' is not a time (14:03:10, "
				"\"2026-11-30 14:03:10\", +5m from the start, -1h from the end)\n",
				k ? "until" : "since", arg);
			status = EXIT_USAGE;
			goto out;
		}
		if (k) {
			to = rec_reader_find(rp->r, t);
			if (rec_reader_time(rp->r, to) > t)
				from = to + 1;	/* before the first sample: nothing */
		} else {
			from = rec_reader_find(rp->r, t);
			if (rec_reader_time(rp->r, from) < t)
				from++;
		}
	}
	if (from > to || from >= n) {
		fprintf(stderr, "pagetop: %s: no samples between --since and --until\n", path);
		goto out;
	}
	if (!(rs = calloc(1, sizeof(*rs)))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	/* Without the table the groups still form; their reasons are bare frames. */
	paths_data("wait-reasons", sys, sizeof(sys));
	paths_config("wait-reasons", user, sizeof(user));
	if (reasons_load(rs, sys, user, why, sizeof(why)) < 0)
		fprintf(stderr, "pagetop: %s\n", why);
	if (!(rep = report_new(rs, rp, path))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	lost = report_replay(rep, rp, from, to);
	/* Damage is a warning: what could be read is still summarised. */
	replay_report_damage(rp, path, stderr);
	report_print(rep, stdout);
	status = fflush(stdout) == 0 && lost < to - from + 1 ? 0 : 1;
out:
	report_free(rep);
	free(rs);
	replay_close(rp);
	return status;
}
