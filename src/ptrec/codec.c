/*
 * The recording codec's frame driver: one struct sample as the bytes of
 * a frame of fields, and back. codec_encode writes the fields in the
 * order that keeps what changes little in one piece for zstd, then the
 * times, the tasks and the DIFFS field; codec_decode checks the frame
 * field, finds DIFFS, hands each field to its family's decoder
 * (codec-zones.c, codec-counters.c, codec-tasks.c, codec-events.c,
 * codec-probes.c) and
 * checks that every valid source had its chunk. The format, field by
 * field, is specified in pagetop-recording(5), SAMPLE ENCODING.
 */

#include "ptrec/codec.h"
#include "ptrec/codec-int.h"
#include "ptrec/codec-predict.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Puts where the field that failed starts in front of its message. */
static int
codec_fail_at(struct parse_error *err, size_t at)
{
	char msg[sizeof(err->msg)];
	size_t n, k;

	if (err != NULL) {
		memcpy(msg, err->msg, sizeof(msg));
		n = strnlen(msg, sizeof(msg) - 1);
		k = (size_t)snprintf(err->msg, sizeof(err->msg), "byte %zu: ",
		    at);
		if (k < sizeof(err->msg) - 1) {
			if (n > sizeof(err->msg) - 1 - k)
				n = sizeof(err->msg) - 1 - k;
			memcpy(err->msg + k, msg, n);
			err->msg[k + n] = '\0';
		}
	}
	return -EINVAL;
}

/*
 * The encoder, a field at a time; the families write the chunks'
 * payloads.
 */

static void
enc_status(struct wbuf *w, size_t wire, const struct source_status *st)
{
	size_t start = codec_field_begin(w, F_STATUS);

	codec_put_u(w, wire);
	codec_put_s(w, st->err);
	codec_put_s(w, st->line);
	codec_put_str(w, st->msg, sizeof(st->msg));
	codec_field_end(w, start);
}

/*
 * The fields of ids 20 to 25; with diffs, their differences instead, for
 * the DIFFS field. Zoneinfo goes before vmstat, whose free pages it
 * predicts.
 */
