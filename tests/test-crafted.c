/* Crafted recordings cost bounded time (issue 12): a file of frame heads
 * that each claim to run to its end is read in one pass, within a few
 * times what a clean file of its size costs, and what follows the junk is
 * still found. An index that agrees with itself but not with the frames
 * it names is not used: the samples are those of the frames. */
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

#include "ptrec/recfile.h"
#include "tap.h"

#define BASE	1700000000.0
#define SIZE	(16u << 20)

static char dir[] = "/tmp/pagetop-crafted.XXXXXX";

static char *
path_of(const char *name)
{
	static char buf[4][300];
	static int n;

	n = (n + 1) % 4;
	snprintf(buf[n], sizeof(buf[n]), "%s/%s", dir, name);
	return buf[n];
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t
rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* n samples of len noisy bytes (incompressible), a chunk every 16,
 * never closed: read by scanning. */
static bool
write_noise(const char *path, int n, size_t len)
{
	static uint8_t buf[1 << 16];
	struct rec_writer *w;
	struct rec_header h;
	char why[300];
	uint32_t s = 7;
	int i;
	size_t k;

	rec_header_init(&h);
	h.interval = 1;
	if ((w = rec_writer_open(path, &h, why, sizeof(why))) == NULL) {
		printf("# %s\n", why);
		return false;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < len; k++)
			buf[k] = (uint8_t)rnd(&s);
		if (rec_writer_sample(w, BASE + i, true, buf, len) != 0 ||
		    (i % 16 == 15 && rec_writer_flush(w) != 0))
			return false;
	}
	rec_writer_flush(w);
	rec_writer_abandon(w);
	return true;
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *b;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st) != 0)
		return NULL;
	b = malloc((size_t)st.st_size);
	if (b == NULL || read(fd, b, (size_t)st.st_size) != st.st_size) {
		free(b);
		b = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return b;
}

/* Opens path and times it; the reader is closed. */
static double
timed_open(const char *path, struct rec_reader **out)
{
	char why[300];
	double t = now();

	*out = rec_reader_open(path, why, sizeof(why));
	t = now() - t;
	if (*out == NULL)
		printf("# %s\n", why);
	return t;
}

static void
test_resync_linear(void)
{
	const char *clean = path_of("clean.ptrec"), *small = path_of("small.ptrec");
	const char *crafted = path_of("crafted.ptrec");
	struct rec_reader *r;
	struct rec_info info;
	const struct rec_damage *d;
	uint8_t *sb, *cb, *p;
	size_t slen, k, nd, head_end, chunk_at;
	uint32_t type, len;
	double tc, tx;
	FILE *f;

	if (!write_noise(clean, SIZE / 8192, 8192) ||
	    !write_noise(small, 5, 100)) {
		tap_ok(0, "writing the files");
		return;
	}
	/* The small file: head, HEADER, one CHUNK of 5 samples. */
	if ((sb = slurp(small, &slen)) == NULL) {
		tap_ok(0, "reading it back");
		return;
	}
	head_end = 20 + 16 + (sb[24] | sb[25] << 8 | sb[26] << 16 |
	    (size_t)sb[27] << 24);
	chunk_at = head_end;

	/* The crafted file: the small one's head and HEADER, 16 MiB of frame
	 * heads 32 bytes apart, each claiming to run to the end (an INDEX,
	 * a type of a newer pagetop, a chunk as long as one can be), then
	 * the small one's chunk. */
	cb = calloc(1, SIZE + slen);
	memcpy(cb, sb, head_end);
	for (k = head_end; k + 32 <= SIZE; k += 32) {
		p = cb + k;
		memcpy(p, "PTfr", 4);
		type = (k / 32) % 3 == 0 ? 5 : (k / 32) % 3 == 1 ? 77 : 2;
		len = (uint32_t)(SIZE + slen - chunk_at - k - 16);
		if (type == 2 && len > (3u << 20))
			len = 3u << 20;
		put32(p + 4, len);
		p[8] = (uint8_t)type;
		put32(p + 12, (uint32_t)k * 2654435761u);
		memset(p + 16, 0xa5, 16);
	}
	memcpy(cb + k, sb + chunk_at, slen - chunk_at);
	k += slen - chunk_at;
	f = fopen(crafted, "w");
	fwrite(cb, 1, k, f);
	fclose(f);

	tc = timed_open(clean, &r);
	tap_ok(r != NULL, "a clean 16 MiB file, not closed, opens by scanning "
	    "(%.3f s)", tc);
	rec_reader_close(r);
	alarm(60);	/* a reader that is not linear fails here, not hangs */
	tx = timed_open(crafted, &r);
	alarm(0);
	tap_ok(r != NULL, "a crafted 16 MiB file of heads claiming to run to "
	    "the end opens (%.3f s)", tx);
	if (r == NULL)
		return;
	/* The clean file's time is mostly its CRCs, by the CPU's instruction
	 * where it has one: at least 0.1 s is taken for it, so that a slow
	 * build (sanitizers) is not failed for the crafted file's parsing. */
	tap_ok(tx < 10 * (tc > 0.1 ? tc : 0.1) && tx < 10,
	    "within 10 times the clean file's time (%.3f s against %.3f s)", tx,
	    tc);
	rec_reader_info(r, &info);
	d = rec_reader_damage(r, &nd);
	tap_eq_u64(rec_reader_count(r), 5,
	    "the chunk after the junk is found, with its 5 samples");
	tap_ok(nd == 1 && d[0].offset == head_end && d[0].offset + d[0].bytes ==
	    k - (slen - chunk_at), "one damage entry, the junk exactly");
	tap_ok(info.tail == 0 && info.unknown_frames == 0,
	    "no tail, no unknown frame taken from the junk");
	rec_reader_close(r);
	free(sb);
	free(cb);
}

