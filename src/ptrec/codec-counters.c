/*
 * The recording codec's counter family: the encoder and decoder of the
 * vmstat, meminfo, PSI and uptime chunks (ids 12, 13, 15, 16 and 22, 23,
 * 25), side by side. Vmstat and meminfo keyframes name their counters
 * from the built-in lists (codec-names.c) and their delta chunks are
 * written against the changes codec-predict.c predicts.
 */

#include "ptrec/codec-int.h"
#include "ptrec/codec-names.h"
#include "ptrec/codec-predict.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* The page size in kB, for meminfo predicted from vmstat; 0 if unknown. */
uint64_t
codec_page_kb(long page_size)
{
	return page_size > 0 ? (uint64_t)page_size / 1024 : 0;
}

/*
 * Vmstat and meminfo alike: a delta chunk's numbers are against the
 * previous sample's plus the predicted change (pred), and both start with
 * the count of lines skipped.
 */
static void
enc_predicted(uint64_t *pred, int n, const struct predict *pr,
    const struct predict_src *ps)
{
	int i;

	memset(pred, 0, (size_t)n * sizeof(pred[0]));
	for (i = 0; i < pr->n; i++)
		pred[pr->r[i].target] = predict_change(pr, i, ps);
}

/*
 * The predictions where the thread cannot keep its rules (out of memory):
 * resolved into room in a frame of its own, so that the 4 KB are on the
 * stack only then, not below every coding thread's frames. ps's v or m
 * (vm) and the sample before's are set.
 */
static __attribute__((noinline)) void
enc_predicted_unkept(uint64_t *pred, int n, const struct predict_src *ps, bool vm)
{
	struct predict spare;

	enc_predicted(pred, n, vm ? predict_vmstat(ps->v, ps, &spare) :
				   predict_meminfo(ps->m, ps, &spare), ps);
}

/* The predictions for vmstat (vm) or meminfo, ps set as for that. */
static void
enc_predictions(uint64_t *pred, int n, const struct predict_src *ps, bool vm)
{
	const struct predict *pr = vm ? predict_vmstat(ps->v, ps, NULL) :
					predict_meminfo(ps->m, ps, NULL);

	if (pr)
		enc_predicted(pred, n, pr, ps);
	else
		enc_predicted_unkept(pred, n, ps, vm);
}

/* The decoder's enc_predicted_unkept: the rules applied to the values
 * from first, stride bytes apart. */
static __attribute__((noinline)) void
dec_apply_unkept(const struct predict_src *ps, uint64_t *first, size_t stride, bool vm)
{
	struct predict spare;

	predict_apply(vm ? predict_vmstat(ps->v, ps, &spare) : predict_meminfo(ps->m, ps, &spare),
		      ps, first, stride);
}

/*
 * The rules of a delta chunk: the stream's when they were resolved for the
 * sample before, whose names a delta has; else resolved (or the thread's
 * kept ones, after a compare of the names), and the stream keeps them.
 * NULL where neither the stream nor the thread has room for them.
 */
static const struct predict *
dec_vm_rules(struct dec *d, const struct vmstat *v,
    const struct predict_src *ps)
{
	struct codec_stream *cs = d->cs;
	const struct predict *pr;

	if (cs != NULL && d->prev_last && cs->vp_ok &&
	    cs->vp_zones == (ps->z != NULL))
		return &cs->vp;
	pr = predict_vmstat(v, ps, cs != NULL ? &cs->vp : NULL);
	if (cs != NULL) {
		if (pr != &cs->vp)
			cs->vp = *pr;
		cs->vp_ok = true;
		cs->vp_zones = ps->z != NULL;
	}
	return pr;
}

static const struct predict *
dec_mem_rules(struct dec *d, const struct meminfo *m,
    const struct predict_src *ps)
{
	struct codec_stream *cs = d->cs;
	const struct predict *pr;

	if (cs != NULL && d->prev_last && cs->mp_ok &&
	    cs->mp_with_v == (ps->v != NULL))
		return &cs->mp;
	pr = predict_meminfo(m, ps, cs != NULL ? &cs->mp : NULL);
	if (cs != NULL) {
		if (pr != &cs->mp)
			cs->mp = *pr;
		cs->mp_ok = true;
		cs->mp_with_v = ps->v != NULL;
	}
	return pr;
}

static int
dec_skipped(struct dec *d, struct numr *nr, int base, int *skipped,
    const char *what)
{
	int64_t v = codec_numr_s(nr, base);

	if (v < INT_MIN || v > INT_MAX)
		return codec_fail(d->err, "%s: bad skipped count", what);
	*skipped = (int)v;
	return 0;
}

/* VMSTAT (12) and VMSTAT2 (22). */

