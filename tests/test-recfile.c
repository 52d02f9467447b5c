/* The recording container: samples, marks and gaps written and read back
 * whole; files cut at every byte, with bytes flipped in the middle, not
 * closed, or not recordings at all; the size limit; the pagetypeinfo
 * interval of format 2.1 and the recordings of every format; the open and
 * seek times of a day at one sample a second. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "ptrec/recfile.h"
#include "util/crc32c.h"
#include "tap.h"

#define BASE	1700000000.0	/* wall time of sample 0 */
#define STEP	0.25		/* exact in binary: times compare == */

static char dir[] = "/tmp/pagetop-recfile.XXXXXX";

static char *
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

/* Sample k's bytes: its number, then noise; sizes 0..max-1. */
static size_t
fake(uint32_t k, uint8_t *buf, size_t max)
{
	uint32_t s = k * 2654435761u + 1;
	size_t len = rnd(&s) % max, i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)rnd(&s);
	if (len >= 4)
		memcpy(buf, &k, 4);
	return len;
}

static bool
same_as_fake(uint32_t k, const uint8_t *b, size_t len, size_t max)
{
	uint8_t want[4096];
	size_t n = fake(k, want, max);

	return n == len && memcmp(want, b, len) == 0;
}

/* The number of the sample at wall time t. */
static uint32_t
k_of(double t)
{
	return (uint32_t)((t - BASE) / STEP + 0.5);
}

static void
header(struct rec_header *h)
{
	rec_header_init(h);
	strcpy(h->hostname, "build-7");
	strcpy(h->release, "6.18.44-test");
	strcpy(h->machine, "x86_64");
	strcpy(h->boot_id, "0e5c1a3e-0b7c-4e55-9d1a-5b8a9d7e2c11");
	strcpy(h->version, "0.1.0");
	strcpy(h->cmdline, "pagetop --record x.ptrec -d 1");
	h->page_size = 4096;
	h->pageblock_order = 9;
	h->nodes = 2;
	h->cpus = 16;
	h->mem_kb = 65536000;
	h->interval = 1;
	h->start = BASE;
}

static uint8_t *
slurp(const char *p, size_t *len)
{
	struct stat st;
	uint8_t *b;
	int fd = open(p, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0)
		return NULL;
	b = malloc((size_t)st.st_size + 1);
	*len = (size_t)pread(fd, b, (size_t)st.st_size, 0);
	close(fd);
	return b;
}

static void
spit(const char *p, const uint8_t *b, size_t len)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, b, len) != (ssize_t)len)
		printf("Bail out! cannot write %s\n", p);
	close(fd);
}

/* After each call on the writer: bytes written and samples in them. */
struct trace {
	uint64_t size[8192];
	uint64_t samples[8192];
	int n;
};

static void
trace(struct trace *t, const struct rec_writer *w)
{
	if (t != NULL && t->n < 8192) {
		t->size[t->n] = rec_writer_size(w);
		t->samples[t->n++] = rec_writer_samples(w);
	}
}

/* Samples whole in the first cut bytes. */
static uint64_t
samples_within(const struct trace *t, uint64_t cut)
{
	uint64_t n = 0;

	for (int i = 0; i < t->n; i++)
		if (t->size[i] <= cut)
			n = t->samples[i];
	return n;
}

/*
 * n samples of up to max bytes, a keyframe every 10, a flush every 7, a
 * mark at every 50th and a gap of 5 after sample 133 (and any multiple of
 * 1000 plus 133). Returns the writer unclosed.
 */
static struct rec_writer *
record(const char *p, uint32_t n, size_t max, struct trace *t)
{
	struct rec_header h;
	struct rec_writer *w;
	uint8_t buf[4096];
	char why[300], text[40];
	bool key, after_gap = false;
	size_t len;
	uint32_t k;

	header(&h);
	if ((w = rec_writer_open(p, &h, why, sizeof(why))) == NULL) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	trace(t, w);
	for (k = 0; k < n; k++) {
		if (k % 1000 == 134) {
			if (t != NULL) {	/* one frame a step */
				rec_writer_flush(w);
				trace(t, w);
			}
			rec_writer_gap(w, BASE - 5, BASE - 1, 5);
			after_gap = true;
			trace(t, w);
		}
		key = k % 10 == 0 || after_gap;
		len = fake(k, buf, max);
		if (rec_writer_sample(w, BASE + k * STEP, key, buf, len) != 0)
			printf("# sample %u: %s\n", k, rec_writer_error(w));
		after_gap = false;
		trace(t, w);
		if (k % 7 == 6) {
			rec_writer_flush(w);
			trace(t, w);
		}
		if (k % 50 == 49) {
			snprintf(text, sizeof(text), "mark %u", k);
			if (t != NULL) {
				rec_writer_flush(w);
				trace(t, w);
			}
			rec_writer_mark(w, BASE + k * STEP + 0.1, text);
			trace(t, w);
		}
	}
	return w;
}

