/* The recorder thread: samples through the queue and back; a writer
 * stalled on a pipe nobody reads while pushes go on; a full disk; the
 * size limit; the header's pagetypeinfo interval; slow and failing syncs;
 * and recorders killed at random moments. */
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptrec/recfile.h"
#include "output/recorder.h"
#include "tap.h"

#define BASE	1700000000.0
#define STEP	0.25

static char dir[] = "/tmp/pagetop-recorder.XXXXXX";

static const char *
path_of(const char *name)
{
	static char buf[4][300];
	static int n;

	n = (n + 1) % 4;
	snprintf(buf[n], sizeof(buf[n]), "%s/%s", dir, name);
	return buf[n];
}

static uint32_t
rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Sample k: its number, then noise, len bytes (keyframes twice as long). */
static size_t
fake(uint32_t k, bool key, uint8_t *buf, size_t len)
{
	uint32_t s = k * 2654435761u + 1;

	len = key ? 2 * len : len;
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)rnd(&s);
	memcpy(buf, &k, 4);
	return len;
}

static uint32_t
k_of(double t)
{
	return (uint32_t)((t - BASE) / STEP + 0.5);
}

/* Every sample of the file is the one pushed at its time, in order. */
static bool
all_right(struct rec_reader *r, size_t len, bool prefix)
{
	uint8_t want[65536];
	const uint8_t *b;
	size_t i, n, l;
	uint32_t k, prev = 0;
	bool key;

	for (i = 0; i < rec_reader_count(r); i++) {
		k = k_of(rec_reader_time(r, i));
		if (rec_reader_get(r, i, &b, &l, &key) != 0)
			return false;
		n = fake(k, key, want, len);
		if (n != l || memcmp(want, b, n) != 0 || (i > 0 && k <= prev) ||
		    (prefix && k != i))
			return false;
		prev = k;
	}
	return true;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
header(struct rec_header *h)
{
	rec_header_init(h);
	strcpy(h->hostname, "build-7");
	h->interval = STEP;
	h->start = BASE;
}

static void
test_through(void)
{
	struct recorder_opts o = { .flush_interval = 0.05 };
	struct recorder_status st;
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	const struct rec_mark *m;
	uint8_t buf[4096];
	char why[300];
	size_t n, i, far = 0;
	bool key = true;
	uint32_t k;

	header(&h);
	rec = recorder_start(path_of("through.ptrec"), &h, &o, why,
	    sizeof(why));
	if (!tap_ok(rec != NULL, "started: %s", rec ? "" : why))
		return;
	for (k = 0; k < 500; k++) {
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 300));
		if (k % 200 == 100)
			recorder_mark(rec, BASE + k * STEP, "half way");
		if (k % 50 == 0)
			usleep(10000);
	}
	recorder_status(rec, &st);
	tap_ok(st.samples > 0 && st.size > 0 && !st.stopped && st.lost == 0,
	    "status while recording: %llu samples, %llu bytes",
	    (unsigned long long)st.samples, (unsigned long long)st.size);
	tap_eq_int(st.err, 0, "no error code while recording");
	tap_eq_int(recorder_stop(rec, why, sizeof(why)), 0, "stopped");

	r = rec_reader_open(path_of("through.ptrec"), why, sizeof(why));
	if (!tap_ok(r != NULL, "read back: %s", r ? "" : why))
		return;
	tap_eq_u64(rec_reader_count(r), 500, "all 500 samples");
	tap_ok(all_right(r, 300, true), "each as pushed");
	for (i = 0; i < 500; i++)
		if (i - rec_reader_keyframe(r, i) >= REC_KEYFRAME_EVERY)
			far++;
	tap_eq_u64(far, 0, "a keyframe every %d samples, as asked",
	    REC_KEYFRAME_EVERY);
	m = rec_reader_marks(r, &n);
	tap_ok(n == 2 && strcmp(m[0].text, "half way") == 0 &&
	    m[0].sample == 101, "marks, after the sample pushed before them");
	rec_reader_gaps(r, &n);
	tap_eq_u64(n, 0, "no gaps");
	rec_reader_close(r);
}

