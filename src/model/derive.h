/* Figures derived from an entry and its predecessor, the same for live and
 * replayed data: rates of cumulative counters and reclaim efficiency. NAN
 * means "unknown": the first entry, a counter that went backwards (a reset,
 * or a recording that spans a reboot), or a counter the kernel lacks. */
#ifndef PAGETOP_DERIVE_H
#define PAGETOP_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/counters.h"
#include "model/history.h"

/* Per second over the interval that ends at entry seq. */
double derive_rate(const struct history *h, uint64_t seq, enum counter c);
/* The increase of counter c over that interval, or -1 when unknown. */
int64_t derive_delta(const struct history *h, uint64_t seq, enum counter c);
/* Pages stolen per page scanned (0..1) by kswapd or by direct reclaim
 * over that interval; NAN when nothing was scanned. */
double derive_efficiency(const struct history *h, uint64_t seq, bool direct);
/* Share of the interval (0..100) that tasks stalled on a resource, from the
 * PSI totals: finer than avg10 at short intervals. */
double derive_psi_share(const struct history *h, uint64_t seq, int resource, bool full);
/* Seconds since the previous entry, or NAN. */
double derive_interval(const struct history *h, uint64_t seq);

#endif