static void
test_crc(void)
{
	const char *s = "123456789";
	uint8_t big[1000];
	uint32_t c;

	tap_eq_u64(rec_crc32c(0, s, 9), 0xE3069283, "CRC-32C check value");
	for (int i = 0; i < 1000; i++)
		big[i] = (uint8_t)(i * 7);
	c = rec_crc32c(rec_crc32c(0, big, 333), big + 333, 667);
	tap_eq_u64(c, rec_crc32c(0, big, 1000), "CRC-32C in two pieces");
	tap_eq_u64(crc32c_portable(0, s, 9), 0xE3069283, "CRC-32C check value, by tables");
	/* The instruction's path and the tables' agree at every length and
	 * alignment (the CPU's path is the one the reader takes). */
	int differ = 0;
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n + off <= sizeof(big); n += 1 + n / 7)
			differ += crc32c(0x1234, big + off, n) != crc32c_portable(0x1234, big + off, n);
	tap_eq_u64(differ, 0, "CRC-32C: the CPU's path equals the tables' at all lengths and offsets");
}

static void
test_roundtrip(void)
{
	const char *p = path_of("whole.ptrec");
	struct rec_writer *w;
	struct rec_reader *r;
	const struct rec_header *h;
	const struct rec_mark *m;
	const struct rec_gap *g;
	struct rec_info info;
	struct stat st;
	const uint8_t *b;
	uint8_t buf[16];
	char why[300];
	size_t n, len, i, bad = 0, badkey = 0, badtime = 0, badfind = 0;
	uint32_t s = 99;
	bool key;
	mode_t old = umask(0);

	w = record(p, 1000, 3000, NULL);
	umask(old);
	tap_eq_int(rec_writer_sample(w, BASE + 1000 * STEP, false, buf, 0), 0,
	    "a delta sample after a keyframe is taken");
	rec_writer_gap(w, BASE, BASE, 1);
	tap_eq_int(rec_writer_sample(w, BASE + 1001 * STEP, false, buf, 0),
	    -EINVAL,
	    "a delta sample right after a gap is refused");
	tap_eq_int(rec_writer_close(w, why, sizeof(why)), 0, "closed");

	memset(&st, 0, sizeof(st));
	stat(p, &st);
	tap_ok((st.st_mode & 0777) == 0600, "mode 0600 even with umask 0 (%o)",
	    st.st_mode & 0777);
	w = rec_writer_open(p, NULL, why, sizeof(why));
	tap_ok(w == NULL && strstr(why, "already exists") != NULL &&
	    strncmp(why, p, strlen(p)) == 0, "an existing file is refused: %s",
	    why);

	if (!tap_ok((r = rec_reader_open(p, why, sizeof(why))) != NULL,
	    "reopened"))
		return;
	rec_reader_info(r, &info);
	tap_ok(info.indexed, "through the index");
	tap_eq_int(info.major * 100 + info.minor, REC_MAJOR * 100 + REC_MINOR,
	    "version");
	tap_eq_u64(rec_reader_count(r), 1001, "1001 samples");
	h = rec_reader_header(r);
	tap_eq_str(h->hostname, "build-7", "header: hostname");
	tap_eq_str(h->release, "6.18.44-test", "header: release");
	tap_eq_str(h->boot_id, "0e5c1a3e-0b7c-4e55-9d1a-5b8a9d7e2c11",
	    "header: boot id");
	tap_eq_str(h->cmdline, "pagetop --record x.ptrec -d 1",
	    "header: command line");
	tap_ok(h->page_size == 4096 && h->pageblock_order == 9 &&
	    h->nodes == 2 && h->cpus == 16 && h->mem_kb == 65536000 &&
	    h->interval == 1 && h->start == BASE, "header: numbers");

	for (i = 0; i < 1000; i++) {
		if (rec_reader_get(r, i, &b, &len, &key) != 0 ||
		    !same_as_fake((uint32_t)i, b, len, 3000))
			bad++;
		if (key != (i % 10 == 0 || i == 134))
			badkey++;
		if (rec_reader_time(r, i) != BASE + i * STEP)
			badtime++;
		if (rec_reader_find(r, BASE + i * STEP) != i ||
		    rec_reader_find(r, BASE + i * STEP + 0.1) != i)
			badfind++;
	}
	tap_eq_u64(bad, 0, "every sample's bytes, in order");
	tap_eq_u64(badkey, 0, "keyframe flags");
	tap_eq_u64(badtime, 0, "times");
	tap_eq_u64(badfind, 0, "find: the sample at or before a time");
	tap_eq_u64(rec_reader_find(r, BASE - 100), 0, "find before the start");
	tap_eq_u64(rec_reader_find(r, BASE + 1e6), 1000, "find past the end");

	for (bad = 0, i = 0; i < 300; i++) {
		size_t j = rnd(&s) % 1000;

		if (rec_reader_get(r, j, &b, &len, NULL) != 0 ||
		    !same_as_fake((uint32_t)j, b, len, 3000))
			bad++;
		if (rec_reader_keyframe(r, j) != (j == 134 ? 134 :
		    j > 134 && j < 140 ? 134 : j / 10 * 10))
			bad++;
	}
	tap_eq_u64(bad, 0, "random access, and the keyframe before each");
	tap_eq_int(rec_reader_get(r, 1001, &b, &len, NULL), -ERANGE,
	    "past the end: -ERANGE");

	m = rec_reader_marks(r, &n);
	tap_eq_u64(n, 20, "20 marks");
	tap_ok(n == 20 && strcmp(m[2].text, "mark 149") == 0 &&
	    m[2].sample == 150 && m[2].wall == BASE + 149 * STEP + 0.1,
	    "a mark's text, time and place");
	g = rec_reader_gaps(r, &n);
	tap_eq_u64(n, 2, "2 gaps");
	tap_ok(n == 2 && g[0].lost == 5 && g[0].sample == 134 &&
	    g[0].first == BASE - 5 && g[0].last == BASE - 1 &&
	    g[1].sample == 1001, "a gap's count, times and place");
	rec_reader_damage(r, &n);
	tap_eq_u64(n, 0, "no damage");
	rec_reader_close(r);
}

