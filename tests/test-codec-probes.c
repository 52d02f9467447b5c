/*
 * The kernel probes in a recording (field PROBES2, format 2.3; PROBES,
 * 2.2, read too): every field
 * of struct probes, each given a value of its own, decodes equal, whole
 * and as a delta (some counters up, some down, the tick's part all new),
 * and again after a new epoch; nothing is written when the probes are
 * off; crafted fields with counts and indexes out of range are refused
 * with a message, never written out of bounds; D stacks the previous
 * sample had are written by number, smaller, and decode equal; and the
 * committed 2.2 fixture (tests/mkprobes over the 2.1 one) reads value by
 * value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/probes.h"
#include "model/sample.h"
#include "ptrec/codec.h"
#include "ptrec/codec-int.h"
#include "ptrec/recfile.h"
#include "tap.h"

#define CAP	(1u << 20)

static uint8_t buf[CAP];

/* Each uint64_t its own value, from *v on; named field by field, so that
 * one the codec leaves out makes the comparison fail. */
static void
fill_hist(struct probe_hist *h, uint64_t *v)
{
	int i;

	h->count = (*v)++;
	h->sum_ns = (*v)++;
	for (i = 0; i < PROBE_BUCKETS; i++)
		h->bucket[i] = (*v)++;
}

static void
fill_arr(uint64_t *a, int n, uint64_t *v)
{
	int i;

	for (i = 0; i < n; i++)
		a[i] = (*v)++ * 1000003u;
}

static void
fill(struct probes *p, uint64_t v)
{
	int i, j, k;

	memset(p, 0, sizeof(*p));
	p->state = PROBES_ON;
	snprintf(p->why, sizeof(p->why), "why %llu", (unsigned long long)v);
	p->attached = (uint32_t)v++;
	p->missing = (uint32_t)v++;
	p->epoch = v++;
	for (i = 0; i < STALL_KIND_COUNT; i++) {
		fill_hist(&p->stall[i].lat, &v);
		fill_arr(p->stall[i].order_count, PROBE_ORDERS, &v);
		fill_arr(p->stall[i].order_ns, PROBE_ORDERS, &v);
		p->stall[i].reclaimed = v++;
		p->stall[i].tick_max_ns = v++ << 20;
	}
	fill_arr(p->compact_result, COMPACT_R_COUNT, &v);
	for (i = 0; i < COMPACT_R_COUNT; i++)
		fill_hist(&p->compact_lat[i], &v);
	fill_arr(p->compact_try, PROBE_ORDERS, &v);
	fill_arr(p->compact_deferred, PROBE_ORDERS, &v);
	fill_arr(p->throttle_count, THROTTLE_REASON_COUNT, &v);
	fill_arr(p->throttle_us, THROTTLE_REASON_COUNT, &v);
	for (i = 0; i < PROBE_ORDERS; i++)
		for (j = 0; j < PROBE_MIGRATETYPES; j++)
			for (k = 0; k < PROBE_MIGRATETYPES; k++)
				p->fallback[i][j][k] = v++;
	fill_arr(p->fallback_fragmenting, PROBE_ORDERS, &v);
	fill_arr(p->fallback_owner, PROBE_ORDERS, &v);
	fill_arr(p->kswapd_wakes, PROBE_NODES, &v);
	fill_arr(p->kswapd_wake_order, PROBE_ORDERS, &v);
	fill_arr(p->kswapd_awake_ns, PROBE_NODES, &v);
	fill_arr(p->kcompactd_wakes, PROBE_NODES, &v);
	fill_arr(p->kcompactd_wake_order, PROBE_ORDERS, &v);
	fill_arr(p->kcompactd_awake_ns, PROBE_NODES, &v);
	p->reclaim_writes = v++;
	p->dsleep_min_ns = v++;
	fill_hist(&p->dsleep, &v);
	p->dsleep_lost = v++;
	p->n_tasks = PROBE_TOP_TASKS;
	for (i = 0; i < PROBE_TOP_TASKS; i++) {
		struct probe_task *t = &p->task[i];

		t->tid = -(int32_t)(v % 100000) - i;
		t->kinds = (uint8_t)((v + (uint64_t)i) % 8);
		snprintf(t->comm, sizeof(t->comm), "task-%d-%llu", i,
		    (unsigned long long)(v % 1000));
		t->count = (uint32_t)v++;
		t->total_ns = v++;
		t->max_ns = UINT64_MAX - v++;
	}
	p->n_dstacks = PROBE_TOP_STACKS;
	for (i = 0; i < PROBE_TOP_STACKS; i++) {
		struct probe_dstack *d = &p->dstack[i];

		d->count = (uint32_t)v++;
		d->total_ns = v++;
		d->max_ns = v++;
		d->last_tid = (int32_t)v++;
		snprintf(d->last_comm, sizeof(d->last_comm), "comm%d", i);
		d->stack.n = i;		/* 0 to 15 frames */
		if (i == PROBE_TOP_STACKS - 1)
			d->stack.n = PROBE_STACK_FRAMES;
		for (j = 0; j < d->stack.n; j++)	/* names shared */
			snprintf(d->stack.func[j], STACK_FUNC_LEN,
			    j % 3 == 0 ? "shared_%d" : "f_%d_%d_%llu",
			    j % 3 == 0 ? j : i, j, (unsigned long long)v % 7);
	}
}

