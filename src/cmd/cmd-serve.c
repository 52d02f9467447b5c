/*
 * pagetop serve: samples live and serves /metrics to Prometheus.
 *
 * One poll() loop, one thread: a tick takes the live feed's next sample
 * and rebuilds the metric set; between ticks output/serve.c answers the
 * scrapes with the newest. A scrape that arrives during a tick waits for
 * that tick only (the task scan's slow reads have their own thread).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "util/clock.h"
#include "util/quit.h"
#include "util/arith.h"
#include "util/text.h"
#include "output/metrics.h"
#include "output/serve.h"
#include "source/live.h"

static int cmd_serve_exec(int, char **);

const struct cmd_entry cmd_serve_entry = {
	.name = "serve",
	.usage = "[--listen ADDR:PORT] [-d SECONDS] [-n N] [--pagetypeinfo-every SECONDS]\n"
		 "      [--proc-root DIR] [--kmsg PATH]\n"
		 "      [--burst INTERVAL|--no-burst] [--burst-for D] [--burst-trigger SPEC]",
	.summary = "sample live and serve /metrics to Prometheus (default 127.0.0.1:9782)",
	.exec = cmd_serve_exec,
};

/* The live tick's figures as metrics, for every scrape until the next. */
static void
serve_tick(struct feed *f, struct metric_set *m, struct metrics_input *in)
{
	feed_next(f);
	*in = metrics_input_of(&f->tick);
	if (metrics_build(m, in, ~0u) < 0)
		fprintf(stderr, "pagetop: serve: out of memory for the metrics\n");
}

static int
cmd_serve_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "pagetypeinfo-every", required_argument, NULL, 'P' },
		{ "proc-root", required_argument, NULL, 'r' },
		{ "kmsg", required_argument, NULL, 'k' },
		CMD_OPT_PROBES_LONG,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { .root = "/proc", .interval = 1, .pti_every = LIVE_PTI_EVERY };
	const char *listen_spec = SERVE_DEFAULT_LISTEN;
	double next;
	long iterations = 0;
	struct serve *sv = NULL;
	struct feed *f;
	struct metric_set *m = NULL;
	struct metrics_input in;
	unsigned long ticks = 0;
	bool open_all, usage;
	char why[512], shown[300];
	int c, r, status = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:d:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			listen_spec = optarg;
			break;
		case 'n':
			if ((r = cmd_opt_count(NULL, "-n", optarg, &iterations)) != 0)
				return r;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_serve_entry, true);
		default:
			if ((r = cmd_opt_live(c, optarg, &lo)) < 0)
				return cmd_opt_usage(&cmd_serve_entry, false);
			if (r)
				return r;
			break;
		}
	}
	if (optind < argc) {
		cmd_say("serve: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	/* A malformed table is bad input: said, and nothing served. */
	if (!(f = cmd_live_open(&lo, NULL)))
		return 1;
	if (!(m = metrics_new())) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	if (!(sv = serve_open(listen_spec, shown, sizeof(shown), &open_all, &usage, why,
			      sizeof(why)))) {
		cmd_say("serve: %s", why);
		if (usage)
			status = EXIT_USAGE;
		goto out;
	}
	if (open_all)
		fprintf(stderr, "pagetop: serve: warning: %s is every address of this machine: its "
			"memory figures, commands and kernel stacks are open to the network\n", shown);
	quit_catch();
	signal(SIGPIPE, SIG_IGN);

	serve_tick(f, m, &in);
	serve_set(sv, m, &in);
	ticks = 1;
	fprintf(stderr, "pagetop: serving http://%s/metrics, sampling %s every %gs\n", shown,
		lo.root, lo.interval);
	if (f->burst_why[0])
		fprintf(stderr, "pagetop: serve: bursts off: %s\n",
			text_esc(why, sizeof(why), f->burst_why));
	/* The interval in force: a burst's while a PSI trigger fires. */
	next = clock_mono() + f->interval_now;
	while (!quit_asked()) {
		struct pollfd pfd[FEED_POLL_MAX];
		int nfd;

		if (clock_mono() >= next) {
			if (iterations && (long)ticks >= iterations)
				break;
			serve_tick(f, m, &in);
			serve_set(sv, m, &in);
			ticks++;
			next = feed_next_due(f, next, f->tick.s->mono);
			continue;
		}
		nfd = feed_pollfds(f, pfd, FEED_POLL_MAX);
		serve_wait(sv, next, pfd, nfd);
		if (feed_polled(f, pfd, nfd))
			next = arith_max(clock_mono(), f->tick.s->mono +
					 (lo.burst > 0 ? lo.burst : LIVE_BURST));
	}
	status = 0;
out:
	serve_free(sv);
	metrics_free(m);
	feed_close(f);
	return status;
}
