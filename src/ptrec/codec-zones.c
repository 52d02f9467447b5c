/*
 * The recording codec's zone family: the encoder and decoder of the
 * buddyinfo, pagetypeinfo and zoneinfo chunks (ids 10, 11, 14 and
 * 20, 21, 24), side by side. A delta zoneinfo chunk's free pages are
 * written against the change its buddyinfo chunk predicts.
 */

#include "ptrec/codec-int.h"
#include "util/arith.h"
#include "ptrec/codec-predict.h"

#include <errno.h>
#include <string.h>

/* BUDDYINFO (10) and BUDDYINFO2 (20). */
void
codec_enc_buddy(struct wbuf *w, const struct buddyinfo *b,
    const struct buddyinfo *pb, bool diffs)
{
	bool delta = pb != NULL;
	struct nums nw;
	int i, o;

	if (!diffs)
		codec_put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		codec_put_u(w, (uint64_t)b->n_orders);
		codec_put_u(w, (uint64_t)b->n_zones);
		for (i = 0; i < b->n_zones; i++) {
			codec_put_s(w, b->zones[i].node);
			codec_put_str(w, b->zones[i].zone, NAME_LEN);
		}
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);)
		for (i = 0; i < b->n_zones; i++)
			for (o = 0; o < b->n_orders; o++)
				codec_num_u(&nw, b->zones[i].free[o],
				    delta ? pb->zones[i].free[o] : 0);
}

int
codec_dec_buddy(struct dec *d, struct rbuf *r)
{
	struct buddyinfo *b = &d->s->buddy;
	const struct buddyinfo *pb;
	struct numr nr;
	bool delta;
	int i, o;

	if (codec_dec_flags(d, r, SRC_BUDDYINFO, "buddyinfo", &delta) < 0)
		return -EINVAL;
	pb = delta ? &d->prev->buddy : NULL;
	if (delta) {
		b->n_orders = pb->n_orders;
		b->n_zones = pb->n_zones;
		memset(b->zones, 0, (size_t)b->n_zones * sizeof(b->zones[0]));
		for (i = 0; i < b->n_zones; i++) {
			b->zones[i].node = pb->zones[i].node;
			memcpy(b->zones[i].zone, pb->zones[i].zone, NAME_LEN);
			/* The differences are added to these. */
			memcpy(b->zones[i].free, pb->zones[i].free,
			    (size_t)b->n_orders * sizeof(b->zones[i].free[0]));
		}
	} else {
		if (!codec_get_int(r, MAX_ORDERS, &b->n_orders) ||
		    !codec_get_int(r, MAX_ZONES, &b->n_zones))
			return codec_fail(d->err,
			    "buddyinfo: more than %d orders or %d zones",
			    MAX_ORDERS, MAX_ZONES);
		memset(b->zones, 0, (size_t)b->n_zones * sizeof(b->zones[0]));
		for (i = 0; i < b->n_zones; i++)
			if (!codec_get_sint(r, &b->zones[i].node) ||
			    !codec_get_str(r, b->zones[i].zone, NAME_LEN))
				return codec_fail(d->err,
				    "buddyinfo: zone %d: bad node or name", i);
	}
	codec_numr_begin(&nr, d, r, delta,
	    (uint64_t)b->n_zones * (uint64_t)b->n_orders);
	for (i = 0; delta && b->n_orders > 0 && i < b->n_zones; i++)
		codec_numr_add(&nr, b->zones[i].free, sizeof(b->zones[i].free[0]),
		    (size_t)b->n_orders);
	for (i = 0; !delta && i < b->n_zones; i++)
		for (o = 0; o < b->n_orders; o++)
			b->zones[i].free[o] = codec_numr_u(&nr, 0);
	d->buddy_delta = delta;
	return codec_field_done(r, d->err, "buddyinfo");
}

/* PAGETYPEINFO (11) and PAGETYPEINFO2 (21). */
static void
enc_pti_rows(struct wbuf *w, const struct pagetypeinfo_blocks *rows, int n)
{
	int i;

	codec_put_u(w, (uint64_t)n);
	for (i = 0; i < n; i++) {
		codec_put_s(w, rows[i].node);
		codec_put_str(w, rows[i].zone, NAME_LEN);
	}
}

static void
enc_pti_counts(struct nums *nw, const struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n, int n_types)
{
	int i, t;

	for (i = 0; i < n; i++)
		for (t = 0; t < n_types; t++)
			codec_num_u(nw, rows[i].count[t],
			    prows != NULL ? prows[i].count[t] : 0);
}

