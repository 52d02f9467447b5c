/*
 * sample_copy and sample_copy_bytes (model/sample-copy.h): byte for byte what memcpy gives,
 * over a destination that held another sample; and the pages of a fresh
 * destination that would get zeros over zeros stay unwritten (RssAnon
 * grows by the pages written, not by those read: a read maps the zero
 * page) where a memcpy makes them all resident.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"
#include "model/sample-copy.h"

#define PAGES(n)	(((n) + 4095) / 4096)

/* This process's RssAnon in pages. */
static long
anon_pages(void)
{
	char line[256];
	long kb = -4;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb / 4;
}

static struct sample *
fresh(void)
{
	void *p = mmap(NULL, sizeof(struct sample), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int
main(void)
{
	struct sample *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct sample *c, *d;
	unsigned char *pa = (unsigned char *)a;
	unsigned seed = 16;
	size_t k;
	long before, copy, plain;

	/* A few fields written, and a destination that held more. */
	a->wall = 1e9;
	a->buddy.n_zones = 3;
	a->tasks.total = 99;
	for (k = 0; k < 2000; k++)
		pa[rand_r(&seed) % sizeof(*a)] = (unsigned char)(1 + k % 255);
	memset(b, 0x5a, sizeof(*b));
	sample_copy(b, a);
	tap_ok(memcmp(a, b, sizeof(*a)) == 0, "over another sample: memcpy's bytes");
	memset(a, 0, sizeof(*a));
	sample_copy(b, a);
	tap_ok(memcmp(a, b, sizeof(*a)) == 0, "all zeros over it: zeros");

	/* Three pages written: the fresh copy's pages under them only. */
	c = fresh();
	d = fresh();
	memset(&c->status, 1, sizeof(c->status));
	memset(&c->tasks, 2, 4096);
	before = anon_pages();
	sample_copy(d, c);
	copy = anon_pages() - before;
	tap_ok(memcmp(c, d, sizeof(*c)) == 0, "a fresh destination: memcpy's bytes");
#ifdef __SANITIZE_ADDRESS__
	(void)copy;
	(void)plain;
	tap_ok(1, "... pages written # SKIP a sanitizer's shadow counts too");
#else
	tap_ok(copy >= 0 && copy <= 6, "... %ld of its %d pages written",
	    copy, PAGES((int)sizeof(*d)));
	munmap(d, sizeof(*d));
	d = fresh();
	before = anon_pages();
	memcpy(d, c, sizeof(*c));
	plain = anon_pages() - before;
	tap_ok(plain >= PAGES((long)sizeof(*d)) - 2,
	    "... where a memcpy writes them all (%ld)", plain);
#endif

	/* A part of one, at an odd offset: its bytes, nothing around it; a
	 * fresh destination gets pages only where the source has non-zeros. */
	memset(a, 0, sizeof(*a));
	for (k = 0; k < 300; k++)
		pa[offsetof(struct sample, probes) + rand_r(&seed) % 9000] = (unsigned char)(1 + k);
	memset(b, 0x5a, sizeof(*b));
	sample_copy_bytes((char *)b + offsetof(struct sample, probes) + 3,
	    (char *)a + offsetof(struct sample, probes) + 3, 20000);
	tap_ok(memcmp((char *)a + offsetof(struct sample, probes) + 3,
	    (char *)b + offsetof(struct sample, probes) + 3, 20000) == 0 &&
	    ((unsigned char *)b)[offsetof(struct sample, probes) + 2] == 0x5a &&
	    ((unsigned char *)b)[offsetof(struct sample, probes) + 20003] == 0x5a,
	    "part of a sample: its bytes, and none around them");
	munmap(d, sizeof(*d));
	d = fresh();
	memset(c, 0, sizeof(*c));
	memset(&c->probes, 3, 100);
	before = anon_pages();
	sample_copy_bytes(&d->probes, &c->probes, sizeof(c->probes));
	copy = anon_pages() - before;
	tap_ok(memcmp(&c->probes, &d->probes, sizeof(c->probes)) == 0, "the probes alone: their bytes");
#ifndef __SANITIZE_ADDRESS__
	tap_ok(copy >= 0 && copy <= 2, "... %ld of %d pages written", copy,
	    PAGES((int)sizeof(c->probes)));
#endif
	munmap(c, sizeof(*c));
	munmap(d, sizeof(*d));
	free(a);
	free(b);
	return tap_done();
}