/* ps: what the predictions read besides vmstat. */
void
codec_enc_vm(struct wbuf *w, const struct vmstat *v, const struct vmstat *pv,
    struct predict_src *ps, bool diffs)
{
	bool delta = pv != NULL;
	struct names_pos np = { codec_vmstat_names, codec_vmstat_nnames, -1 };
	uint64_t pred[MAX_VMSTAT];
	struct nums nw;
	int i;

	if (!diffs)
		codec_put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		codec_put_u(w, (uint64_t)v->n);
		for (i = 0; i < v->n; i++)
			codec_put_name(w, &np, v->e[i].name, VMSTAT_NAME_LEN);
	}
	if (delta) {
		ps->v = v;
		ps->pv = pv;
		enc_predictions(pred, v->n, ps, true);
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);) {
		codec_num_s(&nw, v->skipped, delta ? pv->skipped : 0);
		for (i = 0; i < v->n; i++)
			codec_num_u(&nw, v->e[i].value,
			    delta ? pv->e[i].value + pred[i] : 0);
	}
}

/* The uint64_t each stride bytes from src to those from dst, n of them:
 * four a step, the loop's own work a quarter of what it was. */
static void
values_copy(uint64_t *dst, const uint64_t *src, size_t stride, int n)
{
	char *d = (char *)dst;
	const char *s = (const char *)src;
	uint64_t a, b, c, e;
	int i = 0;

	for (; i + 4 <= n; i += 4, d += 4 * stride, s += 4 * stride) {
		memcpy(&a, s, sizeof(a));
		memcpy(&b, s + stride, sizeof(b));
		memcpy(&c, s + 2 * stride, sizeof(c));
		memcpy(&e, s + 3 * stride, sizeof(e));
		memcpy(d, &a, sizeof(a));
		memcpy(d + stride, &b, sizeof(b));
		memcpy(d + 2 * stride, &c, sizeof(c));
		memcpy(d + 3 * stride, &e, sizeof(e));
	}
	for (; i < n; i++, d += stride, s += stride)
		memcpy(d, s, sizeof(a));
}

int
codec_dec_vm(struct dec *d, struct rbuf *r)
{
	struct vmstat *v = &d->s->vm;
	const struct vmstat *pv;
	struct names_pos np = { codec_vmstat_names, codec_vmstat_nnames, -1 };
	struct numr nr;
	struct predict_src ps;
	const struct predict *pr;
	bool delta, same_names = false;
	int i;

	if (codec_dec_flags(d, r, SRC_VMSTAT, "vmstat", &delta) < 0)
		return -EINVAL;
	/* New names: the stream's rules are for the old ones. */
	if (!delta && d->cs != NULL)
		d->cs->vp_ok = d->cs->mp_ok = false;
	pv = delta ? &d->prev->vm : NULL;
	if (delta) {
		/* Names and values (the values alone onto the same names):
		 * the differences are added to them. */
		v->n = pv->n;
		same_names = d->held_s.vm != 0 &&
		    d->held_s.vm == d->held_prev.vm && d->held_s.vm_n == v->n;
		if (same_names)
			values_copy(&v->e[0].value, &pv->e[0].value,
			    sizeof(v->e[0]), v->n);
		else
			memcpy(v->e, pv->e, (size_t)v->n * sizeof(v->e[0]));
		d->vm_gen = d->held_prev.vm;
	} else {
		d->vm_gen = codec_names_gen(d);
		if (!codec_get_int(r, MAX_VMSTAT, &v->n))
			return codec_fail(d->err,
			    "vmstat: more than %d counters", MAX_VMSTAT);
		/* Zero-padded: names compare as whole arrays, and a delta
		 * copies them so. */
		memset(v->e, 0, (size_t)v->n * sizeof(v->e[0]));
		for (i = 0; i < v->n; i++)
			if (!(d->v2 ? codec_get_name(r, &np, v->e[i].name,
			    VMSTAT_NAME_LEN) : codec_get_str(r, v->e[i].name,
			    VMSTAT_NAME_LEN)))
				return codec_fail(d->err,
				    "vmstat: counter %d: bad name", i);
	}
	codec_numr_begin(&nr, d, r, delta, 1 + (uint64_t)v->n);
	if (dec_skipped(d, &nr, delta ? pv->skipped : 0, &v->skipped,
	    "vmstat") < 0)
		return -EINVAL;
	if (delta && v->n > 0)
		codec_numr_add(&nr, &v->e[0].value, sizeof(v->e[0]),
		    (size_t)v->n);
	for (i = 0; !delta && i < v->n; i++)
		v->e[i].value = codec_numr_u(&nr, 0);
	if (delta && d->v2) {
		memset(&ps, 0, sizeof(ps));
		ps.v = v;
		ps.pv = pv;
		if (d->zi_delta) {
			ps.z = &d->s->zi;
			ps.pz = &d->prev->zi;
		}
		if ((pr = dec_vm_rules(d, v, &ps)) != NULL)
			predict_apply(pr, &ps, &v->e[0].value, sizeof(v->e[0]));
		else
			dec_apply_unkept(&ps, &v->e[0].value, sizeof(v->e[0]), true);
	}
	d->vm_delta = delta;
	return codec_field_done(r, d->err, "vmstat");
}