/* A recorder killed after a flush: copy the file as it was then. */
static void
test_crash(void)
{
	const char *p = path_of("crash.ptrec"), *q = path_of("copy.ptrec");
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_info info;
	const uint8_t *b;
	uint8_t *bytes, buf[3000];
	size_t len, i, bad = 0;
	uint64_t flushed;
	char why[300];

	w = record(p, 500, 3000, NULL);
	rec_writer_flush(w);
	flushed = rec_writer_samples(w);
	bytes = slurp(p, &len);
	spit(q, bytes, len);
	free(bytes);
	for (uint32_t k = 500; k < 520; k++)	/* never flushed */
		rec_writer_sample(w, BASE + k * STEP, k == 500, buf,
		    fake(k, buf, 3000));
	rec_writer_abandon(w);

	r = rec_reader_open(q, why, sizeof(why));
	if (!tap_ok(r != NULL, "a file never closed opens: %s", r ? "" : why))
		return;
	rec_reader_info(r, &info);
	tap_ok(!info.indexed && info.tail == 0, "by reading every frame (%s)",
	    info.why_scanned);
	tap_eq_u64(rec_reader_count(r), flushed, "with every flushed sample");
	for (i = 0; i < rec_reader_count(r); i++)
		if (rec_reader_get(r, i, &b, &len, NULL) != 0 ||
		    !same_as_fake((uint32_t)i, b, len, 3000) ||
		    rec_reader_time(r, i) != BASE + i * STEP)
			bad++;
	tap_eq_u64(bad, 0, "all of them right");
	rec_reader_close(r);

	r = rec_reader_open(p, why, sizeof(why));
	tap_ok(r != NULL && rec_reader_count(r) == flushed,
	    "the abandoned file: what was flushed, no more");
	rec_reader_close(r);
}

/* Open a copy of file cut at every byte. */
static void
test_truncate(void)
{
	const char *p = path_of("small.ptrec"), *q = path_of("cut.ptrec");
	static struct trace t;
	struct rec_writer *w;
	struct rec_reader *r;
	const uint8_t *b;
	uint8_t *bytes;
	size_t len, cut, i, l, nulls = 0, wrong = 0, unread = 0;
	char why[300];

	w = record(p, 60, 40, &t);
	rec_writer_flush(w);
	trace(&t, w);
	rec_writer_close(w, NULL, 0);
	bytes = slurp(p, &len);
	for (cut = 0; cut <= len; cut++) {
		spit(q, bytes, cut);
		r = rec_reader_open(q, why, sizeof(why));
		if (r == NULL) {
			if (cut >= 20 || why[0] == '\0')
				nulls++;
			continue;
		}
		if (cut < 20)
			nulls++;
		if (rec_reader_count(r) != samples_within(&t, cut)) {
			if (wrong++ == 0)
				printf("# cut %zu: %zu samples, want %llu\n",
				    cut, rec_reader_count(r),
				    (unsigned long long)
				    samples_within(&t, cut));
		}
		for (i = 0; i < rec_reader_count(r); i++)
			if (rec_reader_get(r, i, &b, &l, NULL) != 0 ||
			    !same_as_fake((uint32_t)i, b, l, 40))
				unread++;
		rec_reader_close(r);
	}
	free(bytes);
	tap_eq_u64(nulls, 0, "cut at each of %zu bytes: opens past the file "
	    "head, says why before", len + 1);
	tap_eq_u64(wrong, 0, "each holds the samples of its whole frames");
	tap_eq_u64(unread, 0, "and reads them all");
}

