#include "model/derive.h"

#include <math.h>

#include "util/arith.h"

int64_t
derive_increase(uint64_t prev, uint64_t cur)
{
	if (cur < prev || cur - prev > (uint64_t)INT64_MAX)
		return -1;
	return (int64_t)(cur - prev);
}

double
derive_seconds(double prev, double cur)
{
	double dt = cur - prev;

	return dt > 0 ? dt : NAN;
}

double
derive_per_second(int64_t inc, double dt)
{
	if (inc < 0 || isnan(dt))
		return NAN;
	return (double)inc / dt;
}

double
derive_share(double stall, double dt)
{
	if (!(stall >= 0) || !(dt > 0))
		return NAN;
	return arith_min(100.0, stall / (dt * 1e6) * 100.0);
}

double
derive_ratio(int64_t part, int64_t whole)
{
	if (whole <= 0 || part < 0)
		return NAN;
	return part > whole ? 1.0 : (double)part / (double)whole;
}

void
derive_pair(const struct counters *prev, double prev_mono, const struct counters *cur,
	    double cur_mono, struct derived *out)
{
	out->dt = prev ? derive_seconds(prev_mono, cur_mono) : NAN;
	for (int c = 0; c < CTR_COUNT; c++) {
		out->inc[c] = prev && counter_valid(prev, c) && counter_valid(cur, c) ?
		    derive_increase(prev->v[c], cur->v[c]) : -1;
		out->rate[c] = derive_per_second(out->inc[c], out->dt);
	}
	out->efficiency[0] = derive_ratio(out->inc[CTR_PGSTEAL_KSWAPD], out->inc[CTR_PGSCAN_KSWAPD]);
	out->efficiency[1] = derive_ratio(out->inc[CTR_PGSTEAL_DIRECT], out->inc[CTR_PGSCAN_DIRECT]);
	out->compaction = derive_ratio(out->inc[CTR_COMPACT_SUCCESS], out->inc[CTR_COMPACT_STALL]);
}

double
derive_interval(const struct history *h, uint64_t seq)
{
	return seq ? derive_seconds(history_mono(h, seq - 1), history_mono(h, seq)) : NAN;
}

int64_t
derive_delta(const struct history *h, uint64_t seq, enum counter c)
{
	return history_ctr_delta(h, seq, c);
}

double
derive_rate(const struct history *h, uint64_t seq, enum counter c)
{
	return derive_per_second(derive_delta(h, seq, c), derive_interval(h, seq));
}

double
derive_efficiency(const struct history *h, uint64_t seq, bool direct)
{
	int64_t scan = derive_delta(h, seq, direct ? CTR_PGSCAN_DIRECT : CTR_PGSCAN_KSWAPD);
	int64_t steal = derive_delta(h, seq, direct ? CTR_PGSTEAL_DIRECT : CTR_PGSTEAL_KSWAPD);

	return derive_ratio(steal, scan);
}

double
derive_psi_share(const struct history *h, uint64_t seq, int resource, bool full)
{
	int64_t stall = history_psi_stall(h, seq, resource, full);

	return derive_share((double)stall, derive_interval(h, seq));
}
