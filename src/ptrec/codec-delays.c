/*
 * DELAYS (31): a tick's delay accounting (model/delays.h), written when
 * its state is not NONE. Every figure is the tick's own, so there is no
 * delta form: u state, str why, u version, u kinds, u ran, u asked, u
 * answered, u first_seen, u gone, then per kind (DELAY_KIND_COUNT of them
 * in the file, kinds the reader does not know are skipped) u total ns, u
 * total count; u n, at most DELAYS_TOP_TASKS; n x (s tid, s tgid, str
 * comm, per kind u ns, u count).
 */
#include "ptrec/codec-int.h"

#include <stddef.h>
#include <string.h>

void
codec_enc_delays(struct wbuf *w, const struct delays *dl)
{
	codec_put_u(w, dl->state);
	codec_put_str(w, dl->why, sizeof(dl->why));
	codec_put_u(w, dl->version);
	codec_put_u(w, dl->kinds);
	codec_put_u(w, dl->ran);
	codec_put_u(w, dl->asked);
	codec_put_u(w, dl->answered);
	codec_put_u(w, dl->first_seen);
	codec_put_u(w, dl->gone);
	codec_put_u(w, DELAY_KIND_COUNT);
	for (int k = 0; k < DELAY_KIND_COUNT; k++) {
		codec_put_u(w, dl->total_ns[k]);
		codec_put_u(w, dl->total_count[k]);
	}
	codec_put_u(w, (uint64_t)dl->n_top);
	for (int i = 0; i < dl->n_top && i < DELAYS_TOP_TASKS; i++) {
		const struct delay_task *t = &dl->top[i];

		codec_put_s(w, t->tid);
		codec_put_s(w, t->tgid);
		codec_put_str(w, t->comm, sizeof(t->comm));
		for (int k = 0; k < DELAY_KIND_COUNT; k++) {
			codec_put_u(w, t->ns[k]);
			codec_put_u(w, t->count[k]);
		}
	}
}

/* n kinds from the file into ns[] and count[], those past ours skipped. */
static bool
dec_kinds(struct rbuf *r, uint64_t nk, uint64_t *ns, void *count, bool wide)
{
	for (uint64_t k = 0; k < nk; k++) {
		uint64_t a = codec_get_u(r), b;

		if (!codec_get_max(r, wide ? UINT64_MAX : UINT32_MAX, &b))
			return false;
		if (k >= DELAY_KIND_COUNT)
			continue;
		ns[k] = a;
		if (wide)
			((uint64_t *)count)[k] = b;
		else
			((uint32_t *)count)[k] = (uint32_t)b;
	}
	return true;
}

int
codec_dec_delays(struct dec *d, struct rbuf *r)
{
	struct delays *dl = &d->s->delays;
	uint64_t state, nk, n;
	int64_t v;

	if (!codec_get_max(r, DELAYS_UNAVAILABLE, &state) || state == DELAYS_NONE)
		return codec_fail(d->err, "delays: no state, or one out of range");
	memset(dl, 0, offsetof(struct delays, top));
	dl->state = (enum delays_state)state;
	if (!codec_get_str(r, dl->why, sizeof(dl->why)) ||
	    !codec_get_u32(r, &dl->version) || !codec_get_u32(r, &dl->kinds) ||
	    !codec_get_u32(r, &dl->ran) || !codec_get_u32(r, &dl->asked) ||
	    !codec_get_u32(r, &dl->answered) || !codec_get_u32(r, &dl->first_seen) ||
	    !codec_get_u32(r, &dl->gone) || !codec_get_max(r, 64, &nk) ||
	    !dec_kinds(r, nk, dl->total_ns, dl->total_count, true))
		return codec_fail(d->err, "delays: cut short or malformed");
	if (!codec_get_max(r, DELAYS_TOP_TASKS, &n))
		return codec_fail(d->err, "delays: more tasks than %d", DELAYS_TOP_TASKS);
	dl->n_top = (int)n;
	for (int i = 0; i < dl->n_top; i++) {
		struct delay_task *t = &dl->top[i];

		memset(t, 0, sizeof(*t));
		v = codec_get_s(r);
		if (v < INT32_MIN || v > INT32_MAX)
			return codec_fail(d->err, "delays: a tid out of range");
		t->tid = (int32_t)v;
		v = codec_get_s(r);
		if (v < INT32_MIN || v > INT32_MAX)
			return codec_fail(d->err, "delays: a tgid out of range");
		t->tgid = (int32_t)v;
		if (!codec_get_str(r, t->comm, sizeof(t->comm)) ||
		    !dec_kinds(r, nk, t->ns, t->count, false))
			return codec_fail(d->err, "delays: a task cut short or malformed");
	}
	return codec_field_done(r, d->err, "delays");
}