/* Damage in a file never closed: the reader resynchronises. */
static void
test_flip_scan(void)
{
	const char *p = path_of("flip.ptrec"), *q = path_of("flipped.ptrec");
	static struct trace t;
	struct rec_writer *w;
	struct rec_reader *r;
	const struct rec_damage *d;
	const uint8_t *b;
	uint8_t *bytes, *copy;
	size_t len, nd, i, l, round, f;
	uint64_t lost, flips[4], lo, hi, after;
	uint32_t s = 7, k, prev;
	int nulls = 0, covered = 0, unread = 0, order = 0, sums = 0;
	int missing = 0, damaged = 0;
	bool seen[400];

	w = record(p, 400, 300, &t);
	rec_writer_flush(w);
	trace(&t, w);
	rec_writer_abandon(w);
	bytes = slurp(p, &len);
	copy = malloc(len);
	for (round = 0; round < 200; round++) {
		memcpy(copy, bytes, len);
		lo = len;
		hi = 0;
		for (f = 0; f < 1 + round % 4; f++) {
			flips[f] = len * 3 / 10 + rnd(&s) % (len * 4 / 10);
			copy[flips[f]] ^= (uint8_t)(1 + rnd(&s) % 255);
			lo = flips[f] < lo ? flips[f] : lo;
			hi = flips[f] > hi ? flips[f] : hi;
		}
		spit(q, copy, len);
		if ((r = rec_reader_open(q, NULL, 0)) == NULL) {
			nulls++;
			continue;
		}
		d = rec_reader_damage(r, &nd);
		damaged += nd > 0;
		for (f = 0; f < 1 + round % 4; f++) {
			for (i = 0; i < nd; i++)
				if (flips[f] >= d[i].offset &&
				    flips[f] < d[i].offset + d[i].bytes)
					break;
			covered += i < nd;
		}
		for (lost = 0, i = 0; i < nd; i++)
			lost += d[i].lost;
		sums += rec_reader_count(r) + lost == 400;

		/* Nothing may be missing before the first flipped frame,
		 * nor from the first keyframe after the last. */
		after = 400;
		for (i = 1; i < (size_t)t.n; i++)
			if (t.size[i - 1] > hi &&
			    t.samples[i] > t.samples[i - 1]) {
				after = t.samples[i - 1];
				break;
			}
		after = after > 130 && after <= 134 ? 134 :
		    (after + 9) / 10 * 10;
		memset(seen, 0, sizeof(seen));
		for (prev = UINT32_MAX, i = 0; i < rec_reader_count(r); i++) {
			k = k_of(rec_reader_time(r, i));
			if (rec_reader_get(r, i, &b, &l, NULL) != 0 ||
			    !same_as_fake(k, b, l, 300))
				unread++;
			if (prev != UINT32_MAX && k <= prev)
				order++;
			if (k < 400)
				seen[k] = true;
			prev = k;
		}
		for (k = 0; k < 400; k++)
			if (!seen[k] && (k < samples_within(&t, lo) ||
			    k >= after)) {
				missing++;
				break;
			}
		rec_reader_close(r);
	}
	free(copy);
	free(bytes);
	tap_eq_int(nulls, 0, "200 damaged copies all open");
	tap_eq_int(damaged, 200, "each reports damage");
	tap_eq_int(covered, 500, "every flipped byte lies in a damage entry");
	tap_eq_int(unread, 0, "every sample left reads right");
	tap_eq_int(order, 0, "in order");
	tap_eq_int(sums, 200, "samples read + samples counted lost = written");
	tap_eq_int(missing, 0, "nothing lost before the damage, nor after "
	    "the next keyframe");
}

/* Damage in a closed file: the index is used; the damaged chunk shows
 * when read, or when verified. */
