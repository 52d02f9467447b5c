#include "model/host.h"

#include <stdio.h>

void
host_facts(const struct host *h, char *dst, size_t size)
{
	size_t n;

	n = (size_t)snprintf(dst, size, "%s, Linux %s %s", h->hostname, h->release, h->machine);
	if (h->ncpus > 0 && n < size)
		n += (size_t)snprintf(dst + n, size - n, ", %d CPUs", h->ncpus);
	if (h->mem_kb > 0 && n < size)
		n += (size_t)snprintf(dst + n, size - n, ", %lld kB", (long long)h->mem_kb);
	if (h->page_size > 0 && n < size)
		n += (size_t)snprintf(dst + n, size - n, ", page size %ld", h->page_size);
	if (h->pageblock_order >= 0 && n < size)
		snprintf(dst + n, size - n, ", pageblock order %d", h->pageblock_order);
}
