/*
 * Decoding onto a sample that holds another one: the codec clears only
 * what it fills (ptrec/codec.c: sample_clear), so a sample decoded onto a
 * buffer full of garbage, or onto the sample before last as replay does,
 * must read the same as one decoded onto zeros. "The same" is what the
 * encoder reads back, which is what every consumer reads: the values up
 * to the counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/sample.h"
#include "ptrec/codec.h"
#include "ptrec/recfile.h"
#include "tap.h"
#include "fixture.h"

#define CAP	(1u << 20)

static uint8_t enc_a[CAP], enc_b[CAP];

/* Sample i of r onto cur over prev (through cs, when not NULL); false with
 * a message if it fails. */
static bool
decode_with(struct codec_stream *cs, struct rec_reader *r, size_t i, struct sample *prev,
    struct sample *cur)
{
	struct parse_error err = { 0, "" };
	const uint8_t *b;
	size_t len;
	bool key;

	if (rec_reader_get(r, i, &b, &len, &key) < 0) {
		printf("# sample %zu: %s\n", i, rec_reader_error(r));
		return false;
	}
	if ((cs != NULL ? codec_decode_stream(cs, b, len, key ? NULL : prev, cur, NULL, &err) :
	    codec_decode(b, len, key ? NULL : prev, cur, NULL, &err)) < 0) {
		printf("# sample %zu: %s\n", i, err.msg);
		return false;
	}
	return true;
}

static bool
decode(struct rec_reader *r, size_t i, struct sample *prev, struct sample *cur)
{
	return decode_with(NULL, r, i, prev, cur);
}

/* The same when written again, as a keyframe and as a delta on prev. */
static bool
same(const struct sample *a, const struct sample *pa, const struct sample *b,
    const struct sample *pb)
{
	ssize_t na, nb;

	na = codec_encode(a, NULL, enc_a, CAP);
	nb = codec_encode(b, NULL, enc_b, CAP);
	if (na < 0 || na != nb || memcmp(enc_a, enc_b, (size_t)na) != 0)
		return false;
	if (pa == NULL)
		return true;
	na = codec_encode(a, pa, enc_a, CAP);
	nb = codec_encode(b, pb, enc_b, CAP);
	return na >= 0 && na == nb && memcmp(enc_a, enc_b, (size_t)na) == 0;
}

/*
 * Through a codec stream, as replay reads (ptrec/codec.h): in order, from
 * keyframes to samples here and there, over three buffers, and with each
 * prev a copy (not the sample the stream decoded last): every sample as
 * decoded in order onto zeros.
 */
static void
check_stream(const char *name, struct rec_reader *r)
{
	size_t i, j, k = 0, n = rec_reader_count(r), bad = 0, last;
	uint8_t **want = calloc(n, sizeof(*want));
	ssize_t *wlen = calloc(n, sizeof(*wlen));
	struct sample *c[2] = { calloc(1, sizeof(struct sample)), calloc(1, sizeof(struct sample)) };
	struct sample *d[3] = { malloc(sizeof(struct sample)), malloc(sizeof(struct sample)),
		malloc(sizeof(struct sample)) };
	struct codec_stream *cs = codec_stream_new();

	for (i = 0; i < n; i++) {
		memset(c[i % 2], 0, sizeof(*c[0]));
		wlen[i] = decode(r, i, c[(i + 1) % 2], c[i % 2]) ?
		    codec_encode(c[i % 2], NULL, enc_a, CAP) : -1;
		if (wlen[i] > 0 && (want[i] = malloc((size_t)wlen[i])) != NULL)
			memcpy(want[i], enc_a, (size_t)wlen[i]);
	}
	memset(d[0], 0x3c, sizeof(*d[0]));
	memset(d[1], 0xc3, sizeof(*d[1]));
	memset(d[2], 0x77, sizeof(*d[2]));
	for (int pass = 0; pass < 4; pass++) {
		size_t step = pass == 1 ? 7 : pass == 2 ? 3 : 1, nbuf = pass == 2 ? 3 : 2;

		last = SIZE_MAX;
		for (i = 0; i < n; i += step) {
			size_t from = last != SIZE_MAX && last + 1 == i ? i : rec_reader_keyframe(r, i);

			for (j = from; j <= i; j++, k++) {
				struct sample *cur = d[k % nbuf], *prev = d[(k + nbuf - 1) % nbuf];
				ssize_t m;

				if (pass == 3) {
					/* The same sample at another address. */
					memcpy(d[2], prev, sizeof(*d[2]));
					prev = d[2];
				}
				m = decode_with(cs, r, j, prev, cur) ? codec_encode(cur, NULL, enc_b, CAP) : -1;
				if (want[j] == NULL || m != wlen[j] || memcmp(enc_b, want[j], (size_t)m) != 0) {
					if (bad++ == 0)
						printf("# %s: pass %d: sample %zu differs\n", name, pass, j);
				}
			}
			last = i;
		}
	}
	tap_ok(n > 0 && bad == 0, "%s: through a codec stream, in order, from keyframes, over "
	    "three buffers and onto copies, every sample the same (%zu differ)", name, bad);
	codec_stream_free(cs);
	for (i = 0; i < n; i++)
		free(want[i]);
	free(want);
	free(wlen);
	free(c[0]);
	free(c[1]);
	for (i = 0; i < 3; i++)
		free(d[i]);
}