static void
test_flip_indexed(void)
{
	const char *p = path_of("flipi.ptrec"), *q = path_of("flippedi.ptrec");
	static struct trace t;
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_info info;
	const struct rec_damage *d;
	const uint8_t *b;
	uint8_t *bytes;
	size_t len, nd, i, l, ok = 0, eio = 0, wrong = 0;
	uint64_t at = 0, index_at;
	char first_error[600] = "";

	w = record(p, 400, 300, &t);
	rec_writer_flush(w);
	trace(&t, w);
	index_at = rec_writer_size(w);
	rec_writer_close(w, NULL, 0);
	bytes = slurp(p, &len);
	for (i = 0; i < (size_t)t.n; i++)	/* a chunk holding 200 */
		if (t.samples[i] > 200) {
			at = t.size[i - 1] + 40;
			break;
		}
	bytes[at] ^= 0x55;
	spit(q, bytes, len);
	r = rec_reader_open(q, NULL, 0);
	if (!tap_ok(r != NULL, "a closed file with a flipped byte opens"))
		return;
	rec_reader_info(r, &info);
	tap_ok(info.indexed && rec_reader_count(r) == 400,
	    "through its index, with every sample listed");
	for (i = 0; i < 400; i++) {
		int e = rec_reader_get(r, i, &b, &l, NULL);

		if (e == 0)
			ok++, wrong += !same_as_fake((uint32_t)i, b, l, 300);
		else if (e == -EIO && eio++ == 0)
			snprintf(first_error, sizeof(first_error), "%s",
			    rec_reader_error(r));
	}
	tap_ok(eio > 0 && eio <= 10 && ok + eio == 400 && wrong == 0,
	    "the damaged chunk's samples fail with -EIO to the next keyframe "
	    "(%zu), the rest read right", eio);
	tap_ok(strstr(first_error, "cannot be read") != NULL,
	    "and say so: %s", first_error);
	tap_ok(strstr(rec_reader_error(r), "needs the damaged chunk") != NULL,
	    "as do the samples after it: %s", rec_reader_error(r));
	d = rec_reader_damage(r, &nd);
	tap_ok(nd == 1 && d[0].offset <= at && at < d[0].offset + d[0].bytes &&
	    d[0].lost == eio, "one damage entry, where the byte is");
	rec_reader_close(r);

	r = rec_reader_open(q, NULL, 0);
	tap_eq_int(rec_reader_verify(r), 1, "verify finds it before reading");
	rec_reader_close(r);

	bytes[at] ^= 0x55;
	bytes[index_at + 30] ^= 0x55;	/* in the index */
	spit(q, bytes, len);
	r = rec_reader_open(q, NULL, 0);
	rec_reader_info(r, &info);
	tap_ok(r != NULL && !info.indexed && rec_reader_count(r) == 400,
	    "a damaged index: every frame read instead (%s)", info.why_scanned);
	rec_reader_close(r);
	free(bytes);
}

static void
test_not_recordings(void)
{
	const char *p = path_of("text.txt");
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_info info;
	struct rec_header h;
	uint8_t *bytes, *two;
	size_t len, n;
	char why[300], want[400];

	memset(&info, 0, sizeof(info));

	spit(p, (const uint8_t *)"MemTotal: 1 kB\n", 15);
	r = rec_reader_open(p, why, sizeof(why));
	snprintf(want, sizeof(want), "%s: not a pagetop recording", p);
	tap_ok(r == NULL, "a text file is refused");
	tap_eq_str(why, want, "saying what it is not");
	spit(p, (const uint8_t *)"", 0);
	r = rec_reader_open(p, why, sizeof(why));
	tap_ok(r == NULL && strcmp(why, want) == 0, "an empty file too");
	r = rec_reader_open(path_of("none"), why, sizeof(why));
	tap_ok(r == NULL && strstr(why, "No such file") != NULL,
	    "a missing file: %s", why);

	w = record(path_of("v.ptrec"), 30, 100, NULL);
	rec_writer_close(w, NULL, 0);
	bytes = slurp(path_of("v.ptrec"), &len);
	two = malloc(len + 1);
	memcpy(two, bytes, 12);			/* "\r\n" -> "\n" */
	memcpy(two + 12, bytes + 13, len - 13);
	spit(p, two, len - 1);
	r = rec_reader_open(p, why, sizeof(why));
	tap_ok(r == NULL && strstr(why, "text-mode transfer") != NULL,
	    "line endings changed in the mail: %s", why);
	bytes[16] = REC_MAJOR + 1;
	spit(p, bytes, len);
	r = rec_reader_open(p, why, sizeof(why));
	snprintf(want, sizeof(want), "format %d.%d", REC_MAJOR + 1, REC_MINOR);
	tap_ok(r == NULL && strstr(why, want) != NULL,
	    "a newer major version is refused: %s", why);
	bytes[16] = REC_MAJOR;
	bytes[18] = 7;
	spit(p, bytes, len);
	r = rec_reader_open(p, why, sizeof(why));
	tap_ok(r != NULL && rec_reader_count(r) == 30,
	    "a newer minor version reads");
	rec_reader_close(r);

	/* An unknown frame type, as a newer minor might write. */
	memcpy(two, "PTfr\5\0\0\0\x4d\0\0\0\0\0\0\0hello", 21);
	n = 0;
	{
		uint32_t c = rec_crc32c(rec_crc32c(0, two + 4, 8), two + 16, 5);

		for (int i = 0; i < 4; i++)
			two[12 + i] = (uint8_t)(c >> (8 * i));
	}
	free(bytes);
	w = record(path_of("u.ptrec"), 30, 100, NULL);
	rec_writer_flush(w);
	rec_writer_abandon(w);
	bytes = slurp(path_of("u.ptrec"), &len);
	bytes = realloc(bytes, len + 21);
	memcpy(bytes + len, two, 21);
	spit(p, bytes, len + 21);
	r = rec_reader_open(p, why, sizeof(why));
	if (r != NULL) {
		rec_reader_info(r, &info);
		rec_reader_damage(r, &n);
	}
	tap_ok(r != NULL && info.unknown_frames == 1 && n == 0 &&
	    rec_reader_count(r) == 30,
	    "an unknown frame is skipped and counted");
	rec_reader_close(r);
	free(bytes);
	free(two);

	/* Terminal escapes in a header are not passed to the screen. */
	rec_header_init(&h);
	strcpy(h.hostname, "evil\x1b[2Jhost");
	w = rec_writer_open(path_of("esc.ptrec"), &h, NULL, 0);
	rec_writer_close(w, NULL, 0);
	r = rec_reader_open(path_of("esc.ptrec"), NULL, 0);
	tap_eq_str(r ? rec_reader_header(r)->hostname : NULL, "evil?[2Jhost",
	    "control characters in the header become '?'");
	tap_ok(r && rec_reader_header(r)->cpus == -1 &&
	    rec_reader_header(r)->start == 0, "facts not given stay unknown");
	rec_reader_close(r);
}

