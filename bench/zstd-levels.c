/*
 * Bytes against memory for the recorder's zstd settings: a recording's
 * samples are decoded, encoded again with this pagetop's codec, and fed
 * to one zstd stream per setting the way src/ptrec/recfile-write.c does
 * (a flush at every chunk, the recorder's cadence; a frame ended and the
 * session reset at every keyframe). Each setting runs in a child of its
 * own, so that its peak RSS less the RSS it started with is the memory
 * zstd touched: what `pagetop record` pays for it.
 *   zstd-levels FILE [LEVEL:WINDOW_LOG:HASH_LOG ...]
 * Prints, per setting, the compressed bytes a sample (the stream alone:
 * the container's bytes do not depend on it), the change against the
 * writer's setting of today (ZSTD_LEVEL etc. in src/ptrec/recfile-int.h),
 * the memory and the CPU a sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "ptrec/codec.h"
#include "ptrec/recfile-int.h"
#include "source/replay.h"

#define FLUSH	5.0		/* seconds, as the recorder's default */
#define KEY_EVERY 300		/* samples: RECORDING_KEYFRAME_EVERY (output/recording.c) */

static uint8_t **enc;
static size_t *enc_len, n_samples;
static double *mono;

struct setting {
	int level, wlog, hlog;
};

static long
status_kb(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

static double
cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Runs c over in until consumed (or, flushing/ending, until all is out);
 * the bytes it put out. */
static size_t
run(ZSTD_CCtx *c, const void *in, size_t len, ZSTD_EndDirective mode)
{
	static uint8_t out[1 << 17];
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t total = 0, r;

	for (;;) {
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };

		r = ZSTD_compressStream2(c, &ob, &ib, mode);
		if (ZSTD_isError(r)) {
			fprintf(stderr, "zstd-levels: %s\n", ZSTD_getErrorName(r));
			exit(1);
		}
		total += ob.pos;
		if (mode == ZSTD_e_continue ? ib.pos == ib.size : r == 0)
			return total;
	}
}

/* The stream's bytes for the setting; its memory (kB) and CPU (s). */
static size_t
measure(const struct setting *s, long *kb, double *cpu)
{
	long rss0 = status_kb("VmRSS");
	double c0 = cpu_s(), first = -1;
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t total = 0, i, k;
	uint8_t rh[12];
	bool open = false;

	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, s->level);
	ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, s->wlog);
	ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, s->hlog);
	ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, s->hlog);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0);
	for (i = 0; i < n_samples; i++) {
		bool key = i % KEY_EVERY == 0;

		if (open && (key || mono[i] >= first + 0.9 * FLUSH)) {
			total += run(c, NULL, 0, key ? ZSTD_e_end : ZSTD_e_flush);
			if (key)
				ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
			open = !key;
			first = -1;
		}
		k = 0;
		for (size_t v = enc_len[i]; ; v >>= 7) {
			rh[k++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
			if (v < 0x80)
				break;
		}
		rh[k++] = key;
		total += run(c, rh, k, ZSTD_e_continue);
		total += run(c, enc[i], enc_len[i], ZSTD_e_continue);
		open = true;
		if (first < 0)
			first = mono[i];
	}
	total += run(c, NULL, 0, ZSTD_e_end);
	*cpu = cpu_s() - c0;
	*kb = status_kb("VmHWM") - rss0;
	ZSTD_freeCCtx(c);
	return total;
}

