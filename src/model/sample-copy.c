/*
 * A sample copied whole, page by page: a page that is zero in both is
 * left as it is. A struct sample is 392 KB, most of it room for rows
 * a machine does not have (zones, stacks, kernel log events, captures);
 * a plain memcpy made every page of the copy resident, where the sample
 * copied has written half of its own. Reading a page never written
 * maps the kernel's zero page, which counts in no one's memory.
 */
#include "model/sample-copy.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define COPY_PAGE	4096

static bool
zero(const unsigned char *p, size_t n)
{
	uint64_t any = 0, w;
	size_t i;

	for (i = 0; i + sizeof(w) <= n; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		any |= w;
	}
	for (; i < n; i++)
		any |= p[i];
	return any == 0;
}

void
sample_copy_bytes(void *dst, const void *src, size_t size)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t off, n;

	/* By the pages of dst. */
	for (off = 0; off < size; off += n) {
		n = COPY_PAGE - (uintptr_t)(d + off) % COPY_PAGE;
		if (n > size - off)
			n = size - off;
		if (zero(s + off, n) && zero(d + off, n))
			continue;
		memcpy(d + off, s + off, n);
	}
}

void
sample_copy(struct sample *dst, const struct sample *src)
{
	sample_copy_bytes(dst, src, sizeof(*src));
}
