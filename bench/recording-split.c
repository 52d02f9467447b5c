/*
 * Where a recording's bytes go, with this pagetop's codec and writer: its
 * samples are decoded and written again (the recorder's flush cadence and
 * keyframes, the marks kept), then written again without each field in
 * turn, so the difference is what that field costs compressed. Also makes
 * the format fixtures of tests/fixtures/recordings from real samples.
 *   recording-split FILE                  the split, per sample
 *   recording-split FILE -o OUT [-n SAMPLES] [-k KEYFRAME_EVERY]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptrec/codec.h"
#include "config.h"
#include "ptrec/recfile.h"
#include "source/replay.h"

#define FLUSH	5.0		/* seconds, as the recorder's default */

static struct sample *samples;
static uint8_t **enc;
static size_t *enc_len, n_samples;
static const struct rec_mark *marks;
static size_t n_marks;
static const struct rec_header *hdr;

static size_t
get_u(const uint8_t *p, size_t len, size_t *off)
{
	size_t v = 0;
	int s = 0;

	while (*off < len) {
		uint8_t b = p[(*off)++];

		v |= (size_t)(b & 0x7f) << s;
		s += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Sample i's bytes without the field drop (0: none) into out. */
static size_t
strip(size_t i, unsigned drop, uint8_t *out)
{
	const uint8_t *b = enc[i];
	size_t off = 0, at, id, len, n = 0;

	while (off < enc_len[i]) {
		at = off;
		id = get_u(b, enc_len[i], &off);
		len = get_u(b, enc_len[i], &off);
		off += len;
		if (id != drop || drop == 0) {
			memcpy(out + n, b + at, off - at);
			n += off - at;
		}
	}
	return n;
}

/* Writes the samples as the recorder would; the file's size. */
static long long
write_all(const char *path, unsigned drop, int key_every)
{
	static uint8_t buf[1 << 21];
	struct rec_writer *w;
	struct stat st;
	double first = -1;
	size_t i, m = 0, n;
	char why[300];
	bool key;

	unlink(path);
	if (!(w = rec_writer_open(path, hdr, why, sizeof(why)))) {
		fprintf(stderr, "%s\n", why);
		exit(1);
	}
	for (i = 0; i < n_samples; i++) {
		while (m < n_marks && marks[m].sample <= i) {
			rec_writer_mark(w, marks[m].wall, marks[m].text);
			m++;
			first = -1;
		}
		/* The recorder flushes 0.9 of the interval after the first
		 * sample not yet written. */
		if (first >= 0 && samples[i].mono >= first + 0.9 * FLUSH) {
			rec_writer_flush(w);
			first = -1;
		}
		key = i % (size_t)key_every == 0;
		n = strip(i, key ? 0 : drop, buf);
		if (rec_writer_sample(w, samples[i].wall, key, buf, n) != 0) {
			fprintf(stderr, "%s: %s\n", path, rec_writer_error(w));
			exit(1);
		}
		if (first < 0)
			first = samples[i].mono;
	}
	if (rec_writer_close(w, why, sizeof(why)) != 0) {
		fprintf(stderr, "%s\n", why);
		exit(1);
	}
	stat(path, &st);
	return (long long)st.st_size;
}

int
main(int argc, char **argv)
{
	static const struct { unsigned id; const char *what; } fields[] = {
		{ 2, "time" }, { 4, "statuses" }, { 16, "uptime" },
		{ 20, "buddyinfo (runs)" }, { 21, "pagetypeinfo (runs)" },
		{ 22, "vmstat (runs)" }, { 23, "meminfo (runs)" },
		{ 24, "zoneinfo (runs)" }, { 25, "pressure (runs)" },
		{ 27, "tasks (runs, stacks)" }, { 26, "differences, all" },
		{ 28, "blocked tasks' why" }, { 33, "probes" },
		{ 30, "kernel log's more" },
		{ 31, "delay accounting" }, { 32, "captures" },
	};
	const char *in = NULL, *out = NULL;
	char tmp[] = "/tmp/pagetop-split-XXXXXX", path[64];
	int key_every = 300, fd, opt;
	long n_max = 0;
	long long all, without;
	struct replay *rp;
	char why[512];
	size_t i;

	while ((opt = getopt(argc, argv, "o:n:k:")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 'n')
			n_max = atol(optarg);
		else if (opt == 'k')
			key_every = atoi(optarg);
		else
			return 2;
	}
	if (optind != argc - 1 || key_every < 1) {
		fprintf(stderr, "usage: recording-split FILE [-o OUT] [-n SAMPLES] "
			"[-k KEYFRAME_EVERY]\n");
		return 2;
	}
	in = argv[optind];
	if (!(rp = replay_open(in, why, sizeof(why)))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	n_samples = replay_count(rp);
	if (n_max > 0 && (size_t)n_max < n_samples)
		n_samples = (size_t)n_max;
	hdr = rec_reader_header(rp->r);
	marks = rec_reader_marks(rp->r, &n_marks);
	samples = calloc(n_samples, sizeof(*samples));
	enc = calloc(n_samples, sizeof(*enc));
	enc_len = calloc(n_samples, sizeof(*enc_len));
	for (i = 0; i < n_samples; i++) {
		static uint8_t buf[1 << 21];
		ssize_t n;

		if (replay_seek(rp, i) != 0) {
			fprintf(stderr, "%s: sample %zu: %s\n", in, i, rp->error);
			return 1;
		}
		samples[i] = *rp->cur;
		n = codec_encode(&samples[i], i % (size_t)key_every ? &samples[i - 1] : NULL,
				 buf, sizeof(buf));
		if (n < 0) {
			fprintf(stderr, "%s: sample %zu does not encode\n", in, i);
			return 1;
		}
		enc[i] = malloc((size_t)n);
		memcpy(enc[i], buf, (size_t)n);
		enc_len[i] = (size_t)n;
	}
	if (out != NULL) {
		static struct rec_header h;
		size_t len = 0;

		/* The recording's host, said to be written by this. */
		h = *hdr;
		snprintf(h.version, sizeof(h.version), "%s", PACKAGE_VERSION);
		for (int a = 0; a < argc && len < sizeof(h.cmdline); a++)
			len += (size_t)snprintf(h.cmdline + len, sizeof(h.cmdline) - len,
						"%s%s", a ? " " : "", a ? argv[a] :
						"bench/recording-split");
		hdr = &h;
		all = write_all(out, 0, key_every);
		printf("%s: %zu samples, %lld bytes, %.1f bytes a sample\n", out,
		       n_samples, all, (double)all / (double)n_samples);
		return 0;
	}

	if ((fd = mkstemp(tmp)) < 0)
		return 1;
	close(fd);
	snprintf(path, sizeof(path), "%s.ptrec", tmp);
	all = write_all(path, 0, key_every);
	printf("%s as this pagetop writes it: %zu samples, %.1f bytes a sample\n", in,
	       n_samples, (double)all / (double)n_samples);
	printf("what each field of the deltas costs, compressed, per sample:\n");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		without = write_all(path, fields[i].id, key_every);
		printf("  %-24s %6.1f\n", fields[i].what,
		       (double)(all - without) / (double)n_samples);
	}
	unlink(path);
	unlink(tmp);
	replay_close(rp);
	return 0;
}