/* MEMINFO (13) and MEMINFO2 (23). */

/* ps: what the predictions read besides meminfo. */
void
codec_enc_mem(struct wbuf *w, const struct meminfo *m, const struct meminfo *pm,
    struct predict_src *ps, bool diffs)
{
	bool delta = pm != NULL;
	struct names_pos np = { codec_meminfo_names, codec_meminfo_nnames, -1 };
	uint64_t pred[MAX_MEMINFO];
	struct nums nw;
	int i;

	if (!diffs)
		codec_put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		codec_put_u(w, (uint64_t)m->n);
		for (i = 0; i < m->n; i++) {
			codec_put_name(w, &np, m->e[i].name, MEMINFO_NAME_LEN);
			codec_put_u(w, m->e[i].kb);
		}
	}
	if (delta) {
		ps->m = m;
		ps->pm = pm;
		enc_predictions(pred, m->n, ps, false);
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);) {
		codec_num_s(&nw, m->skipped, delta ? pm->skipped : 0);
		for (i = 0; i < m->n; i++)
			codec_num_u(&nw, m->e[i].value,
			    delta ? pm->e[i].value + pred[i] : 0);
	}
}

int
codec_dec_mem(struct dec *d, struct rbuf *r)
{
	struct meminfo *m = &d->s->mem;
	const struct meminfo *pm;
	struct predict_src ps;
	struct names_pos np = { codec_meminfo_names, codec_meminfo_nnames, -1 };
	struct numr nr;
	const struct predict *pr;
	bool delta, same_names = false;
	int i;

	if (codec_dec_flags(d, r, SRC_MEMINFO, "meminfo", &delta) < 0)
		return -EINVAL;
	if (!delta && d->cs != NULL)
		d->cs->mp_ok = false;
	pm = delta ? &d->prev->mem : NULL;
	if (delta) {
		/* Names, units and values (the values alone onto the same
		 * names and units): the differences are added. */
		m->n = pm->n;
		same_names = d->held_s.mem != 0 &&
		    d->held_s.mem == d->held_prev.mem &&
		    d->held_s.mem_n == m->n;
		if (same_names)
			values_copy(&m->e[0].value, &pm->e[0].value,
			    sizeof(m->e[0]), m->n);
		else
			memcpy(m->e, pm->e, (size_t)m->n * sizeof(m->e[0]));
		d->mem_gen = d->held_prev.mem;
	} else {
		d->mem_gen = codec_names_gen(d);
		if (!codec_get_int(r, MAX_MEMINFO, &m->n))
			return codec_fail(d->err,
			    "meminfo: more than %d keys", MAX_MEMINFO);
		memset(m->e, 0, (size_t)m->n * sizeof(m->e[0]));
		for (i = 0; i < m->n; i++)
			if (!(d->v2 ? codec_get_name(r, &np, m->e[i].name,
			    MEMINFO_NAME_LEN) : codec_get_str(r, m->e[i].name,
			    MEMINFO_NAME_LEN)) ||
			    !codec_get_bool(r, &m->e[i].kb))
				return codec_fail(d->err,
				    "meminfo: key %d: bad name or unit", i);
	}
	codec_numr_begin(&nr, d, r, delta, 1 + (uint64_t)m->n);
	if (dec_skipped(d, &nr, delta ? pm->skipped : 0, &m->skipped,
	    "meminfo") < 0)
		return -EINVAL;
	if (delta && m->n > 0)
		codec_numr_add(&nr, &m->e[0].value, sizeof(m->e[0]),
		    (size_t)m->n);
	for (i = 0; !delta && i < m->n; i++)
		m->e[i].value = codec_numr_u(&nr, 0);
	if (delta && d->v2) {
		memset(&ps, 0, sizeof(ps));
		if (d->vm_delta) {
			ps.v = &d->s->vm;
			ps.pv = &d->prev->vm;
		}
		ps.m = m;
		ps.pm = pm;
		ps.page_kb = codec_page_kb(d->s->page_size);
		if ((pr = dec_mem_rules(d, m, &ps)) != NULL)
			predict_apply(pr, &ps, &m->e[0].value, sizeof(m->e[0]));
		else
			dec_apply_unkept(&ps, &m->e[0].value, sizeof(m->e[0]), false);
	}
	return codec_field_done(r, d->err, "meminfo");
}