/* The recording of each format in tests/fixtures/recordings, as a file. */
static struct rec_reader *
fixture_open(const char *name)
{
	char rel[100], why[300];
	struct rec_reader *r;
	uint8_t *b;
	size_t len;

	snprintf(rel, sizeof(rel), "recordings/%s", name);
	b = (uint8_t *)fixture_load(rel, &len);
	spit(path_of(name), b, len);
	free(b);
	if ((r = rec_reader_open(path_of(name), why, sizeof(why))) == NULL)
		printf("# %s\n", why);
	return r;
}

/* Its samples all read, with the checks of verify too. */
static bool
fixture_reads(struct rec_reader *r)
{
	const uint8_t *b;
	size_t i, len;

	for (i = 0; i < rec_reader_count(r); i++)
		if (rec_reader_get(r, i, &b, &len, NULL) != 0)
			return false;
	return rec_reader_verify(r) == 0;
}

/*
 * Format 2.1's header field, the pagetypeinfo interval: written when
 * given, read back, absent (0) otherwise. Then the committed recordings:
 * 1.0 and 2.0 read as before, fact by fact, with the interval 0 (not
 * recorded); 2.1 (the 40 samples of the 2.0 fixture, written again by
 * bench/recording-split with the header given 10 s, the bundled
 * recording's interval) has it, and otherwise every byte of 2.0's samples.
 */
