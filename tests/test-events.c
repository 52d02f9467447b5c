/*
 * Kernel log events in recordings and in the dashboard's ring: a sample's
 * events survive the codec field by field, in keyframes and delta frames;
 * a sample without a kernel log decodes to none (as an older recording
 * does); an event's count and device (KMSG_MORE, 30) survive, and without
 * that field (an older pagetop) each event was printed once; damaged
 * event fields are refused, never read past; the ring
 * keeps the last events with the history entry each came with.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/codec.h"
#include "model/events.h"
#include "parse/kmsg.h"
#include "model/sample.h"
#include "tap.h"

#define BUF_CAP (1u << 20)

static uint8_t buf[BUF_CAP];

static struct sample *
sample_new(double t)
{
	struct sample *s = calloc(1, sizeof(*s));

	if (!s) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	s->wall = 1764480000.0 + t;
	s->mono = 10000.0 + t;
	s->page_size = 4096;
	for (int i = 0; i < SRC_COUNT; i++)
		s->status[i].err = SRC_NOT_READ;
	return s;
}

static void
add_event(struct sample *s, enum kmsg_kind kind, const char *text, unsigned has)
{
	struct kmsg_event *e = &s->kmsg.ev[s->kmsg.n++];

	memset(e, 0, sizeof(*e));
	e->seq = 363 + (uint64_t)s->kmsg.n;
	e->ts_us = (uint64_t)(s->mono * 1e6) - 250000;
	e->kind = kind;
	e->level = 3;
	e->has = has;
	snprintf(e->comm, sizeof(e->comm), "sh");
	e->pid = 30810;
	e->order = -1;
	e->gfp = 0x40dc0;
	e->seconds = 120;
	e->anon_kb = 65280;
	e->file_kb = 1676;
	e->shmem_kb = 3;
	e->lines = 46;
	e->truncated = true;
	snprintf(e->text, sizeof(e->text), "%s", text);
}

static bool
events_equal(const struct kmsg_sample *a, const struct kmsg_sample *b)
{
	if (a->read != b->read || a->err != b->err || a->lost != b->lost ||
	    a->dropped != b->dropped || a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		const struct kmsg_event *x = &a->ev[i], *y = &b->ev[i];

		if (x->seq != y->seq || x->ts_us != y->ts_us || x->kind != y->kind ||
		    x->level != y->level || x->has != y->has || x->lines != y->lines ||
		    x->truncated != y->truncated || strcmp(x->text, y->text) != 0 ||
		    kmsg_event_count(x) != kmsg_event_count(y))
			return false;
		if ((x->has & KF_DEV) && strcmp(x->dev, y->dev) != 0)
			return false;
		if (((x->has & KF_COMM) && strcmp(x->comm, y->comm) != 0) ||
		    ((x->has & KF_PID) && x->pid != y->pid) ||
		    ((x->has & KF_ORDER) && x->order != y->order) ||
		    ((x->has & KF_GFP) && x->gfp != y->gfp) ||
		    ((x->has & KF_SECONDS) && x->seconds != y->seconds) ||
		    ((x->has & KF_ANON) && x->anon_kb != y->anon_kb) ||
		    ((x->has & KF_FILE) && x->file_kb != y->file_kb) ||
		    ((x->has & KF_SHMEM) && x->shmem_kb != y->shmem_kb))
			return false;
	}
	return true;
}

static void
test_codec(void)
{
	struct sample *a = sample_new(0), *b = sample_new(1), *d = sample_new(0), *d2 = sample_new(0);
	struct codec_stats st = { 0 };
	struct parse_error err;
	char big[KMSG_TEXT_MAX];
	ssize_t n, nb;
	size_t bad = 0;

	a->kmsg.read = true;
	a->kmsg.lost = 7;
	a->kmsg.dropped = 2;
	add_event(a, KMSG_HUNG_TASK, "INFO: task sh:30810 blocked for more than 120 seconds.\n"
		  "      Not tainted 6.18.44 #1", KF_COMM | KF_PID | KF_SECONDS);
	add_event(a, KMSG_OOM_KILL, "Memory cgroup out of memory: Killed process 32464 (tail)",
		  KF_ALL);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	add_event(a, KMSG_ALLOC_FAILURE, big, KF_COMM | KF_ORDER | KF_GFP);
	n = codec_encode(a, NULL, buf, sizeof(buf));
	tap_ok(n > 0, "a keyframe with three events encodes (%zd bytes)", n);
	tap_ok(codec_decode(buf, (size_t)n, NULL, d, &st, &err) == 0, "... and decodes: %s", err.msg);
	tap_ok(events_equal(&a->kmsg, &d->kmsg), "... every event, field by field (a %d-byte text too)",
	       KMSG_TEXT_MAX - 1);

	/* A delta frame carries its events whole; one with none, none. */
	b->kmsg.read = true;
	b->kmsg.err = 0;
	add_event(b, KMSG_OOM_INVOKED, "tail invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0",
		  KF_COMM | KF_ORDER | KF_GFP);
	nb = codec_encode(b, a, buf, sizeof(buf));
	tap_ok(nb > 0 && codec_decode(buf, (size_t)nb, d, d2, &st, &err) == 0 &&
	       events_equal(&b->kmsg, &d2->kmsg), "a delta frame: its own events, not the previous ones");
	b->kmsg.n = 0;
	nb = codec_encode(b, a, buf, sizeof(buf));
	tap_ok(codec_decode(buf, (size_t)nb, d, d2, &st, &err) == 0 && d2->kmsg.read &&
	       d2->kmsg.n == 0 && d2->kmsg.lost == 0, "... a tick without events: read, none");

	/* A log that cannot be read: the reason goes along. */
	b->kmsg.err = EPERM;
	nb = codec_encode(b, NULL, buf, sizeof(buf));
	tap_ok(codec_decode(buf, (size_t)nb, NULL, d2, &st, &err) == 0 && d2->kmsg.read &&
	       d2->kmsg.err == EPERM, "EPERM is recorded: the screen says why on replay");

	/* No kernel log (captured files, or a recording of an older pagetop). */
	b->kmsg.read = false;
	b->kmsg.err = 0;
	nb = codec_encode(b, NULL, buf, sizeof(buf));
	tap_ok(codec_decode(buf, (size_t)nb, NULL, d2, &st, &err) == 0 && !d2->kmsg.read &&
	       d2->kmsg.n == 0, "no kernel log: no field, zero events decoded");

	/* Every cut of the keyframe: none reads past the end; a cut between
	 * fields before the events is a frame without them, any other cut is
	 * refused: never some of the events. */
	{
		struct kmsg_sample keep = a->kmsg;
		ssize_t m;

		a->kmsg.read = false;
		a->kmsg.n = 0;
		m = codec_encode(a, NULL, buf, sizeof(buf));
		a->kmsg = keep;
		n = codec_encode(a, NULL, buf, sizeof(buf));
		for (ssize_t cut = 0; cut < n; cut++) {
			uint8_t *copy = malloc((size_t)cut + 1);
			int r;

			memcpy(copy, buf, (size_t)cut);
			r = codec_decode(copy, (size_t)cut, NULL, d2, &st, &err);
			if ((r == 0 && (d2->kmsg.read || d2->kmsg.n)) || (cut > m && r != -EINVAL))
				bad++;
			free(copy);
		}
		tap_eq_u64(bad, 0, "each of %zd cuts of the frame: never some of the events", n);
	}

	/* An older reader meets F_KMSG as unknown; this one refuses it twice. */
	{
		uint8_t two[BUF_CAP / 2];
		ssize_t m = codec_encode(b, NULL, two, sizeof(two));

		b->kmsg.read = true;
		n = codec_encode(b, NULL, buf, sizeof(buf));
		/* The kmsg field is the last one: append it again. */
		if (n > m && (size_t)(2 * n - m) < sizeof(buf)) {
			memcpy(buf + n, buf + m, (size_t)(n - m));
			tap_ok(codec_decode(buf, (size_t)(2 * n - m), NULL, d2, &st, &err) == -EINVAL &&
			       strstr(err.msg, "twice"), "the kernel log field twice: refused (%s)", err.msg);
		} else {
			tap_ok(0, "the kernel log field twice: could not build it");
		}
	}
	free(a);
	free(b);
	free(d);
	free(d2);
}

