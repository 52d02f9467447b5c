#include "util/zero-map.h"

#include <sys/mman.h>

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
