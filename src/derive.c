#include "derive.h"

#include <math.h>

double
derive_interval(const struct history *h, uint64_t seq)
{
	const struct hist_entry *cur = history_get(h, seq);
	const struct hist_entry *prev = seq ? history_get(h, seq - 1) : NULL;

	if (!cur || !prev || cur->mono <= prev->mono)
		return NAN;
	return cur->mono - prev->mono;
}

int64_t
derive_delta(const struct history *h, uint64_t seq, enum counter c)
{
	const struct hist_entry *cur = history_get(h, seq);
	const struct hist_entry *prev = seq ? history_get(h, seq - 1) : NULL;

	if (!cur || !prev || !counter_valid(&cur->ctr, c) || !counter_valid(&prev->ctr, c))
		return -1;
	if (cur->ctr.v[c] < prev->ctr.v[c])
		return -1;	/* a reset: no honest figure for this interval */
	return (int64_t)(cur->ctr.v[c] - prev->ctr.v[c]);
}

double
derive_rate(const struct history *h, uint64_t seq, enum counter c)
{
	int64_t d = derive_delta(h, seq, c);
	double dt = derive_interval(h, seq);

	if (d < 0 || isnan(dt))
		return NAN;
	return (double)d / dt;
}

double
derive_efficiency(const struct history *h, uint64_t seq, bool direct)
{
	int64_t scan = derive_delta(h, seq, direct ? CTR_PGSCAN_DIRECT : CTR_PGSCAN_KSWAPD);
	int64_t steal = derive_delta(h, seq, direct ? CTR_PGSTEAL_DIRECT : CTR_PGSTEAL_KSWAPD);

	if (scan <= 0 || steal < 0)
		return NAN;
	return steal > scan ? 1.0 : (double)steal / (double)scan;
}

double
derive_psi_share(const struct history *h, uint64_t seq, int resource, bool full)
{
	const struct hist_entry *cur = history_get(h, seq);
	const struct hist_entry *prev = seq ? history_get(h, seq - 1) : NULL;
	const struct psi_line *a, *b;
	double dt = derive_interval(h, seq);

	if (!cur || !prev || isnan(dt) || resource < 0 || resource >= PSI_COUNT)
		return NAN;
	a = full ? &prev->psi[resource].full : &prev->psi[resource].some;
	b = full ? &cur->psi[resource].full : &cur->psi[resource].some;
	if (!a->present || !b->present || b->total < a->total)
		return NAN;
	return fmin(100.0, (double)(b->total - a->total) / (dt * 1e6) * 100.0);
}