void
codec_enc_pti(struct wbuf *w, const struct pagetypeinfo *p,
    const struct pagetypeinfo *pp, bool diffs)
{
	const struct pagetypeinfo_free *f, *pf;
	bool delta = pp != NULL;
	struct nums nw;
	int i, o;

	if (!diffs)
		codec_put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		codec_put_s(w, p->pageblock_order);
		codec_put_u(w, p->pages_per_block);
		codec_put_u(w, (uint64_t)p->n_orders);
		codec_put_u(w, (uint64_t)p->n_types);
		for (i = 0; i < p->n_types; i++)
			codec_put_str(w, p->types[i], NAME_LEN);
		codec_put_u(w, (uint64_t)p->n_free);
		for (i = 0; i < p->n_free; i++) {
			codec_put_s(w, p->free[i].node);
			codec_put_str(w, p->free[i].zone, NAME_LEN);
			codec_put_u(w, (uint64_t)p->free[i].type);
		}
		enc_pti_rows(w, p->blocks, p->n_blocks);
		enc_pti_rows(w, p->mixed, p->n_mixed);
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);) {
		for (i = 0; i < p->n_free; i++) {
			f = &p->free[i];
			pf = delta ? &pp->free[i] : NULL;
			codec_num_u(&nw, f->capped, delta ? pf->capped : 0);
			for (o = 0; o < p->n_orders; o++)
				codec_num_u(&nw, f->free[o],
				    delta ? pf->free[o] : 0);
		}
		enc_pti_counts(&nw, p->blocks, delta ? pp->blocks : NULL,
		    p->n_blocks, p->n_types);
		enc_pti_counts(&nw, p->mixed, delta ? pp->mixed : NULL,
		    p->n_mixed, p->n_types);
	}
}

static bool
dec_pti_rows(struct rbuf *r, struct pagetypeinfo_blocks *rows, int *n)
{
	int i;

	if (!codec_get_int(r, MAX_ZONES, n))
		return false;
	memset(rows, 0, (size_t)*n * sizeof(rows[0]));
	for (i = 0; i < *n; i++)
		if (!codec_get_sint(r, &rows[i].node) ||
		    !codec_get_str(r, rows[i].zone, NAME_LEN))
			return false;
	return true;
}

static void
dec_pti_copy_rows(struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n)
{
	int i;

	memset(rows, 0, (size_t)n * sizeof(rows[0]));
	for (i = 0; i < n; i++) {
		rows[i].node = prows[i].node;
		memcpy(rows[i].zone, prows[i].zone, NAME_LEN);
	}
}

static void
dec_pti_counts(struct numr *nr, struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n, int n_types)
{
	int i, t;

	for (i = 0; i < n; i++)
		for (t = 0; t < n_types; t++)
			rows[i].count[t] = codec_numr_u(nr,
			    prows != NULL ? prows[i].count[t] : 0);
}

static int
dec_pti_shape(struct dec *d, struct rbuf *r)
{
	struct pagetypeinfo *p = &d->s->pti;
	uint64_t v;
	int i;

	if (!codec_get_sint(r, &p->pageblock_order))
		return codec_fail(d->err, "pagetypeinfo: bad page block order");
	p->pages_per_block = codec_get_u(r);
	if (!codec_get_int(r, MAX_ORDERS, &p->n_orders) ||
	    !codec_get_int(r, MAX_MTYPES, &p->n_types))
		return codec_fail(d->err, "pagetypeinfo: more than %d orders "
		    "or %d types", MAX_ORDERS, MAX_MTYPES);
	for (i = 0; i < p->n_types; i++)
		if (!codec_get_str(r, p->types[i], NAME_LEN))
			return codec_fail(d->err,
			    "pagetypeinfo: type %d: bad name", i);
	if (!codec_get_int(r, MAX_ZONES * MAX_MTYPES, &p->n_free))
		return codec_fail(d->err,
		    "pagetypeinfo: more than %d free rows",
		    MAX_ZONES * MAX_MTYPES);
	memset(p->free, 0, (size_t)p->n_free * sizeof(p->free[0]));
	for (i = 0; i < p->n_free; i++) {
		if (!codec_get_sint(r, &p->free[i].node) ||
		    !codec_get_str(r, p->free[i].zone, NAME_LEN) ||
		    !codec_get_max(r, (uint64_t)p->n_types, &v) ||
		    v == (uint64_t)p->n_types)
			return codec_fail(d->err,
			    "pagetypeinfo: free row %d: bad node, zone or type",
			    i);
		p->free[i].type = (int)v;
	}
	if (!dec_pti_rows(r, p->blocks, &p->n_blocks) ||
	    !dec_pti_rows(r, p->mixed, &p->n_mixed))
		return codec_fail(d->err, "pagetypeinfo: bad block rows");
	return 0;
}