struct drain {
	int from, to;
};

static void *
drain(void *arg)
{
	struct drain *d = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(d->from, buf, sizeof(buf))) > 0)
		if (write(d->to, buf, (size_t)n) != n)
			break;
	return NULL;
}

/* The writer blocks on a pipe nobody reads: pushes go on at full speed,
 * the oldest are dropped, and the file says how many. */
static void
test_stalled(void)
{
	struct recorder_opts o = { .flush_interval = 0.05,
	    .queue_size = 256 << 10 };
	struct recorder_status st;
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	const struct rec_gap *g;
	struct drain d;
	pthread_t t;
	uint8_t buf[4096];
	char why[300];
	struct rusage u0, u1;
	double t0, dt, worst = 0;
	uint64_t lost = 0;
	size_t n, i, slow = 0, blocked = 0, keys = 0;
	bool key = true;
	uint32_t k;
	int p[2];

	header(&h);
	if (pipe(p) != 0) {
		printf("Bail out! pipe\n");
		exit(1);
	}
	rec = recorder_start_fd(p[1], "pipe", &h, &o, why, sizeof(why));
	for (k = 0; k < 4000; k++) {
		keys += key;
		n = fake(k, key, buf, 1000);
		getrusage(RUSAGE_THREAD, &u0);
		t0 = now();
		key = recorder_push(rec, BASE + k * STEP, key, buf, n);
		dt = now() - t0;
		getrusage(RUSAGE_THREAD, &u1);
		worst = dt > worst ? dt : worst;
		/* A push that waited on the stalled writer would sleep for as
		 * long as the pipe stays full (the whole test): slow and
		 * asleep. A loaded machine makes a push slow now and then (a
		 * VM's stolen time, the writer preempted inside its short
		 * copy under the lock), never for 50 ms. */
		if (dt >= 1e-3)
			slow++;
		if (dt >= 50e-3)
			blocked += u1.ru_nvcsw > u0.ru_nvcsw;
		if (k % 100 == 99)
			usleep(1000);
	}
	recorder_status(rec, &st);
	tap_eq_u64(blocked, 0, "4000 pushes onto a stalled writer: none "
	    "slept waiting on it (%zu took 1 ms or more; worst %.3f ms)", slow, worst * 1e3);
	tap_ok(st.lost > 3000 && st.behind > 0.01 && !st.stopped,
	    "the oldest were dropped (%llu), the status says how far behind "
	    "(%.2f s)", (unsigned long long)st.lost, st.behind);
	tap_ok(keys < 400, "keyframes asked for only after a loss (%zu)", keys);

	d.from = p[0];
	d.to = open(path_of("stalled.ptrec"), O_WRONLY | O_CREAT | O_EXCL,
	    0600);
	pthread_create(&t, NULL, drain, &d);
	t0 = now();
	do {
		usleep(10000);
		recorder_status(rec, &st);
	} while (st.samples + st.lost < 4000 && now() - t0 < 10);
	tap_ok(st.samples + st.lost == 4000 && st.queued == 0,
	    "once it drains, the status counts every sample: %llu written, "
	    "%llu lost", (unsigned long long)st.samples,
	    (unsigned long long)st.lost);
	tap_eq_int(recorder_stop(rec, why, sizeof(why)), 0,
	    "the pipe drains, the recorder stops");
	pthread_join(t, NULL);
	close(d.to);
	close(p[0]);

	r = rec_reader_open(path_of("stalled.ptrec"), why, sizeof(why));
	if (!tap_ok(r != NULL, "what came through the pipe reads: %s",
	    r ? "" : why))
		return;
	g = rec_reader_gaps(r, &n);
	for (i = 0; i < n; i++)
		lost += g[i].lost;
	tap_ok(n > 0 && lost == 4000 - rec_reader_count(r),
	    "its gaps count every sample not in it (%llu + %zu)",
	    (unsigned long long)lost, rec_reader_count(r));
	/* Under load the writer may lose the very first samples too: then
	 * the gap sits at sample 0, which is as true. */
	tap_ok(n > 0 && g[0].first <= g[0].last && g[0].sample <= rec_reader_count(r) &&
	    (g[0].sample == 0 || k_of(g[0].first) >= 1),
	    "a gap says when, and where it sits (sample %zu)", n ? g[0].sample : 0);
	tap_ok(all_right(r, 1000, false), "the samples there are as pushed");
	rec_reader_close(r);
}

