/* pagetop diff FILE FROM TO: two moments of a recording side by side. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "output/diff.h"
#include "source/replay.h"

static int cmd_diff_exec(int, char **);

const struct cmd_entry cmd_diff_entry = {
	.name = "diff",
	.usage = "FILE FROM TO\n"
		 "      [--source buddyinfo|pagetypeinfo|vmstat|meminfo|pressure|tasks|probes|all]\n"
		 "      [--json]",
	.summary = "two moments of a recording side by side, with the change (78 columns)",
	.exec = cmd_diff_exec,
};

/* The names dump --source takes, but the kernel log's (not a moment's). */
static const struct {
	const char *name;
	unsigned mask;
} diff_sources[] = {
	{ "buddyinfo", SRC_BIT(SRC_BUDDYINFO) },
	{ "pagetypeinfo", SRC_BIT(SRC_PAGETYPEINFO) },
	{ "vmstat", SRC_BIT(SRC_VMSTAT) },
	{ "meminfo", SRC_BIT(SRC_MEMINFO) },
	{ "pressure", SRC_BIT(SRC_PSI_CPU) | SRC_BIT(SRC_PSI_MEMORY) | SRC_BIT(SRC_PSI_IO) |
	  SRC_BIT(SRC_PSI_IRQ) },
	{ "tasks", SRC_BIT(SRC_TASKS) },
	{ "probes", DIFF_PROBES },
};

/* Sample i as the tick has it: its pagetypeinfo the read in force there
 * (read less often than the rest), and its task groups. */
static int
cmd_diff_take(struct feed *f, size_t i, struct diff_moment *m)
{
	const struct tick *t = &f->tick;
	const struct task_groups *g;

	if (feed_seek(f, i) < 0)
		return -1;
	m->index = i;
	m->s = *t->s;
	m->pti_wall = NAN;
	if (t->s->status[SRC_PAGETYPEINFO].err != SRC_NOT_READ) {
		if (sample_has(t->s, SRC_PAGETYPEINFO))
			m->pti_wall = t->s->wall;
	} else if (t->have_pti) {
		m->s.pti = *t->pti;
		m->s.status[SRC_PAGETYPEINFO].err = 0;
		m->pti_wall = t->pti_wall;
	}
	if ((g = tick_groups(&f->tick))) {
		m->groups = *g;
		m->have_groups = true;
	}
	return 0;
}

static int
cmd_diff_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_moment *m[2] = { NULL, NULL };
	struct diff_args d = { 0 };
	struct when_span span;
	struct feed *f;
	struct replay *rp;
	bool as_json = false;
	unsigned mask = 0;
	char why[600];
	double t[2];
	size_t n, pick[2];
	int c, status = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's': {
			bool all = strcmp(optarg, "all") == 0, found = all;

			for (size_t i = 0; i < sizeof(diff_sources) / sizeof(diff_sources[0]); i++)
				if (all || strcmp(optarg, diff_sources[i].name) == 0) {
					mask |= diff_sources[i].mask;
					found = true;
				}
			if (!found) {
				cmd_say("diff: unknown source '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'j':
			as_json = true;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_diff_entry, true);
		default:
			return cmd_opt_usage(&cmd_diff_entry, false);
		}
	}
	if (optind + 3 != argc)
		return cmd_opt_usage(&cmd_diff_entry, false);
	d.path = argv[optind];
	if (!mask)
		mask = ~0u;
	if (!(f = replay_feed_open(d.path, why, sizeof(why)))) {
		cmd_print_lines(stderr, why);
		return 1;
	}
	rp = replay_feed_replay(f);
	if (f->note[0])
		cmd_print_lines(stderr, f->note);
	if ((n = feed_count(f)) == 0) {
		cmd_say("%s: no samples", d.path);
		goto out;
	}
	cmd_opt_recording_span(rp->r, n, &span);
	for (int k = 0; k < 2; k++) {
		if ((status = cmd_opt_time("diff", k ? "TO" : "FROM", argv[optind + 1 + k], &span,
					   &t[k])) != 0)
			goto out;
		pick[k] = when_pick(&span, t[k]);
	}
	status = 1;
	/* Always forwards in time: counters only go up, and the reset rule
	 * would take a backwards difference for a reboot. */
	d.reversed = pick[1] < pick[0] || (pick[1] == pick[0] && t[1] < t[0]);
	for (int k = 0; k < 2; k++) {
		int from = d.reversed ? 1 - k : k;

		if (!(m[k] = calloc(1, sizeof(*m[k])))) {
			cmd_say("out of memory");
			goto out;
		}
		m[k]->spec = argv[optind + 1 + from];
		if (cmd_diff_take(f, pick[from], m[k]) < 0) {
			cmd_say("%s: %s: %s", d.path, argv[optind + 1 + from], f->why);
			goto out;
		}
	}
	d.host = &f->host;
	d.a = m[0];
	d.b = m[1];
	d.mask = mask;
	if (as_json)
		diff_json(stdout, &d);
	else
		diff_print(stdout, &d);
	status = fflush(stdout) != 0;
	/* Damage elsewhere in the file: said, but these two could be read. */
	replay_report_damage(rp, d.path, stderr);
out:
	free(m[0]);
	free(m[1]);
	feed_close(f);
	return status;
}
