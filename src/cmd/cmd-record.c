/* pagetop record: sample headless into a recording until told to stop. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <malloc.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "util/clock.h"
#include "util/quit.h"
#include "util/arith.h"
#include "util/text.h"
#include "source/live.h"
#include "source/marks.h"
#include "output/recording.h"

static int cmd_record_exec(int, char **);

const struct cmd_entry cmd_record_entry = {
	.name = "record",
	.usage = "[-o FILE] [-d SECONDS] [--duration D] [--max-size SIZE] [--flush SECONDS]\n"
		 "      [--pagetypeinfo-every SECONDS] [--proc-root DIR] [--kmsg PATH]\n"
		 "      [--burst INTERVAL|--no-burst] [--burst-for D] [--burst-trigger SPEC]",
	.summary = "record samples to a file, headless, until the duration, SIGINT or SIGTERM",
	.exec = cmd_record_exec,
};

/* Where, how often, and whether bursts can come. */
static void
cmd_record_say_start(const struct feed *f, const char *path)
{
	char shown[3 * PATH_MAX], why[3 * sizeof(f->burst_why)];

	if (f->burst_why[0])
		fprintf(stderr, "pagetop: bursts off: %s\n",
			text_esc(why, sizeof(why), f->burst_why));
	fprintf(stderr, "pagetop: recording to %s every %gs\n",
		text_esc(shown, sizeof(shown), path), f->interval);
}

static int
cmd_record_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "delay", required_argument, NULL, 'd' },
		{ "duration", required_argument, NULL, 'D' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "flush", required_argument, NULL, 'F' },
		{ "pagetypeinfo-every", required_argument, NULL, 'P' },
		{ "proc-root", required_argument, NULL, 'r' },
		{ "kmsg", required_argument, NULL, 'k' },
		CMD_OPT_PROBES_LONG,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { .root = "/proc", .interval = 1, .pti_every = LIVE_PTI_EVERY,
				.marks = true };
	const char *out = NULL;
	double duration = 0, start, next;
	struct recorder_opts ro = { .flush_interval = 5 };
	struct recorder_status rs;
	struct recording rec;
	struct feed *f;
	struct sample *s;
	char path[4096], why[512], cmdline[1024], mtext[MARK_TEXT_MAX + 1];
	int c, r, status = 0;
	long pushed = 0;
	bool said = false;	/* the writer's error is printed once */

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'D':
			if ((r = cmd_opt_duration(NULL, "--duration", optarg, &duration)) != 0)
				return r;
			break;
		case 'M':
			if ((r = cmd_opt_size(NULL, "--max-size", optarg, &ro.max_size)) != 0)
				return r;
			break;
		case 'F':
			if ((r = cmd_opt_interval(NULL, "--flush", optarg, &ro.flush_interval)) != 0)
				return r;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_record_entry, true);
		default:
			if ((r = cmd_opt_live(c, optarg, &lo)) < 0)
				return cmd_opt_usage(&cmd_record_entry, false);
			if (r)
				return r;
			break;
		}
	}
	if (optind < argc) {
		cmd_say("record: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	/* As the dashboard (cmd-dashboard.c): 16 KB blocks and up mapped
	 * each of their own, untouched where calloc() did not use them, and
	 * one arena for the writer thread too. */
	mallopt(M_MMAP_THRESHOLD, 16 * 1024);
	mallopt(M_ARENA_MAX, 1);
	/* A malformed table is bad input: said before recording anything. */
	if (!(f = cmd_live_open(&lo, NULL)))
		return 1;
	s = f->tick.s;
	ro.pti_every = f->pti_every;
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else
		recording_default_path(&f->host, path, sizeof(path));
	cmd_command_line("record", argc, argv, cmdline, sizeof(cmdline));

	quit_catch();

	start = next = clock_mono();
	for (long n = 0; !quit_asked(); n++) {
		feed_next(f);
		if (n == 0) {
			if (recording_start(&rec, path, &f->host, s, lo.interval, cmdline, &ro, why,
					    sizeof(why)) < 0) {
				cmd_print_lines(stderr, why);
				status = 1;
				goto out;
			}
			cmd_record_say_start(f, path);
		}
		recording_push(&rec, s);
		pushed++;
		recording_status(&rec, &rs);
		if (rs.stopped) {
			cmd_print_lines(stderr, rs.error);
			status = rs.err == EFBIG ? 0 : 1;
			said = true;
			break;
		}
		if (duration > 0 && s->mono - start + f->interval_now > duration + 1e-6)
			break;
		next = feed_next_due(f, next, s->mono);
		/* Wait for the next tick, taking marks as they come; a trigger
		 * that fires starts a burst at once. */
		while (!quit_asked()) {
			struct pollfd pfd[FEED_POLL_MAX];
			int nfd = feed_pollfds(f, pfd, FEED_POLL_MAX);
			double left = next - clock_mono();

			if (left <= 0)
				break;
			if (poll(pfd, (nfds_t)nfd, (int)arith_ceil(left * 1000)) <= 0)
				continue;
			/* Not sooner than a burst's interval after the last. */
			if (feed_polled(f, pfd, nfd))
				next = arith_max(clock_mono(), s->mono + (lo.burst > 0 ? lo.burst :
									  LIVE_BURST));
			while (feed_mark_receive(f, mtext, sizeof(mtext)))
				recording_mark(&rec, s->wall + (clock_mono() - s->mono), mtext);
		}
	}
	if ((r = recording_finish(&rec, &rs, why, sizeof(why))) < 0 && r != -EFBIG) {
		if (!said)
			cmd_print_lines(stderr, why);
		status = 1;
	} else {
		char shown[3 * PATH_MAX];
		struct stat st;

		/* What the writer wrote, not what was handed to it: a sample
		 * cut by --max-size or lost to a full queue is not there. */
		fprintf(stderr, "pagetop: recorded %llu of %ld samples (%lld bytes, "
			"%llu lost) to %s\n", (unsigned long long)rs.samples, pushed,
			stat(path, &st) == 0 ? (long long)st.st_size : -1LL,
			(unsigned long long)rs.lost, text_esc(shown, sizeof(shown), path));
	}
out:
	feed_close(f);
	return status;
}
