/* pagetop snapshot: read every source once and print it. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "output/json.h"
#include "output/sample-json.h"
#include "output/sample-text.h"
#include "source/live.h"
#include "util/text.h"

static int cmd_snapshot_exec(int, char **);

const struct cmd_entry cmd_snapshot_entry = {
	.name = "snapshot",
	.usage = "[--proc-root DIR] [--kmsg PATH] [--json]",
	.summary = "read every source once and print it (tables, or JSON for jq)",
	.exec = cmd_snapshot_exec,
};

static int
cmd_snapshot_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "proc-root", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "kmsg", required_argument, NULL, 'k' },
		CMD_OPT_PROBES_LONG,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { .root = "/proc", .once = true };
	bool as_json = false, any = false;
	const struct sample *s;
	struct feed *f;
	const char *first;
	uint32_t n_bad;
	bool bad = false;
	int c, r, status = 0;
	/* What a file or the machine says reaches the terminal escaped. */
	char e1[TEXT_ESCAPED_SIZE(200)], e2[TEXT_ESCAPED_SIZE(200)];

	optind = 1;
	while ((c = getopt_long(argc, argv, "r:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			as_json = true;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_snapshot_entry, true);
		default:
			if ((r = cmd_opt_live(c, optarg, &lo)) < 0)
				return cmd_opt_usage(&cmd_snapshot_entry, false);
			if (r)
				return r;
			break;
		}
	}
	if (optind < argc) {
		cmd_say("snapshot: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	/* A malformed table is bad input; a missing one, a broken install
	 * that leaves tasks explained by their first frame. */
	if (!(f = cmd_live_open(&lo, &bad)))
		return 1;
	status = bad;
	/* The kernel log: events since pagetop started, so none from /dev/kmsg
	 * in one reading (its status says whether it can be read); a file of
	 * /dev/kmsg records (--kmsg) is read whole. */
	feed_next(f);
	s = f->tick.s;
	if ((n_bad = live_kmsg_bad(f, &first)) > 0) {
		fprintf(stderr, "pagetop: %s: %s%s\n", text_esc(e1, sizeof(e1), live_kmsg_path(f)),
			text_esc(e2, sizeof(e2), first),
			n_bad > 1 ? " (and more)" : "");
		status = 1;
	}
	if (lo.kmsg && s->kmsg.err) {
		fprintf(stderr, "pagetop: %s: %s\n", text_esc(e1, sizeof(e1), lo.kmsg),
			strerror(s->kmsg.err));
		status = 1;
	}

	/* A malformed file is an error worth a nonzero exit; a missing one is not. */
	for (int i = 0; i < SRC_COUNT; i++) {
		any |= sample_has(s, i);
		if (s->status[i].err == EINVAL) {
			char where[32] = "";

			/* An empty file has no line to name. */
			if (s->status[i].line > 0)
				snprintf(where, sizeof(where), "line %d: ", s->status[i].line);
			fprintf(stderr, "pagetop: %s/%s: %s%s\n", text_esc(e1, sizeof(e1), lo.root),
				source_name(i), where, text_esc(e2, sizeof(e2), s->status[i].msg));
			status = 1;
		}
	}
	if (!any) {
		fprintf(stderr, "pagetop: %s: no memory statistics readable there\n",
			text_esc(e1, sizeof(e1), lo.root));
		status = 1;
	}
	if (as_json) {
		struct json j;

		json_init(&j, stdout);
		sample_json(&j, s, tick_groups(&f->tick));
		fputc('\n', stdout);
	} else {
		sample_text(stdout, s, tick_groups(&f->tick), lo.root);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pagetop: standard output: %s\n", strerror(errno));
		status = 1;
	}
	feed_close(f);
	return status;
}
