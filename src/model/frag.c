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
	memset(out, 0, sizeof(*out));
	out->n_orders = n_orders;
	out->highest_free_order = -1;
	for (int o = 0; o < n_orders; o++) {
		out->free_blocks += free[o];
		out->free_pages += free[o] << o;
		if (free[o])
			out->highest_free_order = o;
	}
	for (int k = n_orders - 1; k >= 0; k--)
		out->free_at_or_above[k] = (free[k] << k) +
		    (k + 1 < n_orders ? out->free_at_or_above[k + 1] : 0);

	for (int k = 0; k < n_orders; k++) {
		/* Blocks of order k that the free lists at orders >= k could make. */
		uint64_t suitable = out->free_at_or_above[k] >> k;
		uint64_t requested = (uint64_t)1 << k;

		if (out->free_pages == 0)
			out->unusable[k] = 1000;
		else
			out->unusable[k] = (int)((out->free_pages - (suitable << k)) * 1000 /
			    out->free_pages);

		if (out->free_blocks == 0)
			out->extfrag[k] = 0;
		else if (suitable)
			out->extfrag[k] = -1000;
		else
			out->extfrag[k] = 1000 - (int)((1000 + out->free_pages * 1000 / requested) /
			    out->free_blocks);
	}
}
