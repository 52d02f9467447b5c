/*
 * A zone's fragmentation figures at one history entry: its buddyinfo row
 * through frag_compute(), and its rows of the pagetypeinfo read in force
 * (the ring keeps fewer reads than entries, so one may be gone). What the
 * Fragmentation screen shows, worked out below the views.
 */
#include "model/frag-zone.h"

#include <string.h>

void
frag_zone_get(const struct history *h, uint64_t seq, int z, struct frag_zone *fz)
{
	const uint32_t *b;

	memset(fz, 0, sizeof(*fz));
	fz->f.highest_free_order = -1;
	if (z < 0 || !(history_valid(h, seq) & SRC_BIT(SRC_BUDDYINFO)) ||
	    !(b = history_buddy(h, seq, z)))
		return;
	for (int o = 0; o < h->shape.n_orders; o++)
		fz->free[o] = b[o];
	frag_compute(fz->free, h->shape.n_orders, &fz->f);
	fz->have = true;
}

bool
frag_zone_pti(const struct history *h, uint64_t seq, const struct hist_entry *e, int z,
	      struct frag_zone_pti *p)
{
	const struct hist_shape *sh = &h->shape;
	const struct hist_pti *hp;

	memset(p, 0, sizeof(*p));
	p->at = history_pti_at(h, seq);
	if (!sh->pti_known || p->at < 0 || !e || !(hp = history_pti(h, p->at)))
		return false;
	p->ok = true;
	p->age = e->wall - hp->wall;
	for (int r = 0; r < sh->pti_n_rows; r++) {
		int t = sh->pti_row_type[r];

		if (sh->pti_row_zone[r] == z && t >= 0 && t < sh->pti_n_types)
			p->free[t] = history_pti_free(h, p->at, r, &p->capped[t]);
	}
	for (int b = 0; b < sh->pti_n_blocks; b++)
		if (sh->pti_block_zone[b] == z)
			p->blocks = history_pti_blocks(h, p->at, b);
	return true;
}
