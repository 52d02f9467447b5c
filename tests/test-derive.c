/*
 * derive.c: the reset rule, rates, PSI shares and efficiencies on hand-made
 * pairs (a reset, a first reading, no time between two), and the promise
 * that makes it the one place they are computed: over the bundled
 * recording, the report's totals and peak rates are what the screens'
 * derivation (derive_rate over a history filled from the same samples)
 * gives, counter by counter, and so are its PSI stall times. The recording
 * is run three ways: as recorded, with a reboot in the middle (every
 * vmstat counter and PSI total starts again from 0) and with a clock that stood still
 * for one interval and went back for another, so that a side whose reset
 * rule, interval rule or rate formula drifted from derive.c's shows.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/counters.h"
#include "model/derive.h"
#include "model/history.h"
#include "model/reasons.h"
#include "model/sample.h"
#include "output/report-int.h"
#include "source/replay.h"
#include "tap.h"

#ifndef DATADIR_SRC
#define DATADIR_SRC "data"
#endif
#define RECORDING DATADIR_SRC "/sample-build-6.18.ptrec"

static void
test_primitives(void)
{
	tap_eq_int(derive_increase(10, 25), 15, "increase: 10 to 25 is 15");
	tap_eq_int(derive_increase(7, 7), 0, "increase: unchanged is 0, not unknown");
	tap_eq_int(derive_increase(1000, 3), -1, "increase: a counter that went back (a reset) is unknown");
	tap_eq_int(derive_increase(0, UINT64_MAX), -1, "increase: a jump past int64_t is unknown");
	tap_eq_int(derive_increase(1, (uint64_t)INT64_MAX + 1), INT64_MAX,
		   "increase: up to INT64_MAX is kept");
	tap_ok(derive_seconds(10, 12.5) == 2.5, "seconds: 10 to 12.5 is 2.5");
	tap_ok(isnan(derive_seconds(10, 10)), "seconds: no time between two readings: unknown");
	tap_ok(isnan(derive_seconds(10, 9)), "seconds: a clock that went back: unknown");
	tap_ok(isnan(derive_seconds(NAN, 9)), "seconds: no previous time: unknown");
	tap_ok(derive_per_second(300, 2) == 150, "rate: 300 over 2 s is 150/s");
	tap_ok(isnan(derive_per_second(-1, 2)), "rate of an unknown increase: unknown");
	tap_ok(isnan(derive_per_second(5, NAN)), "rate over an unknown interval: unknown");
	tap_ok(derive_share(250000, 1) == 25, "share: 0.25 s stalled in 1 s is 25%%");
	tap_ok(derive_share(3e6, 1) == 100, "share: never past 100%%");
	tap_ok(isnan(derive_share(-1, 1)) && isnan(derive_share(10, 0)) &&
	       isnan(derive_share(10, NAN)), "share: unknown stall or no interval: unknown");
	tap_ok(derive_ratio(1, 4) == 0.25, "ratio: 1 of 4");
	tap_ok(derive_ratio(9, 4) == 1, "ratio: part capped at whole");
	tap_ok(isnan(derive_ratio(0, 0)) && isnan(derive_ratio(-1, 4)) && isnan(derive_ratio(1, -1)),
	       "ratio: nothing to divide by, or unknown: unknown");
}

static void
counters_set(struct counters *c, uint64_t scan, uint64_t steal, uint64_t stall, uint64_t ok)
{
	memset(c, 0, sizeof(*c));
	c->v[CTR_PGSCAN_KSWAPD] = scan;
	c->v[CTR_PGSTEAL_KSWAPD] = steal;
	c->v[CTR_COMPACT_STALL] = stall;
	c->v[CTR_COMPACT_SUCCESS] = ok;
	c->valid = 1ull << CTR_PGSCAN_KSWAPD | 1ull << CTR_PGSTEAL_KSWAPD |
	    1ull << CTR_COMPACT_STALL | 1ull << CTR_COMPACT_SUCCESS;
}

static void
test_pair(void)
{
	struct counters a, b;
	struct derived d;
	int known = 0;

	counters_set(&b, 1000, 500, 10, 4);
	derive_pair(NULL, 0, &b, 5, &d);
	for (int c = 0; c < CTR_COUNT; c++)
		known += d.inc[c] >= 0 || !isnan(d.rate[c]);
	tap_ok(known == 0 && isnan(d.dt) && isnan(d.efficiency[0]) && isnan(d.compaction),
	       "pair: a first reading gives nothing known");

	counters_set(&a, 1000, 500, 10, 4);
	counters_set(&b, 3000, 1500, 20, 9);
	derive_pair(&a, 5, &b, 7, &d);
	tap_ok(d.dt == 2 && d.inc[CTR_PGSCAN_KSWAPD] == 2000 && d.rate[CTR_PGSCAN_KSWAPD] == 1000,
	       "pair: 2000 pages in 2 s: 1000/s");
	tap_ok(d.efficiency[0] == 0.5 && d.compaction == 0.5,
	       "pair: steal/scan 1000/2000 and compactions 5 of 10 stalls: 0.5 each");
	tap_ok(d.inc[CTR_PGSCAN_DIRECT] == -1 && isnan(d.rate[CTR_PGSCAN_DIRECT]) &&
	       isnan(d.efficiency[1]), "pair: a counter the kernel lacks is unknown");
	b.valid &= ~(1ull << CTR_COMPACT_STALL);
	derive_pair(&a, 5, &b, 7, &d);
	tap_ok(d.inc[CTR_COMPACT_STALL] == -1 && isnan(d.compaction),
	       "pair: a counter only one reading has is unknown");

	counters_set(&b, 30, 1500, 20, 9);	/* scan went back: a reset */
	derive_pair(&a, 5, &b, 7, &d);
	tap_ok(d.inc[CTR_PGSCAN_KSWAPD] == -1 && isnan(d.rate[CTR_PGSCAN_KSWAPD]) &&
	       d.inc[CTR_PGSTEAL_KSWAPD] == 1000 && isnan(d.efficiency[0]),
	       "pair: a reset makes that counter unknown, and only it");

	counters_set(&b, 3000, 1500, 20, 9);
	derive_pair(&a, 5, &b, 5, &d);
	tap_ok(isnan(d.dt) && d.inc[CTR_PGSCAN_KSWAPD] == 2000 && isnan(d.rate[CTR_PGSCAN_KSWAPD]),
	       "pair: no time between them: increases known, rates not");
}

