/* pagetop replay FILE: the dashboard on a recording. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "dashboard/dashboard.h"
#include "source/replay.h"

static int cmd_replay_exec(int, char **);

const struct cmd_entry cmd_replay_entry = {
	.name = "replay",
	.usage = "FILE [--at TIME] [--history DURATION] [--ascii] [--no-color]",
	.summary = "the dashboard on a recording: play, pause, step, speed, go to, next event",
	.exec = cmd_replay_exec,
};

/* What the status line says first: damage, or a file not closed. */
static void
replay_note(const struct feed *f, const char *path, char *dst, size_t size)
{
	const struct replay *rp = replay_feed_replay(f);
	const struct rec_damage *dm;
	struct rec_info info;
	size_t nd;

	dst[0] = '\0';
	dm = rec_reader_damage(rp->r, &nd);
	rec_reader_info(rp->r, &info);
	if (nd)
		snprintf(dst, size, "%.100s: damaged at byte %llu: %llu bytes skipped, %llu samples "
			 "lost%s", path, (unsigned long long)dm[0].offset,
			 (unsigned long long)dm[0].bytes, (unsigned long long)dm[0].lost,
			 nd > 1 ? " (and more: dump --info)" : "");
	else if (!info.indexed && !f->note[0])
		snprintf(dst, size, "%.120s was not closed properly: %.100s", path, info.why_scanned);
}

static int
replay_run(struct dashboard_opts *o, const char *path, const char *at)
{
	struct feed *f;
	char why[600], note[300];
	int status;

	if (!(f = replay_feed_open(path, why, sizeof(why)))) {
		cmd_print_lines(stderr, why);
		return 1;
	}
	if (feed_count(f) == 0) {
		fprintf(stderr, "pagetop: %s: no samples to replay\n", path);
		feed_close(f);
		return 1;
	}
	if (at && *at) {
		struct when_span span;
		double t;
		int r;

		cmd_opt_recording_span(replay_feed_replay(f)->r, feed_count(f), &span);
		if ((r = cmd_opt_time(NULL, "--at", at, &span, &t)) != 0) {
			feed_close(f);
			return r;
		}
		o->start = when_pick(&span, t);
	}
	replay_note(f, path, note, sizeof(note));
	o->note = note;
	status = dashboard_run(o, f);
	feed_close(f);
	return status;
}

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
	struct dashboard_opts o = { .history = 3600, .color = true };
	const char *at = NULL;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			at = optarg;
			break;
		case 'H':
			if ((r = cmd_opt_duration(NULL, "--history", optarg, &o.history)) != 0)
				return r;
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
	if (!dashboard_has_terminal())
		return 1;
	return replay_run(&o, argv[optind], at);
}
