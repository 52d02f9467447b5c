/*
 * CAPTURE (32): a capture at an event (model/capture.h), written in the
 * sample whose tick read it. All its own figures, no delta form: u
 * trigger, u seq, u kind, s order, u gfp, u mtype, str comm, u stall_ns,
 * s mono us, s wall us, u reads, u skipped, u read bits, s pageblock
 * order, u n_orders, u n_types, n_types x str name, u n_zones; per zone
 * s node, str zone, u has, then by its bits: PTI n_types x (n_orders x u
 * free, u capped); BUDDY n_orders x u, s unusable, s extfrag; ZI u free,
 * min, low, high, boost, promo, u n, n x u protection; UNUSABLE s;
 * EXTFRAG s.
 */
#include "ptrec/codec-int.h"

#include <string.h>

void
codec_enc_capture(struct wbuf *w, const struct capture *c)
{
	int nt = c->n_types, no = c->n_orders;

	codec_put_u(w, c->trigger);
	codec_put_u(w, c->seq);
	codec_put_u(w, (uint64_t)c->kind);
	codec_put_s(w, c->order);
	codec_put_u(w, c->gfp);
	codec_put_u(w, c->mtype);
	codec_put_str(w, c->comm, sizeof(c->comm));
	codec_put_u(w, c->stall_ns);
	codec_put_s(w, codec_us(c->mono));
	codec_put_s(w, codec_us(c->wall));
	codec_put_u(w, c->reads);
	codec_put_u(w, c->skipped);
	codec_put_u(w, c->read);
	codec_put_s(w, c->pageblock_order);
	codec_put_u(w, (uint64_t)no);
	codec_put_u(w, (uint64_t)nt);
	for (int t = 0; t < nt; t++)
		codec_put_str(w, c->types[t], sizeof(c->types[t]));
	codec_put_u(w, (uint64_t)c->n_zones);
	for (int i = 0; i < c->n_zones; i++) {
		const struct capture_zone *z = &c->zones[i];

		codec_put_s(w, z->node);
		codec_put_str(w, z->zone, sizeof(z->zone));
		codec_put_u(w, z->has);
		if (z->has & CZ_PTI)
			for (int t = 0; t < nt; t++) {
				for (int o = 0; o < no; o++)
					codec_put_u(w, z->free[t][o]);
				codec_put_u(w, z->capped[t]);
			}
		if (z->has & CZ_BUDDY) {
			for (int o = 0; o < no; o++)
				codec_put_u(w, z->buddy[o]);
			codec_put_s(w, z->unusable);
			codec_put_s(w, z->extfrag);
		}
		if (z->has & CZ_ZI) {
			codec_put_u(w, z->free_pages);
			codec_put_u(w, z->min);
			codec_put_u(w, z->low);
			codec_put_u(w, z->high);
			codec_put_u(w, z->boost);
			codec_put_u(w, z->promo);
			codec_put_u(w, (uint64_t)z->n_protection);
			for (int k = 0; k < z->n_protection; k++)
				codec_put_u(w, z->protection[k]);
		}
		if (z->has & CZ_UNUSABLE)
			codec_put_s(w, z->dbg_unusable);
		if (z->has & CZ_EXTFRAG)
			codec_put_s(w, z->dbg_extfrag);
	}
}

/* A thousandths figure: -1000..1000. */
static bool
dec_milli(struct rbuf *r, int *out)
{
	int64_t v = codec_get_s(r);

	if (r->bad || v < -1000 || v > 1000)
		return false;
	*out = (int)v;
	return true;
}

