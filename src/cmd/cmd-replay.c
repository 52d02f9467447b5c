/* pagetop replay FILE: the dashboard on a recording. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "dashboard/dashboard.h"
#include "util/duration.h"

static int cmd_replay_exec(int, char **);

const struct cmd_entry cmd_replay_entry = {
	.name = "replay",
	.usage = "FILE [--at TIME] [--history DURATION] [--ascii] [--no-color]",
	.summary = "the dashboard on a recording: play, pause, step, speed, go to, next event",
	.exec = cmd_replay_exec,
};

static int
cmd_replay_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "history", required_argument, NULL, 'H' },
		{ "ascii", no_argument, NULL, 'A' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dashboard_opts o = {
		.root = "/proc", .delay = 1, .pti_every = 10, .history = 3600, .color = true,
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o.replay_at = optarg;
			break;
		case 'H':
			if (duration_parse(optarg, &o.history) < 0 || o.history <= 0) {
				fprintf(stderr, "pagetop: --history: '%s' is not a duration\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'A':
			o.ascii = true;
			break;
		case 'C':
			o.color = false;
			break;
		case 'h':
			printf("usage: pagetop replay %s\n", cmd_replay_entry.usage);
			return 0;
		default:
			fprintf(stderr, "usage: pagetop replay %s\n", cmd_replay_entry.usage);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: pagetop replay %s\n", cmd_replay_entry.usage);
		return EXIT_USAGE;
	}
	o.replay = argv[optind];
	return dashboard_run(&o);
}
