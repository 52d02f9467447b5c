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
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "util/clock.h"
#include "util/arith.h"
#include "util/duration.h"
#include "source/host-read.h"
#include "source/kmsg-source.h"
#include "source/marks.h"
#include "output/recording.h"
#include "model/sample.h"
#include "source/sampler.h"
#include "source/libsensors.h"
#include "source/taskscan.h"

static int cmd_record_exec(int, char **);

const struct cmd_entry cmd_record_entry = {
	.name = "record",
	.usage = "[-o FILE] [-d SECONDS] [--duration D] [--max-size SIZE] [--flush SECONDS]\n"
		 "      [--pagetypeinfo-every SECONDS] [--proc-root DIR] [--kmsg PATH]",
	.summary = "record samples to a file, headless, until the duration, SIGINT or SIGTERM",
	.exec = cmd_record_exec,
};

static volatile sig_atomic_t record_quit;

static void
record_on_signal(int sig)
{
	record_quit = sig;
}

/* "500M", "2G", "100k", or bytes. */
static int
parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		v *= 1024;
		end++;
		break;
	case 'm': case 'M':
		v *= 1024 * 1024;
		end++;
		break;
	case 'g': case 'G':
		v *= 1024.0 * 1024 * 1024;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end && strcmp(end, "B") != 0 && strcmp(end, "iB") != 0)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