static int
dec_zone(struct rbuf *r, struct capture *c, struct capture_zone *z, struct parse_error *err)
{
	uint64_t v;

	if (!codec_get_sint(r, &z->node) || z->node < 0 ||
	    !codec_get_str(r, z->zone, sizeof(z->zone)) ||
	    !codec_get_max(r, CZ_ALL, &v))
		return codec_fail(err, "capture: a zone cut short or malformed");
	z->has = (uint32_t)v;
	if (z->has & CZ_PTI)
		for (int t = 0; t < c->n_types; t++) {
			for (int o = 0; o < c->n_orders; o++)
				if (!codec_get_u32(r, &z->free[t][o]))
					return codec_fail(err, "capture: zone %s: bad free counts",
					    z->zone);
			if (!codec_get_max(r, (1ull << MAX_ORDERS) - 1, &v))
				return codec_fail(err, "capture: zone %s: bad capped bits", z->zone);
			z->capped[t] = (uint32_t)v;
		}
	if (z->has & CZ_BUDDY) {
		for (int o = 0; o < c->n_orders; o++)
			z->buddy[o] = codec_get_u(r);
		if (!dec_milli(r, &z->unusable) || !dec_milli(r, &z->extfrag))
			return codec_fail(err, "capture: zone %s: bad buddy figures", z->zone);
	}
	if (z->has & CZ_ZI) {
		z->free_pages = codec_get_u(r);
		z->min = codec_get_u(r);
		z->low = codec_get_u(r);
		z->high = codec_get_u(r);
		z->boost = codec_get_u(r);
		z->promo = codec_get_u(r);
		if (!codec_get_max(r, CAPTURE_PROTECTION, &v))
			return codec_fail(err, "capture: zone %s: more than %d protection figures",
			    z->zone, CAPTURE_PROTECTION);
		z->n_protection = (int)v;
		for (int k = 0; k < z->n_protection; k++)
			z->protection[k] = codec_get_u(r);
	}
	if (((z->has & CZ_UNUSABLE) && !dec_milli(r, &z->dbg_unusable)) ||
	    ((z->has & CZ_EXTFRAG) && !dec_milli(r, &z->dbg_extfrag)) || r->bad)
		return codec_fail(err, "capture: zone %s: cut short or malformed", z->zone);
	return 0;
}

int
codec_dec_capture(struct dec *d, struct rbuf *r)
{
	struct capture *c = &d->s->capture;
	uint64_t v, trigger, mtype, kind;
	int r2;

	memset(c, 0, offsetof(struct capture, zones));
	if (!codec_get_max(r, CAPTURE_TRIGGER_COUNT - 1, &trigger))
		return codec_fail(d->err, "capture: no trigger, or one out of range");
	c->trigger = (enum capture_trigger)trigger;
	c->seq = codec_get_u(r);
	if (!codec_get_max(r, 255, &kind) || !codec_get_sint(r, &c->order) ||
	    c->order < -1 || c->order >= MAX_ORDERS || !codec_get_u32(r, &c->gfp) ||
	    !codec_get_max(r, CAPTURE_MT_COUNT - 1, &mtype) ||
	    !codec_get_str(r, c->comm, sizeof(c->comm)))
		return codec_fail(d->err, "capture: the event cut short or out of range");
	c->kind = (int)kind;
	c->mtype = (enum capture_mtype)mtype;
	c->stall_ns = codec_get_u(r);
	c->mono = codec_from_us(codec_get_s(r));
	c->wall = codec_from_us(codec_get_s(r));
	if (!codec_get_u32(r, &c->reads) || !codec_get_u32(r, &c->skipped) ||
	    !codec_get_max(r, CAPTURE_HAS_ALL, &v))
		return codec_fail(d->err, "capture: counters cut short or malformed");
	c->read = (uint32_t)v;
	if (!codec_get_sint(r, &c->pageblock_order) || c->pageblock_order < -1 ||
	    c->pageblock_order >= MAX_ORDERS)
		return codec_fail(d->err, "capture: pageblock order out of range");
	if (!codec_get_int(r, MAX_ORDERS, &c->n_orders))
		return codec_fail(d->err, "capture: more orders than %d", MAX_ORDERS);
	if (!codec_get_int(r, MAX_MTYPES, &c->n_types))
		return codec_fail(d->err, "capture: more migratetypes than %d", MAX_MTYPES);
	for (int t = 0; t < c->n_types; t++)
		if (!codec_get_str(r, c->types[t], sizeof(c->types[t])))
			return codec_fail(d->err, "capture: a migratetype name cut short");
	if (!codec_get_int(r, CAPTURE_ZONES, &c->n_zones))
		return codec_fail(d->err, "capture: more zones than %d", CAPTURE_ZONES);
	for (int i = 0; i < c->n_zones; i++) {
		memset(&c->zones[i], 0, sizeof(c->zones[i]));
		if ((r2 = dec_zone(r, c, &c->zones[i], d->err)) < 0)
			return r2;
	}
	d->s->n_capture = 1;
	return codec_field_done(r, d->err, "capture");
}
