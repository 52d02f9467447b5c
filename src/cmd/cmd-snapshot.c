/* pagetop snapshot: read every source once and print it. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "output/json.h"
#include "source/kmsg-source.h"
#include "util/paths.h"
#include "model/reasons.h"
#include "output/sample-json.h"
#include "output/sample-text.h"
#include "model/sample.h"
#include "source/sampler.h"
#include "model/taskgroups.h"
#include "source/taskscan.h"

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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = "/proc", *kmsg_path = NULL;
	bool as_json = false, any = false;
	struct sampler sp;
	struct sample *s;
	struct reasons *rs = NULL;
	struct task_groups *groups = NULL;
	struct taskscan *ts = NULL;
	struct kmsg_rules *krules = NULL;
	int c, r, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "r:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			root = optarg;
			break;
		case 'j':
			as_json = true;
			break;
		case 'k':
			kmsg_path = optarg;
			break;
		case 'h':
			printf("usage: pagetop snapshot %s\n", cmd_snapshot_entry.usage);
			return 0;
		default:
			fprintf(stderr, "usage: pagetop snapshot %s\n", cmd_snapshot_entry.usage);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pagetop: snapshot: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if ((r = sampler_init(&sp, root)) < 0) {
		fprintf(stderr, "pagetop: %s: %s\n", root, strerror(-r));
		return 1;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		fprintf(stderr, "pagetop: out of memory\n");
		sampler_free(&sp);
		return 1;
	}
	sampler_read(&sp, s, SRC_ALL);
	s->status[SRC_TASKS].err = ENOENT;
	/* Tasks live on a real procfs only; a tree of captured files has none. */
	if (sp.fs.is_procfs && (rs = calloc(1, sizeof(*rs))) && (groups = calloc(1, sizeof(*groups))) &&
	    (ts = taskscan_new(root))) {
		char sys[4096], user[4096], why[512];

		paths_data("wait-reasons", sys, sizeof(sys));
		paths_config("wait-reasons", user, sizeof(user));
		/* A malformed table is bad input; a missing one, a broken install
		 * that leaves tasks explained by their first frame. */
		if ((r = reasons_load(rs, sys, user, why, sizeof(why))) < 0) {
			fprintf(stderr, "pagetop: %s\n", why);
			if (r == -EINVAL)
				status = 1;
		}
		taskscan_read(ts, s->mono, &s->tasks);
		s->status[SRC_TASKS].err = 0;
		task_groups_build(&s->tasks, rs, s->mono, groups);
	}

	/* The kernel log: events since pagetop started, so none from /dev/kmsg
	 * in one reading (its status says whether it can be read); a file of
	 * /dev/kmsg records (--kmsg) is read whole. */
	if ((kmsg_path || sp.fs.is_procfs) && (krules = calloc(1, sizeof(*krules)))) {
		struct kmsg_source *ks;
		char why[512];
		const char *first;
		uint32_t bad;

		if ((r = kmsg_rules_load_installed(krules, why, sizeof(why))) < 0) {
			fprintf(stderr, "pagetop: %s\n", why);
			if (r == -EINVAL)
				status = 1;
		}
		if ((ks = kmsg_source_open(kmsg_path ? kmsg_path : KMSG_DEVICE, krules))) {
			kmsg_source_read(ks, &s->kmsg);
			if (kmsg_path)
				kmsg_source_flush(ks, &s->kmsg);
			if ((bad = kmsg_source_bad(ks, &first)) > 0) {
				fprintf(stderr, "pagetop: %s: %s%s\n", kmsg_path ? kmsg_path : KMSG_DEVICE,
					first, bad > 1 ? " (and more)" : "");
				status = 1;
			}
			if (kmsg_path && s->kmsg.err) {
				fprintf(stderr, "pagetop: %s: %s\n", kmsg_path, strerror(s->kmsg.err));
				status = 1;
			}
			kmsg_source_close(ks);
		}
	}

	/* A malformed file is an error worth a nonzero exit; a missing one is not. */
	for (int i = 0; i < SRC_COUNT; i++) {
		any |= sample_has(s, i);
		if (s->status[i].err == EINVAL) {
			char where[32] = "";

			/* An empty file has no line to name. */
			if (s->status[i].line > 0)
				snprintf(where, sizeof(where), "line %d: ", s->status[i].line);
			fprintf(stderr, "pagetop: %s/%s: %s%s\n", root, source_name(i), where,
				s->status[i].msg);
			status = 1;
		}
	}
	if (!any) {
		fprintf(stderr, "pagetop: %s: no memory statistics readable there\n", root);
		status = 1;
	}
	if (as_json) {
		struct json j;

		json_init(&j, stdout);
		sample_json(&j, s, groups);
		fputc('\n', stdout);
	} else {
		sample_text(stdout, s, root);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pagetop: standard output: %s\n", strerror(errno));
		status = 1;
	}
	if (ts)
		taskscan_free(ts);
	free(krules);
	free(groups);
	free(rs);
	free(s);
	sampler_free(&sp);
	return status;
}
