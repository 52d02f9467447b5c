#include "util/zero-map.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void *
zero_map(size_t size)
{
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

void
zero_unmap(void *m, size_t size)
{
	if (m)
		munmap(m, size);
}

static bool
zero_room_mapped(size_t size)
{
	return size >= (size_t)sysconf(_SC_PAGESIZE);
}

void *
zero_room(size_t size)
{
	return zero_room_mapped(size) ? zero_map(size) : calloc(1, size);
}

void
zero_room_free(void *m, size_t size)
{
	if (zero_room_mapped(size))
		zero_unmap(m, size);
	else
		free(m);
}