static size_t
put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static uint64_t
get_varint(const uint8_t **p)
{
	uint64_t v = 0;
	int sh = 0;

	while (**p & 0x80) {
		v |= (uint64_t)(**p & 0x7f) << sh;
		sh += 7;
		(*p)++;
	}
	v |= (uint64_t)**p << sh;
	(*p)++;
	return v;
}

static size_t
put_frame(uint8_t *p, int type, const uint8_t *payload, uint32_t len)
{
	memcpy(p, "PTfr", 4);
	put32(p + 4, len);
	p[8] = (uint8_t)type;
	p[9] = p[10] = p[11] = 0;
	memcpy(p + 16, payload, len);
	put32(p + 12, rec_crc32c(rec_crc32c(0, p + 4, 8), p + 16, len));
	return 16 + len;
}

#define LIE_CHUNKS	32
struct lie_chunk {
	size_t off, len, count, first;
	int flags;
	int64_t t[64];
};

enum lie { LIE_NONE, LIE_TIMES, LIE_COUNTS, LIE_OFFSET, LIE_FIRST_TIME };

/* The file of b (len bytes, its INDEX at index_off) with an index of
 * what the chunks in c say, but for the lie. */
static void
write_lie(const char *path, const uint8_t *b, size_t index_off,
    const struct lie_chunk *c, size_t nc, enum lie lie)
{
	static uint8_t idx[1 << 16], out[1 << 20];
	size_t n = 0, k, j, samples = 0, after = 20, next = 0, o;
	int64_t last = 0;
	uint8_t end[16];
	FILE *f;

	for (k = 0; k < nc; k++)
		samples += c[k].count;
	n += put_varint(idx + n, nc);
	n += put_varint(idx + n, samples);
	n += put_varint(idx + n, 0);
	for (k = 0; k < nc; k++) {
		size_t off = c[k].off, clen = c[k].len, count = c[k].count;

		/* Each lie keeps the index whole and in agreement with
		 * itself: increasing offsets, counts adding up. */
		if (lie == LIE_COUNTS && nc > 1)
			count += k == 0 ? -1 : k == 1 ? 1 : 0;
		if (lie == LIE_OFFSET && k == 1) {
			off += 1;
			clen -= 1;
		}
		n += put_varint(idx + n, off - after);
		n += put_varint(idx + n, clen);
		n += put_varint(idx + n, 2);
		n += put_varint(idx + n, (uint64_t)c[k].flags);
		n += put_varint(idx + n, 0);
		n += put_varint(idx + n, count);
		after = off + clen;
		next += count;
	}
	for (k = 0; k < nc; k++)
		for (j = 0; j < c[k].count; j++) {
			int64_t t = c[k].t[j], d;

			if (lie == LIE_TIMES)
				t += 1000000;
			if (lie == LIE_FIRST_TIME && k == 1 && j == 0)
				t += 7;
			d = t - last;
			last = t;
			n += put_varint(idx + n,
			    ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
		}
	memcpy(out, b, index_off);
	o = index_off;
	o += put_frame(out + o, 5, idx, (uint32_t)n);
	for (k = 0; k < 8; k++) {
		end[k] = (uint8_t)((uint64_t)index_off >> (8 * k));
		end[8 + k] = (uint8_t)((uint64_t)samples >> (8 * k));
	}
	o += put_frame(out + o, 6, end, 16);
	f = fopen(path, "w");
	fwrite(out, 1, o, f);
	fclose(f);
	(void)next;
}

/* Whether r and ref give the same samples, times and bytes. */
static bool
same_samples(struct rec_reader *r, struct rec_reader *ref)
{
	const uint8_t *a, *b;
	size_t la, lb, i;
	uint8_t copy[256];

	if (rec_reader_count(r) != rec_reader_count(ref))
		return false;
	for (i = 0; i < rec_reader_count(r); i++) {
		if (rec_reader_time(r, i) != rec_reader_time(ref, i) ||
		    rec_reader_get(r, i, &a, &la, NULL) != 0 || la > sizeof(copy))
			return false;
		memcpy(copy, a, la);
		if (rec_reader_get(ref, i, &b, &lb, NULL) != 0 || lb != la ||
		    memcmp(copy, b, la) != 0)
			return false;
	}
	return true;
}

static void
test_lying_index(void)
{
	static const char *names[] = { "an honest index", "times a second late",
	    "counts moved between chunks", "a chunk's offset one byte on",
	    "one chunk's first time 7 us off" };
	const char *good = path_of("good.ptrec"), *scan = path_of("scan.ptrec");
	const char *lie = path_of("lie.ptrec");
	struct lie_chunk c[LIE_CHUNKS];
	struct rec_reader *r, *ref;
	struct rec_info info;
	size_t len, off, nc = 0, index_off = 0, j, plen;
	const uint8_t *p;
	uint8_t *b;
	char why[300];
	int64_t t;
	FILE *f;
	int l;

	if (!write_noise(good, 40, 100)) {
		tap_ok(0, "writing the file");
		return;
	}
	/* write_noise abandons its writer: close a copy properly. */
	{
		struct rec_writer *w;
		struct rec_header h;
		uint8_t buf[100];
		uint32_t s = 3;
		int i;

		rec_header_init(&h);
		h.interval = 1;
		unlink(good);
		w = rec_writer_open(good, &h, why, sizeof(why));
		for (i = 0; w != NULL && i < 40; i++) {
			for (j = 0; j < sizeof(buf); j++)
				buf[j] = (uint8_t)rnd(&s);
			rec_writer_sample(w, BASE + i * 0.5, i % 7 == 0, buf,
			    sizeof(buf));
			if (i % 9 == 8)
				rec_writer_flush(w);
		}
		if (w == NULL || rec_writer_close(w, why, sizeof(why)) != 0) {
			tap_ok(0, "writing the file: %s", why);
			return;
		}
	}
	b = slurp(good, &len);
	for (off = 20; b != NULL && off + 16 <= len;) {
		plen = b[off + 4] | b[off + 5] << 8 | b[off + 6] << 16 |
		    (size_t)b[off + 7] << 24;
		if (b[off + 8] == 5)
			index_off = off;
		if (b[off + 8] == 2 && nc < LIE_CHUNKS) {
			p = b + off + 16;
			c[nc].off = off;
			c[nc].len = 16 + plen;
			c[nc].flags = b[off + 9];
			c[nc].count = get_varint(&p);
			c[nc].first = get_varint(&p);
			for (j = 0, t = 0; j < c[nc].count && j < 64; j++) {
				uint64_t v = get_varint(&p);

				t += (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
				c[nc].t[j] = t;
			}
			nc++;
		}
		off += 16 + plen;
	}
	tap_ok(b != NULL && index_off > 0 && nc >= 3,
	    "a closed file of %zu chunks, its index at byte %zu", nc,
	    index_off);
	if (b == NULL || index_off == 0 || nc < 3)
		return;
	f = fopen(scan, "w");
	fwrite(b, 1, index_off, f);
	fclose(f);
	if ((ref = rec_reader_open(scan, why, sizeof(why))) == NULL) {
		tap_ok(0, "the file without its index opens: %s", why);
		return;
	}
	for (l = LIE_NONE; l <= LIE_FIRST_TIME; l++) {
		write_lie(lie, b, index_off, c, nc, (enum lie)l);
		if ((r = rec_reader_open(lie, why, sizeof(why))) == NULL) {
			tap_ok(0, "%s: opens: %s", names[l], why);
			continue;
		}
		rec_reader_info(r, &info);
		if (l == LIE_NONE)
			tap_ok(info.indexed, "%s is used", names[l]);
		else
			tap_ok(!info.indexed && strstr(info.why_scanned,
			    "agree") != NULL, "%s: not used, frames scanned "
			    "(\"%s\")", names[l], info.why_scanned);
		tap_ok(same_samples(r, ref), "%s: the same %zu samples as the "
		    "file without its index", names[l], rec_reader_count(ref));
		rec_reader_close(r);
	}
	rec_reader_close(ref);
	free(b);
}

static void
cleanup(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
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
	test_resync_linear();
	test_lying_index();
	cleanup();
	return tap_done();
}