/* A disk that fills up. */
static void
test_full(void)
{
	const char *mnt = path_of("small");
	struct recorder_opts o = { .flush_interval = 0.02 };
	struct recorder_status st;
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	uint8_t buf[8192];
	char why[300], file[400];
	double t0;
	bool key = true, pushed_after;
	uint32_t k;

	mkdir(mnt, 0700);
	if (mount("none", mnt, "tmpfs", 0, "size=256k") != 0) {
		tap_ok(1, "a full disk # SKIP cannot mount a tmpfs: %s",
		    strerror(errno));
		rmdir(mnt);
		return;
	}
	snprintf(file, sizeof(file), "%s/full.ptrec", mnt);
	header(&h);
	rec = recorder_start(file, &h, &o, why, sizeof(why));
	t0 = now();
	memset(&st, 0, sizeof(st));
	for (k = 0; !st.stopped && now() - t0 < 10; k++) {
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 2000));
		usleep(500);
		recorder_status(rec, &st);
	}
	tap_ok(st.stopped && strstr(st.error, "No space left on device") &&
	    strncmp(st.error, file, strlen(file)) == 0,
	    "the status says the disk is full: %s", st.error);
	tap_eq_int(st.err, ENOSPC, "and gives its code: ENOSPC");
	t0 = now();
	pushed_after = !recorder_push(rec, BASE + k * STEP, true, buf, 10);
	tap_ok(pushed_after && now() - t0 < 1e-3,
	    "a push after that does nothing, at once");
	tap_eq_int(recorder_stop(rec, why, sizeof(why)), -ENOSPC,
	    "stop says so too");

	r = rec_reader_open(file, why, sizeof(why));
	tap_ok(r != NULL && rec_reader_count(r) == st.samples &&
	    st.samples > 20, "the file reads, with every sample written "
	    "(%llu)", (unsigned long long)st.samples);
	tap_ok(r != NULL && all_right(r, 2000, true), "up to the error");
	rec_reader_close(r);
	umount(mnt);
	rmdir(mnt);
}

static void
test_max_size(void)
{
	struct recorder_opts o = { .flush_interval = 0.02, .max_size = 100000 };
	struct recorder_status st;
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	struct rec_info info;
	struct stat sb;
	uint8_t buf[8192];
	char why[300];
	double t0;
	bool key = true;
	uint32_t k;

	header(&h);
	rec = recorder_start(path_of("max.ptrec"), &h, &o, why, sizeof(why));
	t0 = now();
	memset(&st, 0, sizeof(st));
	for (k = 0; !st.stopped && now() - t0 < 10; k++) {
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 2000));
		usleep(500);
		recorder_status(rec, &st);
	}
	tap_ok(st.stopped && strstr(st.error, "stopped at max size"),
	    "the status says: %s", st.error);
	tap_eq_int(st.err, EFBIG, "and gives its code: EFBIG");
	tap_eq_int(recorder_stop(rec, why, sizeof(why)), -EFBIG,
	    "stop: -EFBIG");
	stat(path_of("max.ptrec"), &sb);
	r = rec_reader_open(path_of("max.ptrec"), why, sizeof(why));
	memset(&info, 0, sizeof(info));
	if (r != NULL)
		rec_reader_info(r, &info);
	tap_ok(sb.st_size <= 100000 && info.indexed &&
	    rec_reader_count(r) == st.samples && all_right(r, 2000, true),
	    "a closed file within the limit (%lld bytes, %zu samples)",
	    (long long)sb.st_size, r ? rec_reader_count(r) : 0);
	rec_reader_close(r);
}

/* The pagetypeinfo interval of the options reaches the file's header,
 * through a path or a descriptor, unless the header has its own. */