static void
enc_counters(struct wbuf *w, const struct sample *s, const struct sample *p,
    bool diffs)
{
	struct predict_src ps;
	size_t k, start = 0;
	enum source src;
	bool b_delta, z_delta, vm_delta;

	memset(&ps, 0, sizeof(ps));
	ps.page_kb = codec_page_kb(s->page_size);
	b_delta = sample_has(s, SRC_BUDDYINFO) &&
	    codec_prev_has(p, SRC_BUDDYINFO) &&
	    codec_buddy_same(&s->buddy, &p->buddy);
	z_delta = sample_has(s, SRC_ZONEINFO) &&
	    codec_prev_has(p, SRC_ZONEINFO) && codec_zi_same(&s->zi, &p->zi);
	vm_delta = sample_has(s, SRC_VMSTAT) && codec_prev_has(p, SRC_VMSTAT) &&
	    codec_vm_same(&s->vm, &p->vm);
	if (sample_has(s, SRC_BUDDYINFO)) {
		if (!diffs)
			start = codec_field_begin(w, F_BUDDYINFO2);
		codec_enc_buddy(w, &s->buddy, b_delta ? &p->buddy : NULL,
		    diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
	if (sample_has(s, SRC_PAGETYPEINFO)) {
		if (!diffs)
			start = codec_field_begin(w, F_PAGETYPEINFO2);
		codec_enc_pti(w, &s->pti, codec_prev_has(p, SRC_PAGETYPEINFO) &&
		    codec_pti_same(&s->pti, &p->pti) ? &p->pti : NULL, diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
	if (sample_has(s, SRC_ZONEINFO)) {
		if (!diffs)
			start = codec_field_begin(w, F_ZONEINFO2);
		codec_enc_zi(w, &s->zi, z_delta ? &p->zi : NULL,
		    b_delta ? &s->buddy : NULL, b_delta ? &p->buddy : NULL,
		    diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
	if (z_delta) {
		ps.z = &s->zi;
		ps.pz = &p->zi;
	}
	if (sample_has(s, SRC_VMSTAT)) {
		if (!diffs)
			start = codec_field_begin(w, F_VMSTAT2);
		codec_enc_vm(w, &s->vm, vm_delta ? &p->vm : NULL, &ps, diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
	if (!vm_delta)
		ps.v = ps.pv = NULL;
	if (sample_has(s, SRC_MEMINFO)) {
		if (!diffs)
			start = codec_field_begin(w, F_MEMINFO2);
		codec_enc_mem(w, &s->mem, codec_prev_has(p, SRC_MEMINFO) &&
		    codec_mem_same(&s->mem, &p->mem) ? &p->mem : NULL, &ps,
		    diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
	for (k = 0; k < N_WIRE_PSI; k++) {
		enum psi_resource r = codec_psi[k];

		src = (enum source)(SRC_PSI_CPU + r);
		if (!sample_has(s, src))
			continue;
		if (!diffs)
			start = codec_field_begin(w, F_PSI2);
		codec_enc_psi(w, k, &s->psi[r], codec_prev_has(p, src) &&
		    codec_psi_lines(&s->psi[r]) == codec_psi_lines(&p->psi[r]) ?
		    &p->psi[r] : NULL, diffs);
		if (!diffs)
			codec_field_end(w, start);
	}
}

/* TASKS2, or with diffs its differences, after the time it is written
 * against (and after the differences of enc_counters). */
static void
enc_tasks_field(struct wbuf *w, const struct sample *s, const struct sample *p,
    bool diffs)
{
	size_t start = 0;

	if (!sample_has(s, SRC_TASKS))
		return;
	if (!diffs)
		start = codec_field_begin(w, F_TASKS2);
	codec_enc_tasks(w, &s->tasks,
	    codec_prev_has(p, SRC_TASKS) ? &p->tasks : NULL, s->mono, diffs);
	if (!diffs)
		codec_field_end(w, start);
}

static bool
sensors_empty(const struct sensors *se)
{
	return !se->available && se->n == 0 && se->why[0] == '\0';
}

ssize_t
codec_encode(const struct sample *s, const struct sample *prev, uint8_t *buf,
    size_t cap)
{
	struct wbuf w = { buf, 0, cap, false };
	const struct sample *p = prev;
	struct source_status zero;
	int64_t mono, wall, pmono = 0, pwall = 0, up, pup = 0;
	struct wbuf probe = { NULL, 0, 0, false };
	size_t k, start;
	enum source src;

	if (!codec_sample_sane(s) || (p != NULL && !codec_sample_sane(p)) ||
	    !codec_probes_sane(&s->probes))
		return -EINVAL;
	memset(&zero, 0, sizeof(zero));

	/* What stays the same from one sample to the next first, in one
	 * piece for zstd; then what changes: times, tasks, differences. */
	start = codec_field_begin(&w, F_FRAME);
	codec_put_u(&w, p != NULL ? DELTA : 0);
	codec_field_end(&w, start);

	start = codec_field_begin(&w, F_PAGE_SIZE);
	codec_put_d(&w, p != NULL, s->page_size, p != NULL ? p->page_size : 0);
	codec_field_end(&w, start);

	for (k = 0; k < N_WIRE_SOURCES; k++) {
		src = codec_sources[k];
		if (!codec_status_same(&s->status[src],
		    p != NULL ? &p->status[src] : &zero))
			enc_status(&w, k, &s->status[src]);
	}

	if (!sensors_empty(&s->sensors)) {
		start = codec_field_begin(&w, F_SENSORS);
		codec_enc_sensors(&w, &s->sensors, p != NULL &&
		    codec_sensors_same(&s->sensors, &p->sensors) ?
		    &p->sensors : NULL);
		codec_field_end(&w, start);
	}
	enc_counters(&w, s, p, false);

	mono = codec_us(s->mono);
	wall = codec_us(s->wall);
	if (p != NULL) {
		pmono = codec_us(p->mono);
		pwall = codec_us(p->wall);
	}
	start = codec_field_begin(&w, F_TIME);
	codec_put_d(&w, p != NULL, mono, pmono);
	codec_put_d(&w, p != NULL, wall - mono, pwall - pmono);
	codec_field_end(&w, start);

	if (sample_has(s, SRC_UPTIME)) {
		up = codec_us(s->uptime);
		if (codec_prev_has(p, SRC_UPTIME))
			pup = codec_us(p->uptime);
		start = codec_field_begin(&w, F_UPTIME);
		codec_put_u(&w, codec_prev_has(p, SRC_UPTIME) ? DELTA : 0);
		codec_put_d(&w, codec_prev_has(p, SRC_UPTIME), up, pup);
		codec_field_end(&w, start);
	}
	enc_tasks_field(&w, s, p, false);
	if (sample_has(s, SRC_TASKS) && s->tasks.n_blocked > 0) {
		start = codec_field_begin(&w, F_BLOCKED_WHY);
		codec_enc_blocked_why(&w, &s->tasks);
		codec_field_end(&w, start);
	}
	if (s->kmsg.read || s->kmsg.n > 0) {
		start = codec_field_begin(&w, F_KMSG);
		codec_enc_kmsg(&w, &s->kmsg);
		codec_field_end(&w, start);
		if (codec_kmsg_more_needed(&s->kmsg)) {
			start = codec_field_begin(&w, F_KMSG_MORE);
			codec_enc_kmsg_more(&w, &s->kmsg);
			codec_field_end(&w, start);
		}
	}
	if (s->probes.state != PROBES_NONE) {
		start = codec_field_begin(&w, F_PROBES2);
		codec_enc_probes(&w, &s->probes, p != NULL &&
		    codec_probes_delta_ok(&s->probes, &p->probes) ?
		    &p->probes : NULL);
		codec_field_end(&w, start);
	}
	if (s->delays.state != DELAYS_NONE) {
		start = codec_field_begin(&w, F_DELAYS);
		codec_enc_delays(&w, &s->delays);
		codec_field_end(&w, start);
	}
	if (s->n_capture > 0) {
		start = codec_field_begin(&w, F_CAPTURE);
		codec_enc_capture(&w, &s->capture);
		codec_field_end(&w, start);
	}

	/* Left out when there is none: a keyframe, or nothing changed. A
	 * probe that has no room says whether there is. */
	enc_counters(&probe, s, p, true);
	enc_tasks_field(&probe, s, p, true);
	if (probe.full) {
		start = codec_field_begin(&w, F_DIFFS);
		enc_counters(&w, s, p, true);
		enc_tasks_field(&w, s, p, true);
		codec_field_end(&w, start);
	}

	if (w.full)
		return -ENOSPC;
	return (ssize_t)w.len;
}

/*
 * The decoder, a field at a time. Each returns 0 or -EINVAL with err set.
 */

static int
dec_status(struct dec *d, struct rbuf *r, unsigned *seen)
{
	struct source_status *st;
	uint64_t wire;
	int64_t e;
	enum source src;

	wire = codec_get_u(r);
	if (r->bad)
		return codec_fail(d->err, "status: cut short");
	if (wire >= N_WIRE_SOURCES) {
		if (d->st != NULL)
			d->st->unknown_fields++;
		return 0;	/* a source newer than this reader */
	}
	src = codec_sources[wire];
	if (*seen & SRC_BIT(src))
		return codec_fail(d->err, "status of %s: twice",
		    source_name(src));
	*seen |= SRC_BIT(src);
	st = &d->s->status[src];
	memset(st, 0, sizeof(*st));
	e = codec_get_s(r);
	if (e < INT_MIN || e > INT_MAX || !codec_get_sint(r, &st->line) ||
	    !codec_get_str(r, st->msg, sizeof(st->msg)))
		return codec_fail(d->err, "status of %s: malformed",
		    source_name(src));
	st->err = (int)e;
	return codec_field_done(r, d->err, "status");
}

static int
dec_time(struct dec *d, struct rbuf *r)
{
	const struct sample *p = d->prev;
	int64_t mono, off, pmono = 0, poff = 0;

	if (p != NULL) {
		pmono = codec_us(p->mono);
		poff = codec_us(p->wall) - pmono;
	}
	mono = codec_get_d(r, p != NULL, pmono);
	off = codec_get_d(r, p != NULL, poff);
	d->s->mono = codec_from_us(mono);
	d->s->wall = codec_from_us((int64_t)((uint64_t)mono + (uint64_t)off));
	return codec_field_done(r, d->err, "time");
}

static int
dec_page_size(struct dec *d, struct rbuf *r)
{
	int64_t v = codec_get_d(r, d->prev != NULL,
	    d->prev != NULL ? d->prev->page_size : 0);

	if (v < LONG_MIN || v > LONG_MAX)
		return codec_fail(d->err, "page size %lld", (long long)v);
	d->s->page_size = (long)v;
	return codec_field_done(r, d->err, "page size");
}

/* The chunk of one source, once. */
static int
dec_chunk(struct dec *d, struct rbuf *r, enum source src,
    int (*fn)(struct dec *, struct rbuf *))
{
	if (d->chunks & SRC_BIT(src))
		return codec_fail(d->err, "%s: twice", source_name(src));
	d->chunks |= SRC_BIT(src);
	return fn(d, r);
}

static int
dec_field(struct dec *d, uint64_t id, struct rbuf *r, unsigned *seen_status)
{
	d->v2 = (id >= F_BUDDYINFO2 && id <= F_PSI2) || id == F_TASKS2;
	switch (id) {
	case F_STATUS:
		return dec_status(d, r, seen_status);
	case F_BUDDYINFO:
	case F_BUDDYINFO2:
		return dec_chunk(d, r, SRC_BUDDYINFO, codec_dec_buddy);
	case F_PAGETYPEINFO:
	case F_PAGETYPEINFO2:
		return dec_chunk(d, r, SRC_PAGETYPEINFO, codec_dec_pti);
	case F_VMSTAT:
	case F_VMSTAT2:
		return dec_chunk(d, r, SRC_VMSTAT, codec_dec_vm);
	case F_MEMINFO:
	case F_MEMINFO2:
		return dec_chunk(d, r, SRC_MEMINFO, codec_dec_mem);
	case F_ZONEINFO:
	case F_ZONEINFO2:
		return dec_chunk(d, r, SRC_ZONEINFO, codec_dec_zi);
	case F_PSI:
	case F_PSI2:
		return codec_dec_psi(d, r);
	case F_UPTIME:
		return dec_chunk(d, r, SRC_UPTIME, codec_dec_uptime);
	case F_TASKS:
	case F_TASKS2:
		return dec_chunk(d, r, SRC_TASKS, codec_dec_tasks);
	case F_KMSG:
		return codec_dec_kmsg(d, r);
	case F_KMSG_MORE:
		return codec_dec_kmsg_more(d, r);
	case F_BLOCKED_WHY:
		if (!(d->chunks & SRC_BIT(SRC_TASKS)))
			return codec_fail(d->err, "blocked tasks' whys: before "
			    "the tasks");
		return codec_dec_blocked_why(d, r);
	case F_SENSORS:
		if (d->sensors)
			return codec_fail(d->err, "sensors: twice");
		d->sensors = true;
		return codec_dec_sensors(d, r);
	case F_PROBES:
	case F_PROBES2:
		if (d->probes)
			return codec_fail(d->err, "probes: twice");
		d->probes = true;
		return codec_dec_probes(d, r, id == F_PROBES2);
	case F_DELAYS:
		if (d->delays)
			return codec_fail(d->err, "delays: twice");
		d->delays = true;
		return codec_dec_delays(d, r);
	case F_CAPTURE:
		if (d->capture)
			return codec_fail(d->err, "capture: twice");
		d->capture = true;
		return codec_dec_capture(d, r);
	default:
		if (d->st != NULL)
			d->st->unknown_fields++;
		return 0;
	}
}

/*
 * Only the counts, states and small scalars: a sample is 800 KB and a
 * frame fills a few KB of it. Each family's decoder clears the entries it
 * fills as it fills them (up to the counts it reads), so what a consumer
 * may read, by the counts and the status, is written or zero; the bytes
 * past the counts keep whatever an earlier sample left.
 */
static void
sample_clear(struct sample *s)
{
	struct tasks *t = &s->tasks;

	s->wall = s->mono = s->uptime = 0;
	s->page_size = 0;
	/* The statuses are decode()'s: a delta's are its prev's. */
	s->buddy.n_orders = s->buddy.n_zones = 0;
	s->pti.pageblock_order = 0;
	s->pti.pages_per_block = 0;
	s->pti.n_orders = s->pti.n_types = 0;
	s->pti.n_free = s->pti.n_blocks = s->pti.n_mixed = 0;
	s->vm.n = s->vm.skipped = 0;
	s->mem.n = s->mem.skipped = 0;
	s->zi.n_zones = 0;
	memset(s->psi, 0, sizeof(s->psi));
	s->sensors.n = 0;
	s->sensors.available = false;
	s->sensors.why[0] = '\0';
	s->kmsg.read = false;
	s->kmsg.err = 0;
	s->kmsg.lost = s->kmsg.dropped = 0;
	s->kmsg.n = 0;
	s->probes.state = PROBES_NONE;
	s->probes.why[0] = '\0';
	s->probes.n_tasks = s->probes.n_dstacks = 0;
	s->delays.state = DELAYS_NONE;
	s->delays.why[0] = '\0';
	s->delays.n_top = 0;
	s->n_capture = 0;
	s->capture.n_zones = 0;
	memset(t->by_state, 0, sizeof(t->by_state));
	t->total = 0;
	t->n_blocked = 0;
	t->truncated = false;
	tasks_stacks_clear(t);
	t->stack_err = 0;
	t->note[0] = '\0';
}

/* One field at r's offset: its id and its payload as a reader of its own. */
static int
next_field(struct rbuf *r, uint64_t *id, struct rbuf *f,
    struct parse_error *err)
{
	size_t at = r->off;
	uint64_t len;

	*id = codec_get_u(r);
	len = codec_get_u(r);
	if (r->bad || len > r->len - r->off)
		return codec_fail(err, "field at byte %zu: cut short", at);
	f->p = r->p + r->off;
	f->len = (size_t)len;
	f->off = 0;
	f->bad = false;
	r->off += (size_t)len;
	return 0;
}

/* The DIFFS field among the fields after r's offset, once; empty if none. */
static int
find_diffs(const struct rbuf *r, struct rbuf *diffs, struct parse_error *err)
{
	struct rbuf scan = *r, f;
	uint64_t id;
	bool seen = false;

	memset(diffs, 0, sizeof(*diffs));
	diffs->p = r->p;	/* a valid pointer even when empty */
	while (scan.off < scan.len) {
		if (next_field(&scan, &id, &f, err) < 0)
			return -EINVAL;
		if (id != F_DIFFS)
			continue;
		if (seen)
			return codec_fail(err, "differences twice");
		*diffs = f;
		seen = true;
	}
	return 0;
}

/* With a source's fate known: every valid source has its chunk. */
static int
dec_finish(struct dec *d)
{
	struct source_status *st;
	int i;

	for (i = 0; i < SRC_COUNT; i++) {
		st = &d->s->status[i];
		if ((d->chunks & SRC_BIT(i)) && st->err != 0)
			return codec_fail(d->err, "%s: data for a source "
			    "that was not valid", source_name(i));
		if (!(d->chunks & SRC_BIT(i)) && st->err == 0) {
			st->err = EINVAL;
			st->line = 0;
			snprintf(st->msg, sizeof(st->msg), "%s",
			    "not in the recording (written by a newer "
			    "pagetop?)");
		}
	}
	return 0;
}

/*
 * What a stream knows s holds, into *h, and s is forgotten: it is about to
 * be written. With prev (keep), what prev holds, and it stays known.
 */
static void
stream_held(struct codec_stream *cs, const struct sample *s,
    struct codec_held *h, bool keep)
{
	int k;

	memset(h, 0, sizeof(*h));
	if (cs == NULL)
		return;
	for (k = 0; k < 2; k++)
		if (cs->held[k].s == s) {
			*h = cs->held[k];
			if (!keep)
				memset(&cs->held[k], 0, sizeof(cs->held[k]));
		}
}

static void
stream_take(struct codec_stream *cs, const struct sample *s,
    struct codec_held *h)
{
	stream_held(cs, s, h, false);
}

/* What s, decoded, holds now; beside prev's when prev was the last. */
static void
stream_keep(struct codec_stream *cs, const struct dec *d)
{
	struct codec_held *h = &cs->held[cs->held[0].s != NULL &&
	    cs->held[0].s == d->prev ? 1 : 0];

	h->s = d->s;
	h->vm = d->chunks & SRC_BIT(SRC_VMSTAT) ? d->vm_gen : 0;
	h->mem = d->chunks & SRC_BIT(SRC_MEMINFO) ? d->mem_gen : 0;
	h->vm_n = d->s->vm.n;
	h->mem_n = d->s->mem.n;
}

/* rc, with the statuses of s cleared (sample_clear leaves them). */
static int
status_clear(struct sample *s, int rc)
{
	memset(s->status, 0, sizeof(s->status));
	return rc;
}

static int
decode(struct codec_stream *cs, const uint8_t *buf, size_t len,
    const struct sample *prev, struct sample *s, struct codec_stats *st,
    struct parse_error *err)
{
	struct rbuf r = { buf, len, 0, false };
	struct rbuf f = { NULL, 0, 0, false };
	struct dec d;
	uint64_t id, flags;
	unsigned seen_status = 0;
	bool time = false, page_size = false;
	bool prev_last = cs != NULL && prev != NULL && prev == cs->last;
	struct codec_held held_s, held_prev;
	size_t at;

	/* s is written from here on: whatever fails, it is no base. */
	if (cs != NULL)
		cs->last = NULL;
	stream_take(cs, s, &held_s);
	if (prev_last)
		stream_held(cs, prev, &held_prev, true);
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (prev == s)
		return codec_fail(err,
		    "decoding a sample onto its previous one");
	sample_clear(s);

	if (next_field(&r, &id, &f, err) < 0)
		return status_clear(s, -EINVAL);
	if (id != F_FRAME || !codec_get_max(&f, DELTA, &flags) ||
	    f.off != f.len)
		return status_clear(s, codec_fail(err, "no frame field first"));
	if (!(flags & DELTA))
		prev = NULL;
	else if (prev == NULL)
		return status_clear(s, codec_fail(err,
		    "a delta without the previous sample"));
	else if (!codec_sample_sane(prev))
		return status_clear(s, codec_fail(err,
		    "the previous sample is damaged"));

	memset(&d, 0, sizeof(d));
	d.prev = prev;
	d.cs = cs;
	d.prev_last = prev_last && prev != NULL;
	if (d.prev_last) {
		d.held_s = held_s;
		d.held_prev = held_prev;
	}
	d.s = s;
	d.err = err;
	d.st = st;
	if (find_diffs(&r, &d.diffs, err) < 0)
		return status_clear(s, -EINVAL);
	/* A delta's statuses are its prev's, bar those its fields say. */
	if (prev != NULL)
		memcpy(s->status, prev->status, sizeof(s->status));
	else
		memset(s->status, 0, sizeof(s->status));

	while (r.off < r.len) {
		at = r.off;
		if (next_field(&r, &id, &f, err) < 0)
			return -EINVAL;
		if (id == F_FRAME)
			return codec_fail(err, "byte %zu: a second frame field",
			    at);
		if (id == F_DIFFS)
			continue;	/* read by the chunks before */
		if (id == F_TIME || id == F_PAGE_SIZE) {
			if (id == F_TIME ? time : page_size)
				return codec_fail(err, "byte %zu: %s twice",
				    at, id == F_TIME ? "time" : "page size");
			if ((id == F_TIME ? dec_time(&d, &f) :
			    dec_page_size(&d, &f)) < 0)
				return codec_fail_at(err, at);
			if (id == F_TIME)
				time = true;
			else
				page_size = true;
			continue;
		}
		/* Blocked tasks are written against the time. */
		if ((id == F_TASKS || id == F_TASKS2) && !time)
			return codec_fail(err, "byte %zu: before the time", at);
		if (dec_field(&d, id, &f, &seen_status) < 0)
			return codec_fail_at(err, at);
	}
	if (!time || !page_size)
		return codec_fail(err, "no %s field", !time ? "time" :
		    "page size");
	if (d.diffs.bad || d.diffs.off != d.diffs.len)
		return codec_fail(err, "differences: %s", d.diffs.bad ?
		    "cut short or malformed" : "bytes left over");
	if (dec_finish(&d) < 0)
		return -EINVAL;
	if (st != NULL)
		st->delta_chunks = d.delta_chunks;
	if (cs != NULL) {
		/* A chunk missing now: the next one is whole. */
		if (!(d.chunks & SRC_BIT(SRC_VMSTAT)))
			cs->vp_ok = cs->mp_ok = false;
		if (!(d.chunks & SRC_BIT(SRC_MEMINFO)))
			cs->mp_ok = false;
		stream_keep(cs, &d);
		cs->last = s;
	}
	return 0;
}

int
codec_decode(const uint8_t *buf, size_t len, const struct sample *prev,
    struct sample *s, struct codec_stats *st, struct parse_error *err)
{
	return decode(NULL, buf, len, prev, s, st, err);
}

struct codec_stream *
codec_stream_new(void)
{
	return calloc(1, sizeof(struct codec_stream));
}

void
codec_stream_free(struct codec_stream *cs)
{
	free(cs);
}

int
codec_decode_stream(struct codec_stream *cs, const uint8_t *buf, size_t len,
    const struct sample *prev, struct sample *s, struct codec_stats *st,
    struct parse_error *err)
{
	return decode(cs, buf, len, prev, s, st, err);
}