/* Every sample of path, decoded as replay does (onto the sample before
 * last, in two buffers that start as garbage) and onto zeros. */
static void
check(const char *name, const char *path)
{
	struct sample *clean = malloc(sizeof(*clean)), *cprev = calloc(1, sizeof(*cprev));
	struct sample *d[2] = { malloc(sizeof(struct sample)), malloc(sizeof(struct sample)) };
	struct rec_reader *r;
	char why[300];
	size_t i, n, bad = 0, tasks = 0;

	memset(d[0], 0xa5, sizeof(*d[0]));
	memset(d[1], 0x5a, sizeof(*d[1]));
	if ((r = rec_reader_open(path, why, sizeof(why))) == NULL) {
		printf("# %s\n", why);
		tap_ok(false, "%s: opens", name);
		return;
	}
	n = rec_reader_count(r);
	for (i = 0; i < n; i++) {
		struct sample *cur = d[i % 2], *prev = d[(i + 1) % 2];

		memset(clean, 0, sizeof(*clean));
		if (!decode(r, i, cprev, clean) || !decode(r, i, prev, cur) ||
		    !same(clean, i ? cprev : NULL, cur, i ? prev : NULL)) {
			if (bad++ == 0)
				printf("# %s: sample %zu differs\n", name, i);
		}
		tasks += clean->tasks.n_blocked > 0;
		memcpy(cprev, clean, sizeof(*clean));
	}
	tap_ok(n > 0 && bad == 0, "%s: %zu samples (%zu with blocked tasks) read the same "
	    "decoded onto old samples as onto zeros (%zu differ)", name, n, tasks, bad);
	check_stream(name, r);
	rec_reader_close(r);
	free(clean);
	free(cprev);
	free(d[0]);
	free(d[1]);
}

int
main(void)
{
	static const char *const names[] = { "format-1.0.ptrec", "format-2.0.ptrec",
		"format-2.1.ptrec", "format-2.2.ptrec" };
	char dir[] = "/tmp/pagetop-reuse.XXXXXX", path[400], cmd[1200];
	const char *mkprobes = getenv("MKPROBES");
	size_t k, len;
	char *b;
	FILE *f;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		char rel[100];

		snprintf(rel, sizeof(rel), "recordings/%s", names[k]);
		b = fixture_load(rel, &len);
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		if ((f = fopen(path, "wb")) == NULL || fwrite(b, 1, len, f) != len ||
		    fclose(f) != 0) {
			printf("Bail out! %s: cannot write\n", path);
			return 1;
		}
		free(b);
		check(names[k], path);
	}
	/* With the kernel probes: their cumulative figures are added to. */
	if (mkprobes != NULL) {
		snprintf(cmd, sizeof(cmd), "%s %s/format-2.1.ptrec %s/probes.ptrec > /dev/null",
		    mkprobes, dir, dir);
		tap_ok(system(cmd) == 0, "mkprobes writes a recording with probes");
		snprintf(path, sizeof(path), "%s/probes.ptrec", dir);
		check("probes", path);
	} else
		printf("ok %d # SKIP MKPROBES not set (make check sets it)\n", ++tap_n);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
