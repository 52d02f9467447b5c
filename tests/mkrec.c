/*
 * mkrec OUT GOOD BAD: a recording whose frames are all whole (every CRC
 * right) but whose last BAD samples do not decode: GOOD samples of an
 * empty sample, then BAD of bytes the codec rejects. What dump, export and
 * report must explain rather than print nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/codec.h"
#include "ptrec/recfile.h"

int
main(int argc, char **argv)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x13, 0x37 };
	struct rec_header h;
	struct rec_writer *w;
	struct sample *s;
	uint8_t buf[1 << 16];
	char why[300];
	int good, bad;

	if (argc != 4) {
		fprintf(stderr, "usage: mkrec OUT GOOD BAD\n");
		return 2;
	}
	good = atoi(argv[2]);
	bad = atoi(argv[3]);
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "mkrec");
	h.interval = 1;
	h.start = 1.7e9;
	if (!(s = calloc(1, sizeof(*s))) || !(w = rec_writer_open(argv[1], &h, why, sizeof(why)))) {
		fprintf(stderr, "mkrec: %s\n", s ? why : "out of memory");
		return 1;
	}
	for (int i = 0; i < good + bad; i++) {
		ssize_t n;

		s->wall = h.start + i;
		s->mono = 100 + i;
		n = i < good ? codec_encode(s, NULL, buf, sizeof(buf)) : (ssize_t)sizeof(junk);
		if (n < 0 || rec_writer_sample(w, s->wall, true, i < good ? buf : junk,
					       (size_t)n) < 0) {
			fprintf(stderr, "mkrec: sample %d: %s\n", i, rec_writer_error(w));
			return 1;
		}
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		fprintf(stderr, "mkrec: %s\n", why);
		return 1;
	}
	free(s);
	return 0;
}
