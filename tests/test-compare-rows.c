/*
 * compare.c's rows on spans filled by hand, block by block: a rate, a PSI
 * share and a worst index read from the sums as the man page says; a
 * change that B's blocks make apart from A's stands out and one inside
 * their spread does not; a figure 0 in both is left out, one A lacks is
 * "new" (no per cent); fewer than COMPARE_MIN_BLOCKS blocks give no test;
 * zones pair by node and name whatever their slots.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/compare-int.h"
#include "tap.h"

static struct compare_run *
run_new(int n_blocks)
{
	struct compare_run *r = calloc(1, sizeof(*r));

	r->span[0] = calloc(1, sizeof(*r->span[0]));
	r->n_spans = 1;
	r->span[0]->n_blocks = n_blocks;
	r->pageblock_order = 9;
	return r;
}

static void
run_free(struct compare_run *r)
{
	free(r->span[0]);
	free(r);
}

static void
cell(struct compare_run *r, int fig, int b, double num, double den)
{
	r->span[0]->cell[fig][b] = (struct compare_cell){ num, den };
}

static const struct compare_row *
row(const struct compare_row *rows, int n, const char *name)
{
	for (int k = 0; k < n; k++)
		if (strcmp(rows[k].name, name) == 0)
			return &rows[k];
	return NULL;
}

int
main(void)
{
	static struct compare_row rows[COMPARE_ROWS];
	struct compare_run *a = run_new(8), *b = run_new(8), *few = run_new(3);
	const struct compare_row *w;
	char notes[400];
	int n;

	for (int k = 0; k < 8; k++) {
		/* pgscan_kswapd: A 100 pages in 1 s a block, B 200 (and one
		 * block of each off by a tenth): apart. */
		cell(a, FIG_CTR + CTR_PGSCAN_KSWAPD, k, k == 3 ? 110 : 100, 1);
		cell(b, FIG_CTR + CTR_PGSCAN_KSWAPD, k, k == 5 ? 180 : 200, 1);
		/* pgfault: the same spread in both, B a little higher: not apart. */
		cell(a, FIG_CTR + CTR_PGFAULT, k, 50 + 10 * (k % 4), 1);
		cell(b, FIG_CTR + CTR_PGFAULT, k, 52 + 10 * ((k + 1) % 4), 1);
		/* pgmajfault: never in A, in B. */
		cell(a, FIG_CTR + CTR_PGMAJFAULT, k, 0, 1);
		cell(b, FIG_CTR + CTR_PGMAJFAULT, k, 4, 1);
		/* oom_kill: 0 in both, known: left out. */
		cell(a, FIG_CTR + CTR_OOM_KILL, k, 0, 1);
		cell(b, FIG_CTR + CTR_OOM_KILL, k, 0, 1);
		/* PSI memory some: 0.25 s stalled a 2 s block in A, 0.5 s in B. */
		cell(a, FIG_PSI + 2 * PSI_MEMORY, k, 250000, 2);
		cell(b, FIG_PSI + 2 * PSI_MEMORY, k, 500000, 2);
	}
	/* Zones: A has Normal in slot 0, DMA32 in 1; B the other way round. */
	a->n_zones = b->n_zones = 2;
	a->zone[0] = (struct compare_zone){ 0, "Normal" };
	a->zone[1] = (struct compare_zone){ 0, "DMA32" };
	b->zone[0] = (struct compare_zone){ 0, "DMA32" };
	b->zone[1] = (struct compare_zone){ 0, "Normal" };
	for (int k = 0; k < 8; k++) {
		cell(a, FIG_ZONE + 4 * 0 + ZONE_FIG_WORST, k, 0.1 + 0.01 * k, 1);	/* Normal */
		cell(b, FIG_ZONE + 4 * 1 + ZONE_FIG_WORST, k, 0.1 + 0.01 * k, 1);	/* Normal */
		cell(a, FIG_ZONE + 4 * 1 + 0, k, 0.5, 1);	/* DMA32 below 2: half the time */
		cell(b, FIG_ZONE + 4 * 0 + 0, k, 0.5, 1);
	}
	n = compare_rows(a, a->span[0], b, b->span[0], rows, notes, sizeof(notes));

	w = row(rows, n, "pgscan_kswapd");
	tap_ok(w != NULL, "pgscan_kswapd has a row");
	tap_ok(w && fabs(w->a - 101.25) < 1e-9 && fabs(w->b - 197.5) < 1e-9,
	       "... its rates are the blocks' sums over their time (%g, %g)", w ? w->a : 0,
	       w ? w->b : 0);
	tap_ok(w && w->a_total == 810 && w->b_total == 1580, "... its totals the sums");
	tap_ok(w && fabs(w->change - (197.5 / 101.25 - 1) * 100) < 1e-9, "... the change in per cent");
	tap_ok(w && w->stands_out && w->p < COMPARE_ALPHA, "... apart: it stands out (p %g)",
	       w ? w->p : NAN);
	w = row(rows, n, "pgfault");
	/* python3's mwu: U 24, p 0.428167 */
	tap_ok(w && !w->stands_out && fabs(w->p - 0.4281670513257515) < 1e-9,
	       "pgfault within the spread: not (p %g)",
	       w ? w->p : NAN);
	w = row(rows, n, "pgmajfault");
	tap_ok(w && isnan(w->change) && w->a == 0 && w->b == 4, "pgmajfault only in B: no per cent");
	tap_ok(row(rows, n, "oom_kill") == NULL, "oom_kill, 0 in both: left out");
	tap_ok(row(rows, n, "pgsteal_kswapd") == NULL, "a figure neither has: left out");
	w = row(rows, n, "memory some");
	tap_ok(w && fabs(w->a - 12.5) < 1e-9 && fabs(w->b - 25) < 1e-9,
	       "PSI: the share of the time stalled (%g%%, %g%%)", w ? w->a : 0, w ? w->b : 0);
	tap_ok(w && fabs(w->a_total - 2) < 1e-9, "... its total the seconds stalled");
	/* Each side's blocks all tie, and every A below every B: the tie
	 * correction leaves them apart (python3's mwu: p 0.000137586). */
	tap_ok(w && w->stands_out && fabs(w->p - 0.00013758605716602916) < 1e-9,
	       "... blocks all alike on each side, A's below B's: it stands out (p %g)",
	       w ? w->p : NAN);
	w = row(rows, n, "0 Normal worst unusable");
	tap_ok(w && fabs(w->a - 0.17) < 1e-9 && fabs(w->b - 0.17) < 1e-9 && w->change == 0,
	       "zones pair by name across slots: the worst index the same in both");
	w = row(rows, n, "0 DMA32 order<2");
	tap_ok(w && w->a == 50 && w->b == 50 && w->a_total == 4,
	       "... and the time below order 2 (50%%, 4 s)");
	tap_ok(row(rows, n, "0 Normal order<2") == NULL, "... a state never reached: left out");

	/* Three blocks a side: no test. */
	for (int k = 0; k < 3; k++)
		cell(few, FIG_CTR + CTR_PGSCAN_KSWAPD, k, 300, 1);
	n = compare_rows(a, a->span[0], few, few->span[0], rows, notes, sizeof(notes));
	w = row(rows, n, "pgscan_kswapd");
	tap_ok(w && isnan(w->p) && !w->stands_out && w->b_blocks == 3,
	       "fewer than %d blocks: no test", COMPARE_MIN_BLOCKS);
	run_free(a);
	run_free(b);
	run_free(few);
	return tap_done();
}
