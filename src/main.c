/*
 * pagetop: a dashboard of Linux memory pressure.
 *
 *   sources (/proc, task scan, kmsg, replay) -> struct sample -> history
 *       -> outputs (screen, recorder, snapshot/report/export, /metrics)
 *
 * main() only dispatches; each subcommand is an entry in src/cmd.c.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "config.h"

int
main(int argc, char **argv)
{
	const struct cmd_entry *e;

	/* No command, or options first: the dashboard. */
	if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--version") != 0 &&
	    strcmp(argv[1], "-V") != 0 && strcmp(argv[1], "--help") != 0 &&
	    strcmp(argv[1], "-h") != 0))
		return cmd_dashboard_entry.exec(argc, argv);
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("pagetop %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cmd_usage(stdout);
		return 0;
	}
	if (!(e = cmd_find(argv[1]))) {
		fprintf(stderr, "pagetop: unknown command '%s' (see pagetop --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	return e->exec(argc - 1, argv + 1);
}
