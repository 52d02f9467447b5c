/*
 * mkrec-dense OUT N FROM [abandon]: a recording of N samples, each the
 * first sample of the recording FROM (or, FROM "-", a sample of nothing
 * but one meminfo value) with its times moved on by 50 us a sample and
 * its first meminfo value by 1, so that all but the keyframes
 * compress to almost nothing: a file of about 1.5 bytes a sample, the most
 * samples a legitimate file holds for its size. With "abandon" the writer
 * is abandoned as a killed recorder leaves it (no index: the reader scans
 * every frame). With "fat M" it is abandoned too, and M crafted keyframe
 * chunks follow, each of whole frames claiming FAT_COUNT samples in
 * one-byte times and zstd data declaring a huge expansion: what cost an
 * older reader 8 bytes of memory a byte of file. What
 * tests/reader-memory.sh reads under ulimit -v. With "huge", one chunk of
 * one sample follows whose zstd data declares that expansion.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/codec.h"
#include "ptrec/recfile.h"
#include "source/replay.h"

#define DENSE_STEP	50e-6		/* seconds between samples */
#define DENSE_KEY_EVERY	65536		/* samples between keyframes */
#define FAT_COUNT	4000000		/* samples a crafted chunk claims */

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

static void
put32(uint8_t *p, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

/* m crafted chunks of count samples after sample number first, the
 * first at time t0 (microseconds), appended to path. */
static int
append_fat(const char *path, uint64_t first, long m, uint64_t count, int64_t t0)
{
	/* A zstd frame head declaring 2^40 bytes of content (8-byte size,
	 * single segment), then a raw block of 1 byte. */
	static const uint8_t z[] = { 0x28, 0xb5, 0x2f, 0xfd, 0xe0,
	    0, 0, 0, 0, 0, 1, 0, 0, 0x09, 0, 0, 'x' };
	uint8_t *f = calloc(1, 16 + 30 + count + sizeof(z));
	size_t n;
	FILE *out;

	if (!f || !(out = fopen(path, "a")))
		return -1;
	for (long i = 0; i < m; i++, first += count) {
		n = 16;
		n += put_varint(f + n, count);
		n += put_varint(f + n, first);
		n += put_varint(f + n, ((uint64_t)t0 << 1) ^ (uint64_t)(t0 >> 63));
		memset(f + n, 0, count - 1);	/* the times: t0, +0, ... */
		n += count - 1;
		memcpy(f + n, z, sizeof(z));
		n += sizeof(z);
		memcpy(f, "PTfr", 4);
		put32(f + 4, (uint32_t)(n - 16));
		f[8] = 2;	/* CHUNK */
		f[9] = 1;	/* a keyframe chunk */
		put32(f + 12, rec_crc32c(rec_crc32c(0, f + 4, 8), f + 16, n - 16));
		if (fwrite(f, 1, n, out) != n)
			return -1;
	}
	free(f);
	return fclose(out);
}

int
main(int argc, char **argv)
{
	static uint8_t buf[REC_SAMPLE_MAX];
	struct rec_header h;
	struct rec_writer *w;
	struct replay *rp;
	struct sample *s, *prev;
	char why[400];
	long n;

	if (argc < 4 || argc > 6 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: mkrec-dense OUT N FROM [abandon|fat M|huge]\n");
		return 2;
	}
	if (strcmp(argv[3], "-") == 0) {
		rec_header_init(&h);
		snprintf(h.hostname, sizeof(h.hostname), "mkrec-dense");
		if (!(rp = calloc(1, sizeof(*rp))) || !(rp->cur = calloc(1, sizeof(*rp->cur)))) {
			fprintf(stderr, "mkrec-dense: out of memory\n");
			return 1;
		}
		rp->cur->wall = 1.7e9;
		rp->cur->mem.n = 1;
		snprintf(rp->cur->mem.e[0].name, sizeof(rp->cur->mem.e[0].name), "MemFree");
		rp->cur->mem.e[0].value = 1000000;
		rp->cur->mem.e[0].kb = true;
	} else if (!(rp = replay_open(argv[3], why, sizeof(why))) || replay_seek(rp, 0) < 0) {
		fprintf(stderr, "mkrec-dense: %s\n", rp ? rp->error : why);
		return 1;
	} else
		h = *rec_reader_header(rp->r);
	h.interval = DENSE_STEP;
	if (!(s = malloc(sizeof(*s))) || !(prev = malloc(sizeof(*prev)))) {
		fprintf(stderr, "mkrec-dense: out of memory\n");
		return 1;
	}
	*s = *rp->cur;
	h.start = s->wall;
	if (!(w = rec_writer_open(argv[1], &h, why, sizeof(why)))) {
		fprintf(stderr, "mkrec-dense: %s\n", why);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		bool key = i % DENSE_KEY_EVERY == 0;
		ssize_t len;

		*prev = *s;
		s->wall = h.start + (double)i * DENSE_STEP;
		s->mono = rp->cur->mono + (double)i * DENSE_STEP;
		s->uptime = rp->cur->uptime + (double)i * DENSE_STEP;
		if (s->mem.n > 0)
			s->mem.e[0].value = rp->cur->mem.e[0].value + (uint64_t)i;
		len = codec_encode(s, key ? NULL : prev, buf, sizeof(buf));
		if (len < 0 || rec_writer_sample(w, s->wall, key, buf, (size_t)len) < 0) {
			fprintf(stderr, "mkrec-dense: sample %ld: %s\n", i, rec_writer_error(w));
			return 1;
		}
	}
	if (argc >= 5 && strcmp(argv[4], "close") != 0) {
		if (rec_writer_flush(w) < 0) {
			fprintf(stderr, "mkrec-dense: %s\n", rec_writer_error(w));
			return 1;
		}
		rec_writer_abandon(w);
		int64_t t = (int64_t)(s->wall * 1e6) + 50;

		if ((strcmp(argv[4], "fat") == 0 && argc == 6 &&
		     append_fat(argv[1], (uint64_t)n, atol(argv[5]), FAT_COUNT, t) != 0) ||
		    (strcmp(argv[4], "huge") == 0 &&
		     append_fat(argv[1], (uint64_t)n, 1, 1, t) != 0)) {
			fprintf(stderr, "mkrec-dense: %s: cannot append\n", argv[1]);
			return 1;
		}
	} else if (rec_writer_close(w, why, sizeof(why)) < 0) {
		fprintf(stderr, "mkrec-dense: %s\n", why);
		return 1;
	}
	if (rp->r)
		replay_close(rp);
	free(s);
	free(prev);
	return 0;
}
