/* The history ring and the rates derived from it, on samples made here
 * with exact times, so every rate is known in advance. */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/derive.h"
#include "model/history.h"
#include "tap.h"

static struct sample s;

/* A sample at mono time t with pgscan_kswapd = scan and a 2-zone buddyinfo. */
static void
make(double t, uint64_t scan, uint64_t steal, uint64_t order0)
{
	memset(&s, 0, sizeof(s));
	s.wall = 1000000 + t;
	s.mono = t;
	for (int i = 0; i < SRC_COUNT; i++)
		s.status[i].err = ENOENT;
	s.status[SRC_VMSTAT].err = 0;
	s.vm.n = 3;
	strcpy(s.vm.e[0].name, "pgscan_kswapd");
	s.vm.e[0].value = scan;
	strcpy(s.vm.e[1].name, "pgsteal_kswapd");
	s.vm.e[1].value = steal;
	strcpy(s.vm.e[2].name, "allocstall_normal");
	s.vm.e[2].value = 7;
	s.status[SRC_BUDDYINFO].err = 0;
	s.buddy.n_orders = 3;
	s.buddy.n_zones = 2;
	s.buddy.zones[0].node = 0;
	strcpy(s.buddy.zones[0].zone, "DMA32");
	s.buddy.zones[0].free[0] = order0;
	s.buddy.zones[1].node = 0;
	strcpy(s.buddy.zones[1].zone, "Normal");
	s.buddy.zones[1].free[2] = 5;
	s.status[SRC_MEMINFO].err = 0;
	s.mem.n = 1;
	strcpy(s.mem.e[0].name, "MemTotal");
	s.mem.e[0].value = 1024;
	s.status[SRC_PSI_MEMORY].err = 0;
	s.psi[PSI_MEMORY].some.present = true;
	s.psi[PSI_MEMORY].some.total = (uint64_t)(t * 250000);	/* stalled a quarter of the time */
}

static void
test_rates(void)
{
	struct hist_entry e;
	struct history *h;
	uint64_t first, last;

	make(0, 1000, 500, 1);
	h = history_new(4, 2, &s);
	tap_ok(h != NULL, "history for 4 entries");
	tap_eq_int(h->shape.n_zones, 2, "shape: zones from the first sample");
	tap_eq_int(h->shape.n_orders, 3, "shape: orders from the first sample");
	history_push(h, &s, NULL);
	tap_ok(isnan(derive_rate(h, 0, CTR_PGSCAN_KSWAPD)), "first entry: rate unknown, not 0");

	make(2, 3000, 1500, 2);
	history_push(h, &s, NULL);
	tap_ok(derive_rate(h, 1, CTR_PGSCAN_KSWAPD) == 1000, "2000 pages over 2 s: 1000/s");
	tap_ok(derive_efficiency(h, 1, false) == 0.5, "steal/scan 1000/2000 = 0.5");
	tap_eq_int(derive_delta(h, 1, CTR_ALLOCSTALL), 0, "allocstall unchanged: delta 0");
	tap_ok(isnan(derive_rate(h, 1, CTR_COMPACT_STALL)), "a counter the kernel lacks: unknown");
	tap_ok(fabs(derive_psi_share(h, 1, PSI_MEMORY, false) - 25) < 1e-9,
	       "PSI totals: 25%% of the interval stalled");
	tap_ok(isnan(derive_psi_share(h, 1, PSI_IO, false)), "PSI io absent: unknown");

	make(3, 10, 0, 3);	/* counters went backwards: a reset */
	history_push(h, &s, NULL);
	tap_ok(isnan(derive_rate(h, 2, CTR_PGSCAN_KSWAPD)), "a reset: rate unknown, not negative");
	make(4, 110, 20, 4);
	history_push(h, &s, NULL);
	tap_ok(derive_rate(h, 3, CTR_PGSCAN_KSWAPD) == 100, "after the reset rates resume");

	make(5, 210, 20, 5);
	history_push(h, &s, NULL);
	tap_ok(history_range(h, &first, &last) && first == 1 && last == 4, "ring of 4 holds 1..4");
	tap_ok(!history_has(h, 0), "entry 0 is gone");
	tap_ok(history_buddy(h, 4, 0)[0] == 5 && history_buddy(h, 4, 1)[2] == 5,
	       "buddyinfo kept per zone");
	tap_ok(isnan(derive_rate(h, 1, CTR_PGSCAN_KSWAPD)),
	       "the oldest entry has no predecessor left: unknown");
	tap_ok(history_entry(h, 4, &e), "entry 4 unpacks");
	tap_eq_u64(e.mem[MEM_TOTAL], 1024, "meminfo kept");
	tap_ok(!(e.mem_valid & (1u << MEM_DIRTY)), "missing meminfo keys not valid");
	tap_eq_u64(history_find_time(h, 1000000 + 3.5), 2, "find by time: last at or before (t=3 is entry 2)");
	tap_eq_u64(history_find_time(h, 0), 1, "find before the start: the oldest");
	tap_eq_int(history_pti_at(h, 4), -1, "no pagetypeinfo read: none in force");
	history_free(h);
}

