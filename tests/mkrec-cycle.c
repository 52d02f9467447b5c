/*
 * mkrec-cycle OUT FROM N KEY_EVERY KMSG_EVERY: a recording of N samples,
 * FROM's samples over and over with their times moved on, a keyframe
 * every KEY_EVERY samples (so many chunks), and an OOM kill in the kernel
 * log every KMSG_EVERY samples (0: none), so the log's totals climb from
 * chunk to chunk. What export --jobs is checked on against one job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/recording.h"
#include "source/replay.h"

int
main(int argc, char **argv)
{
	static struct sample s;
	struct recorder_opts ro = { .flush_interval = 3600, .queue_size = 64u << 20, .no_sync = true };
	struct recording rec;
	struct replay *rp;
	struct host h = { .page_size = 4096, .ncpus = 2 };
	char why[512];
	double first, span;
	long n, kmsg_every;
	size_t count;

	if (argc != 6) {
		fprintf(stderr, "usage: mkrec-cycle OUT FROM N KEY_EVERY KMSG_EVERY\n");
		return 2;
	}
	n = atol(argv[3]);
	ro.keyframe_every = atoi(argv[4]);
	kmsg_every = atol(argv[5]);
	if (!(rp = replay_open(argv[2], why, sizeof(why))) || (count = replay_count(rp)) < 2) {
		fprintf(stderr, "mkrec-cycle: %s\n", rp ? "FROM: too few samples" : why);
		return 1;
	}
	first = rec_reader_time(rp->r, 0);
	span = rec_reader_time(rp->r, count - 1) - first + 1;
	snprintf(h.hostname, sizeof(h.hostname), "mkrec-cycle");
	for (long i = 0; i < n; i++) {
		double moved = (double)(i / (long)count) * span;

		if (replay_seek(rp, (size_t)i % count) < 0) {
			fprintf(stderr, "mkrec-cycle: %s\n", rp->error);
			return 1;
		}
		memcpy(&s, rp->cur, sizeof(s));
		s.wall += moved;
		s.mono += moved;
		s.uptime += moved;
		s.kmsg.read = true;
		s.kmsg.err = 0;
		s.kmsg.n = 0;
		if (kmsg_every > 0 && i % kmsg_every == kmsg_every - 1) {
			struct kmsg_event *ev = &s.kmsg.ev[s.kmsg.n++];

			memset(ev, 0, sizeof(*ev));
			ev->seq = (uint64_t)i;
			ev->kind = KMSG_OOM_KILL;
			ev->level = 3;
			ev->lines = 1;
			ev->count = (uint32_t)(i % 3) + 1;
			snprintf(ev->text, sizeof(ev->text), "Out of memory: Killed process %ld (cc1)",
				 1000 + i);
		}
		if (i == 0 && recording_start(&rec, argv[1], &h, &s, 1, "mkrec-cycle", &ro, why,
					      sizeof(why)) < 0) {
			fprintf(stderr, "mkrec-cycle: %s\n", why);
			return 1;
		}
		recording_push(&rec, &s);
	}
	replay_close(rp);
	if (n > 0 && recording_stop(&rec, why, sizeof(why)) < 0) {
		fprintf(stderr, "mkrec-cycle: %s\n", why);
		return 1;
	}
	return 0;
}