/* Raw field bytes: id 19 and a payload, after a minimal keyframe. */
static int
decode_kmsg_payload(const uint8_t *p, size_t len, struct sample *out, struct parse_error *err)
{
	struct sample *s = sample_new(0);
	ssize_t n = codec_encode(s, NULL, buf, sizeof(buf));
	struct codec_stats st = { 0 };
	int r;

	buf[n++] = 19;
	buf[n++] = (uint8_t)len;
	memcpy(buf + n, p, len);
	r = codec_decode(buf, (size_t)n + len, NULL, out, &st, err);
	free(s);
	return r;
}

static void
test_codec_values(void)
{
	struct sample *d = sample_new(0);
	struct parse_error err;
	/* err 0, lost 0, dropped 0, 1 event: seq 5, ts 6, kind 99, level 3,
	 * has 0, lines 1, truncated 0, text "x" */
	const uint8_t future[] = { 0, 0, 0, 1, 5, 6, 99, 3, 0, 1, 0, 1, 'x' };
	const uint8_t badbit[] = { 0, 0, 0, 1, 5, 6, 1, 3, 0x80, 0x02, 1, 0, 1, 'x' };
	const uint8_t level9[] = { 0, 0, 0, 1, 5, 6, 1, 9, 0, 1, 0, 1, 'x' };
	const uint8_t toomany[] = { 0, 0, 0, 17 };
	const uint8_t trunc2[] = { 0, 0, 0, 1, 5, 6, 1, 3, 0, 1, 2, 1, 'x' };

	tap_ok(decode_kmsg_payload(future, sizeof(future), d, &err) == 0 && d->kmsg.n == 1 &&
	       d->kmsg.ev[0].kind == KMSG_OTHER && strcmp(d->kmsg.ev[0].text, "x") == 0,
	       "a kind of a newer pagetop reads as other");
	tap_ok(decode_kmsg_payload(badbit, sizeof(badbit), d, &err) == -EINVAL,
	       "a field bit this reader does not know: refused");
	tap_ok(decode_kmsg_payload(level9, sizeof(level9), d, &err) == -EINVAL, "level 9: refused");
	tap_ok(decode_kmsg_payload(toomany, sizeof(toomany), d, &err) == -EINVAL &&
	       strstr(err.msg, "more than 16"), "17 events in a sample: refused (%s)", err.msg);
	tap_ok(decode_kmsg_payload(trunc2, sizeof(trunc2), d, &err) == -EINVAL,
	       "truncated 2 (not 0 or 1): refused");
	free(d);
}