static void
test_zones_move(void)
{
	struct history *h;

	make(0, 0, 0, 9);
	h = history_new(8, 2, &s);
	history_push(h, &s, NULL);
	/* The same zones listed in another order land in the same columns. */
	make(1, 0, 0, 8);
	{
		struct buddyinfo_zone t = s.buddy.zones[0];

		s.buddy.zones[0] = s.buddy.zones[1];
		s.buddy.zones[1] = t;
	}
	history_push(h, &s, NULL);
	tap_eq_int(history_buddy(h, 1, 0)[0], 8, "zone DMA32 found by name, not position");
	tap_eq_int(history_buddy(h, 1, 1)[2], 5, "zone Normal found by name");
	/* A read with another number of orders is not mixed in. */
	make(2, 0, 0, 7);
	s.buddy.n_orders = 4;
	history_push(h, &s, NULL);
	tap_ok(!(history_valid(h, 2) & SRC_BIT(SRC_BUDDYINFO)), "a shape change is not kept");
	history_free(h);
}

static void
test_pagetypeinfo(void)
{
	struct history *h;
	uint32_t capped;

	make(0, 0, 0, 1);
	s.status[SRC_PAGETYPEINFO].err = 0;
	s.pti.n_orders = 3;
	s.pti.n_types = 2;
	strcpy(s.pti.types[0], "Unmovable");
	strcpy(s.pti.types[1], "Movable");
	s.pti.pageblock_order = 2;
	s.pti.n_free = 2;
	s.pti.free[0] = (struct pagetypeinfo_free){ .node = 0, .zone = "Normal", .type = 1,
						     .free = { 100000, 2, 3 }, .capped = 1 };
	s.pti.free[1] = (struct pagetypeinfo_free){ .node = 0, .zone = "DMA32", .type = 0,
						     .free = { 4, 5, 6 } };
	s.pti.n_blocks = 1;
	s.pti.blocks[0] = (struct pagetypeinfo_blocks){ .node = 0, .zone = "Normal",
							 .count = { 11, 22 } };
	h = history_new(8, 2, &s);
	history_push(h, &s, NULL);
	tap_ok(h->shape.pti_known && h->shape.pageblock_order == 2, "pagetypeinfo shape learned");
	tap_eq_int(h->shape.pti_row_zone[0], 1, "row 0 is zone Normal (index 1)");
	tap_eq_int(history_pti_at(h, 0), 0, "read 0 in force at entry 0");
	tap_ok(history_pti_free(h, 0, 0, &capped)[0] == 100000 && capped == 1, "capped kept");
	tap_eq_int(history_pti_blocks(h, 0, 0)[1], 22, "pageblocks kept");
	/* Ticks without a read keep the last one in force. */
	s.status[SRC_PAGETYPEINFO].err = SRC_NOT_READ;
	history_push(h, &s, NULL);
	tap_eq_int(history_pti_at(h, 1), 0, "between reads the last read is in force");
	s.status[SRC_PAGETYPEINFO].err = 0;
	s.pti.free[1].free[0] = 40;
	history_push(h, &s, NULL);
	s.pti.free[1].free[0] = 41;
	history_push(h, &s, NULL);
	tap_eq_int(history_pti_at(h, 3), 2, "third read in force");
	tap_eq_int(history_pti_free(h, 2, 1, NULL)[0], 41, "its values");
	tap_eq_int(history_pti_at(h, 1), -1, "a read the small ring dropped is gone");
	history_free(h);
}

