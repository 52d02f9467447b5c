/*
 * pagetop report FILE: a recording summarised as text that fits a mail.
 * With --phases, the same report over each phase between consecutive
 * marks first, then over the whole. With --html OUT, the same parts as
 * one HTML file of charts (output/html.h) instead of the text.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "source/replay.h"
#include "output/html.h"
#include "output/report.h"
#include "util/fmt.h"

static int cmd_report_exec(int, char **);

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.usage = "FILE [--since TIME] [--until TIME] [--phases] [--html OUT]",
	.summary = "summarise a recording in plain text that fits a mail (78 columns)",
	.exec = cmd_report_exec,
};

/* The report over samples from..to (both included) of f, titled (NULL:
 * none), as text or, with doc, as a part of the HTML document. *lost:
 * samples that could not be read. -1 out of memory. */
static int
cmd_report_span(struct feed *f, const char *path, size_t from, size_t to, const char *title,
		size_t *lost, struct html_doc *doc)
{
	struct report *rep;

	if (doc) {
		struct html_run r = { .f = f, .from = from, .to = to, .name = path };

		if (html_report_part(doc, &r, title) != 0) {
			fprintf(stderr, "pagetop: out of memory\n");
			return -1;
		}
		*lost = r.lost;
		return 0;
	}
	if (!(rep = report_new(f, f->tick.rs, path))) {
		fprintf(stderr, "pagetop: out of memory\n");
		return -1;
	}
	if (title)
		report_set_title(rep, title);
	*lost = report_feed(rep, f, from, to);
	report_print(rep, stdout);
	report_free(rep);
	return 0;
}

/* Between reports: a rule the eye (and a script) finds. */
static void
cmd_report_rule(void)
{
	char rule[REPORT_COLUMNS + 1];

	memset(rule, '=', REPORT_COLUMNS);
	rule[REPORT_COLUMNS] = '\0';
	printf("\n%s\n\n", rule);
}

/*
 * A report per phase of [from, to]: a phase opens at a mark's sample (the
 * first at or after the mark) and runs to the next mark's, both included,
 * so that its counter totals are the increases from mark to mark, as
 * `pagetop diff` gives them, and the phases' totals add up to the whole;
 * the sample between two phases is in both. The part before the first
 * mark is "before <that mark>". Marks outside [from, to] open none.
 */
static int
cmd_report_phases(struct feed *f, const char *path, size_t from, size_t to, struct html_doc *doc)
{
	size_t nm, n_open = 0, lost;
	const struct feed_mark *m = feed_marks(f, &nm);
	size_t *open = calloc(nm + 1, sizeof(*open));
	const struct feed_mark **mk = calloc(nm + 1, sizeof(*mk));
	char title[600], at[FMT_MOMENT_SIZE];
	int st = 0;
	size_t total;

	if (!open || !mk) {
		fprintf(stderr, "pagetop: out of memory\n");
		st = -1;
		goto out;
	}
	for (size_t k = 0; k < nm; k++)
		if (m[k].kind == FEED_MARK && m[k].sample >= from && m[k].sample <= to) {
			open[n_open] = m[k].sample;
			mk[n_open++] = &m[k];
		}
	if (n_open == 0) {
		/* HTML: the whole's heading says it. */
		if (!doc)
			printf("No marks%s: one phase, the whole, below.\n",
			       from > 0 || to + 1 < feed_count(f) ? " between --since and --until" : "");
		goto out;
	}
	total = n_open + (open[0] > from);
	for (size_t p = 0, k = 0; p < total; p++) {
		bool before = open[0] > from && p == 0;
		size_t a = before ? from : open[k], b = before ? open[0] :
		    k + 1 < n_open ? open[k + 1] : to;

		if (before) {
			snprintf(title, sizeof(title), "%zu of %zu, before \"%s\"", p + 1, total,
				 mk[0]->text);
		} else {
			fmt_moment(mk[k]->wall, FMT_DATE, at, sizeof(at));
			snprintf(title, sizeof(title), "%zu of %zu, \"%s\" (the mark at %s)",
				 p + 1, total, mk[k]->text, at);
			k++;
		}
		if (p > 0 && !doc)
			cmd_report_rule();
		if ((st = cmd_report_span(f, path, a, b, title, &lost, doc)) != 0)
			goto out;
	}
out:
	free(open);
	free(mk);
	return st;
}

static int
cmd_report_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "phases", no_argument, NULL, 'p' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *since = NULL, *until = NULL, *path, *html = NULL;
	struct html_doc doc, *dp = NULL;
	FILE *hf = NULL;
	struct feed *f;
	struct replay *rp;
	char why[600];
	size_t n, from, to, lost;
	int c, status = 1;
	bool phases = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'p':
			phases = true;
			break;
		case 'H':
			html = optarg;
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
	if (html) {
		char title[4200];

		hf = strcmp(html, "-") == 0 ? stdout : fopen(html, "w");
		if (!hf) {
			cmd_say("%s: %s", html, strerror(errno));
			goto out;
		}
		snprintf(title, sizeof(title), "pagetop report: %s", path);
		html_begin(&doc, hf, title);
		dp = &doc;
	}
	if (phases) {
		if (cmd_report_phases(f, path, from, to - 1, dp) != 0)
			goto out;
		if (!dp)
			cmd_report_rule();
	}
	/* The whole: what it is without --phases. */
	if (cmd_report_span(f, path, from, to - 1, dp && phases ? "The whole" : NULL, &lost,
			    dp) != 0)
		goto out;
	if (dp && html_end(dp) != 0) {
		cmd_say("%s: cannot write: %s", html, strerror(errno ? errno : EIO));
		goto out;
	}
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
	status = cmd_recording_status(rp, path, to - from - lost, lost, why);
	if (fflush(stdout) != 0)
		status = 1;
out:
	if (hf && hf != stdout && fclose(hf) != 0 && status == 0) {
		cmd_say("%s: cannot write: %s", html, strerror(errno));
		status = 1;
	}
	feed_close(f);
	return status;
}
