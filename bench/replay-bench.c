/*
 * Replay speed on a day-long recording: writes 86,400 samples at 1 s (real
 * samples of this machine with counters moved as a loaded box moves them),
 * then times opening it (and of that, reading the index and checking
 * every chunk), seeking to random times, as replay does, and the worst
 * case: the sample before the most distant keyframe, from nothing
 * decoded. Targets (#16): open <= 20 ms, worst-case seek <= 2 ms.
 *   replay-bench FILE [SAMPLES]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ptrec/codec.h"
#include "source/host-read.h"
#include "output/recording.h"
#include "source/replay.h"
#include "model/sample.h"
#include "source/sampler.h"

#ifndef KEYFRAME_EVERY
#define KEYFRAME_EVERY 0
#endif
/* Tasks in D at every sample (bench/report.sh), each blocked for a spell
 * of up to a minute, with one of three stacks; 0: no task scan. */
#ifndef BLOCKED_TASKS
#define BLOCKED_TASKS 0
#endif

static void
blocked_tasks(struct tasks *t, long i, double mono0)
{
	static const char *const frames[3][4] = {
		{ "jbd2_log_wait_commit", "ext4_sync_file", "do_fsync", "do_syscall_64" },
		{ "folio_wait_bit_common", "filemap_get_pages", "filemap_read", "vfs_read" },
		{ "kernel_clone", "__do_sys_vfork", "do_syscall_64", "entry_SYSCALL_64" },
	};

	static struct stack st;

	t->n_blocked = BLOCKED_TASKS;
	tasks_stacks_clear(t);
	for (int k = 0; k < 3; k++) {
		memset(&st, 0, sizeof(st));
		st.n = 4;
		for (int f = 0; f < 4; f++)
			snprintf(st.f[f].func, STACK_FUNC_LEN, "%s", frames[k][f]);
		tasks_stack_add(t, &st);
	}
	for (int k = 0; k < BLOCKED_TASKS && k < TASKS_MAX_BLOCKED; k++) {
		struct blocked_task *b = &t->b[k];
		long spell = 7 + k * 13 % 53, start = i - i % spell;

		/* A new task each spell: its tid and start change together. */
		b->tid = b->tgid = (int)(1000 + k * 100000 + start / spell);
		snprintf(b->comm, sizeof(b->comm), "worker%d", k);
		b->state = 'D';
		snprintf(b->wchan, sizeof(b->wchan), "%s", frames[k % 3][0]);
		b->since = mono0 + (double)start + 0.5;
		b->stack = k % 3;
	}
	t->by_state['D'] = BLOCKED_TASKS;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
synthesize(const char *path, long n)
{
	static struct sample s;
	struct sampler sp;
	struct recording rec;
	struct recorder_opts ro = { .flush_interval = 3600, .queue_size = 64u << 20, .no_sync = true,
	    .keyframe_every = KEYFRAME_EVERY };
	struct host h;
	char why[512];
	unsigned seed = 1;
	double mono0;

	sampler_init(&sp, "/proc");
	host_read(&h, "/proc");
	sampler_read(&sp, &s, SRC_ALL);
	s.status[SRC_TASKS].err = BLOCKED_TASKS ? 0 : 2;
	if (recording_start(&rec, path, &h, &s, 1, "replay-bench", &ro, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		exit(1);
	}
	mono0 = s.mono;
	for (long i = 0; i < n; i++) {
		s.wall += 1;
		s.mono += 1;
		/* Counters climb by varying amounts; free lists wander. */
		for (int k = 0; k < s.vm.n; k++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 4 == 0)
				s.vm.e[k].value += (seed >> 20) % 5000;
		}
		for (int z = 0; z < s.buddy.n_zones; z++)
			for (int o = 0; o < s.buddy.n_orders; o++) {
				seed = seed * 1103515245u + 12345u;
				if (s.buddy.zones[z].free[o] > 100 && (seed >> 16) % 3 == 0)
					s.buddy.zones[z].free[o] += (uint64_t)((int)((seed >> 24) % 21) - 10);
			}
		s.status[SRC_PAGETYPEINFO].err = i % 10 ? SRC_NOT_READ : 0;
		if (BLOCKED_TASKS)
			blocked_tasks(&s.tasks, i, mono0);
		recording_push(&rec, &s);
		if (i % 2000 == 0) {
			struct recorder_status st;

			/* Let the writer keep up: a bench, not a stall test. */
			do {
				recording_status(&rec, &st);
			} while (st.queued > 1000);
		}
	}
	recording_stop(&rec, why, sizeof(why));
	sampler_free(&sp);
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/pagetop-day.ptrec";
	long n = argc > 2 ? atol(argv[2]) : 86400;
	struct replay *rp;
	struct rec_reader *rr;
	struct stat st;
	char why[512];
	double t0, t_open, t_index, t_verify, worst = 0, sum = 0, t_worst = 0;
	unsigned seed = 7;
	size_t count, far = 0, gap = 0;

	if (stat(path, &st) < 0) {
		t0 = now();
		synthesize(path, n);
		printf("synthesized %ld samples in %.1f s\n", n, now() - t0);
		stat(path, &st);
	}
	/* The reader's part of opening: the index, then every chunk's check. */
	t0 = now();
	if (!(rr = rec_reader_open(path, why, sizeof(why)))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	t_index = now() - t0;
	t0 = now();
	rec_reader_verify(rr);
	t_verify = now() - t0;
	rec_reader_close(rr);

	t0 = now();
	if (!(rp = replay_open(path, why, sizeof(why)))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	t_open = now() - t0;
	count = replay_count(rp);
	/* The longest run of samples after a keyframe: its last one. */
	for (size_t i = 0; i < count; i++)
		if (i - rec_reader_keyframe(rp->r, i) > gap) {
			gap = i - rec_reader_keyframe(rp->r, i);
			far = i;
		}
	for (int k = 0; k < 5; k++) {
		double d;

		replay_seek(rp, count - 1 == far ? 0 : count - 1);
		rp->at = SIZE_MAX;	/* nothing decoded to carry on from */
		t0 = now();
		replay_seek(rp, far);
		d = now() - t0;
		if (k == 0 || d < t_worst)
			t_worst = d;
	}
	for (int k = 0; k < 200; k++) {
		double t, d;

		seed = seed * 1103515245u + 12345u;
		t = rec_reader_time(rp->r, 0) + (double)((seed >> 8) % count);
		t0 = now();
		replay_seek(rp, rec_reader_find(rp->r, t));
		d = now() - t0;
		sum += d;
		if (d > worst)
			worst = d;
	}
	printf("%-34s %10zu\n", "samples", count);
	printf("%-34s %10.1f\n", "bytes per sample", (double)st.st_size / (double)count);
	printf("%-34s %10.2f ms\n", "open", t_open * 1000);
	printf("%-34s %10.2f ms\n", "  of which the index", t_index * 1000);
	printf("%-34s %10.2f ms\n", "  of which checking every chunk", t_verify * 1000);
	printf("%-34s %10.3f ms\n", "seek to a random time, mean", sum / 200 * 1000);
	printf("%-34s %10.3f ms\n", "seek to a random time, worst", worst * 1000);
	printf("%-34s %10.3f ms (%zu samples decoded, best of 5)\n", "seek, worst case", t_worst * 1000,
	       gap + 1);
	replay_close(rp);
	return 0;
}