int
codec_dec_pti(struct dec *d, struct rbuf *r)
{
	struct pagetypeinfo *p = &d->s->pti;
	const struct pagetypeinfo *pp;
	struct pagetypeinfo_free *f;
	struct numr nr;
	bool delta;
	int i, o;

	if (codec_dec_flags(d, r, SRC_PAGETYPEINFO, "pagetypeinfo",
	    &delta) < 0)
		return -EINVAL;
	pp = delta ? &d->prev->pti : NULL;
	if (delta) {
		p->pageblock_order = pp->pageblock_order;
		p->pages_per_block = pp->pages_per_block;
		p->n_orders = pp->n_orders;
		p->n_types = pp->n_types;
		memcpy(p->types, pp->types, sizeof(p->types));
		p->n_free = pp->n_free;
		memset(p->free, 0, (size_t)p->n_free * sizeof(p->free[0]));
		for (i = 0; i < p->n_free; i++) {
			p->free[i].node = pp->free[i].node;
			p->free[i].type = pp->free[i].type;
			memcpy(p->free[i].zone, pp->free[i].zone, NAME_LEN);
		}
		p->n_blocks = pp->n_blocks;
		dec_pti_copy_rows(p->blocks, pp->blocks, p->n_blocks);
		p->n_mixed = pp->n_mixed;
		dec_pti_copy_rows(p->mixed, pp->mixed, p->n_mixed);
	} else if (dec_pti_shape(d, r) < 0)
		return -EINVAL;
	codec_numr_begin(&nr, d, r, delta,
	    (uint64_t)p->n_free * (uint64_t)(1 + p->n_orders) +
	    (uint64_t)(p->n_blocks + p->n_mixed) * (uint64_t)p->n_types);
	for (i = 0; i < p->n_free; i++) {
		f = &p->free[i];
		f->capped = codec_numr_u32(&nr, delta ? pp->free[i].capped : 0);
		if (f->capped >> p->n_orders != 0)
			return codec_fail(d->err,
			    "pagetypeinfo: free row %d: capped past order %d",
			    i, p->n_orders - 1);
		for (o = 0; o < p->n_orders; o++)
			f->free[o] = codec_numr_u32(&nr,
			    delta ? pp->free[i].free[o] : 0);
	}
	dec_pti_counts(&nr, p->blocks, delta ? pp->blocks : NULL,
	    p->n_blocks, p->n_types);
	dec_pti_counts(&nr, p->mixed, delta ? pp->mixed : NULL, p->n_mixed,
	    p->n_types);
	return codec_field_done(r, d->err, "pagetypeinfo");
}

/* ZONEINFO (14) and ZONEINFO2 (24). */

/* The wire bits of a zone's "has". */
static uint64_t
zi_has_wire(uint32_t has)
{
	uint64_t bits = 0;
	size_t k;

	for (k = 0; k < N_WIRE_ZI; k++)
		if (has & (1u << codec_zi[k]))
			bits |= 1u << k;
	return bits;
}

/* b, pb: buddyinfo, when its chunk was a delta chunk, for the free pages. */
void
codec_enc_zi(struct wbuf *w, const struct zoneinfo *z,
    const struct zoneinfo *pz, const struct buddyinfo *b,
    const struct buddyinfo *pb, bool diffs)
{
	const struct zoneinfo_zone *zz;
	bool delta = pz != NULL;
	struct nums nw;
	uint64_t base;
	size_t k;
	int i;

	if (!diffs)
		codec_put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		codec_put_u(w, (uint64_t)z->n_zones);
		for (i = 0; i < z->n_zones; i++) {
			codec_put_s(w, z->zones[i].node);
			codec_put_str(w, z->zones[i].zone, NAME_LEN);
			codec_put_u(w, zi_has_wire(z->zones[i].has));
		}
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);)
		for (i = 0; i < z->n_zones; i++) {
			zz = &z->zones[i];
			for (k = 0; k < N_WIRE_ZI; k++) {
				if (!(zz->has & (1u << codec_zi[k])))
					continue;
				base = delta ? pz->zones[i].v[codec_zi[k]] : 0;
				if (delta && b != NULL &&
				    codec_zi[k] == ZI_FREE)
					base += predict_zone_free(zz, b, pb);
				codec_num_u(&nw, zz->v[codec_zi[k]], base);
			}
		}
}