/* What the packed ring keeps, and where it has to give up a figure. */
static void
test_packing(void)
{
	static struct task_groups gs;
	struct hist_entry e;
	struct history *h;
	uint64_t wm[WM_COUNT];

	make(0, 1000, 0, 1);
	s.mem.e[0].value = 8ull << 30;		/* 8 TB in kB: past 32 bits */
	s.status[SRC_ZONEINFO].err = 0;
	s.zi.n_zones = 1;
	s.zi.zones[0].node = 0;
	strcpy(s.zi.zones[0].zone, "Normal");
	s.zi.zones[0].has = 1u << ZI_MIN | 1u << ZI_FREE;
	s.zi.zones[0].v[ZI_MIN] = 12345;
	s.zi.zones[0].v[ZI_FREE] = 99999;
	s.psi[PSI_MEMORY].some.avg10 = 1234;
	s.psi[PSI_MEMORY].some.avg300 = 7;
	s.status[SRC_TASKS].err = 0;
	s.tasks.total = 70000;
	gs.n = 4;
	for (int g = 0; g < 4; g++) {
		gs.g[g].count = g + 1;
		gs.g[g].longest = 1.5 * g;
		gs.g[g].category = g;
		snprintf(gs.g[g].reason, sizeof(gs.g[g].reason), "reason %d", g);
	}
	h = history_new(8, 2, &s);
	history_push(h, &s, &gs);
	tap_ok(history_entry(h, 0, &e), "entry 0 unpacks");
	tap_eq_u64(e.mem[MEM_TOTAL], 8ull << 30, "8 TB of MemTotal kept");
	tap_eq_u64(e.psi[PSI_MEMORY].some.avg10, 1234, "PSI avg10 kept");
	tap_eq_u64(e.psi[PSI_MEMORY].some.avg300, 7, "PSI avg300 kept");
	tap_ok(e.psi[PSI_MEMORY].some.present && !e.psi[PSI_IO].some.present, "PSI lines present as read");
	tap_ok(history_wmark(h, 0, 1, wm) && wm[WM_MIN] == 12345 && wm[WM_FREE] == 99999 &&
	       wm[WM_HIGH] == UINT64_MAX, "watermarks kept, unknown ones unknown");
	tap_ok(!history_wmark(h, 5, 1, wm), "no watermarks for an entry not held");
	tap_eq_u64(e.tasks.total, 70000, "task total past 16 bits kept");
	tap_eq_int(e.tasks.n_groups, 4, "all groups counted");
	tap_ok(e.tasks.top[0].count == 4 && strcmp(e.tasks.top[0].reason, "reason 3") == 0 &&
	       e.tasks.top[2].count == 2 && strcmp(e.tasks.top[2].reason, "reason 1") == 0,
	       "the biggest groups kept in order with their reasons");
	tap_eq_int(h->n_reasons, 3, "reasons interned once each");
	history_push(h, &s, &gs);
	tap_eq_int(h->n_reasons, 3, "the same reasons again take no room");

	/* More than 32 bits in one interval. */
	make(1, 1000 + (5ull << 32), 0, 1);
	history_push(h, &s, NULL);
	tap_eq_int(derive_delta(h, 2, CTR_PGSCAN_KSWAPD), 5ll << 32, "an increase past 32 bits is kept");
	make(2, 1000 + (5ull << 32) + 77, 0, 1);
	history_push(h, &s, NULL);
	tap_eq_int(derive_delta(h, 3, CTR_PGSCAN_KSWAPD), 77, "and the next interval is known again");
	/* A counter missing on one tick: the next has no base to count from. */
	make(3, 0, 0, 1);
	s.vm.n = 0;
	history_push(h, &s, NULL);
	make(4, 500, 0, 1);
	history_push(h, &s, NULL);
	tap_eq_int(derive_delta(h, 5, CTR_PGSCAN_KSWAPD), -1, "after a tick without vmstat: unknown");
	history_reset(h);
	history_push(h, &s, NULL);
	tap_eq_int(derive_delta(h, 0, CTR_PGSCAN_KSWAPD), -1, "after a reset the first entry: unknown");

	/* A full reason table: groups keep their counts, without a reason. */
	s.status[SRC_TASKS].err = 0;
	for (int i = 0; i < HIST_REASONS + 5; i++) {
		snprintf(gs.g[0].reason, sizeof(gs.g[0].reason), "r%d", i);
		gs.n = 1;
		history_push(h, &s, &gs);
	}
	tap_ok(history_entry(h, h->next - 1, &e) && e.tasks.top[0].count == 1 &&
	       strcmp(e.tasks.top[0].reason, "") == 0, "a full reason table: no reason, no harm");
	history_free(h);
}

