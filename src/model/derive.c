#include "model/derive.h"
#include "util/arith.h"

#include <math.h>

double
derive_interval(const struct history *h, uint64_t seq)
{
	double cur = history_mono(h, seq), prev = seq ? history_mono(h, seq - 1) : NAN;

	if (isnan(cur) || isnan(prev) || cur <= prev)
		return NAN;
	return cur - prev;
}

int64_t
derive_delta(const struct history *h, uint64_t seq, enum counter c)
{
	return history_ctr_delta(h, seq, c);
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
	int64_t stall = history_psi_stall(h, seq, resource, full);
	double dt = derive_interval(h, seq);

	if (stall < 0 || isnan(dt))
		return NAN;
	return arith_min(100.0, (double)stall / (dt * 1e6) * 100.0);
}