/* The first byte that differs, as the field's offset; -1 when equal. */
static long
differs(const struct probes *a, const struct probes *b)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;
	size_t i;

	for (i = 0; i < sizeof(*a); i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

static struct sample *
new_sample(void)
{
	struct sample *s = calloc(1, sizeof(*s));
	int i;

	if (s == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (i = 0; i < SRC_COUNT; i++) {
		s->status[i].err = 2;	/* ENOENT: no chunks needed */
		snprintf(s->status[i].msg, sizeof(s->status[i].msg), "off");
	}
	s->page_size = 4096;
	s->mono = 100;
	s->wall = 1.7e9;
	return s;
}

static void
test_round_trip(void)
{
	struct sample *a = new_sample(), *b = new_sample();
	struct sample *da = new_sample(), *db = new_sample();
	struct parse_error err;
	ssize_t n, whole;
	long off;
	int i;

	tap_eq_int((int)codec_probes_cum_count(), 1636,
	    "the cumulative vector has the man page's 1,636 numbers");
	fill(&a->probes, 1);
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(n > 0, "every probe field encodes whole (%zd bytes)", n);
	whole = n;
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, da, NULL, &err) == 0,
	    "and decodes: %s", err.msg);
	off = differs(&a->probes, &da->probes);
	tap_ok(off < 0, "every field equal (first difference at byte %ld)", off);

	/* A delta: the same epoch, counters up and down, a new tick. */
	*b = *a;
	b->mono = 101;
	fill(&b->probes, 77777);
	b->probes.epoch = a->probes.epoch;
	b->probes.stall[0].lat.count = a->probes.stall[0].lat.count - 1;
	b->probes.fallback[15][7][7] = 0;
	b->probes.n_tasks = 3;	/* entries past the counts are not data */
	memset(&b->probes.task[3], 0, sizeof(b->probes.task[0]) * 5);
	b->probes.n_dstacks = 1;
	memset(&b->probes.dstack[1], 0, sizeof(b->probes.dstack[0]) * 15);
	n = codec_encode(b, a, buf, CAP);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, da, db, NULL, &err) == 0,
	    "a delta decodes: %s", err.msg);
	off = differs(&b->probes, &db->probes);
	tap_ok(off < 0, "every field equal (first difference at byte %ld)", off);

	/* Few changes: a delta is small. */
	*a = *b;
	a->mono = 102;
	a->probes.reclaim_writes += 3;
	a->probes.stall[STALL_DIRECT].lat.bucket[7] += 2;
	n = codec_encode(a, b, buf, CAP);
	tap_ok(n > 0 && n < 700 && n < whole / 10,
	    "two counters changed: %zd bytes against %zd whole", n, whole);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, db, da, NULL, &err) == 0 &&
	    differs(&a->probes, &da->probes) < 0, "and equal: %s", err.msg);

	/* A new epoch is written whole, even in a delta frame. */
	*b = *a;
	b->mono = 103;
	memset(&b->probes.stall, 0, sizeof(b->probes.stall));
	b->probes.epoch++;
	n = codec_encode(b, a, buf, CAP);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, da, db, NULL, &err) == 0 &&
	    differs(&b->probes, &db->probes) < 0,
	    "a new epoch: equal, counters from 0: %s", err.msg);

	/* Probes off: no field, the same bytes whatever the rest holds. */
	memset(&a->probes, 0, sizeof(a->probes));
	n = codec_encode(a, NULL, buf, CAP);
	fill(&b->probes, 5);
	b->probes.state = PROBES_NONE;
	*b = *a;
	b->probes.reclaim_writes = 99;
	whole = codec_encode(b, NULL, buf + CAP / 2, CAP / 2);
	tap_ok(n > 0 && n == whole && memcmp(buf, buf + CAP / 2, (size_t)n) == 0,
	    "probes off: nothing written (%zd and %zd bytes)", n, whole);

	/* Unavailable, with its why. */
	memset(&a->probes, 0, sizeof(a->probes));
	a->probes.state = PROBES_UNAVAILABLE;
	snprintf(a->probes.why, sizeof(a->probes.why), "no BTF");
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, da, NULL, &err) == 0 &&
	    da->probes.state == PROBES_UNAVAILABLE &&
	    strcmp(da->probes.why, "no BTF") == 0, "unavailable, and why");

	/* A sample the encoder cannot hold is refused, not written. */
	for (i = 0; i < 3; i++) {
		fill(&a->probes, 3);
		if (i == 0)
			a->probes.n_tasks = PROBE_TOP_TASKS + 1;
		else if (i == 1)
			a->probes.n_dstacks = -1;
		else
			a->probes.dstack[2].stack.n = PROBE_STACK_FRAMES + 1;
		tap_ok(codec_encode(a, NULL, buf, CAP) < 0,
		    "a count out of bounds is not encoded (%d)", i);
	}
	free(a);
	free(b);
	free(da);
	free(db);
}