/* Many pushes of changing figures through rings of several sizes: every
 * entry still held reads back as pushed, in order, backwards and at
 * random, across blocks written over. */
#define RT_PUSHES	1500

static uint64_t rt_free[RT_PUSHES], rt_dirty[RT_PUSHES], rt_min[RT_PUSHES];
static uint32_t rt_avg[RT_PUSHES];
static double rt_up[RT_PUSHES];	/* NAN: not read */
static int64_t rt_inc[RT_PUSHES];
/* Counters that come and go, still or moving, and PSI lines the same. */
static const struct {
	const char *name;
	enum counter c;
} rt_more[] = {
	{ "pgfault", CTR_PGFAULT }, { "pgmajfault", CTR_PGMAJFAULT },
	{ "pswpin", CTR_PSWPIN }, { "oom_kill", CTR_OOM_KILL },
};
#define RT_MORE	(int)(sizeof(rt_more) / sizeof(rt_more[0]))
static int64_t rt_more_inc[RT_PUSHES][RT_MORE], rt_io_stall[RT_PUSHES];

static void
rt_push(struct history *h, int i, unsigned *seed)
{
	static uint64_t scan = 1000;
	int64_t inc = rand_r(seed) % 4 ? rand_r(seed) % 100000 : 0;

	if (rand_r(seed) % 50 == 0) {
		scan = (uint64_t)(rand_r(seed) % 10);	/* a reset */
		inc = -1;
	} else {
		scan += (uint64_t)inc;
	}
	static uint64_t more[RT_MORE], io_total;
	static bool more_had[RT_MORE], io_had;

	make(i, scan, 0, (uint64_t)(rand_r(seed) % 200000));
	for (int k = 0; k < RT_MORE; k++) {
		int r = rand_r(seed) % 16;
		uint64_t by = r < 9 ? 0 : r < 13 ? (uint64_t)rand_r(seed) % 100 :
		    r < 15 ? (uint64_t)rand_r(seed) * 4099 : UINT64_C(1) << 50;

		rt_more_inc[i][k] = -1;
		if (rand_r(seed) % 20 == 0) {
			more_had[k] = false;	/* gone this tick */
			continue;
		}
		more[k] += by;
		if (more_had[k] && i)
			rt_more_inc[i][k] = (int64_t)by;
		more_had[k] = true;
		strcpy(s.vm.e[s.vm.n].name, rt_more[k].name);
		s.vm.e[s.vm.n++].value = more[k];
	}
	rt_io_stall[i] = -1;
	if (rand_r(seed) % 8) {
		uint64_t by = rand_r(seed) % 3 ? 0 : (uint64_t)rand_r(seed) % 5000;

		io_total += by;
		s.status[SRC_PSI_IO].err = 0;
		s.psi[PSI_IO].full.present = true;
		s.psi[PSI_IO].full.total = io_total;
		if (io_had && i)
			rt_io_stall[i] = (int64_t)by;
		io_had = true;
	} else {
		io_had = false;
	}
	strcpy(s.mem.e[1].name, "Dirty");
	s.mem.e[1].value = (uint64_t)rand_r(seed) * 1000;
	/* Now and then a difference too large for a packed token (the
	 * escape), into and out of it. */
	if (i % 13 == 0)
		s.mem.e[1].value = UINT64_C(0x8000000000000000) + (uint64_t)i;
	s.mem.n = 2;
	s.status[SRC_ZONEINFO].err = 0;
	s.zi.n_zones = 1;
	s.zi.zones[0].node = 0;
	strcpy(s.zi.zones[0].zone, "Normal");
	s.zi.zones[0].has = 1u << ZI_MIN;
	s.zi.zones[0].v[ZI_MIN] = (uint64_t)(rand_r(seed) % 3 ? 5000 : rand_r(seed));
	s.psi[PSI_MEMORY].some.avg10 = (uint32_t)(rand_r(seed) % 10001);
	/* The uptime goes on in centiseconds, and is sometimes not read. */
	if (rand_r(seed) % 10) {
		s.status[SRC_UPTIME].err = 0;
		s.uptime = 86400.0 * 400 + i + (double)(rand_r(seed) % 100) / 100;
	}
	history_push(h, &s, NULL);
	rt_up[i] = sample_has(&s, SRC_UPTIME) ? s.uptime : NAN;
	rt_free[i] = s.buddy.zones[0].free[0];
	rt_dirty[i] = s.mem.e[1].value;
	rt_min[i] = s.zi.zones[0].v[ZI_MIN];
	rt_avg[i] = s.psi[PSI_MEMORY].some.avg10;
	rt_inc[i] = i ? inc : -1;
}