static void
join_args(int argc, char **argv, char *dst, size_t size)
{
	size_t n = 0;

	dst[0] = '\0';
	for (int i = 0; i < argc && n + 1 < size; i++)
		n += (size_t)snprintf(dst + n, size - n, "%s%s", i ? " " : "pagetop ", argv[i]);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = "/proc", *out = NULL, *kmsg_path = NULL;
	double delay = 1, duration = 0, pti_every = 10, start, next, last_pti;
	struct recorder_opts ro = { .flush_interval = 5 };
	struct recorder_status rs;
	struct recording rec;
	struct sampler sp;
	struct sample *s;
	struct host host;
	struct taskscan *ts = NULL;
	struct sensors_source *sensors = NULL;
	struct kmsg_rules *krules = NULL;
	struct kmsg_source *kmsg = NULL;
	struct sigaction sa;
	char path[4096], why[512], cmdline[1024], mpath[256] = "", mtext[MARK_TEXT_MAX + 1];
	int c, r, status = 0, mfd = -1;
	long pushed = 0;
	bool said = false;	/* the writer's error is printed once */

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'd':
			if (duration_parse(optarg, &delay) < 0 || delay < 0.1) {
				fprintf(stderr, "pagetop: -d: '%s' is not 0.1 seconds or more\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'D':
			if (duration_parse(optarg, &duration) < 0 || duration <= 0) {
				fprintf(stderr, "pagetop: --duration: '%s' is not a duration\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'M':
			if (parse_size(optarg, &ro.max_size) < 0) {
				fprintf(stderr, "pagetop: --max-size: '%s' is not a size (e.g. 100M)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			if (duration_parse(optarg, &ro.flush_interval) < 0 || ro.flush_interval < 0.1) {
				fprintf(stderr, "pagetop: --flush: '%s' is not 0.1 seconds or more\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			if (duration_parse(optarg, &pti_every) < 0 || pti_every < 0.1) {
				fprintf(stderr, "pagetop: --pagetypeinfo-every: '%s' is not 0.1 seconds "
					"or more\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			root = optarg;
			break;
		case 'k':
			kmsg_path = optarg;
			break;
		case 'h':
			printf("usage: pagetop record %s\n", cmd_record_entry.usage);
			return 0;
		default:
			fprintf(stderr, "usage: pagetop record %s\n", cmd_record_entry.usage);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pagetop: record: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if ((r = sampler_init(&sp, root)) < 0) {
		fprintf(stderr, "pagetop: %s: %s\n", root, strerror(-r));
		return 1;
	}
	host_read(&host, root);
	if (!(s = calloc(1, sizeof(*s)))) {
		fprintf(stderr, "pagetop: out of memory\n");
		sampler_free(&sp);
		return 1;
	}
	if (sp.fs.is_procfs) {
		ts = taskscan_new(root);
		sensors = sensors_open();
	}
	/* The kernel log is this machine's: read on a real procfs, or where asked. */
	if (kmsg_path || sp.fs.is_procfs) {
		if (!(krules = calloc(1, sizeof(*krules)))) {
			fprintf(stderr, "pagetop: out of memory\n");
			status = 1;
			goto out;
		}
		if ((r = kmsg_rules_load_installed(krules, why, sizeof(why))) < 0) {
			fprintf(stderr, "pagetop: %s\n", why);
			if (r == -EINVAL) {
				status = 1;
				goto out;
			}
		}
		if (!(kmsg = kmsg_source_open(kmsg_path ? kmsg_path : KMSG_DEVICE, krules))) {
			fprintf(stderr, "pagetop: out of memory\n");
			status = 1;
			goto out;
		}
	}
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else
		recording_default_path(&host, path, sizeof(path));
	join_args(argc - 1, argv + 1, cmdline, sizeof(cmdline));

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	start = last_pti = clock_mono();
	for (long n = 0; !record_quit; n++) {
		unsigned mask = SRC_ALL;

		if (n > 0 && clock_mono() - last_pti < pti_every - 0.001)
			mask &= ~SRC_BIT(SRC_PAGETYPEINFO);
		else
			last_pti = clock_mono();
		sampler_read(&sp, s, mask);
		s->status[SRC_TASKS].err = ENOENT;
		if (ts) {
			taskscan_read(ts, s->mono, &s->tasks);
			s->status[SRC_TASKS].err = 0;
		}
		if (sensors)
			sensors_read(sensors, &s->sensors);
		if (kmsg)
			kmsg_source_read(kmsg, &s->kmsg);
		if (n == 0) {
			if (recording_start(&rec, path, &host, s, delay, cmdline, &ro, why,
					    sizeof(why)) < 0) {
				fprintf(stderr, "pagetop: %s\n", why);
				status = 1;
				goto out;
			}
			/* Marks from `pagetop mark`; without the socket, recording goes on. */
			if ((mfd = marks_listen(mpath, sizeof(mpath), why, sizeof(why))) < 0)
				fprintf(stderr, "pagetop: marks: %s\n", why);
			fprintf(stderr, "pagetop: recording to %s every %gs\n", path, delay);
		}
		recording_push(&rec, s);
		pushed++;
		recording_status(&rec, &rs);
		if (rs.stopped) {
			fprintf(stderr, "pagetop: %s\n", rs.error);
			status = strstr(rs.error, "max size") ? 0 : 1;
			said = true;
			break;
		}
		if (duration > 0 && s->mono - start + delay > duration + 1e-6)
			break;
		/* Wait for the next tick, taking marks as they come. */
		next = start + (double)(n + 1) * delay;
		while (!record_quit) {
			struct pollfd pfd = { .fd = mfd, .events = POLLIN };
			double left = next - clock_mono();

			if (left <= 0)
				break;
			if (poll(&pfd, mfd >= 0 ? 1 : 0, (int)arith_ceil(left * 1000)) > 0)
				while (marks_receive(mfd, mtext, sizeof(mtext)))
					recording_mark(&rec, s->wall + (clock_mono() - s->mono), mtext);
		}
		if (next < clock_mono() - delay)
			start = clock_mono() - (double)(n + 1) * delay;	/* stalled: no catching up */
	}
	if ((r = recording_stop(&rec, why, sizeof(why))) < 0 && r != -EFBIG) {
		if (!said)
			fprintf(stderr, "pagetop: %s\n", why);
		status = 1;
	} else {
		struct stat st;

		fprintf(stderr, "pagetop: recorded %ld samples (%lld bytes, %llu lost) to %s\n",
			pushed, stat(path, &st) == 0 ? (long long)st.st_size : -1LL,
			(unsigned long long)rs.lost, path);
	}
	marks_close(mfd, mpath);
out:
	if (ts)
		taskscan_free(ts);
	if (sensors)
		sensors_close(sensors);
	kmsg_source_close(kmsg);
	free(krules);
	free(s);
	sampler_free(&sp);
	return status;
}