/* The frame's fields: where the one of id starts and ends, or false. */
static bool
field_at(const uint8_t *p, size_t len, unsigned id, size_t *start, size_t *end)
{
	size_t at = 0;

	/* Every id and length here is below 128 but a text's: read LEB128. */
	while (at < len) {
		uint64_t v[2] = { 0, 0 };
		size_t from = at;

		for (int k = 0; k < 2; k++)
			for (int sh = 0; at < len; sh += 7) {
				v[k] |= (uint64_t)(p[at] & 0x7f) << sh;
				if (!(p[at++] & 0x80))
					break;
			}
		if (v[0] == id) {
			*start = from;
			*end = at + v[1];
			return *end <= len;
		}
		at += v[1];
	}
	return false;
}

static void
test_codec_counts(void)
{
	struct sample *a = sample_new(0), *d = sample_new(0);
	struct codec_stats st = { 0 };
	struct parse_error err;
	ssize_t n, plain;
	size_t from, to;

	a->kmsg.read = true;
	add_event(a, KMSG_IO_ERROR, "Buffer I/O error on dev sdb1, logical block 0, async page read",
		  0);
	a->kmsg.ev[0].count = 50;
	a->kmsg.ev[0].has |= KF_DEV;
	snprintf(a->kmsg.ev[0].dev, sizeof(a->kmsg.ev[0].dev), "sdb1");
	add_event(a, KMSG_FS_ERROR, "Aborting journal on device sdb1-8.", KF_COMM);
	a->kmsg.ev[1].count = 1;
	add_event(a, KMSG_OOM_KILL, "Killed process 5 (x)", KF_COMM);
	a->kmsg.ev[2].count = 3;
	n = codec_encode(a, NULL, buf, sizeof(buf));
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, d, &st, &err) == 0 &&
	       events_equal(&a->kmsg, &d->kmsg), "counts 50, 1, 3 and a device survive the codec (%s)",
	       err.msg);
	tap_ok(d->kmsg.ev[0].count == 50 && strcmp(d->kmsg.ev[0].dev, "sdb1") == 0 &&
	       (d->kmsg.ev[0].has & KF_DEV) && d->kmsg.ev[1].count == 1 && !(d->kmsg.ev[1].has & KF_DEV) &&
	       d->kmsg.ev[2].count == 3, "... each its own: 50 on sdb1, once with none, 3");
	tap_ok(field_at(buf, (size_t)n, 30, &from, &to), "... in field 30, KMSG_MORE");

	/* What an older pagetop wrote: KMSG alone (the field 19 bytes are the
	 * same); and what an older reader reads: 19, then 30 skipped. */
	if (field_at(buf, (size_t)n, 30, &from, &to)) {
		memmove(buf + from, buf + to, (size_t)n - to);
		plain = n - (ssize_t)(to - from);
		tap_ok(codec_decode(buf, (size_t)plain, NULL, d, &st, &err) == 0 && d->kmsg.n == 3 &&
		       d->kmsg.ev[0].count == 1 && d->kmsg.ev[2].count == 1 &&
		       !(d->kmsg.ev[0].has & KF_DEV) && strcmp(d->kmsg.ev[0].text, a->kmsg.ev[0].text) == 0,
		       "without field 30 (an older pagetop's events): each read as printed once");
	} else {
		tap_ok(0, "without field 30: no field to take out");
	}

	/* Nothing to say: no field 30, so older readers see what they always did. */
	for (int i = 0; i < a->kmsg.n; i++) {
		a->kmsg.ev[i].count = 1;
		a->kmsg.ev[i].has &= ~KF_DEV;
	}
	n = codec_encode(a, NULL, buf, sizeof(buf));
	tap_ok(!field_at(buf, (size_t)n, 30, &from, &to) &&
	       codec_decode(buf, (size_t)n, NULL, d, &st, &err) == 0 && d->kmsg.ev[1].count == 1,
	       "events each printed once with no device: no field 30");

	/* Damaged field 30: refused. */
	{
		static const struct {
			uint8_t p[8];
			size_t len;
			const char *why;
		} bad[] = {
			{ { 2, 5, 0, 1, 0 }, 5, "not one for each" },	/* 2 events of 3 */
			{ { 3, 5, 0, 0, 0, 1, 0 }, 7, "bad count" },	/* count 0 */
			{ { 3, 5, 0, 1, 0, 1, 5 }, 7, "bad device" },	/* cut short */
			{ { 3, 5, 0, 1, 0, 1, 0, 9 }, 8, "bytes left" },
		};

		a->kmsg.ev[0].count = 2;
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			ssize_t m = codec_encode(a, NULL, buf, sizeof(buf));
			int r;

			if (!field_at(buf, (size_t)m, 30, &from, &to) || to != (size_t)m) {
				tap_ok(0, "damaged field 30: it is not the last field");
				continue;
			}
			buf[from + 1] = (uint8_t)bad[i].len;
			memcpy(buf + from + 2, bad[i].p, bad[i].len);
			r = codec_decode(buf, from + 2 + bad[i].len, NULL, d, &st, &err);
			tap_ok(r == -EINVAL && strstr(err.msg, "kernel log counts"),
			       "field 30 damaged (%s): refused (%s)", bad[i].why, err.msg);
		}
	}
	/* Before the events, or twice. */
	{
		struct sample *s = sample_new(0);
		ssize_t m = codec_encode(s, NULL, buf, sizeof(buf));
		const uint8_t more[] = { 30, 1, 0 };

		memcpy(buf + m, more, sizeof(more));
		tap_ok(codec_decode(buf, (size_t)m + sizeof(more), NULL, d, &st, &err) == -EINVAL &&
		       strstr(err.msg, "before"), "field 30 without the events before it: refused (%s)",
		       err.msg);
		n = codec_encode(a, NULL, buf, sizeof(buf));
		if (field_at(buf, (size_t)n, 30, &from, &to) && to == (size_t)n) {
			memcpy(buf + n, buf + from, to - from);
			tap_ok(codec_decode(buf, (size_t)n + (to - from), NULL, d, &st, &err) == -EINVAL &&
			       strstr(err.msg, "twice"), "field 30 twice: refused (%s)", err.msg);
		} else {
			tap_ok(0, "field 30 twice: could not build it");
		}
		free(s);
	}
	free(a);
	free(d);
}