/* PSI (15) and PSI2 (25). */
static void
enc_psi_line(struct nums *nw, const struct psi_line *l,
    const struct psi_line *pl)
{
	codec_num_u(nw, l->avg10, pl != NULL ? pl->avg10 : 0);
	codec_num_u(nw, l->avg60, pl != NULL ? pl->avg60 : 0);
	codec_num_u(nw, l->avg300, pl != NULL ? pl->avg300 : 0);
	codec_num_u(nw, l->total, pl != NULL ? pl->total : 0);
}

/* The numbers of a PSI delta chunk that changed: its differences in DIFFS. */
static uint64_t
psi_changed(const struct psi *p, const struct psi *pp)
{
	const struct psi_line *l[2] = { &p->some, &p->full };
	const struct psi_line *pl[2] = { &pp->some, &pp->full };
	uint64_t n = 0;
	int i;

	for (i = 0; i < 2; i++)
		if (l[i]->present)
			n += (l[i]->avg10 != pl[i]->avg10) +
			    (l[i]->avg60 != pl[i]->avg60) +
			    (l[i]->avg300 != pl[i]->avg300) +
			    (l[i]->total != pl[i]->total);
	return n;
}

void
codec_enc_psi(struct wbuf *w, size_t wire, const struct psi *p,
    const struct psi *pp, bool diffs)
{
	bool delta = pp != NULL;
	struct nums nw;

	if (!diffs) {
		codec_put_u(w, wire);
		codec_put_u(w, delta ? psi_changed(p, pp) : 0);
		codec_put_u(w, delta ? DELTA : 0);
		if (!delta)
			codec_put_u(w, codec_psi_lines(p));
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);) {
		if (p->some.present)
			enc_psi_line(&nw, &p->some, delta ? &pp->some : NULL);
		if (p->full.present)
			enc_psi_line(&nw, &p->full, delta ? &pp->full : NULL);
	}
}

static void
dec_psi_line(struct numr *nr, struct psi_line *l, const struct psi_line *pl)
{
	l->present = true;
	l->avg10 = codec_numr_u32(nr, pl != NULL ? pl->avg10 : 0);
	l->avg60 = codec_numr_u32(nr, pl != NULL ? pl->avg60 : 0);
	l->avg300 = codec_numr_u32(nr, pl != NULL ? pl->avg300 : 0);
	l->total = codec_numr_u(nr, pl != NULL ? pl->total : 0);
}

int
codec_dec_psi(struct dec *d, struct rbuf *r)
{
	const struct psi *pp;
	struct numr nr;
	struct psi *p;
	enum source src;
	uint64_t wire, lines, changed;
	bool delta;

	wire = codec_get_u(r);
	changed = d->v2 ? codec_get_u(r) : 0;
	if (r->bad)
		return codec_fail(d->err, "pressure: cut short");
	if (wire >= N_WIRE_PSI) {
		if (d->st != NULL)
			d->st->unknown_fields++;
		/* A resource newer than this reader: skip its differences. */
		while (changed-- > 0 && !d->diffs.bad)
			(void)codec_get_u(&d->diffs);
		return 0;
	}
	p = &d->s->psi[codec_psi[wire]];
	src = (enum source)(SRC_PSI_CPU + codec_psi[wire]);
	if (d->chunks & SRC_BIT(src))
		return codec_fail(d->err, "%s: twice", source_name(src));
	d->chunks |= SRC_BIT(src);

	if (codec_dec_flags(d, r, src, source_name(src), &delta) < 0)
		return -EINVAL;
	pp = delta ? &d->prev->psi[codec_psi[wire]] : NULL;
	if (delta)
		lines = codec_psi_lines(pp);
	else if (!codec_get_max(r, PSI_SOME | PSI_FULL, &lines))
		return codec_fail(d->err, "%s: bad lines", source_name(src));
	codec_numr_begin(&nr, d, r, delta,
	    4 * (uint64_t)(((lines & PSI_SOME) != 0) +
	    ((lines & PSI_FULL) != 0)));
	if (lines & PSI_SOME)
		dec_psi_line(&nr, &p->some, delta ? &pp->some : NULL);
	if (lines & PSI_FULL)
		dec_psi_line(&nr, &p->full, delta ? &pp->full : NULL);
	if (d->v2 && nr.ndiffs != changed)
		return codec_fail(d->err, "%s: %llu differences, not %llu",
		    source_name(src), (unsigned long long)nr.ndiffs,
		    (unsigned long long)changed);
	return codec_field_done(r, d->err, source_name(src));
}

/* UPTIME (16); its encoder is codec_encode's, next to the time. */
int
codec_dec_uptime(struct dec *d, struct rbuf *r)
{
	bool delta;

	if (codec_dec_flags(d, r, SRC_UPTIME, "uptime", &delta) < 0)
		return -EINVAL;
	d->s->uptime = codec_from_us(codec_get_d(r, delta,
	    delta ? codec_us(d->prev->uptime) : 0));
	return codec_field_done(r, d->err, "uptime");
}