/* The wire's order of zoneinfo fields is zoneinfo_field's. */
static bool
zi_in_order(void)
{
	size_t k;

	if (N_WIRE_ZI != ZI_NFIELDS)
		return false;
	for (k = 0; k < N_WIRE_ZI; k++)
		if (codec_zi[k] != (enum zoneinfo_field)k)
			return false;
	return true;
}

/* A zone has every field (and the wire's order is zoneinfo_field's). */
static bool
zi_all(uint32_t has, bool in_order)
{
	return in_order && (has & ((1u << ZI_NFIELDS) - 1)) ==
	    (1u << ZI_NFIELDS) - 1;
}

int
codec_dec_zi(struct dec *d, struct rbuf *r)
{
	struct zoneinfo *z = &d->s->zi;
	const struct zoneinfo *pz;
	struct zoneinfo_zone *zz;
	struct numr nr;
	bool delta, in_order;
	uint64_t bits, n = 0;
	size_t k;
	int i;

	if (codec_dec_flags(d, r, SRC_ZONEINFO, "zoneinfo", &delta) < 0)
		return -EINVAL;
	pz = delta ? &d->prev->zi : NULL;
	if (delta) {
		z->n_zones = pz->n_zones;
		memset(z->zones, 0, (size_t)z->n_zones * sizeof(z->zones[0]));
		for (i = 0; i < z->n_zones; i++) {
			z->zones[i].node = pz->zones[i].node;
			z->zones[i].has = pz->zones[i].has;
			memcpy(z->zones[i].zone, pz->zones[i].zone, NAME_LEN);
		}
	} else {
		if (!codec_get_int(r, MAX_ZONES, &z->n_zones))
			return codec_fail(d->err,
			    "zoneinfo: more than %d zones", MAX_ZONES);
		memset(z->zones, 0, (size_t)z->n_zones * sizeof(z->zones[0]));
		for (i = 0; i < z->n_zones; i++) {
			zz = &z->zones[i];
			if (!codec_get_sint(r, &zz->node) ||
			    !codec_get_str(r, zz->zone, NAME_LEN) ||
			    !codec_get_max(r, (1u << N_WIRE_ZI) - 1, &bits))
				return codec_fail(d->err, "zoneinfo: zone %d: "
				    "bad node, name or fields", i);
			for (k = 0; k < N_WIRE_ZI; k++)
				if (bits & (1u << k))
					zz->has |= 1u << codec_zi[k];
		}
	}
	in_order = zi_in_order();
	for (i = 0; i < z->n_zones; i++)
		if (in_order)
			n += (uint64_t)arith_popcount(z->zones[i].has &
			    ((1u << ZI_NFIELDS) - 1));
		else
			for (k = 0; k < N_WIRE_ZI; k++)
				n += (z->zones[i].has >> codec_zi[k]) & 1;
	codec_numr_begin(&nr, d, r, delta, n);
	for (i = 0; i < z->n_zones; i++) {
		zz = &z->zones[i];
		/* Every field, in the wire's order: the differences onto
		 * the previous values in one pass. */
		if (delta && zi_all(zz->has, in_order)) {
			memcpy(zz->v, pz->zones[i].v, sizeof(zz->v));
			codec_numr_add(&nr, zz->v, sizeof(zz->v[0]), ZI_NFIELDS);
		} else
			for (k = 0; k < N_WIRE_ZI; k++)
				if (zz->has & (1u << codec_zi[k]))
					zz->v[codec_zi[k]] = codec_numr_u(&nr,
					    delta ? pz->zones[i].v[codec_zi[k]] : 0);
		if (delta && d->v2 && d->buddy_delta &&
		    (zz->has & (1u << ZI_FREE)))
			zz->v[ZI_FREE] += predict_zone_free(zz, &d->s->buddy,
			    &d->prev->buddy);
	}
	d->zi_delta = delta;
	return codec_field_done(r, d->err, "zoneinfo");
}
