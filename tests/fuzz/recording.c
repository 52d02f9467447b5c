/*
 * The recording reader on any bytes: the input is written to a memfd and
 * opened through replay_open(), as `pagetop replay` and `dump` open a file.
 * A file that opens has its strings within their arrays, marks and gaps
 * that point at samples it has, and keyframes at or before each sample;
 * every sample is sought in order, each either decoding (within the caps)
 * or failing with a reason; seeking straight to a sample gives what
 * reading in order gave; finding a sample's time gives that sample when
 * the times go forward; the damage report has one line per damage. What
 * does not open says why.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptrec/codec.h"
#include "fuzz.h"
#include "ptrec/recfile.h"
#include "source/replay.h"

/* Samples decoded in order (the first so many), and sought straight to
 * and compared; more would make each input slow. */
#define DECODE_MAX 40
#define DIRECT_MAX 12

static uint8_t enc[REC_SAMPLE_MAX];

/* A sample's content as a number: its whole encoding, hashed (FNV-1a). */
static uint64_t
content(const struct sample *s)
{
	ssize_t n = codec_encode(s, NULL, enc, sizeof(enc));
	uint64_t h = 14695981039346656037ULL;

	if (n <= 0)
		fuzz_fail("recording: a sample it decoded does not encode: %zd", n);
	for (ssize_t i = 0; i < n; i++)
		h = (h ^ enc[i]) * 1099511628211ULL;
	return h | 1;	/* 0: could not be read */
}

