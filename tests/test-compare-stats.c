/*
 * compare-stats.c: Mann-Whitney U with the normal approximation, the tie
 * correction and the continuity correction, on values whose U, z and p
 * were computed apart from it, by this python3 (U by counting pairs, not
 * from ranks), the same as scipy.stats.mannwhitneyu(a, b,
 * method="asymptotic") gives:
 *
 *	import math
 *	from collections import Counter
 *	def mwu(a, b):
 *	    u = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
 *	    n1, n2 = len(a), len(b); n = n1 + n2
 *	    t = sum(c**3 - c for c in Counter(a + b).values())
 *	    var = n1 * n2 / 12 * ((n + 1) - t / (n * (n - 1)))
 *	    z = max(abs(u - n1 * n2 / 2) - 0.5, 0) / math.sqrt(var)
 *	    return u, z, math.erfc(z / math.sqrt(2))
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "output/compare-stats.h"
#include "tap.h"

static void
check(const double *a, int na, const double *b, int nb, double u, double z, double p,
      const char *what)
{
	struct compare_mwu m;
	int r = compare_mwu(a, na, b, nb, &m);

	tap_ok(r == 0, "%s: computed", what);
	tap_ok(fabs(m.u - u) < 1e-9, "%s: U %g (want %g)", what, m.u, u);
	tap_ok(fabs(m.z - z) < 1e-9, "%s: z %.12g (want %.12g)", what, m.z, z);
	tap_ok(fabs(m.p - p) < 1e-12 + 1e-9 * p, "%s: p %.12g (want %.12g)", what, m.p, p);
}

int
main(void)
{
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	static const double ta[] = { 1, 2, 2, 3, 5 }, tb[] = { 2, 4, 4, 6, 7, 8 };
	static const double na[] = { 10.5, 11, 9.75, 12, 10, 11.25, 9.5, 10.25 };
	static const double nb[] = { 10, 12.5, 11, 9, 10.75, 11.5, 10, 9.25 };
	static const double same[] = { 3, 3, 3, 3 };
	double big_a[64], big_b[64], bad[2] = { 1, NAN };
	struct compare_mwu m;

	for (int i = 0; i < 64; i++) {
		big_a[i] = i;
		big_b[i] = 64 + i;
	}
	/* mwu([1,2,3,4,5], [6,7,8,9,10]) */
	check(lo, 5, hi, 5, 0, 2.5067182457620487, 0.012185780355344818, "apart, 5 and 5");
	/* The other way round: the same z and p, U of the other side. */
	check(hi, 5, lo, 5, 25, 2.5067182457620487, 0.012185780355344818, "apart, reversed");
	/* mwu([1,2,2,3,5], [2,4,4,6,7,8]): a run of three 2s, two 4s. */
	check(ta, 5, tb, 6, 5, 1.7545069317741127, 0.07934368319771508, "ties, 5 and 6");
	/* Interleaved: nothing stands out. */
	check(na, 8, nb, 8, 33.5, 0.10540925533894598, 0.9160510722818964, "interleaved, 8 and 8");
	/* 64 blocks each, apart: the most compare feeds it. */
	check(big_a, 64, big_b, 64, 0, 9.757525711125252, 1.7128302917404856e-22, "apart, 64 and 64");
	/* A run against itself: U at its mean, p 1. */
	check(na, 8, na, 8, 32, 0, 1, "a run against itself");
	/* Every value ties: no spread to measure, nothing stands out. */
	check(same, 4, same, 4, 8, 0, 1, "all equal");

	tap_eq_int(compare_mwu(lo, 0, hi, 5, &m), -EINVAL, "an empty side is refused");
	tap_eq_int(compare_mwu(lo, 5, bad, 2, &m), -EINVAL, "a value that is not finite is refused");
	tap_eq_int(compare_mwu(big_a, 65, hi, 5, &m), -EINVAL, "more than COMPARE_STATS_MAX is refused");
	return tap_done();
}
