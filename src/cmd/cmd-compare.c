/*
 * pagetop compare A B: two recordings side by side, figure by figure,
 * with the change and whether it stands out of the runs' own noise.
 * Each recording is read once, in order (output/compare.h). With --html
 * OUT, the two drawn over each other in one HTML file (output/html.h)
 * instead of the text.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "output/compare.h"
#include "output/html.h"
#include "source/replay.h"
#include "util/thread.h"

static int cmd_compare_exec(int, char **);

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "A B [--align start|mark:TEXT] [--since TIME] [--until TIME] [--json]\n"
		 "      [--html OUT]",
	.summary = "two recordings figure by figure: A, B, the change, and whether it\n"
		   "      stands out of the runs' own noise (78 columns)",
	.exec = cmd_compare_exec,
};

struct cmd_compare_side {
	const char *path;
	char name[300];		/* "compare: PATH", for the messages */
	struct feed *f;
	size_t from, to;	/* the window, both included */
	double align;		/* the wall time that is elapsed 0 */
	struct compare_run *run;
	long lost;		/* compare_run_feed()'s */
	const char *first_why;
};

/* One recording read through: the two are read at once, one a thread,
 * each with a feed of its own (a day's recording is mostly decoding). */
static void *
cmd_compare_read(void *arg)
{
	struct cmd_compare_side *s = arg;

	s->lost = compare_run_feed(s->run, s->f, s->f->tick.rs, &s->first_why);
	return NULL;
}

/* The window of one recording: --since/--until, or from --align on. */
static int
cmd_compare_window(struct cmd_compare_side *s, const char *since, const char *until,
		   const char *align)
{
	struct replay *rp = replay_feed_replay(s->f);
	size_t n = feed_count(s->f), from, to;
	int st;

	if (n == 0) {
		cmd_say("%s: no samples", s->path);
		return 1;
	}
	if ((st = cmd_opt_span(s->name, rp->r, n, since, until, &from, &to)) != 0)
		return st;
	if (align) {
		struct when_span span;
		double t;

		cmd_opt_recording_span(rp->r, n, &span);
		if ((st = cmd_opt_time(s->name, "--align", align, &span, &t)) != 0)
			return st;
		from = when_pick(&span, t);
		s->align = t;
	}
	if (from >= to) {
		cmd_say("%s: no samples %s", s->path, align ? "between --align and --until" :
			"between --since and --until");
		return 1;
	}
	s->from = from;
	s->to = to - 1;
	if (!align)
		s->align = feed_time_of(s->f, from);
	return 0;
}

/* Aligned: both run for the same time from their moment, the shorter's. */
static void
cmd_compare_cut(struct cmd_compare_side *s)
{
	double len[2], keep;

	for (int k = 0; k < 2; k++)
		len[k] = feed_time_of(s[k].f, s[k].to) - feed_time_of(s[k].f, s[k].from);
	keep = len[0] < len[1] ? len[0] : len[1];
	for (int k = 0; k < 2; k++) {
		/* To the millisecond, as the times print. */
		size_t to = feed_find(s[k].f, feed_time_of(s[k].f, s[k].from) + keep + 0.0005);

		if (to < s[k].to)
			s[k].to = to > s[k].from ? to : s[k].from;
	}
}

/* The two runs drawn over each other, aligned at their moments. */
static int
cmd_compare_html(struct cmd_compare_side *side, const char *out)
{
	struct html_run r[2];
	FILE *hf = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
	int st, status = 0;

	if (!hf) {
		cmd_say("%s: %s", out, strerror(errno));
		return 1;
	}
	for (int k = 0; k < 2; k++)
		r[k] = (struct html_run){ .f = side[k].f, .from = side[k].from, .to = side[k].to,
					  .align = side[k].align, .name = side[k].path };
	if ((st = html_compare_write(hf, &r[0], &r[1])) != 0) {
		cmd_say("%s: %s", out, st == -ENOMEM ? "out of memory" :
			strerror(errno ? errno : EIO));
		status = 1;
	}
	for (int k = 0; k < 2; k++)
		if (r[k].lost > 0)
			cmd_say("%s: %zu samples could not be read", side[k].path, r[k].lost);
	if (hf != stdout ? fclose(hf) != 0 : fflush(hf) != 0) {
		if (!status)
			cmd_say("%s: cannot write: %s", out, strerror(errno));
		status = 1;
	}
	return status;
}

static int
cmd_compare_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "align", required_argument, NULL, 'a' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_compare_side side[2];
	const char *since = NULL, *until = NULL, *align = NULL, *html = NULL;
	bool as_json = false;
	char why[600];
	int c, status = 1;

	memset(side, 0, sizeof(side));
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			align = optarg;
			break;
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'j':
			as_json = true;
			break;
		case 'H':
			html = optarg;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_compare_entry, true);
		default:
			return cmd_opt_usage(&cmd_compare_entry, false);
		}
	}
	if (optind + 2 != argc)
		return cmd_opt_usage(&cmd_compare_entry, false);
	if (align && since) {
		cmd_say("compare: --align and --since both say where the runs start: give one");
		return EXIT_USAGE;
	}
	for (int k = 0; k < 2; k++) {
		struct cmd_compare_side *s = &side[k];

		s->path = argv[optind + k];
		snprintf(s->name, sizeof(s->name), "compare: %s", s->path);
		if (!(s->f = replay_feed_open(s->path, why, sizeof(why)))) {
			cmd_print_lines(stderr, why);
			goto out;
		}
		/* The same note twice (no wait-reason table) is said once. */
		if (s->f->note[0] && (k == 0 || strcmp(s->f->note, side[0].f->note) != 0))
			cmd_print_lines(stderr, s->f->note);
		if ((status = cmd_compare_window(s, since, until, align)) != 0)
			goto out;
		status = 1;
	}
	if (align)
		cmd_compare_cut(side);
	if (html) {
		status = cmd_compare_html(side, html);
		goto out;
	}
	for (int k = 0; k < 2; k++)
		if (!(side[k].run = compare_run_new(side[k].f, side[k].path, side[k].from,
						    side[k].to))) {
			cmd_say("out of memory");
			goto out;
		}
	{
		pthread_t t;
		bool threaded = thread_start(&t, cmd_compare_read, &side[1]) == 0;

		cmd_compare_read(&side[0]);
		if (threaded)
			pthread_join(t, NULL);
		else
			cmd_compare_read(&side[1]);
	}
	for (int k = 0; k < 2; k++) {
		struct cmd_compare_side *s = &side[k];

		if (s->lost < 0) {
			cmd_say("out of memory");
			goto out;
		}
		/* Damage is a warning, as report says it: the rest is compared. */
		replay_report_damage(replay_feed_replay(s->f), s->path, stderr);
		if (s->lost > 0)
			cmd_say("%s: %ld samples could not be read (the first: %s)", s->path,
				s->lost, s->first_why);
		if ((size_t)s->lost == s->to - s->from + 1) {
			cmd_say("%s: no sample of the window could be read", s->path);
			goto out;
		}
	}
	if (as_json)
		compare_json(stdout, side[0].run, side[1].run);
	else
		compare_print(stdout, side[0].run, side[1].run);
	status = fflush(stdout) != 0;
out:
	for (int k = 0; k < 2; k++) {
		compare_run_free(side[k].run);
		feed_close(side[k].f);
	}
	return status;
}