static void
test_pti_every(void)
{
	static const struct {
		const char *name;
		int major, minor;
		const char *host, *release;
		long long start_us;
		double interval, pti_every;
		size_t samples, marks;
	} fx[] = {
		{ "format-1.0.ptrec", 1, 0, "fixturehost", "6.18.44",
		  1796013551958538LL, 0.2, 0, 10, 1 },
		{ "format-2.0.ptrec", 2, 0, "vm", "6.18.44-fc-v669",
		  1796013311253514LL, 1, 0, 40, 4 },
		{ "format-2.1.ptrec", 2, 1, "vm", "6.18.44-fc-v669",
		  1796013311253514LL, 1, 10, 40, 4 },
		{ "format-2.2.ptrec", 2, 2, "vm", "6.18.44-fc-v669",
		  1796013311253514LL, 1, 10, 40, 0 },	/* tests/mkprobes */
	};
	struct rec_reader *r, *old;
	const struct rec_header *hp;
	struct rec_writer *w;
	struct rec_header h;
	struct rec_info info;
	struct stat with, without;
	const uint8_t *b, *ob;
	uint8_t buf[100];
	size_t i, n, len, olen, differ = 0;
	bool key, okey;

	header(&h);
	h.pti_every = 2.5;
	w = rec_writer_open(path_of("pti.ptrec"), &h, NULL, 0);
	for (i = 0; w != NULL && i < 20; i++)
		rec_writer_sample(w, BASE + i * STEP, i % 10 == 0, buf,
		    fake((uint32_t)i, buf, 100));
	tap_eq_int(w ? rec_writer_close(w, NULL, 0) : -1, 0,
	    "written with a pagetypeinfo interval");
	memset(&info, 0, sizeof(info));
	if ((r = rec_reader_open(path_of("pti.ptrec"), NULL, 0)) != NULL)
		rec_reader_info(r, &info);
	tap_ok(r != NULL && rec_reader_header(r)->pti_every == 2.5,
	    "it reads back: %g s", r ? rec_reader_header(r)->pti_every : -1);
	tap_ok(info.major == 2 && info.minor == REC_MINOR && info.unknown_fields == 0,
	    "as a field of format 2.1 (%d.%d, %d unknown)", info.major,
	    info.minor, info.unknown_fields);
	tap_ok(r != NULL && rec_reader_header(r)->interval == 1 &&
	    rec_reader_header(r)->start == BASE &&
	    rec_reader_count(r) == 20 && fixture_reads(r),
	    "with the rest of the header and the samples");
	rec_reader_close(r);

	h.pti_every = 0;
	w = rec_writer_open(path_of("no-pti.ptrec"), &h, NULL, 0);
	for (i = 0; w != NULL && i < 20; i++)
		rec_writer_sample(w, BASE + i * STEP, i % 10 == 0, buf,
		    fake((uint32_t)i, buf, 100));
	if (w != NULL)
		rec_writer_close(w, NULL, 0);
	r = rec_reader_open(path_of("no-pti.ptrec"), NULL, 0);
	tap_ok(r != NULL && rec_reader_header(r)->pti_every == 0,
	    "not given: reads 0, not recorded");
	rec_reader_close(r);
	memset(&with, 0, sizeof(with));
	memset(&without, 0, sizeof(without));
	stat(path_of("pti.ptrec"), &with);
	stat(path_of("no-pti.ptrec"), &without);
	tap_eq_u64((uint64_t)(with.st_size - without.st_size), 12,
	    "and no field is written for it (12 bytes less)");

	for (i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		if (!tap_ok((r = fixture_open(fx[i].name)) != NULL,
		    "%s opens", fx[i].name))
			continue;
		rec_reader_info(r, &info);
		hp = rec_reader_header(r);
		rec_reader_marks(r, &n);
		tap_ok(info.major == fx[i].major && info.minor == fx[i].minor &&
		    info.indexed && info.unknown_fields == 0 &&
		    info.unknown_frames == 0, "%s: format %d.%d, by its index",
		    fx[i].name, info.major, info.minor);
		tap_ok(strcmp(hp->hostname, fx[i].host) == 0 &&
		    strcmp(hp->release, fx[i].release) == 0 &&
		    strcmp(hp->machine, "x86_64") == 0 &&
		    strcmp(hp->boot_id,
		    "1dc90163-5c2f-4532-8427-64fd3b73b5be") == 0 &&
		    strcmp(hp->version, "0.1.0") == 0 &&
		    hp->page_size == 4096 && hp->pageblock_order == 9 &&
		    hp->nodes == 1 && hp->cpus == 2 &&
		    hp->mem_kb == 24684084 && hp->interval == fx[i].interval &&
		    (long long)(hp->start * 1e6 + 0.5) == fx[i].start_us,
		    "%s: its host facts, one by one", fx[i].name);
		tap_ok(hp->pti_every == fx[i].pti_every,
		    "%s: pagetypeinfo interval %g (want %g)", fx[i].name,
		    hp->pti_every, fx[i].pti_every);
		tap_ok(rec_reader_count(r) == fx[i].samples &&
		    n == fx[i].marks && fixture_reads(r),
		    "%s: %zu samples, all read, and %zu marks", fx[i].name,
		    rec_reader_count(r), n);
		rec_reader_close(r);
	}

	r = fixture_open("format-2.1.ptrec");
	old = fixture_open("format-2.0.ptrec");
	if (!tap_ok(r != NULL && old != NULL &&
	    rec_reader_count(r) == rec_reader_count(old),
	    "2.1 and 2.0 fixtures side by side")) {
		rec_reader_close(r);
		rec_reader_close(old);
		return;
	}
	for (i = 0; i < rec_reader_count(r); i++) {
		if (rec_reader_get(r, i, &b, &len, &key) != 0 ||
		    rec_reader_get(old, i, &ob, &olen, &okey) != 0 ||
		    len != olen || memcmp(b, ob, len) != 0 || key != okey ||
		    rec_reader_time(r, i) != rec_reader_time(old, i))
			differ++;
	}
	tap_eq_u64(differ, 0, "2.1: every sample's bytes, time and keyframe "
	    "flag as in 2.0");
	rec_reader_close(r);
	rec_reader_close(old);
}

static void
test_limit(void)
{
	const char *p = path_of("limit.ptrec");
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_header h;
	struct rec_info info;
	struct stat st;
	uint8_t buf[2000];
	uint64_t written = 0;
	char why[300];
	int e = 0;
	uint32_t k;

	header(&h);
	w = rec_writer_open(p, &h, NULL, 0);
	rec_writer_set_limit(w, 50000);
	for (k = 0; k < 1000 && e == 0; k++) {
		e = rec_writer_sample(w, BASE + k * STEP, k % 10 == 0, buf,
		    fake(k, buf, 2000));
		if (e == 0 && k % 3 == 2)
			e = rec_writer_flush(w);
		written = rec_writer_samples(w);
	}
	tap_eq_int(e, -EFBIG, "the size limit stops the writer");
	tap_ok(strstr(rec_writer_error(w), "stopped at max size") != NULL,
	    "saying: %s", rec_writer_error(w));
	tap_eq_int(rec_writer_close(w, why, sizeof(why)), -EFBIG,
	    "close says it too");
	stat(p, &st);
	tap_ok(st.st_size <= 50000 && st.st_size > 40000,
	    "the file is within the limit (%lld)", (long long)st.st_size);
	r = rec_reader_open(p, why, sizeof(why));
	if (r != NULL)
		rec_reader_info(r, &info);
	tap_ok(r != NULL && info.indexed && rec_reader_count(r) == written,
	    "and properly closed, with its %llu samples",
	    (unsigned long long)written);
	rec_reader_close(r);
}