static void
test_ring(void)
{
	struct events *ev = events_new(4);
	struct sample *s = sample_new(0);
	const struct event_entry *e;
	uint64_t first, last, i;

	tap_ok(!events_range(ev, &first, &last) && !events_last_at(ev, 5, &i), "an empty ring");
	s->kmsg.read = true;
	add_event(s, KMSG_HUNG_TASK, "one", KF_COMM);
	add_event(s, KMSG_OOM_KILL, "two", KF_COMM);
	s->kmsg.lost = 3;
	events_push(ev, 10, s);
	s->kmsg.n = 0;
	s->kmsg.lost = 0;
	events_push(ev, 11, s);
	add_event(s, KMSG_OOM_REAPED, "three", KF_COMM);
	s->kmsg.dropped = 1;
	events_push(ev, 12, s);
	tap_ok(events_range(ev, &first, &last) && first == 0 && last == 2, "three events held");
	tap_ok(ev->lost == 3 && ev->dropped == 1, "lost and dropped add up");
	tap_ok(events_last_at(ev, 11, &i) && i == 1 && events_last_at(ev, 12, &i) && i == 2 &&
	       !events_last_at(ev, 9, &i), "the newest event up to an entry");
	e = events_get(ev, 0);
	tap_ok(e && e->hseq == 10 && strcmp(e->ev.text, "one") == 0 &&
	       e->wall == s->wall - 0.25, "an entry: its history entry, its text, its wall time");
	s->kmsg.n = 0;
	add_event(s, KMSG_OTHER, "four", 0);
	add_event(s, KMSG_OTHER, "five", 0);
	events_push(ev, 13, s);
	tap_ok(events_range(ev, &first, &last) && first == 1 && last == 4 && !events_get(ev, 0) &&
	       strcmp(events_get(ev, 4)->ev.text, "five") == 0, "the ring wraps: the oldest is gone");
	events_reset(ev);
	tap_ok(!events_range(ev, &first, &last) && ev->lost == 0, "reset: empty again");
	events_free(ev);
	free(s);
}

int
main(void)
{
	test_codec();
	test_codec_values();
	test_codec_counts();
	test_ring();
	return tap_done();
}
