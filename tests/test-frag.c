/* Fragmentation indices against the kernel's own debugfs numbers and hand-computed cases. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse/buddyinfo.h"
#include "fixture.h"
#include "model/frag.h"
#include "model/frag-zone.h"
#include "tap.h"
#include "util/text.h"

/* One debugfs extfrag file: "Node N, zone X v.vvv v.vvv ..." as thousandths. */
struct index_file {
	int n;
	int node[MAX_ZONES];
	char zone[MAX_ZONES][NAME_LEN];
	int v[MAX_ZONES][MAX_ORDERS];
	int n_orders;
};

static int
thousandths(struct span w, int *out)
{
	bool neg = w.len > 0 && w.s[0] == '-';
	uint64_t a, b;
	const char *dot;

	if (neg) {
		w.s++;
		w.len--;
	}
	if (!(dot = memchr(w.s, '.', w.len)))
		return -EINVAL;
	if (span_to_u64((struct span){ w.s, (size_t)(dot - w.s) }, &a) < 0 ||
	    span_to_u64((struct span){ dot + 1, w.len - (size_t)(dot - w.s) - 1 }, &b) < 0)
		return -EINVAL;
	*out = (int)(a * 1000 + b) * (neg ? -1 : 1);
	return 0;
}

static void
load_index(const char *rel, struct index_file *ix)
{
	size_t len;
	char *buf = fixture_load(rel, &len);
	struct text_cursor c;
	struct span line, w;

	memset(ix, 0, sizeof(*ix));
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		int o = 0;

		if (!span_next_word(&line, &w) || !span_eq(w, "Node"))
			continue;
		span_next_word(&line, &w);
		ix->node[ix->n] = atoi(w.s);
		span_next_word(&line, &w);	/* "zone" */
		span_next_word(&line, &w);
		span_copy(w, ix->zone[ix->n], NAME_LEN);
		while (span_next_word(&line, &w) && o < MAX_ORDERS)
			if (thousandths(w, &ix->v[ix->n][o]) == 0)
				o++;
		ix->n_orders = o;
		ix->n++;
	}
	free(buf);
}

static void
load_buddy(const char *rel, struct buddyinfo *bi)
{
	size_t len;
	char *buf = fixture_load(rel, &len);
	struct parse_error err;

	if (buddyinfo_parse(buf, len, bi, &err) < 0)
		printf("Bail out! %s: line %d: %s\n", rel, err.line, err.msg);
	free(buf);
}

/* The live capture was read back to back with buddyinfo unchanged around it: exact. */
static void
test_live_pair(void)
{
	static struct buddyinfo bi;
	struct index_file un, ef;

	load_buddy("proc/extfrag/live-6.18-x86_64-buddyinfo.txt", &bi);
	load_index("proc/extfrag/live-6.18-x86_64-unusable_index.txt", &un);
	load_index("proc/extfrag/live-6.18-x86_64-extfrag_index.txt", &ef);
	tap_eq_int(un.n, bi.n_zones, "live: one unusable_index row per buddyinfo zone");
	for (int z = 0; z < bi.n_zones && z < un.n; z++) {
		struct frag fr;
		int bad_u = 0, bad_e = 0;

		frag_compute(bi.zones[z].free, bi.n_orders, &fr);
		for (int o = 0; o < bi.n_orders; o++) {
			bad_u += fr.unusable[o] != un.v[z][o];
			bad_e += fr.extfrag[o] != ef.v[z][o];
		}
		tap_ok(bad_u == 0, "live %s: unusable_index equals the kernel's at every order",
		       bi.zones[z].zone);
		tap_ok(bad_e == 0, "live %s: extfrag_index equals the kernel's at every order",
		       bi.zones[z].zone);
	}
}

/*
 * The 3.10 and 4.0 attachments were not read at the same moment as their
 * buddyinfo (the order where allocations start failing differs), so only
 * orders where both say "would fail" can be compared, and only roughly.
 */
static void
test_mail_pair(const char *buddy, const char *index)
{
	static struct buddyinfo bi;
	struct index_file ef;

	load_buddy(buddy, &bi);
	load_index(index, &ef);
	tap_eq_int(ef.n, bi.n_zones, "%s: rows match", index);
	for (int z = 0; z < bi.n_zones && z < ef.n; z++) {
		struct frag fr;
		int worst = 0, compared = 0;

		frag_compute(bi.zones[z].free, bi.n_orders, &fr);
		for (int o = 0; o < bi.n_orders; o++) {
			if (fr.extfrag[o] < 0 || ef.v[z][o] < 0)
				continue;
			compared++;
			if (abs(fr.extfrag[o] - ef.v[z][o]) > worst)
				worst = abs(fr.extfrag[o] - ef.v[z][o]);
		}
		tap_ok(worst <= 30, "%s node %d %s: %d orders compared, largest gap %d/1000",
		       index, bi.zones[z].node, bi.zones[z].zone, compared, worst);
	}
}

