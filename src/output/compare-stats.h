/*
 * The test behind `pagetop compare`'s marks: whether two runs' values of
 * a figure differ by more than each run's own spread. Mann-Whitney U (the
 * Wilcoxon rank-sum test), two-sided, by the normal approximation with
 * the correction for ties and for continuity, as scipy.stats.mannwhitneyu
 * (method "asymptotic") computes it. compare.c feeds it the means over
 * blocks of equal time, not the samples themselves: neighbouring samples
 * of a time series are alike, and a test that took them as independent
 * would find changes in noise. Pure: no I/O, no allocation.
 */
#ifndef PAGETOP_COMPARE_STATS_H
#define PAGETOP_COMPARE_STATS_H

/* The most values on each side. */
#define COMPARE_STATS_MAX	64

struct compare_mwu {
	double u;	/* of a: pairs (x of a, y of b) with x > y, ties a half */
	double z;	/* |U - mean| less a half, over its deviation; 0 when all tie */
	double p;	/* two-sided, 0..1; 1 when every value ties */
};

/* The test of a[0..na) against b[0..nb): 0, or -EINVAL when a side is
 * empty, larger than COMPARE_STATS_MAX or holds a value that is not
 * finite. */
int compare_mwu(const double *a, int na, const double *b, int nb, struct compare_mwu *out);

#endif