/* ---- The report and the screens over the same samples. ---- */

enum variant { AS_RECORDED, REBOOT, CLOCK_STOPS };
static const char *const variant_names[] = { "as recorded", "with a reboot",
					     "with a clock that stood and went back" };

/* A reboot just before s: every vmstat figure and PSI total of s less
 * the last sample's before the reboot (0 at least), so that the first
 * sample after it has counted one interval's worth since boot, less than
 * the one before it shows. */
static void
reboot(struct sample *s, const struct vmstat *base, const struct psi *base_psi)
{
	for (int i = 0; i < s->vm.n; i++)
		for (int j = 0; j < base->n; j++)
			if (strcmp(s->vm.e[i].name, base->e[j].name) == 0) {
				uint64_t b = base->e[j].value;

				s->vm.e[i].value = s->vm.e[i].value > b ? s->vm.e[i].value - b : 0;
				break;
			}
	for (int r = 0; r < PSI_COUNT; r++) {
		s->psi[r].some.total -= s->psi[r].some.total > base_psi[r].some.total ?
		    base_psi[r].some.total : s->psi[r].some.total;
		s->psi[r].full.total -= s->psi[r].full.total > base_psi[r].full.total ?
		    base_psi[r].full.total : s->psi[r].full.total;
	}
}