/*
 * A day at one sample a second: bytes like the codec's (field ids and
 * small zigzag varints of counters that move a little), a keyframe every
 * 60, a flush every 5. Prints how long opening and seeking take.
 */
static size_t
day_sample(uint64_t *ctr, uint32_t *s, bool key, uint8_t *buf)
{
	size_t n = 0;
	uint64_t d, v;
	int f;

	for (f = 0; f < 600; f++) {
		/* Half never move; of the rest most move a little, a few
		 * (page allocations, faults, PSI totals) by thousands. */
		switch (f % 20) {
		case 0:
			d = rnd(s) % 100000;
			break;
		case 1: case 2: case 3:
			d = rnd(s) % 1000;
			break;
		case 4: case 5: case 6: case 7: case 8: case 9:
			d = rnd(s) % 4 == 0 ? rnd(s) % 20 : 0;
			break;
		default:
			d = 0;
			break;
		}
		ctr[f] += d;
		v = key ? ctr[f] : d << 1;
		buf[n++] = (uint8_t)(f < 128 ? f : 0x80 | (f & 0x7f));
		if (f >= 128)
			buf[n++] = (uint8_t)(f >> 7);
		do {
			buf[n++] = (uint8_t)(v | (v >= 0x80 ? 0x80 : 0));
			v >>= 7;
		} while (v != 0);
	}
	return n;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_day(void)
{
	const char *p = path_of("day.ptrec"), *q = path_of("day-cut.ptrec");
	enum { N = 86400 };
	static uint64_t ctr[600];
	static uint32_t sums[N];
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_header h;
	struct stat st;
	const uint8_t *b;
	uint8_t buf[8192];
	uint32_t s = 1, seed = 5;
	uint64_t raw = 0, unindexed;
	double t0, t_write, t_open, t_scan, t_seek, worst = 0, t;
	size_t len, i, j, bad = 0;

	header(&h);
	w = rec_writer_open(p, &h, NULL, 0);
	t0 = now();
	for (i = 0; i < N; i++) {
		len = day_sample(ctr, &s, i % 60 == 0, buf);
		raw += len;
		sums[i] = rec_crc32c(0, buf, len);
		rec_writer_sample(w, BASE + i, i % 60 == 0, buf, len);
		if (i % 5 == 4)
			rec_writer_flush(w);
	}
	rec_writer_flush(w);
	unindexed = rec_writer_size(w);
	rec_writer_close(w, NULL, 0);
	t_write = now() - t0;
	stat(p, &st);
	printf("# a day: %d samples, %.0f bytes each, %.1f MB raw, "
	    "file %.2f MB (%.0f bytes a sample), written in %.2f s\n", N,
	    (double)raw / N, raw / 1e6, st.st_size / 1e6,
	    (double)st.st_size / N, t_write);

	t0 = now();
	r = rec_reader_open(p, NULL, 0);
	t_open = now() - t0;
	if (!tap_ok(r != NULL && rec_reader_count(r) == N, "a day opens"))
		return;
	t0 = now();
	for (i = 0; i < 200; i++) {
		double t1 = now();
		size_t at = rec_reader_find(r, BASE + rnd(&seed) % N);

		for (j = rec_reader_keyframe(r, at); j <= at; j++)
			if (rec_reader_get(r, j, &b, &len, NULL) != 0 ||
			    rec_crc32c(0, b, len) != sums[j])
				bad++;
		t = now() - t1;
		worst = t > worst ? t : worst;
	}
	t_seek = (now() - t0) / 200;
	t0 = now();
	for (i = 0; i < N; i++)
		if (rec_reader_get(r, i, &b, &len, NULL) != 0 ||
		    rec_crc32c(0, b, len) != sums[i])
			bad++;
	t = now() - t0;
	tap_eq_u64(bad, 0, "every sample of the day reads right");
	rec_reader_close(r);
	printf("# open through the index %.1f ms; seek (find, then decode from "
	    "the keyframe) %.2f ms mean, %.2f ms worst; all in order %.2f s "
	    "(%.1f us a sample)\n", t_open * 1e3, t_seek * 1e3, worst * 1e3, t,
	    t / N * 1e6);

	if (truncate(p, (off_t)unindexed) != 0 || rename(p, q) != 0)
		printf("# cannot cut the index off\n");
	t0 = now();
	r = rec_reader_open(q, NULL, 0);
	t_scan = now() - t0;
	tap_ok(r != NULL && rec_reader_count(r) == N,
	    "without its index, a day opens by reading every frame");
	printf("# open without the index %.1f ms\n", t_scan * 1e3);
	/* The times are printed, not asserted: bench/replay.sh measures them
	 * on a quiet machine, and a loaded one must not fail the suite. */
	rec_reader_close(r);
	unlink(q);
}

static void
cleanup(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_crc();
	test_roundtrip();
	test_crash();
	test_truncate();
	test_flip_scan();
	test_flip_indexed();
	test_not_recordings();
	test_limit();
	test_pti_every();
	test_day();
	cleanup();
	return tap_done();
}
