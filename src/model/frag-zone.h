/*
 * One zone's fragmentation figures at a history entry, for the screens:
 * its buddyinfo row and the indices frag_compute() makes of it, and the
 * free blocks per migratetype and pageblocks of the pagetypeinfo read in
 * force then. Derived from the history alone, so a view only draws them.
 */
#ifndef PAGETOP_FRAG_ZONE_H
#define PAGETOP_FRAG_ZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/frag.h"
#include "model/history.h"

struct frag_zone {
	bool have;			/* false: no buddyinfo row at the entry */
	uint64_t free[MAX_ORDERS];
	struct frag f;
};

struct frag_zone_pti {
	bool ok;			/* false: no read held for the entry */
	int64_t at;			/* ring index of the read in force */
	const uint32_t *free[MAX_MTYPES];	/* by type; NULL: no row */
	uint32_t capped[MAX_MTYPES];	/* bit per order: the kernel's cap */
	const uint32_t *blocks;		/* by type; NULL: no row */
	double age;			/* seconds before the entry */
};

/* Zone z's (an index into h->shape.zones[]; -1 for none) row at seq. */
void frag_zone_get(const struct history *h, uint64_t seq, int z, struct frag_zone *fz);
/* Zone z's pagetypeinfo figures at seq, e being that entry unpacked (NULL
 * when it is not held); returns p->ok. */
bool frag_zone_pti(const struct history *h, uint64_t seq, const struct hist_entry *e, int z,
		   struct frag_zone_pti *p);

#endif
