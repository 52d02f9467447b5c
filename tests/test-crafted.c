/* Crafted recordings cost bounded time (issue 12): a file of frame heads
 * that each claim to run to its end is read in one pass, within a few
 * times what a clean file of its size costs, and what follows the junk is
 * still found. */
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
	tap_ok(tx < 10 * (tc > 0.02 ? tc : 0.02) && tx < 10,
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
	cleanup();
	return tap_done();
}
