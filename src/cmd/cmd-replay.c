/* pagetop replay FILE [--compare B]: the dashboard on a recording, with
 * another recording's figures beside it at the same elapsed time. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "dashboard/dashboard.h"
#include "source/replay.h"

static int cmd_replay_exec(int, char **);

const struct cmd_entry cmd_replay_entry = {
	.name = "replay",
	.usage = "FILE [--at TIME] [--compare FILE [--align start|mark:TEXT]] [--history DURATION]\n"
		 "      [--ascii] [--no-color]",
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

/* A recording with samples, or NULL with one line said. */
static struct feed *
replay_open_feed(const char *path)
{
	struct feed *f;
	char why[600];

	if (!(f = replay_feed_open(path, why, sizeof(why)))) {
		cmd_print_lines(stderr, why);
		return NULL;
	}
	if (feed_count(f) == 0) {
		fprintf(stderr, "pagetop: %s: no samples to replay\n", path);
		feed_close(f);
		return NULL;
	}
	return f;
}

/* The moment --align names in recording f (its first sample for start). */
static int
replay_align_at(struct feed *f, const char *path, const char *align, double *t)
{
	struct when_span span;
	char opt[300];

	/* The first sample's own time: B then starts in step with A. */
	if (!align || strcmp(align, "start") == 0) {
		*t = feed_time_of(f, 0);
		return 0;
	}
	cmd_opt_recording_span(replay_feed_replay(f)->r, feed_count(f), &span);
	/* The error names the file the mark is missing from. */
	snprintf(opt, sizeof(opt), "--align (%.250s)", path);
	return cmd_opt_time(NULL, opt, align, &span, t);
}

static int
replay_run(struct dashboard_opts *o, const char *path, const char *at, const char *cpath,
	   const char *align)
{
	struct feed *f, *b = NULL;
	char note[300];
	int status;

	if (!(f = replay_open_feed(path)))
		return 1;
	if (cpath) {
		double ta, tb;
		int r;

		if (!(b = replay_open_feed(cpath))) {
			feed_close(f);
			return 1;
		}
		if ((r = replay_align_at(f, path, align, &ta)) != 0 ||
		    (r = replay_align_at(b, cpath, align, &tb)) != 0) {
			feed_close(b);
			feed_close(f);
			return r;
		}
		o->compare = b;
		o->compare_offset = tb - ta;
		o->compare_name = cpath;
	}
	if (at && *at) {
		struct when_span span;
		double t;
		int r;

		cmd_opt_recording_span(replay_feed_replay(f)->r, feed_count(f), &span);
		if ((r = cmd_opt_time(NULL, "--at", at, &span, &t)) != 0) {
			feed_close(b);
			feed_close(f);
			return r;
		}
		o->start = when_pick(&span, t);
	}
	replay_note(f, path, note, sizeof(note));
	o->note = note;
	status = dashboard_run(o, f);
	feed_close(b);
	feed_close(f);
	return status;
}

static int
cmd_replay_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "compare", required_argument, NULL, 'c' },
		{ "align", required_argument, NULL, 'l' },
		{ "history", required_argument, NULL, 'H' },
		{ "ascii", no_argument, NULL, 'A' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dashboard_opts o = { .history = 3600, .color = true };
	const char *at = NULL, *cpath = NULL, *align = NULL;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			at = optarg;
			break;
		case 'c':
			cpath = optarg;
			break;
		case 'l':
			align = optarg;
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
	if (align && !cpath) {
		fprintf(stderr, "pagetop: replay: --align needs --compare\n");
		return EXIT_USAGE;
	}
	if (align && strcmp(align, "start") != 0 && strncmp(align, "mark:", 5) != 0) {
		fprintf(stderr, "pagetop: replay: --align: '%s' is neither start nor mark:TEXT\n",
			align);
		return EXIT_USAGE;
	}
	if (!dashboard_has_terminal())
		return 1;
	return replay_run(&o, argv[optind], at, cpath, align);
}
