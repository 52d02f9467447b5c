/*
 * Figures derived from two readings of cumulative figures, the same for
 * live and replayed data, and the one place they are computed: the
 * increase of a counter with the reset rule, rates, PSI stall shares and
 * efficiencies. The history stores increases made here (history_push) and
 * the screens read rates from it (derive_rate and its siblings below);
 * the report derives from pairs of raw samples with derive_pair(). NAN
 * (or -1 for an increase) means "unknown": the first reading, a counter
 * that went backwards (a reset, or a recording that spans a reboot), no
 * time between the two readings, or a counter the kernel lacks.
 */
#ifndef PAGETOP_DERIVE_H
#define PAGETOP_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/counters.h"
#include "model/history.h"

/* The reset rule: the increase of a cumulative figure from prev to cur,
 * or -1 when it went backwards or jumped by more than an int64_t holds. */
int64_t derive_increase(uint64_t prev, uint64_t cur);
/* Seconds from monotonic time prev to cur; NAN unless cur is later. */
double derive_seconds(double prev, double cur);
/* An increase (-1: unknown) per second over dt seconds (NAN: unknown). */
double derive_per_second(int64_t inc, double dt);
/* The share (0..100) of dt seconds that stall microseconds of PSI stall
 * time are (summed over many intervals, or one: finer than avg10 at short
 * intervals); NAN when stall is negative (unknown) or dt is not positive. */
double derive_share(double stall, double dt);
/* part per whole, 0..1 (part is capped at whole): pages stolen per page
 * scanned, compactions that succeeded per stall. NAN when whole is 0 or
 * either is unknown (-1). */
double derive_ratio(int64_t part, int64_t whole);

/* What one pair of counter readings gives. */
struct derived {
	double dt;			/* seconds between them, NAN unknown */
	int64_t inc[CTR_COUNT];		/* increases, -1 unknown */
	double rate[CTR_COUNT];		/* per second, NAN unknown */
	double efficiency[2];		/* kswapd, direct: stolen per scanned */
	double compaction;		/* compactions that succeeded per stall */
};

/* From prev (NULL: none, the first reading) at monotonic time prev_mono
 * to cur at cur_mono: a counter's increase is known when both readings
 * have it and it did not reset, its rate when time passed as well. Never
 * allocates. */
void derive_pair(const struct counters *prev, double prev_mono, const struct counters *cur,
		 double cur_mono, struct derived *out);

/* The same over the interval that ends at history entry seq. */
/* Per second. */
double derive_rate(const struct history *h, uint64_t seq, enum counter c);
/* The increase of counter c over that interval, or -1 when unknown. */
int64_t derive_delta(const struct history *h, uint64_t seq, enum counter c);
/* Pages stolen per page scanned (0..1) by kswapd or by direct reclaim
 * over that interval; NAN when nothing was scanned. */
double derive_efficiency(const struct history *h, uint64_t seq, bool direct);
/* Share of the interval (0..100) that tasks stalled on a resource, from the
 * PSI totals. */
double derive_psi_share(const struct history *h, uint64_t seq, int resource, bool full);
/* Seconds since the previous entry, or NAN. */
double derive_interval(const struct history *h, uint64_t seq);

#endif
