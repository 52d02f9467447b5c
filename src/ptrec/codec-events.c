/*
 * The recording codec's event family: the encoder and decoder of the
 * sensors chunk (id 17, readings in milli-units) and of the kernel log
 * events of one tick (id 19, always whole; id 29 after it with what a
 * reader of 19 alone does not know), side by side.
 */

#include "ptrec/codec-int.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* Bits of a sensor reading's "has". */
#define SR_VALID	0x1u
#define SR_VALUE	0x2u
#define SR_HIGH		0x4u
#define SR_CRIT		0x8u

/* SENSORS (17). */
static size_t
kind_wire(enum sensor_kind kind)
{
	size_t k;

	for (k = 0; k < N_WIRE_KINDS; k++)
		if (codec_kinds[k] == kind)
			break;
	return k;
}

/* One of a reading's values, against the previous reading's same one. */
static void
enc_sensor_value(struct wbuf *w, double v, const double *pv)
{
	int64_t m = 0, pm = 0;

	(void)codec_milli(v, &m);
	if (pv != NULL && !codec_milli(*pv, &pm))
		pm = 0;
	codec_put_s(w, (int64_t)((uint64_t)m - (uint64_t)pm));
}

void
codec_enc_sensors(struct wbuf *w, const struct sensors *se,
    const struct sensors *pse)
{
	const struct sensor_reading *r, *pr;
	bool delta = pse != NULL;
	unsigned has;
	int64_t m;
	int i;

	codec_put_u(w, delta ? DELTA : 0);
	if (!delta) {
		codec_put_u(w, se->available);
		codec_put_str(w, se->why, sizeof(se->why));
		codec_put_u(w, (uint64_t)se->n);
		for (i = 0; i < se->n; i++) {
			codec_put_str(w, se->r[i].chip, sizeof(se->r[i].chip));
			codec_put_str(w, se->r[i].label,
			    sizeof(se->r[i].label));
			codec_put_u(w, kind_wire(se->r[i].kind));
		}
	}
	for (i = 0; i < se->n; i++) {
		r = &se->r[i];
		pr = delta ? &pse->r[i] : NULL;
		has = (r->valid ? SR_VALID : 0) |
		    (codec_milli(r->value, &m) ? SR_VALUE : 0) |
		    (codec_milli(r->high, &m) ? SR_HIGH : 0) |
		    (codec_milli(r->crit, &m) ? SR_CRIT : 0);
		codec_put_u(w, has);
		if (has & SR_VALUE)
			enc_sensor_value(w, r->value, pr ? &pr->value : NULL);
		if (has & SR_HIGH)
			enc_sensor_value(w, r->high, pr ? &pr->high : NULL);
		if (has & SR_CRIT)
			enc_sensor_value(w, r->crit, pr ? &pr->crit : NULL);
	}
}

/* One of a sensor's values; NAN when not written. */
static double
dec_sensor_value(struct rbuf *r, bool written, const double *pv)
{
	int64_t pm = 0;

	if (!written)
		return NAN;
	if (pv != NULL && !codec_milli(*pv, &pm))
		pm = 0;
	return (double)(int64_t)((uint64_t)pm + (uint64_t)codec_get_s(r)) / 1e3;
}

