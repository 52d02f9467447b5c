/* Fragmentation figures of one zone, computed exactly as mm/vmstat.c does
 * for debugfs extfrag/unusable_index and extfrag/extfrag_index. */
#ifndef PAGETOP_FRAG_H
#define PAGETOP_FRAG_H

#include <stdint.h>

#include "util/caps.h"

struct frag {
	int n_orders;
	uint64_t free_pages;		/* sum of n_o * 2^o */
	uint64_t free_blocks;		/* sum of n_o */
	int highest_free_order;		/* -1 when the zone has no free block */
	int unusable[MAX_ORDERS];	/* thousandths, 0..1000 */
	int extfrag[MAX_ORDERS];	/* thousandths; -1000 means it would succeed */
	uint64_t free_at_or_above[MAX_ORDERS];	/* pages in blocks of order >= o */
};

/* free[o] holds the free blocks at order o (a buddyinfo row). */
void frag_compute(const uint64_t *free, int n_orders, struct frag *out);

#endif