static void
test_hand(void)
{
	struct frag fr;
	uint64_t none[11] = { 0 };
	uint64_t four[11] = { 4 };
	uint64_t ones[4] = { 1, 1, 1, 0 };
	uint64_t top[11] = { [10] = 3 };

	frag_compute(none, 11, &fr);
	tap_eq_int(fr.unusable[0], 1000, "no free memory: unusable 1.000 (kernel returns 1000)");
	tap_eq_int(fr.extfrag[5], 0, "no free blocks: extfrag 0");
	tap_eq_int(fr.highest_free_order, -1, "no free blocks: highest order -1");

	frag_compute(four, 11, &fr);
	tap_eq_u64(fr.free_pages, 4, "four order-0 pages: 4 free pages");
	tap_eq_int(fr.unusable[0], 0, "order 0 is all usable");
	tap_eq_int(fr.extfrag[0], -1000, "order 0 would succeed: -1.000");
	tap_eq_int(fr.unusable[1], 1000, "order 1: nothing usable");
	tap_eq_int(fr.extfrag[1], 250, "order 1: 1000 - (1000 + 4000/2)/4 = 250");
	tap_eq_int(fr.extfrag[2], 500, "order 2: 1000 - (1000 + 4000/4)/4 = 500");

	frag_compute(ones, 4, &fr);
	tap_eq_u64(fr.free_pages, 7, "1+2+4 pages free");
	tap_eq_u64(fr.free_blocks, 3, "3 blocks");
	tap_eq_int(fr.unusable[1], 142, "order 1: (7 - 3*2)/7 = 0.142");
	tap_eq_int(fr.unusable[2], 428, "order 2: (7 - 4)/7 = 0.428");
	tap_eq_int(fr.extfrag[3], 375, "order 3: 1000 - (1000 + 875)/3 = 375");
	tap_eq_int(fr.highest_free_order, 2, "highest free order 2");
	tap_eq_u64(fr.free_at_or_above[1], 6, "6 pages in blocks of order >= 1");

	frag_compute(top, 11, &fr);
	tap_eq_int(fr.unusable[10], 0, "only order-10 blocks: nothing unusable at 10");
	tap_eq_int(fr.extfrag[10], -1000, "order 10 would succeed");
	tap_eq_u64(fr.free_at_or_above[0], 3072, "3 x 1024 pages");

	/* Counts like a 2 TiB zone's must not overflow the thousandths maths. */
	top[0] = (uint64_t)1 << 40;
	frag_compute(top, 11, &fr);
	tap_ok(fr.unusable[10] > 990 && fr.unusable[10] <= 1000, "2^40 order-0 pages: order 10 mostly unusable (%d)",
	       fr.unusable[10]);
}