int
codec_dec_sensors(struct dec *d, struct rbuf *r)
{
	struct sensors *se = &d->s->sensors;
	const struct sensors *pse;
	struct sensor_reading *sr;
	const struct sensor_reading *pr;
	uint64_t v;
	bool delta;
	int i;

	if (!codec_get_flags(r, &delta))
		return codec_fail(d->err, "sensors: bad flags");
	if (delta && d->prev == NULL)
		return codec_fail(d->err,
		    "sensors: a delta without the previous sample's");
	pse = delta ? &d->prev->sensors : NULL;
	if (delta) {
		se->available = pse->available;
		memcpy(se->why, pse->why, sizeof(se->why));
		se->n = pse->n;
		for (i = 0; i < se->n; i++) {
			memcpy(se->r[i].chip, pse->r[i].chip,
			    sizeof(se->r[i].chip));
			memcpy(se->r[i].label, pse->r[i].label,
			    sizeof(se->r[i].label));
			se->r[i].kind = pse->r[i].kind;
		}
	} else {
		if (!codec_get_bool(r, &se->available) ||
		    !codec_get_str(r, se->why, sizeof(se->why)) ||
		    !codec_get_int(r, MAX_SENSORS, &se->n))
			return codec_fail(d->err, "sensors: bad header or "
			    "more than %d readings", MAX_SENSORS);
		for (i = 0; i < se->n; i++) {
			sr = &se->r[i];
			if (!codec_get_str(r, sr->chip, sizeof(sr->chip)) ||
			    !codec_get_str(r, sr->label, sizeof(sr->label)) ||
			    !codec_get_max(r, N_WIRE_KINDS - 1, &v))
				return codec_fail(d->err,
				    "sensors: reading %d: bad chip, label or "
				    "kind", i);
			sr->kind = codec_kinds[v];
		}
	}
	for (i = 0; i < se->n; i++) {
		sr = &se->r[i];
		pr = delta ? &pse->r[i] : NULL;
		if (!codec_get_max(r, SR_VALID | SR_VALUE | SR_HIGH | SR_CRIT,
		    &v))
			return codec_fail(d->err,
			    "sensors: reading %d: bad flags", i);
		sr->valid = (v & SR_VALID) != 0;
		sr->value = dec_sensor_value(r, v & SR_VALUE,
		    pr ? &pr->value : NULL);
		sr->high = dec_sensor_value(r, v & SR_HIGH,
		    pr ? &pr->high : NULL);
		sr->crit = dec_sensor_value(r, v & SR_CRIT,
		    pr ? &pr->crit : NULL);
	}
	return codec_field_done(r, d->err, "sensors");
}

/* KMSG (19). */

/* The kernel log events of one tick; whole, never a delta. */
void
codec_enc_kmsg(struct wbuf *w, const struct kmsg_sample *k)
{
	int n = k->n < 0 ? 0 : k->n > KMSG_MAX_EVENTS ? KMSG_MAX_EVENTS : k->n;

	codec_put_s(w, k->err);
	codec_put_u(w, k->lost);
	codec_put_u(w, k->dropped);
	codec_put_u(w, (uint64_t)n);
	for (int i = 0; i < n; i++) {
		const struct kmsg_event *ev = &k->ev[i];
		unsigned has = ev->has & KF_ALL;

		codec_put_u(w, ev->seq);
		codec_put_u(w, ev->ts_us);
		codec_put_u(w, (unsigned)ev->kind < KMSG_KIND_COUNT ?
		    (uint64_t)ev->kind : 0);
		codec_put_u(w, (uint64_t)(ev->level & 7));
		codec_put_u(w, has);
		if (has & KF_COMM)
			codec_put_str(w, ev->comm, sizeof(ev->comm));
		if (has & KF_PID)
			codec_put_s(w, ev->pid);
		if (has & KF_ORDER)
			codec_put_s(w, ev->order);
		if (has & KF_GFP)
			codec_put_u(w, ev->gfp);
		if (has & KF_SECONDS)
			codec_put_u(w, ev->seconds);
		if (has & KF_ANON)
			codec_put_u(w, ev->anon_kb);
		if (has & KF_FILE)
			codec_put_u(w, ev->file_kb);
		if (has & KF_SHMEM)
			codec_put_u(w, ev->shmem_kb);
		codec_put_u(w, ev->lines);
		codec_put_u(w, ev->truncated ? 1 : 0);
		codec_put_str(w, ev->text, sizeof(ev->text));
	}
}