static void
test_pti_every(void)
{
	struct recorder_opts o = { .flush_interval = 0.02, .pti_every = 30 };
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	uint8_t buf[4096];
	char why[300];
	double got[4];
	int i, fd;

	for (i = 0; i < 4; i++) {
		char name[40];

		snprintf(name, sizeof(name), "pti-%d.ptrec", i);
		header(&h);
		if (i == 2)
			h.pti_every = 5;
		o.pti_every = i == 3 ? 0 : 30;
		if (i == 1) {
			fd = open(path_of(name), O_WRONLY | O_CREAT | O_EXCL,
			    0600);
			rec = recorder_start_fd(fd, name, &h, &o, why,
			    sizeof(why));
		} else
			rec = recorder_start(path_of(name), &h, &o, why,
			    sizeof(why));
		got[i] = -1;
		if (rec == NULL)
			continue;
		recorder_push(rec, BASE, true, buf, fake(0, true, buf, 100));
		recorder_stop(rec, NULL, 0);
		if ((r = rec_reader_open(path_of(name), why, sizeof(why))) !=
		    NULL)
			got[i] = rec_reader_header(r)->pti_every;
		rec_reader_close(r);
	}
	tap_ok(got[0] == 30, "the options' pagetypeinfo interval is in the "
	    "header (%g)", got[0]);
	tap_ok(got[1] == 30, "written onto a descriptor too (%g)", got[1]);
	tap_ok(got[2] == 5, "the header's own is kept (%g)", got[2]);
	tap_ok(got[3] == 0, "none given: not recorded (%g)", got[3]);
}

/* The recorder's fdatasync(2) is this one: a disk whose syncs take
 * sync_delay seconds, or fail with sync_fails (test_slow_sync). */
static volatile double sync_delay;
static volatile int sync_fails;
static int syncs;

int
fdatasync(int fd)
{
	__atomic_add_fetch(&syncs, 1, __ATOMIC_RELAXED);
	if (sync_delay > 0)
		usleep((useconds_t)(sync_delay * 1e6));
	if (sync_fails) {
		errno = sync_fails;
		return -1;
	}
	return (int)syscall(SYS_fdatasync, fd);
}

/* Syncs of a second each (a journal commit behind other writers' data)
 * hold up no write: what a killed recorder keeps stays a flush interval
 * old. A sync that fails stops the recorder and says why. */
static void
test_slow_sync(void)
{
	struct recorder_opts o = { .flush_interval = 0.1 };
	struct recorder_status st;
	struct rec_header h;
	struct recorder *rec;
	struct rec_reader *r;
	uint8_t buf[4096];
	char why[300];
	double t0, at[2048], looked;
	size_t got = 0, safe;
	bool key = true;
	uint32_t k;

	header(&h);
	sync_delay = 1.0;
	syncs = 0;
	rec = recorder_start(path_of("slow-sync.ptrec"), &h, &o, why,
	    sizeof(why));
	t0 = now();
	for (k = 0; k < 2048 && now() - t0 < 1.5; k++) {
		at[k] = now();
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 500));
		usleep(2000);
	}
	/* Pushed a flush interval and 0.1 s for the writer before the look. */
	looked = now();
	for (safe = 0; safe < k && at[safe] < looked - 0.2; safe++)
		continue;
	if ((r = rec_reader_open(path_of("slow-sync.ptrec"), why,
	    sizeof(why))) != NULL) {
		got = rec_reader_count(r);
		rec_reader_close(r);
	}
	tap_ok(r != NULL && got >= safe && safe > 300,
	    "syncs of 1 s hold up no write: %zu samples in the file, %zu "
	    "pushed 0.2 s before the look", got, safe);
	tap_ok(__atomic_load_n(&syncs, __ATOMIC_RELAXED) >= 1,
	    "... and the recorder syncs (%d begun)", syncs);

	sync_delay = 0;
	sync_fails = EIO;
	memset(&st, 0, sizeof(st));
	for (t0 = now(); !st.stopped && now() - t0 < 5; k++) {
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 500));
		usleep(2000);
		recorder_status(rec, &st);
	}
	tap_ok(st.stopped && st.err == EIO &&
	    strstr(st.error, "slow-sync.ptrec") != NULL,
	    "a sync that fails stops the recorder, saying so: %s", st.error);
	tap_eq_int(recorder_stop(rec, why, sizeof(why)), -EIO,
	    "... and stop: -EIO");
	sync_fails = 0;
	r = rec_reader_open(path_of("slow-sync.ptrec"), why, sizeof(why));
	tap_ok(r != NULL && rec_reader_count(r) >= got &&
	    all_right(r, 500, true), "the file reads up to it (%zu samples)",
	    r != NULL ? rec_reader_count(r) : 0);
	rec_reader_close(r);
}