int
main(int argc, char **argv)
{
	static const struct setting dflt[] = {
		{ 3, 21, 16 }, { 6, 21, 16 }, { 9, 21, 16 }, { 12, 21, 16 },
		{ 15, 21, 16 }, { 19, 21, 16 }, { 19, 19, 16 }, { 19, 18, 16 },
		{ 19, 17, 16 }, { 19, 19, 14 }, { 19, 18, 14 }, { 19, 17, 14 },
		{ 19, 17, 12 }, { 15, 19, 14 }, { 12, 19, 14 }, { 9, 19, 14 },
		{ 22, 19, 14 },
	};
	struct setting *set;
	size_t n_set, i, base = 0;
	struct replay *rp;
	char why[512];

	if (argc < 2) {
		fprintf(stderr, "usage: zstd-levels FILE [LEVEL:WINDOW_LOG:HASH_LOG ...]\n");
		return 2;
	}
	n_set = argc > 2 ? (size_t)argc - 2 : sizeof(dflt) / sizeof(dflt[0]);
	set = calloc(n_set + 1, sizeof(*set));
	for (i = 0; i < n_set; i++) {
		if (argc == 2) {
			set[i] = dflt[i];
		} else if (sscanf(argv[i + 2], "%d:%d:%d", &set[i].level, &set[i].wlog,
		    &set[i].hlog) != 3 || set[i].wlog < 10 || set[i].wlog > ZSTD_WINDOW_MAX ||
		    set[i].hlog < 6 || set[i].hlog > 30) {
			fprintf(stderr, "zstd-levels: %s: not LEVEL:WINDOW_LOG:HASH_LOG "
				"(a window log of 10 to %d)\n", argv[i + 2], ZSTD_WINDOW_MAX);
			return 2;
		}
	}
	/* Today's setting, the one the others are held against, last. */
	set[n_set].level = ZSTD_LEVEL;
	set[n_set].wlog = ZSTD_WINDOW_LOG;
	set[n_set].hlog = ZSTD_HASH_LOG;
	base = n_set++;

	if (!(rp = replay_open(argv[1], why, sizeof(why)))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	n_samples = replay_count(rp);
	enc = calloc(n_samples, sizeof(*enc));
	enc_len = calloc(n_samples, sizeof(*enc_len));
	mono = calloc(n_samples, sizeof(*mono));
	if (!enc || !enc_len || !mono || n_samples == 0) {
		fprintf(stderr, "%s: no samples\n", argv[1]);
		return 1;
	}
	{
		static struct sample prev;
		static uint8_t buf[1 << 21];

		for (i = 0; i < n_samples; i++) {
			ssize_t n;

			if (replay_seek(rp, i) != 0) {
				fprintf(stderr, "%s: sample %zu: %s\n", argv[1], i, rp->error);
				return 1;
			}
			n = codec_encode(rp->cur, i % KEY_EVERY ? &prev : NULL, buf, sizeof(buf));
			if (n < 0) {
				fprintf(stderr, "%s: sample %zu does not encode\n", argv[1], i);
				return 1;
			}
			prev = *rp->cur;
			mono[i] = rp->cur->mono;
			enc[i] = malloc((size_t)n);
			memcpy(enc[i], buf, (size_t)n);
			enc_len[i] = (size_t)n;
		}
	}
	replay_close(rp);

	/* Each in a child: results back through a pipe. */
	double bytes[64], cpu[64];
	long kb[64];
	if (n_set > 64)
		n_set = 64;
	for (i = 0; i < n_set; i++) {
		int fd[2], st;
		pid_t pid;
		struct { size_t b; long kb; double cpu; } r;

		if (pipe(fd) != 0 || (pid = fork()) < 0)
			return 1;
		if (pid == 0) {
			close(fd[0]);
			r.b = measure(&set[i], &r.kb, &r.cpu);
			_exit(write(fd[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
		}
		close(fd[1]);
		if (read(fd[0], &r, sizeof(r)) != sizeof(r) || waitpid(pid, &st, 0) != pid) {
			fprintf(stderr, "zstd-levels: setting %d:%d:%d failed\n",
				set[i].level, set[i].wlog, set[i].hlog);
			return 1;
		}
		close(fd[0]);
		bytes[i] = (double)r.b / (double)n_samples;
		kb[i] = r.kb;
		cpu[i] = r.cpu * 1e6 / (double)n_samples;
	}
	{
		double raw = 0;

		for (i = 0; i < n_samples; i++)
			raw += (double)enc_len[i];
		printf("%s: %zu samples, %.1f bytes a sample before zstd; keyframe every %d,"
		       " flush every %.1f s\n", argv[1], n_samples, raw / (double)n_samples,
		       KEY_EVERY, 0.9 * FLUSH);
	}
	printf("%5s %6s %5s %12s %9s %10s %10s\n", "level", "window", "hash",
	       "zstd B/smp", "vs today", "zstd MB", "us/sample");
	for (i = 0; i < n_set; i++)
		printf("%5d %6d %5d %12.1f %+8.1f%% %10.2f %10.1f%s\n", set[i].level,
		       set[i].wlog, set[i].hlog, bytes[i],
		       (bytes[i] / bytes[base] - 1) * 100, (double)kb[i] / 1024, cpu[i],
		       i == base ? "  (today)" : "");
	return 0;
}
