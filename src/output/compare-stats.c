#include "output/compare-stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "util/arith.h"

struct ranked {
	double v;
	bool from_a;
};

/* Insertion sort: at most 2 * COMPARE_STATS_MAX values. */
static void
compare_stats_sort(struct ranked *r, int n)
{
	for (int i = 1; i < n; i++) {
		struct ranked x = r[i];
		int k = i;

		while (k > 0 && r[k - 1].v > x.v) {
			r[k] = r[k - 1];
			k--;
		}
		r[k] = x;
	}
}

int
compare_mwu(const double *a, int na, const double *b, int nb, struct compare_mwu *out)
{
	struct ranked r[2 * COMPARE_STATS_MAX];
	double rank_a = 0, ties = 0, n, mean, var, dev;
	int total = na + nb;

	if (na < 1 || nb < 1 || na > COMPARE_STATS_MAX || nb > COMPARE_STATS_MAX)
		return -EINVAL;
	for (int i = 0; i < na; i++) {
		if (!isfinite(a[i]))
			return -EINVAL;
		r[i] = (struct ranked){ a[i], true };
	}
	for (int i = 0; i < nb; i++) {
		if (!isfinite(b[i]))
			return -EINVAL;
		r[na + i] = (struct ranked){ b[i], false };
	}
	compare_stats_sort(r, total);
	/* Ranks from 1, a run of equal values each taking the run's mean. */
	for (int i = 0; i < total;) {
		int k = i;
		double mid;

		while (k + 1 < total && r[k + 1].v == r[i].v)
			k++;
		mid = (i + 1 + k + 1) / 2.0;
		for (int j = i; j <= k; j++)
			if (r[j].from_a)
				rank_a += mid;
		ties += (double)(k - i + 1) * (k - i + 1) * (k - i + 1) - (k - i + 1);
		i = k + 1;
	}
	n = total;
	out->u = rank_a - na * (na + 1) / 2.0;
	mean = na * (double)nb / 2.0;
	var = na * (double)nb / 12.0 * ((n + 1) - (total > 1 ? ties / (n * (n - 1)) : 0));
	if (!(var > 0)) {
		out->z = 0;
		out->p = 1;
		return 0;
	}
	dev = fabs(out->u - mean) - 0.5;
	out->z = dev > 0 ? dev / arith_sqrt(var) : 0;
	out->p = arith_erfc(out->z / arith_sqrt(2.0));
	if (out->p > 1)
		out->p = 1;
	return 0;
}