static int
rt_check(struct history *h, uint64_t seq)
{
	struct hist_entry e;
	uint64_t wm[WM_COUNT];
	const uint32_t *b = history_buddy(h, seq, 0);

	if (!b || b[0] != rt_free[seq] || !history_wmark(h, seq, 1, wm) || wm[WM_MIN] != rt_min[seq])
		return 0;
	if (!history_entry(h, seq, &e) || e.mem[MEM_DIRTY] != rt_dirty[seq] ||
	    e.psi[PSI_MEMORY].some.avg10 != rt_avg[seq] || e.wall != 1000000 + (double)seq)
		return 0;
	if (isnan(rt_up[seq]) ? !isnan(e.uptime) || !isnan(history_uptime(h, seq)) :
	    fabs(e.uptime - rt_up[seq]) > 0.005 || history_uptime(h, seq) != e.uptime)
		return 0;
	if (!history_has(h, seq - 1) && seq != 0)
		return 1;
	for (int k = 0; k < RT_MORE; k++)
		if (history_ctr_delta(h, seq, rt_more[k].c) != rt_more_inc[seq][k])
			return 0;
	if (history_psi_stall(h, seq, PSI_IO, true) != rt_io_stall[seq] ||
	    history_psi_stall(h, seq, PSI_IO, false) != -1)
		return 0;
	return derive_delta(h, seq, CTR_PGSCAN_KSWAPD) == rt_inc[seq];
}

static void
test_packed_round_trip(void)
{
	static const size_t caps[] = { 1, 5, 127, 128, 129, 300, 1000 };

	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		unsigned seed = 7;
		struct history *h;
		uint64_t first, last;
		int bad = 0, i;

		make(0, 0, 0, 1);
		h = history_new(caps[c], 2, &s);
		for (i = 0; i < RT_PUSHES; i++) {
			rt_push(h, i, &seed);
			/* Read the newest now and then, as the screen does while live. */
			if (i % 7 == 0 && !rt_check(h, (uint64_t)i))
				bad++;
		}
		history_range(h, &first, &last);
		for (uint64_t q = first; q <= last; q++)
			bad += !rt_check(h, q);
		for (uint64_t q = last + 1; q-- > first;)
			bad += !rt_check(h, q);
		for (int k = 0; k < 500; k++)
			bad += !rt_check(h, first + (uint64_t)rand_r(&seed) % (last - first + 1));
		tap_ok(bad == 0 && last - first + 1 == caps[c],
		       "ring of %zu after %d pushes: every entry reads back (%d wrong)", caps[c],
		       RT_PUSHES, bad);
		history_free(h);
	}
}

static void
test_no_allocation(void)
{
	struct history *h;
	size_t before;

	make(0, 0, 0, 1);
	h = history_new(100, 10, &s);
	for (int i = 0; i < 10; i++) {
		make(i, (uint64_t)i * 10, 0, 1);
		history_push(h, &s, NULL);
	}
	before = mallinfo2().uordblks;
	for (int i = 10; i < 1000; i++) {
		make(i, (uint64_t)i * 10, 0, 1);
		history_push(h, &s, NULL);
		(void)derive_rate(h, (uint64_t)i, CTR_PGSCAN_KSWAPD);
	}
	tap_eq_u64(mallinfo2().uordblks, before, "990 pushes and rates allocate nothing");
	history_free(h);
}

int
main(void)
{
	test_rates();
	test_zones_move();
	test_pagetypeinfo();
	test_packing();
	test_packed_round_trip();
	test_no_allocation();
	return tap_done();
}