int
codec_dec_kmsg(struct dec *d, struct rbuf *r)
{
	struct kmsg_sample *k = &d->s->kmsg;
	uint64_t v, has;
	int64_t e;

	if (k->read)
		return codec_fail(d->err, "kernel log: twice");
	k->read = true;
	e = codec_get_s(r);
	if (r->bad || e < INT_MIN || e > INT_MAX ||
	    !codec_get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err, "kernel log: bad status");
	k->err = (int)e;
	k->lost = (uint32_t)v;
	if (!codec_get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err,
		    "kernel log: bad count of dropped events");
	k->dropped = (uint32_t)v;
	if (!codec_get_int(r, KMSG_MAX_EVENTS, &k->n))
		return codec_fail(d->err, "kernel log: more than %d events",
		    KMSG_MAX_EVENTS);
	for (int i = 0; i < k->n; i++) {
		struct kmsg_event *ev = &k->ev[i];

		memset(ev, 0, sizeof(*ev));
		ev->seq = codec_get_u(r);
		ev->ts_us = codec_get_u(r);
		v = codec_get_u(r);
		ev->kind = v < KMSG_KIND_COUNT ? (enum kmsg_kind)v : KMSG_OTHER;
		if (!codec_get_int(r, 7, &ev->level) ||
		    !codec_get_max(r, KF_ALL, &has))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "level or fields", i);
		ev->has = (unsigned)has;
		if (((has & KF_COMM) &&
		    !codec_get_str(r, ev->comm, sizeof(ev->comm))) ||
		    ((has & KF_PID) && !codec_get_sint(r, &ev->pid)) ||
		    ((has & KF_ORDER) && !codec_get_sint(r, &ev->order)))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "command, pid or order", i);
		if (has & KF_GFP) {
			if (!codec_get_max(r, UINT32_MAX, &v))
				return codec_fail(d->err, "kernel log: event "
				    "%d: bad GFP mode", i);
			ev->gfp = (uint32_t)v;
		}
		if (has & KF_SECONDS) {
			if (!codec_get_max(r, UINT32_MAX, &v))
				return codec_fail(d->err, "kernel log: event "
				    "%d: bad seconds", i);
			ev->seconds = (uint32_t)v;
		}
		if (has & KF_ANON)
			ev->anon_kb = codec_get_u(r);
		if (has & KF_FILE)
			ev->file_kb = codec_get_u(r);
		if (has & KF_SHMEM)
			ev->shmem_kb = codec_get_u(r);
		if (r->bad || !codec_get_max(r, UINT32_MAX, &v))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "values", i);
		ev->lines = (uint32_t)v;
		ev->count = 1;	/* unless KMSG_MORE says otherwise */
		if (!codec_get_bool(r, &ev->truncated) ||
		    !codec_get_str(r, ev->text, sizeof(ev->text)))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "text", i);
	}
	return codec_field_done(r, d->err, "kernel log");
}

/* KMSG_MORE (30). */

bool
codec_kmsg_more_needed(const struct kmsg_sample *k)
{
	int n = k->n < 0 ? 0 : k->n > KMSG_MAX_EVENTS ? KMSG_MAX_EVENTS : k->n;

	for (int i = 0; i < n; i++)
		if (kmsg_event_count(&k->ev[i]) > 1 || (k->ev[i].has & KF_DEV))
			return true;
	return false;
}

/* Each event of KMSG in its order: times printed, its device or "". */
void
codec_enc_kmsg_more(struct wbuf *w, const struct kmsg_sample *k)
{
	int n = k->n < 0 ? 0 : k->n > KMSG_MAX_EVENTS ? KMSG_MAX_EVENTS : k->n;

	codec_put_u(w, (uint64_t)n);
	for (int i = 0; i < n; i++) {
		const struct kmsg_event *ev = &k->ev[i];

		codec_put_u(w, kmsg_event_count(ev));
		codec_put_str(w, ev->has & KF_DEV ? ev->dev : "", sizeof(ev->dev));
	}
}

int
codec_dec_kmsg_more(struct dec *d, struct rbuf *r)
{
	struct kmsg_sample *k = &d->s->kmsg;
	uint64_t v;

	if (d->kmsg_more)
		return codec_fail(d->err, "kernel log counts: twice");
	d->kmsg_more = true;
	if (!k->read)
		return codec_fail(d->err, "kernel log counts: before the "
		    "kernel log");
	if (!codec_get_max(r, KMSG_MAX_EVENTS, &v) || (int)v != k->n)
		return codec_fail(d->err, "kernel log counts: not one for "
		    "each of the %d events", k->n);
	for (int i = 0; i < k->n; i++) {
		struct kmsg_event *ev = &k->ev[i];

		if (!codec_get_max(r, UINT32_MAX, &v) || v == 0)
			return codec_fail(d->err, "kernel log counts: event "
			    "%d: bad count", i);
		ev->count = (uint32_t)v;
		if (!codec_get_str(r, ev->dev, sizeof(ev->dev)))
			return codec_fail(d->err, "kernel log counts: event "
			    "%d: bad device", i);
		if (ev->dev[0])
			ev->has |= KF_DEV;
	}
	return codec_field_done(r, d->err, "kernel log counts");
}