/* A frame by hand: FRAME, PAGE_SIZE, TIME, then field id (PROBES or
 * PROBES2) with payload. */
static size_t
craft_id(uint8_t *out, uint8_t id, bool delta, const uint8_t *payload, size_t len)
{
	size_t n = 0;

	out[n++] = 1; out[n++] = 1; out[n++] = delta ? 1 : 0;
	out[n++] = 3; out[n++] = 1; out[n++] = 0;
	out[n++] = 2; out[n++] = 2; out[n++] = 0; out[n++] = 0;
	out[n++] = id; out[n++] = (uint8_t)len;
	memcpy(out + n, payload, len);
	return n + len;
}

static size_t
craft(uint8_t *out, bool delta, const uint8_t *payload, size_t len)
{
	return craft_id(out, F_PROBES, delta, payload, len);
}

/* PROBES2's D stacks by hand, against a previous sample with one, the
 * vfork stack of tid 100, comm kworker. Payload: flags, state, why,
 * attached, missing, epoch, no cumulative entries, 3 longest, no tasks,
 * then the stacks: count, total, total less max, ref ... */
static void
test_crafted2(void)
{
	static const struct {
		const char *what;
		bool delta;
		uint8_t p[24];
		size_t len;
		const char *want;	/* in the message; NULL: decodes */
	} c[] = {
		{ "the previous sample's stack, its comm", true,
		  { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 2, 4 }, 17, NULL },
		{ "the previous sample's stack, a comm of its own", true,
		  { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 1, 4, 2, 'c', 'c' },
		  20, NULL },
		{ "a stack past the previous sample's one", true,
		  { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 3, 4 }, 17,
		  "count out of range" },
		{ "the previous sample's stack, without DELTA", false,
		  { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 2, 4 }, 17,
		  "count out of range" },
		{ "a new stack, spelled out", false,
		  { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 4, 1, 'x', 1, 0, 1, 'f' },
		  23, NULL },
	};
	struct sample *s = new_sample(), *prev = new_sample();
	struct parse_error err;
	const struct probe_dstack *d = &s->probes.dstack[0];
	uint8_t frame[80];
	size_t i, n;
	int rc;

	prev->probes.state = PROBES_ON;
	prev->probes.n_dstacks = 1;
	prev->probes.dstack[0].last_tid = 100;
	snprintf(prev->probes.dstack[0].last_comm, 16, "kworker");
	prev->probes.dstack[0].stack.n = 2;
	snprintf(prev->probes.dstack[0].stack.func[0], STACK_FUNC_LEN, "schedule");
	snprintf(prev->probes.dstack[0].stack.func[1], STACK_FUNC_LEN, "wait_for_vfork_done");
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		n = craft_id(frame, F_PROBES2, c[i].delta, c[i].p, c[i].len);
		memset(&err, 0, sizeof(err));
		rc = codec_decode(frame, n, c[i].delta ? prev : NULL, s, NULL, &err);
		if (c[i].want != NULL) {
			tap_ok(rc < 0 && strstr(err.msg, c[i].want) != NULL &&
			    strstr(err.msg, "probes") != NULL,
			    "PROBES2 crafted, %s: refused: %s", c[i].what, err.msg);
			continue;
		}
		tap_ok(rc == 0 && s->probes.n_dstacks == 1 && d->count == 1 &&
		    d->total_ns == 5 && d->max_ns == 5,
		    "PROBES2 crafted, %s: decodes, one sleep of 5 ns (%s)", c[i].what, err.msg);
		if (i == 0)
			tap_ok(d->last_tid == 102 && strcmp(d->last_comm, "kworker") == 0 &&
			    d->stack.n == 2 && strcmp(d->stack.func[1], "wait_for_vfork_done") == 0,
			    "... tid 100 + 2, kworker's, its two frames");
		else if (i == 1)
			tap_ok(d->last_tid == 102 && strcmp(d->last_comm, "cc") == 0 &&
			    d->stack.n == 2, "... tid 102, comm cc, the two frames");
		else
			tap_ok(d->last_tid == 2 && strcmp(d->last_comm, "x") == 0 &&
			    d->stack.n == 1 && strcmp(d->stack.func[0], "f") == 0,
			    "... tid 2, comm x, its frame f");
	}
	free(s);
	free(prev);
}

