/* Zeroed room (util/zero-map.c): all zeros at every size, and from a page
 * up mapped, so that only the pages written become resident (mincore),
 * which is why the big, sparse blocks of the sampling loop use it. */
#include "util/zero-map.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"

/* Of the pages of [m, m + size), how many are resident. */
static int
resident_pages(void *m, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (size + page - 1) / page;
	unsigned char vec[64];
	int got = 0;

	if (n > sizeof(vec) || mincore(m, size, vec) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		got += vec[i] & 1;
	return got;
}

static bool
all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int
main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const size_t sizes[] = { 1, 100, page - 1, page, 3 * page + 5, 40 * page };
	unsigned char *m;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* Dirty heap first, so that a calloc() that did not clear shows. */
		void *junk = malloc(sizes[i]);
		if (junk)
			memset(junk, 0xa5, sizes[i]);
		free(junk);
		m = zero_room(sizes[i]);
		tap_ok(m != NULL && all_zero(m, sizes[i]), "%zu bytes: all zeros", sizes[i]);
		if (m)
			memset(m, 0x5a, sizes[i]);
		zero_room_free(m, sizes[i]);
	}

	m = zero_room(page - 1);
	tap_ok(m != NULL && (uintptr_t)m % page != 0, "under a page: from the heap, not a page of its own");
	zero_room_free(m, page - 1);

	m = zero_room(40 * page);
	tap_ok(m != NULL && (uintptr_t)m % page == 0, "40 pages: mapped, on a page");
	tap_eq_int(resident_pages(m, 40 * page), 0, "... none resident before a write");
	m[17 * page + 3] = 1;
	m[39 * page] = 1;
	tap_eq_int(resident_pages(m, 40 * page), 2, "... two writes: two pages resident, not 40");
	zero_room_free(m, 40 * page);

	m = zero_map(8 * page);
	tap_ok(m != NULL && all_zero(m, 8 * page), "zero_map: zeros");
	zero_unmap(m, 8 * page);
	zero_unmap(NULL, page);
	tap_ok(true, "zero_unmap(NULL): nothing");
	return tap_done();
}