/* A zone's figures at a history entry, as the Fragmentation screen shows them. */
static void
test_zone(void)
{
	static struct sample s;
	struct frag_zone fz;
	struct frag_zone_pti p;
	struct hist_entry e;
	struct history *h;

	for (int i = 0; i < SRC_COUNT; i++)
		s.status[i].err = ENOENT;
	s.wall = 1000;
	s.status[SRC_BUDDYINFO].err = 0;
	s.buddy.n_orders = 4;
	s.buddy.n_zones = 2;
	s.buddy.zones[0] = (struct buddyinfo_zone){ .node = 0, .zone = "DMA32",
						    .free = { 8 } };
	s.buddy.zones[1] = (struct buddyinfo_zone){ .node = 0, .zone = "Normal",
						    .free = { 1, 1, 1, 0 } };
	h = history_new(8, 2, &s);
	history_push(h, &s, NULL);
	frag_zone_get(h, 0, 1, &fz);
	tap_ok(fz.have && fz.free[2] == 1 && fz.f.free_pages == 7 && fz.f.unusable[2] == 428,
	       "zone Normal at entry 0: its row and its indices");
	frag_zone_get(h, 0, -1, &fz);
	tap_ok(!fz.have && fz.f.highest_free_order == -1, "no zone: nothing, top order -1");
	frag_zone_get(h, 5, 1, &fz);
	tap_ok(!fz.have, "an entry not held: nothing");
	history_entry(h, 0, &e);
	tap_ok(!frag_zone_pti(h, 0, &e, 1, &p) && !p.ok, "no pagetypeinfo read: none in force");

	/* A read at the second entry, one row for Normal; the third reads none. */
	s.status[SRC_PAGETYPEINFO].err = 0;
	s.pti.n_orders = 4;
	s.pti.n_types = 2;
	strcpy(s.pti.types[0], "Unmovable");
	strcpy(s.pti.types[1], "Movable");
	s.pti.pageblock_order = 3;
	s.pti.n_free = 1;
	s.pti.free[0] = (struct pagetypeinfo_free){ .node = 0, .zone = "Normal", .type = 1,
						    .free = { 1, 1, 1, 0 } };
	s.pti.n_blocks = 1;
	s.pti.blocks[0] = (struct pagetypeinfo_blocks){ .node = 0, .zone = "Normal",
							.count = { 3, 9 } };
	s.wall = 1001;
	history_push(h, &s, NULL);
	s.status[SRC_PAGETYPEINFO].err = SRC_NOT_READ;
	s.wall = 1003;
	history_push(h, &s, NULL);
	history_entry(h, 2, &e);
	tap_ok(frag_zone_pti(h, 2, &e, 1, &p) && p.at == 0 && p.age == 2,
	       "the first read in force, two seconds before");
	tap_ok(!p.free[0] && p.free[1] && p.free[1][1] == 1 && p.blocks && p.blocks[1] == 9,
	       "Normal: Movable's row and the pageblocks, no Unmovable row");
	tap_ok(frag_zone_pti(h, 2, &e, 0, &p) && !p.free[1] && !p.blocks,
	       "DMA32: no rows of its own");
	tap_ok(!frag_zone_pti(h, 2, NULL, 1, &p), "the entry not unpacked: none");
	history_free(h);
}

/* The kernel's steps one for one, as frag_compute() first did them. */
static void
frag_by_steps(const uint64_t *free, int n_orders, struct frag *out)
{
	memset(out, 0, sizeof(*out));
	out->n_orders = n_orders;
	out->highest_free_order = -1;
	for (int o = 0; o < n_orders; o++) {
		out->free_blocks += free[o];
		out->free_pages += free[o] << o;
		if (free[o])
			out->highest_free_order = o;
	}
	for (int k = n_orders - 1; k >= 0; k--)
		out->free_at_or_above[k] = (free[k] << k) +
		    (k + 1 < n_orders ? out->free_at_or_above[k + 1] : 0);
	for (int k = 0; k < n_orders; k++) {
		uint64_t suitable = out->free_at_or_above[k] >> k;
		uint64_t requested = (uint64_t)1 << k;

		if (out->free_pages == 0)
			out->unusable[k] = 1000;
		else
			out->unusable[k] = (int)((out->free_pages - (suitable << k)) * 1000 /
			    out->free_pages);
		if (out->free_blocks == 0)
			out->extfrag[k] = 0;
		else if (suitable)
			out->extfrag[k] = -1000;
		else
			out->extfrag[k] = 1000 - (int)((1000 + out->free_pages * 1000 / requested) /
			    out->free_blocks);
	}
}

/* frag_compute() is those steps, field for field, on free lists empty,
 * sparse, full and huge (products that wrap as the kernel's do). */
static void
test_steps(void)
{
	uint64_t x = 0x2545F4914F6CDD1Dull, free[MAX_ORDERS];
	struct frag a, b;
	int trial, o, n, off = 0;

	for (trial = 0; trial < 100000; trial++) {
		n = (int)(x % (MAX_ORDERS + 1));
		for (o = 0; o < MAX_ORDERS; o++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			free[o] = trial % 5 == 0 ? 0 : trial % 5 == 1 ? x % 3 :
			    trial % 5 == 2 ? x % 100000 : trial % 5 == 3 ? x >> (x % 64) : x;
		}
		frag_compute(free, n, &a);
		frag_by_steps(free, n, &b);
		off += memcmp(&a, &b, sizeof(a)) != 0;
	}
	tap_ok(off == 0, "frag_compute is the kernel's steps: %d of 100000 off", off);
}

int
main(void)
{
	test_steps();
	test_hand();
	test_zone();
	test_live_pair();
	test_mail_pair("proc/buddyinfo/lkml-fb-3.10-x86_64-2node.txt",
		       "proc/extfrag/lkml-fb-3.10-extfrag_index-2node.txt");
	test_mail_pair("proc/buddyinfo/lkml-fb-4.0-x86_64-2node-6digit-count.txt",
		       "proc/extfrag/lkml-fb-4.0-extfrag_index-2node.txt");
	return tap_done();
}