/* The D stacks of a tick like the one before: written by their number
 * there, with the comm when it is the same, and the tids as changes. */
static void
test_stack_refs(void)
{
	struct sample *a = new_sample(), *b = new_sample(), *c = new_sample();
	struct sample *da = new_sample(), *db = new_sample();
	struct parse_error err;
	ssize_t whole, same, moved;

	fill(&a->probes, 1);
	*b = *a;
	b->mono = 101;
	/* The same stacks in another order, other counts and times, one
	 * with another comm, one with a tid far off. */
	for (int i = 0; i < PROBE_TOP_STACKS; i++) {
		b->probes.dstack[i] = a->probes.dstack[PROBE_TOP_STACKS - 1 - i];
		b->probes.dstack[i].count = 1 + (uint32_t)i;
		b->probes.dstack[i].total_ns = 1000000u * (uint64_t)(i + 1);
		b->probes.dstack[i].max_ns = i % 2 ? b->probes.dstack[i].total_ns :
		    b->probes.dstack[i].total_ns + 77;	/* above its total */
	}
	snprintf(b->probes.dstack[3].last_comm, sizeof(b->probes.dstack[3].last_comm), "other");
	b->probes.dstack[5].last_tid = INT32_MIN;
	whole = codec_encode(a, NULL, buf, CAP);
	tap_ok(whole > 0 && codec_decode(buf, (size_t)whole, NULL, da, NULL, &err) == 0 &&
	    differs(&a->probes, &da->probes) < 0, "a tick of 16 D stacks, whole");
	same = codec_encode(b, a, buf, CAP);
	tap_ok(same > 0 && codec_decode(buf, (size_t)same, da, db, NULL, &err) == 0 &&
	    differs(&b->probes, &db->probes) < 0,
	    "the previous sample's stacks, reordered: every field equal (%s)", err.msg);
	/* The same tick with stacks the previous sample did not have. */
	*c = *a;
	for (int i = 0; i < PROBE_TOP_STACKS; i++)
		for (int f = 0; f < c->probes.dstack[i].stack.n; f++)
			c->probes.dstack[i].stack.func[f][0] ^= 1;
	moved = codec_encode(b, c, buf, CAP);
	tap_ok(same > 0 && moved > 0 && same + 300 < moved,
	    "... %zd bytes, %zd with none of them in the previous sample", same, moved);
	free(a);
	free(b);
	free(c);
	free(da);
	free(db);
}