static void
compare(enum variant var, const struct reasons *rs)
{
	const char *name = variant_names[var];
	struct sample *cur = malloc(sizeof(*cur)), *prev = malloc(sizeof(*prev)), *swap;
	struct vmstat *base = calloc(1, sizeof(*base));
	struct psi base_psi[PSI_COUNT];
	struct feed *f;
	struct report *rep;
	struct history *h = NULL;
	char why[300];
	size_t n, cut;
	int bad_seen = 0, bad_total = 0, bad_peak = 0, bad_at = 0, bad_psi = 0, peaks = 0;
	bool have_prev = false;
	double prev_mono = 0;

	if (!cur || !prev || !base || !(f = replay_feed_open(RECORDING, why, sizeof(why))) ||
	    !(rep = report_new(f, rs, RECORDING))) {
		printf("Bail out! cannot open %s: %s\n", RECORDING, why);
		exit(1);
	}
	n = feed_count(f);
	cut = n / 2;
	for (size_t i = 0; i < n; i++) {
		if (feed_seek(f, i) < 0) {
			printf("Bail out! sample %zu of %s: %s\n", i, RECORDING, f->why);
			exit(1);
		}
		memcpy(cur, f->tick.s, sizeof(*cur));
		if (var == REBOOT && i == cut) {
			*base = prev->vm;		/* sample cut - 1, as recorded */
			memcpy(base_psi, prev->psi, sizeof(base_psi));
		}
		if (var == REBOOT && i >= cut)
			reboot(cur, base, base_psi);
		if (var == CLOCK_STOPS && i == n / 3)
			cur->mono = prev_mono;			/* no time passed */
		if (var == CLOCK_STOPS && i == 2 * n / 3)
			cur->mono = prev_mono - 0.5;		/* the clock went back */
		prev_mono = cur->mono;
		if (!h && !(h = history_new(n, 4, cur))) {
			printf("Bail out! no memory for a history\n");
			exit(1);
		}
		report_add(rep, have_prev ? prev : NULL, cur);
		history_push(h, cur, NULL);
		swap = prev;
		prev = cur;
		cur = swap;
		have_prev = true;
	}
	tap_eq_u64(h->next, n, "%s: all %zu samples pushed", name, n);

	for (int c = 0; c < CTR_COUNT; c++) {
		const struct counter_acc *a = &rep->acc[c];
		bool seen = false;
		uint64_t total = 0;
		double peak = 0, at = 0;

		for (uint64_t seq = 0; seq < h->next; seq++) {
			double r = derive_rate(h, seq, (enum counter)c);

			if (isnan(r))
				continue;
			total += (uint64_t)derive_delta(h, seq, (enum counter)c);
			if (!seen || r > peak) {
				peak = r;
				at = history_wall(h, seq);
			}
			seen = true;
		}
		bad_seen += seen != a->seen;
		bad_total += seen && total != a->total;
		bad_peak += seen && peak != a->peak;
		bad_at += seen && at != a->peak_at;
		peaks += seen && peak > 0;
		if (seen && (peak != a->peak || total != a->total))
			printf("# %s: %s: screens %.17g/s (total %llu), report %.17g/s (total %llu)\n",
			       name, counter_name((enum counter)c), peak, (unsigned long long)total,
			       a->peak, (unsigned long long)a->total);
	}
	tap_ok(peaks >= 5, "%s: %d counters moved", name, peaks);
	tap_eq_int(bad_seen, 0, "%s: the same counters known on both sides", name);
	tap_eq_int(bad_total, 0, "%s: report totals = the sum of the screens' increases", name);
	tap_eq_int(bad_peak, 0, "%s: report peak rates = the screens' highest derive_rate", name);
	tap_eq_int(bad_at, 0, "%s: at the same moments", name);

	for (int r = PSI_MEMORY; r <= PSI_IO; r++)
		for (int full = 0; full < 2; full++) {
			const struct psi_acc *a = &rep->psi[r][full];
			double stalled = 0, over = 0;

			for (uint64_t seq = 0; seq < h->next; seq++) {
				int64_t st = history_psi_stall(h, seq, r, full);
				double dt = derive_interval(h, seq);

				if (st < 0 || isnan(dt))
					continue;
				stalled += (double)st;
				over += dt;
			}
			bad_psi += stalled != a->stalled || over != a->over;
		}
	tap_ok(bad_psi == 0 && rep->psi[PSI_MEMORY][0].over > 0,
	       "%s: PSI stall times and intervals the same on both sides (memory some: %.2f%%)",
	       name, derive_share(rep->psi[PSI_MEMORY][0].stalled, rep->psi[PSI_MEMORY][0].over));

	/* The variant did what it says. */
	if (var == REBOOT)
		tap_ok(derive_delta(h, cut, CTR_PGFAULT) == -1 &&
		       history_psi_stall(h, cut, PSI_MEMORY, false) == -1 &&
		       derive_delta(h, cut + 1, CTR_PGFAULT) >= 0,
		       "%s: the reboot is a reset of counters and PSI totals, and counting "
		       "resumes", name);
	if (var == CLOCK_STOPS)
		tap_ok(isnan(derive_interval(h, n / 3)) && isnan(derive_interval(h, 2 * n / 3)) &&
		       !isnan(derive_interval(h, n / 3 + 1)),
		       "%s: those intervals are unknown, the next ones not", name);

	history_free(h);
	report_free(rep);
	feed_close(f);
	free(cur);
	free(prev);
	free(base);
}

int
main(void)
{
	struct reasons *rs = calloc(1, sizeof(*rs));

	test_primitives();
	test_pair();
	for (int v = AS_RECORDED; v <= CLOCK_STOPS; v++)
		compare((enum variant)v, rs);
	free(rs);
	return tap_done();
}
