/* pagetop [OPTIONS]: the live dashboard, the default command. */
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "dashboard/dashboard.h"
#include "source/live.h"

static int cmd_dashboard_exec(int, char **);

const struct cmd_entry cmd_dashboard_entry = {
	.name = "dashboard",
	.usage = "[-d SECONDS] [-n N] [--history DURATION] [--pagetypeinfo-every SECONDS]\n"
		 "      [--proc-root DIR] [--kmsg PATH] [--record FILE] [--ascii] [--no-color]",
	.summary = "the live dashboard (the default when no command is given)",
	.exec = cmd_dashboard_exec,
};

static int
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "pagetop: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/*
 * What a process that runs for hours asks of malloc, before anything is
 * allocated: blocks of 16 KB and more mapped each of their own, so that
 * the pages a calloc() of them does not use are never touched (from the
 * heap, its memset touches all of a recycled block) and go back when
 * freed; and one arena, so that a worker thread's few allocations do not
 * open a heap of their own. Nothing is allocated per tick, so the mmap
 * calls are the start-up's only.
 */
static void
dashboard_lean_malloc(void)
{
	mallopt(M_MMAP_THRESHOLD, 16 * 1024);
	mallopt(M_ARENA_MAX, 1);
}

static int
cmd_dashboard_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "history", required_argument, NULL, 'H' },
		{ "pagetypeinfo-every", required_argument, NULL, 'P' },
		{ "proc-root", required_argument, NULL, 'r' },
		{ "ascii", no_argument, NULL, 'a' },
		{ "record", required_argument, NULL, 'w' },
		{ "kmsg", required_argument, NULL, 'k' },
		CMD_OPT_PROBES_LONG,
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dashboard_opts o = { .history = 3600, .color = true };
	struct live_opts lo = { .root = "/proc", .interval = 1, .pti_every = LIVE_PTI_EVERY,
				.marks = true };
	struct feed *f;
	char why[512], cmdline[1024];
	int c, r, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if ((r = cmd_opt_count(NULL, "-n", optarg, &o.iterations)) != 0)
				return r;
			break;
		case 'H':
			if ((r = cmd_opt_duration(NULL, "--history", optarg, &o.history)) != 0)
				return r;
			break;
		case 'a':
			o.ascii = true;
			break;
		case 'w':
			o.record = optarg;
			break;
		case 'C':
			o.color = false;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_dashboard_entry, true);
		default:
			if ((r = cmd_opt_live(c, optarg, &lo)) < 0)
				return cmd_opt_usage(&cmd_dashboard_entry, false);
			if (r)
				return r;
			break;
		}
	}
	if (optind < argc)
		return usage_error("unknown command '%s' (see pagetop --help)", argv[optind]);
	if (!dashboard_has_terminal())
		return 1;
	dashboard_lean_malloc();
	if (!(f = live_open(&lo, why, sizeof(why)))) {
		cmd_print_lines(stderr, why);
		return 1;
	}
	cmd_command_line(NULL, argc, argv, cmdline, sizeof(cmdline));
	o.cmdline = cmdline;
	status = dashboard_run(&o, f);
	feed_close(f);
	return status;
}