static void
test_crafted(void)
{
	/* flags, state, why "", attached, missing, epoch, n entries ... */
	static const struct {
		const char *what;
		uint8_t p[40];
		size_t len;
		const char *want;	/* in the message; NULL: decodes */
	} c[] = {
		{ "a good one", { 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 0, 0 },
		  14, NULL },
		{ "no state", { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		  12, "no state" },
		{ "state 3", { 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		  12, "malformed" },
		{ "cumulative entries: more than there are",
		  { 0, 1, 0, 0, 0, 0, 0xff, 0x7f }, 8, "cumulative" },
		{ "cumulative index past the end",
		  { 0, 1, 0, 0, 0, 0, 1, 0xff, 0x7f, 5 }, 10, "out of range" },
		{ "second index past the end",
		  { 0, 1, 0, 0, 0, 0, 2, 0xff, 0x0f, 5, 0xff, 0x0f, 5 }, 13,
		  "out of range" },
		{ "9 tasks", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9 }, 11,
		  "count out of range" },
		{ "17 stacks", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17 }, 12,
		  "count out of range" },
		{ "17 frames", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
		  1, 1, 1, 0, 0, 17 }, 18, "count out of range" },
		{ "a frame interned before any",
		  { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1 },
		  19, "count out of range" },
		{ "a comm too long", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
		  16, 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a',
		  'a', 'a', 'a', 'a', 'a', 1, 1, 1 }, 33, "malformed" },
		{ "cut short", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 11,
		  "malformed" },
		{ "bytes left over", { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 },
		  13, "left over" },
		{ "a delta without the previous probes",
		  { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 12,
		  "without the previous" },
	};
	struct sample *s = new_sample(), *prev = new_sample();
	struct parse_error err;
	uint8_t frame[80];
	size_t i, n;
	int rc;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bool delta = c[i].p[0] == 1;

		n = craft(frame, delta, c[i].p, c[i].len);
		memset(&err, 0, sizeof(err));
		rc = codec_decode(frame, n, delta ? prev : NULL, s, NULL, &err);
		if (c[i].want == NULL)
			tap_ok(rc == 0 && s->probes.state == PROBES_ON &&
			    s->probes.stall[0].lat.count == 5,
			    "crafted, %s: decodes (%s)", c[i].what, err.msg);
		else
			tap_ok(rc < 0 && strstr(err.msg, c[i].want) != NULL &&
			    strstr(err.msg, "probes") != NULL,
			    "crafted, %s: refused: %s", c[i].what, err.msg);
	}
	free(s);
	free(prev);
}

