#include "model/frag.h"

#include <string.h>

/*
 * Integer arithmetic in thousandths, step for step as mm/vmstat.c does
 * (fill_contig_page_info, unusable_free_index, __fragmentation_index), so
 * the figures match the files in debugfs extfrag/ to the last digit.
 */
void
frag_compute(const uint64_t *free, int n_orders, struct frag *out)
{
	uint64_t above = 0, blocks = 0, pages, suitable;
	int k;

	memset(out, 0, sizeof(*out));
	out->n_orders = n_orders;
	out->highest_free_order = -1;
	/* From the top: the pages at or above each order, the first order
	 * with a block the highest. */
	for (k = n_orders - 1; k >= 0; k--) {
		above += free[k] << k;
		out->free_at_or_above[k] = above;
		blocks += free[k];
		if (free[k] && out->highest_free_order < 0)
			out->highest_free_order = k;
	}
	out->free_pages = pages = above;
	out->free_blocks = blocks;

	for (k = 0; k < n_orders; k++) {
		/* Blocks of order k that the free lists at orders >= k could
		 * make; the pages over the blocks requested (1 << k) as a
		 * shift, which is the kernel's division exactly. */
		suitable = out->free_at_or_above[k] >> k;
		out->unusable[k] = pages == 0 ? 1000 :
		    (int)((pages - (suitable << k)) * 1000 / pages);
		out->extfrag[k] = blocks == 0 ? 0 : suitable ? -1000 :
		    1000 - (int)((1000 + ((pages * 1000) >> k)) / blocks);
	}
}
