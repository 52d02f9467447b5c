/*
 * mkrec-dense OUT N FROM [abandon]: a recording of N samples, each the
 * first sample of the recording FROM (or, FROM "-", a sample of nothing
 * but one meminfo value) with its times moved on by 50 us a sample and
 * its first meminfo value by 1, so that all but the keyframes
 * compress to almost nothing: a file of about 1.5 bytes a sample, the most
 * samples a legitimate file holds for its size. With "abandon" the writer
 * is abandoned as a killed recorder leaves it (no index: the reader scans
 * every frame). What tests/reader-memory.sh reads under ulimit -v.
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

	if (argc < 4 || argc > 5 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: mkrec-dense OUT N FROM [abandon]\n");
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
	if (argc == 5 && strcmp(argv[4], "abandon") == 0) {
		if (rec_writer_flush(w) < 0) {
			fprintf(stderr, "mkrec-dense: %s\n", rec_writer_error(w));
			return 1;
		}
		rec_writer_abandon(w);
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