static void
test_fixture(void)
{
	const char *dir = getenv("FIXTURES");
	char path[4096], why[300];
	struct rec_reader *r;
	struct rec_info info;
	struct sample *s = new_sample(), *prev = new_sample(), *t;
	struct parse_error err;
	const uint8_t *b;
	size_t i, len, bad = 0;
	bool key;

	snprintf(path, sizeof(path), "%s/recordings/format-2.2.ptrec",
	    dir ? dir : "tests/fixtures");
	r = rec_reader_open(path, why, sizeof(why));
	if (!tap_ok(r != NULL, "the 2.2 fixture opens: %s", r ? "" : why))
		return;
	rec_reader_info(r, &info);
	tap_ok(info.major == 2 && info.minor == 2 && rec_reader_count(r) == 40,
	    "format %d.%d, %zu samples", info.major, info.minor,
	    rec_reader_count(r));
	for (i = 0; i < rec_reader_count(r); i++) {
		if (rec_reader_get(r, i, &b, &len, &key) != 0 ||
		    codec_decode(b, len, key ? NULL : prev, s, NULL, &err) != 0) {
			bad++;
			continue;
		}
		if (i == 7) {
			const struct probes *p = &s->probes;

			/* mkprobes' figures at sample 7, worked out by hand. */
			tap_ok(p->state == PROBES_ON && p->epoch == 5000000000ull &&
			    p->missing == 1u << PROBE_COMPACT_DEFER &&
			    strstr(p->why, "mm_compaction_deferred") != NULL,
			    "sample 7: on, compaction deferrals missing");
			tap_ok(p->stall[STALL_DIRECT].lat.count == 45 &&
			    p->stall[STALL_DIRECT].reclaimed == 45 * 32,
			    "sample 7: 45 direct stalls so far (%llu), 32 "
			    "pages each", (unsigned long long)
			    p->stall[STALL_DIRECT].lat.count);
			tap_ok(p->stall[STALL_MEMCG].lat.count == 7 &&
			    p->stall[STALL_MEMCG].lat.sum_ns == 3000000,
			    "sample 7: 7 memcg stalls, 3.0 ms (%llu, %llu)",
			    (unsigned long long)p->stall[STALL_MEMCG].lat.count,
			    (unsigned long long)p->stall[STALL_MEMCG].lat.sum_ns);
			tap_ok(p->fallback[0][0][1] == 8 * 5 + 12 &&
			    p->fallback[0][1][0] == 16 &&
			    p->fallback[9][1][0] == 1 &&
			    p->fallback_owner[9] == 1,
			    "sample 7: fallbacks by order and pair (%llu)",
			    (unsigned long long)p->fallback[0][0][1]);
			tap_ok(p->n_tasks == 4 && p->task[0].tid == 4242 &&
			    strcmp(p->task[0].comm, "stress-ng-vm") == 0 &&
			    p->task[0].kinds == 1 << STALL_DIRECT,
			    "sample 7: 4 stalled tasks, the first 4242 "
			    "stress-ng-vm (%d)", p->n_tasks);
			tap_ok(p->n_dstacks == 3 &&
			    p->dstack[0].count == 2 &&
			    p->dstack[0].max_ns == 201000000ull &&
			    p->dstack[0].stack.n == 7 &&
			    strcmp(p->dstack[0].stack.func[2],
			    "wait_for_vfork_done") == 0 &&
			    strcmp(p->dstack[1].stack.func[2],
			    "jbd2_log_wait_commit") == 0 &&
			    strcmp(p->dstack[2].stack.func[3],
			    "folio_wait_bit_common") == 0,
			    "sample 7: the vfork, jbd2 and read stacks");
		}
		if (i == 30)
			tap_ok(s->probes.epoch == 35000000000ull &&
			    s->probes.stall[STALL_DIRECT].lat.count == 3,
			    "sample 30: a new epoch, counts from 0 (%llu)",
			    (unsigned long long)
			    s->probes.stall[STALL_DIRECT].lat.count);
		t = prev;
		prev = s;
		s = t;
	}
	tap_ok(bad == 0, "every sample decodes (%zu did not)", bad);
	rec_reader_close(r);
	free(s);
	free(prev);
}

int
main(void)
{
	test_round_trip();
	test_crafted();
	test_crafted2();
	test_stack_refs();
	test_fixture();
	return tap_done();
}