/* Records until killed, telling the parent each sample pushed. */
static void
child(const char *path, int tell)
{
	struct recorder_opts o = { .flush_interval = 0.2 };
	struct rec_header h;
	struct recorder *rec;
	uint8_t buf[4096];
	bool key = true;
	uint32_t k;

	header(&h);
	if ((rec = recorder_start(path, &h, &o, NULL, 0)) == NULL)
		_exit(1);
	for (k = 0;; k++) {
		key = recorder_push(rec, BASE + k * STEP, key, buf,
		    fake(k, key, buf, 500));
		if (write(tell, &k, sizeof(k)) != sizeof(k))
			_exit(1);
		usleep(2000);
	}
}

static void
test_kill(void)
{
	struct rec_reader *r;
	struct pollfd pfd;
	char name[40], why[300];
	double start, at, kill_at, seen[4096];
	uint32_t k, n, safe, seed = 4242;
	int round, p[2], opened = 0, kept = 0, right = 0;
	size_t least = SIZE_MAX;
	pid_t pid;

	for (round = 0; round < 20; round++) {
		snprintf(name, sizeof(name), "killed-%d.ptrec", round);
		if (pipe(p) != 0)
			break;
		fflush(stdout);
		if ((pid = fork()) == 0) {
			close(p[0]);
			child(path_of(name), p[1]);
		}
		close(p[1]);
		pfd.fd = p[0];
		pfd.events = POLLIN;
		n = 0;
		start = 0;
		kill_at = 1e300;
		for (;;) {
			at = now();
			if (at >= kill_at)
				break;
			if (poll(&pfd, 1, 1) == 1) {
				if (read(p[0], &k, sizeof(k)) != sizeof(k))
					break;
				if (k < 4096)
					seen[k] = now();
				n = k + 1;
				if (start == 0) {
					start = now();
					kill_at = start + 0.05 +
					    (rnd(&seed) % 1000) / 1000.0;
				}
			}
		}
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(p[0]);

		/* Pushed (told, even) more than the flush interval (0.2 s)
		 * before the kill, and 0.1 s for the writer's thread to be
		 * scheduled on a machine whose every CPU is busy. */
		for (safe = 0; safe < n && seen[safe] < kill_at - 0.3; safe++)
			continue;
		r = rec_reader_open(path_of(name), why, sizeof(why));
		if (r == NULL) {
			printf("# round %d: %s\n", round, why);
			continue;
		}
		opened++;
		kept += rec_reader_count(r) >= safe;
		if (rec_reader_count(r) < safe)
			printf("# round %d: %zu samples, %u pushed 0.3 s "
			    "before the kill\n", round, rec_reader_count(r),
			    safe);
		right += all_right(r, 500, true);
		if (safe > 0 && rec_reader_count(r) - safe < least)
			least = rec_reader_count(r) - safe;
		rec_reader_close(r);
	}
	printf("# fewest samples beyond those promised: %zu\n", least);
	tap_eq_int(opened, 20,
	    "20 recorders killed at random: every file opens");
	tap_eq_int(kept, 20, "each holds every sample pushed a flush interval "
	    "before the kill");
	tap_eq_int(right, 20, "each sample as pushed");
}

int
main(void)
{
	char cmd[400];

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_through();
	test_stalled();
	test_full();
	test_max_size();
	test_pti_every();
	test_slow_sync();
	test_kill();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