static void
check_text(const char *what, const char *s, size_t size, bool no_control)
{
	fuzz_check_name(what, s, size);
	if (no_control)
		for (; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fuzz_fail("recording: %s holds control character %#x", what, *s);
}

static void
check_header(const struct rec_reader *r, uint64_t size)
{
	const struct rec_header *h = rec_reader_header(r);
	struct rec_info info;

	check_text("hostname", h->hostname, sizeof(h->hostname), false);
	check_text("release", h->release, sizeof(h->release), false);
	check_text("machine", h->machine, sizeof(h->machine), false);
	check_text("boot id", h->boot_id, sizeof(h->boot_id), false);
	check_text("version", h->version, sizeof(h->version), false);
	check_text("cmdline", h->cmdline, sizeof(h->cmdline), false);
	rec_reader_info(r, &info);
	check_text("why scanned", info.why_scanned, sizeof(info.why_scanned), false);
	/* Major 1 files are read too (format 1.0, before the smaller layout). */
	if ((info.major != REC_MAJOR && info.major != 1) || info.size != size || info.tail > size)
		fuzz_fail("recording: format %d.%d, size %llu of %llu, tail %llu", info.major,
			  info.minor, (unsigned long long)info.size, (unsigned long long)size,
			  (unsigned long long)info.tail);
}

static void
check_lists(const struct rec_reader *r, size_t count, uint64_t size)
{
	const struct rec_mark *m;
	const struct rec_gap *g;
	const struct rec_damage *d;
	size_t n, i;

	m = rec_reader_marks(r, &n);
	for (i = 0; i < n; i++) {
		check_text("mark", m[i].text, sizeof(m[i].text), true);
		if (m[i].sample > count)
			fuzz_fail("recording: mark %zu before sample %zu of %zu", i, m[i].sample,
				  count);
	}
	g = rec_reader_gaps(r, &n);
	for (i = 0; i < n; i++)
		if (g[i].sample > count)
			fuzz_fail("recording: gap %zu before sample %zu of %zu", i, g[i].sample,
				  count);
	d = rec_reader_damage(r, &n);
	for (i = 0; i < n; i++)
		if (d[i].offset > size)
			fuzz_fail("recording: damage %zu at byte %llu of %llu", i,
				  (unsigned long long)d[i].offset, (unsigned long long)size);
}

static void
check_report(const struct replay *rp)
{
	struct rec_info info;
	char *out = NULL;
	size_t n, nd, lines = 0;
	FILE *f = open_memstream(&out, &n);
	int said = replay_report_damage(rp, "fuzz.ptrec", f);

	fclose(f);
	rec_reader_damage(rp->r, &nd);
	rec_reader_info(rp->r, &info);
	for (size_t i = 0; i < n; i++)
		lines += out[i] == '\n';
	/* A line a damage, one for a tail cut short, one for an index that
	 * lied about its frames (replay_report_damage). */
	if (said < 0 || (size_t)said != lines ||
	    lines != nd + (info.tail != 0) +
	    (!info.indexed && strstr(info.why_scanned, "does not agree") != NULL))
		fuzz_fail("recording: damage report of %d lines, %zu written, %zu damages%s", said,
			  lines, nd, info.tail ? " and a tail" : "");
	free(out);
}

static void
check_samples(struct replay *rp, size_t count)
{
	size_t n = count < DECODE_MAX ? count : DECODE_MAX;
	uint64_t *got = calloc(n ? n : 1, sizeof(*got));
	bool forward = true;
	size_t i, k, step = n / DIRECT_MAX + 1;

	if (got == NULL)
		abort();
	for (i = 0; i < count; i++) {
		if (rec_reader_keyframe(rp->r, i) > i)
			fuzz_fail("recording: sample %zu's keyframe is %zu", i,
				  rec_reader_keyframe(rp->r, i));
		if (i > 0 && rec_reader_time(rp->r, i) < rec_reader_time(rp->r, i - 1))
			forward = false;
		if (i >= n)
			continue;
		if (replay_seek(rp, i) == 0) {
			got[i] = i % step == 0 ? content(rp->cur) : 1;
			if (rp->at != i)
				fuzz_fail("recording: sought %zu, at %zu", i, rp->at);
		} else {
			check_text("replay error", rp->error, sizeof(rp->error), false);
			if (rp->error[0] == '\0')
				fuzz_fail("recording: sample %zu failed without a reason", i);
		}
	}
	if (replay_seek(rp, count) != -ERANGE)
		fuzz_fail("recording: seeking past the end did not fail");

	/* Straight to a sample, backwards: from its keyframe. */
	for (k = n; k-- > 0;) {
		if (k % step != 0)
			continue;
		if ((replay_seek(rp, k) == 0) != (got[k] != 0) ||
		    (got[k] != 0 && content(rp->cur) != got[k]))
			fuzz_fail("recording: sample %zu read in order and sought straight differ", k);
	}
	if (forward)
		for (i = 0; i < count; i++) {
			double t = rec_reader_time(rp->r, i);
			size_t j = rec_reader_find(rp->r, t);

			if (j < i || j >= count || rec_reader_time(rp->r, j) != t)
				fuzz_fail("recording: the time of sample %zu finds sample %zu", i, j);
		}
	free(got);
}

static void
run(const uint8_t *data, size_t len)
{
	char path[64], why[300] = "";
	struct replay *rp;
	size_t count;
	int fd = memfd_create("fuzz.ptrec", MFD_CLOEXEC);

	if (fd < 0 || (len > 0 && write(fd, data, len) != (ssize_t)len))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rp = replay_open(path, why, sizeof(why));
	close(fd);
	if (rp == NULL) {
		check_text("why", why, sizeof(why), false);
		if (strncmp(why, path, strlen(path)) != 0 || strlen(why) <= strlen(path) + 2)
			fuzz_fail("recording: not opened, and why is \"%s\"", why);
		return;
	}
	count = replay_count(rp);
	check_header(rp->r, len);
	check_lists(rp->r, count, len);
	check_samples(rp, count);
	check_report(rp);
	replay_close(rp);
}

/* The seeds: the recordings in the tree, and two made of the fixture's
 * samples with a mark, a gap and a keyframe every few samples: one closed
 * (read by its index), one left as a killed recorder leaves it. */
static void
emit_made(bool closed, fuzz_emit_fn *emit, void *ctx)
{
	static uint8_t buf[REC_SAMPLE_MAX], out[1 << 20];
	char path[4096], why[300];
	struct rec_header h;
	struct rec_writer *w;
	struct replay *rp;
	ssize_t n;
	size_t i;
	int fd = memfd_create("seed.ptrec", MFD_CLOEXEC), wfd = dup(fd);

	fuzz_path(path, sizeof(path), "tests/fixtures/recordings/format-1.0.ptrec");
	if ((rp = replay_open(path, why, sizeof(why))) == NULL) {
		fprintf(stderr, "fuzz: recording seeds: %s\n", why);
		return;
	}
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "seed");
	h.interval = 0.2;
	w = rec_writer_fdopen(wfd, "seed.ptrec", &h, why, sizeof(why));
	for (i = 0; w != NULL && i < replay_count(rp) && replay_seek(rp, i) == 0; i++) {
		bool key = i % 3 == 0 || i == 5;

		if (i == 2)
			rec_writer_mark(w, rp->cur->wall, "seed mark");
		if (i == 5)
			rec_writer_gap(w, rp->cur->wall - 0.4, rp->cur->wall - 0.2, 2);
		if ((n = codec_encode(rp->cur, key ? NULL : rp->prev, buf, sizeof(buf))) > 0)
			rec_writer_sample(w, rp->cur->wall, key, buf, (size_t)n);
		if (i % 4 == 3)
			rec_writer_flush(w);
	}
	if (w != NULL && closed)
		rec_writer_close(w, why, sizeof(why));
	else if (w != NULL)
		rec_writer_abandon(w);
	replay_close(rp);
	n = pread(fd, out, sizeof(out), 0);
	close(fd);
	if (n > 0)
		emit(closed ? "made-closed.ptrec" : "made-killed.ptrec", out, (size_t)n, ctx);
}

static void
make(fuzz_emit_fn *emit, void *ctx)
{
	fuzz_emit_path("tests/fixtures/recordings", emit, ctx);
	fuzz_emit_path("data/sample-build-6.18.ptrec", emit, ctx);
	emit_made(true, emit, ctx);
	emit_made(false, emit, ctx);
}

FUZZ_TARGET_MADE(recording, run, make)
