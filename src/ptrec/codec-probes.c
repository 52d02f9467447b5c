/*
 * The kernel probes part of a sample (field PROBES, 29): nothing when the
 * probes were not asked for; else their state, then every cumulative
 * figure of struct probes as one vector, sparse (only the entries that
 * are not zero, or in a delta field that changed since the previous
 * sample), then this tick's own: the longest stalls, the tasks and the D
 * stacks, whose frames are interned within the field. The layout is
 * specified in pagetop-recording(5), SAMPLE ENCODING; the order of the
 * vector below is part of it: append, never reorder.
 */

#include "ptrec/codec-int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The cumulative vector: spans of uint64_t in struct probes, in order. */
#define SPAN(m, n)	{ offsetof(struct probes, m), (n) }
#define HIST(m)		SPAN(m.count, 2 + PROBE_BUCKETS)
#define STALL(k) \
	HIST(stall[k].lat), SPAN(stall[k].order_count, PROBE_ORDERS), \
	SPAN(stall[k].order_ns, PROBE_ORDERS), SPAN(stall[k].reclaimed, 1)

static const struct {
	size_t off, n;
} spans[] = {
	STALL(STALL_DIRECT), STALL(STALL_MEMCG), STALL(STALL_COMPACT),
	SPAN(compact_result, COMPACT_R_COUNT),
	SPAN(compact_lat, COMPACT_R_COUNT * (2 + PROBE_BUCKETS)),
	SPAN(compact_try, PROBE_ORDERS),
	SPAN(compact_deferred, PROBE_ORDERS),
	SPAN(throttle_count, THROTTLE_REASON_COUNT),
	SPAN(throttle_us, THROTTLE_REASON_COUNT),
	SPAN(fallback, PROBE_ORDERS * PROBE_MIGRATETYPES * PROBE_MIGRATETYPES),
	SPAN(fallback_fragmenting, PROBE_ORDERS),
	SPAN(fallback_owner, PROBE_ORDERS),
	SPAN(kswapd_wakes, PROBE_NODES),
	SPAN(kswapd_wake_order, PROBE_ORDERS),
	SPAN(kswapd_awake_ns, PROBE_NODES),
	SPAN(kcompactd_wakes, PROBE_NODES),
	SPAN(kcompactd_wake_order, PROBE_ORDERS),
	SPAN(kcompactd_awake_ns, PROBE_NODES),
	SPAN(reclaim_writes, 1),
	SPAN(dsleep_min_ns, 1),
	HIST(dsleep),
	SPAN(dsleep_lost, 1),
};

/* The histograms are count, sum_ns, buckets with no padding between. */
_Static_assert(sizeof(struct probe_hist) ==
    (2 + PROBE_BUCKETS) * sizeof(uint64_t), "probe_hist is packed");
_Static_assert(offsetof(struct probe_stall, order_ns) ==
    offsetof(struct probe_stall, order_count) +
    PROBE_ORDERS * sizeof(uint64_t), "order_ns follows order_count");

#define N_SPANS		(sizeof(spans) / sizeof(spans[0]))

/* How many names a field can intern: every frame of every stack. */
#define N_INTERN	(PROBE_TOP_STACKS * PROBE_STACK_FRAMES)

static uint64_t *
cum_at(struct probes *p, size_t span)
{
	return (uint64_t *)(void *)((char *)p + spans[span].off);
}

static const uint64_t *
cum_at_c(const struct probes *p, size_t span)
{
	return (const uint64_t *)(const void *)((const char *)p +
	    spans[span].off);
}

size_t
codec_probes_cum_count(void)
{
	size_t i, n = 0;

	for (i = 0; i < N_SPANS; i++)
		n += spans[i].n;
	return n;
}

bool
codec_probes_sane(const struct probes *p)
{
	int i;

	if ((unsigned)p->state > PROBES_UNAVAILABLE ||
	    p->n_tasks < 0 || p->n_tasks > PROBE_TOP_TASKS ||
	    p->n_dstacks < 0 || p->n_dstacks > PROBE_TOP_STACKS)
		return false;
	for (i = 0; i < p->n_dstacks; i++)
		if (p->dstack[i].stack.n < 0 ||
		    p->dstack[i].stack.n > PROBE_STACK_FRAMES)
			return false;
	return true;
}

/* A delta field needs the previous sample's probes, of the same epoch. */
bool
codec_probes_delta_ok(const struct probes *p, const struct probes *pp)
{
	return pp != NULL && pp->state != PROBES_NONE && pp->epoch == p->epoch;
}

/* The entries to write: whole, those not zero; delta, those changed. */
static void
enc_cum(struct wbuf *w, const struct probes *p, const struct probes *pp)
{
	size_t s, j, at = 0, last = 0, n = 0;
	const uint64_t *v, *pv;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			codec_put_u(w, n);
		at = 0;
		last = 0;
		for (s = 0; s < N_SPANS; s++) {
			v = cum_at_c(p, s);
			pv = pp != NULL ? cum_at_c(pp, s) : NULL;
			for (j = 0; j < spans[s].n; j++, at++) {
				if (v[j] == (pv != NULL ? pv[j] : 0))
					continue;
				if (pass == 0) {
					n++;
					continue;
				}
				codec_put_u(w, at - last);
				last = at + 1;
				if (pv != NULL)
					codec_put_s(w, (int64_t)(v[j] - pv[j]));
				else
					codec_put_u(w, v[j]);
			}
		}
	}
}

/* A frame name: u k, 0 then the name spelled out (and interned), else
 * the k-th name interned before in this field. */
static void
enc_frame(struct wbuf *w, const char **seen, int *n_seen, const char *name)
{
	int i;

	for (i = 0; i < *n_seen; i++)
		if (strncmp(seen[i], name, STACK_FUNC_LEN) == 0) {
			codec_put_u(w, (uint64_t)i + 1);
			return;
		}
	codec_put_u(w, 0);
	codec_put_str(w, name, STACK_FUNC_LEN);
	if (*n_seen < N_INTERN)
		seen[(*n_seen)++] = name;
}

/* The number of the previous sample's D stack with d's frames, or -1. */
static int
prev_dstack(const struct probes *pp, const struct probe_dstack *d)
{
	int j, f;

	for (j = 0; j < pp->n_dstacks; j++) {
		if (pp->dstack[j].stack.n != d->stack.n)
			continue;
		for (f = 0; f < d->stack.n; f++)
			if (strncmp(pp->dstack[j].stack.func[f], d->stack.func[f],
			    STACK_FUNC_LEN) != 0)
				break;
		if (f == d->stack.n)
			return j;
	}
	return -1;
}

/* PROBES2: with DELTA (pp), a D stack the previous sample had is written
 * as its number there. The longest of a task or stack is written as its
 * difference from the total: 0 when it slept once (most do). */
void
codec_enc_probes(struct wbuf *w, const struct probes *p,
    const struct probes *pp)
{
	const char *seen[N_INTERN];
	const struct probe_task *t;
	const struct probe_dstack *d;
	int i, f, k, n_seen = 0;
	bool same;

	codec_put_u(w, pp != NULL ? DELTA : 0);
	codec_put_u(w, (uint64_t)p->state);
	codec_put_str(w, p->why, sizeof(p->why));
	codec_put_u(w, p->attached);
	codec_put_u(w, p->missing);
	codec_put_u(w, p->epoch);
	enc_cum(w, p, pp);

	for (i = 0; i < STALL_KIND_COUNT; i++)
		codec_put_u(w, p->stall[i].tick_max_ns);
	codec_put_u(w, (uint64_t)p->n_tasks);
	for (i = 0; i < p->n_tasks; i++) {
		t = &p->task[i];
		codec_put_s(w, t->tid);
		codec_put_u(w, t->kinds);
		codec_put_str(w, t->comm, sizeof(t->comm));
		codec_put_u(w, t->count);
		codec_put_u(w, t->total_ns);
		codec_put_s(w, (int64_t)(t->total_ns - t->max_ns));
	}
	codec_put_u(w, (uint64_t)p->n_dstacks);
	for (i = 0; i < p->n_dstacks; i++) {
		d = &p->dstack[i];
		codec_put_u(w, d->count);
		codec_put_u(w, d->total_ns);
		codec_put_s(w, (int64_t)(d->total_ns - d->max_ns));
		/* Most D stacks slept in the previous tick too (4 in 5 under a
		 * build): named by its number there, the comm with them. */
		k = pp != NULL ? prev_dstack(pp, d) : -1;
		if (k >= 0) {
			same = strncmp(d->last_comm, pp->dstack[k].last_comm,
			    sizeof(d->last_comm)) == 0;
			codec_put_u(w, (uint64_t)k * 2 + 1 + same);
			codec_put_s(w, (int64_t)d->last_tid - pp->dstack[k].last_tid);
			if (!same)
				codec_put_str(w, d->last_comm, sizeof(d->last_comm));
			continue;
		}
		codec_put_u(w, 0);
		codec_put_s(w, d->last_tid);
		codec_put_str(w, d->last_comm, sizeof(d->last_comm));
		codec_put_u(w, (uint64_t)d->stack.n);
		for (f = 0; f < d->stack.n; f++)
			enc_frame(w, seen, &n_seen, d->stack.func[f]);
	}
}

/* Every index is checked against the vector's length before it is used. */
static bool
dec_cum(struct rbuf *r, struct probes *p, bool delta)
{
	size_t total = codec_probes_cum_count(), s = 0, base = 0;
	uint64_t n, gap, at = 0, k;
	uint64_t *v;

	if (!codec_get_max(r, total, &n))
		return false;
	for (k = 0; k < n; k++) {
		gap = codec_get_u(r);
		if (r->bad || gap >= total - at)
			return false;
		at += gap;
		while (at >= base + spans[s].n)
			base += spans[s++].n;
		v = cum_at(p, s) + (at - base);
		if (delta)
			*v += (uint64_t)codec_get_s(r);
		else
			*v = codec_get_u(r);
		if (r->bad)
			return false;
		at++;
	}
	return true;
}

static bool
dec_str_u32(struct rbuf *r, uint32_t *out)
{
	uint64_t v;

	if (!codec_get_max(r, UINT32_MAX, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool
dec_tid(struct rbuf *r, int32_t *out)
{
	int v;

	if (!codec_get_sint(r, &v))
		return false;
	*out = v;
	return true;
}

static bool
dec_frame(struct rbuf *r, const char **seen, int *n_seen, char *dst)
{
	uint64_t k = codec_get_u(r);

	if (r->bad || k > (uint64_t)*n_seen)
		return false;
	if (k > 0) {
		memcpy(dst, seen[k - 1], STACK_FUNC_LEN);
		return true;
	}
	if (!codec_get_str(r, dst, STACK_FUNC_LEN))
		return false;
	if (*n_seen < N_INTERN)
		seen[(*n_seen)++] = dst;
	return true;
}

/* A longest: in PROBES as it is, in PROBES2 as the total less it. */
static bool
dec_max(struct rbuf *r, bool probes2, uint64_t total, uint64_t *max)
{
	*max = probes2 ? total - (uint64_t)codec_get_s(r) : codec_get_u(r);
	return !r->bad;
}

/* A D stack of PROBES2 after its count and times: the previous sample's
 * (pp, with DELTA) by number, or spelled out as in PROBES. */
static bool
dec_dstack_ref(struct rbuf *r, const struct probes *pp, struct probe_dstack *d,
    bool *spelled)
{
	const struct probe_dstack *ref;
	uint64_t v = codec_get_u(r);
	int64_t tid;

	*spelled = v == 0;
	if (r->bad || v == 0)
		return !r->bad;
	if (pp == NULL || (v - 1) / 2 >= (uint64_t)pp->n_dstacks)
		return false;
	ref = &pp->dstack[(v - 1) / 2];
	tid = (int64_t)ref->last_tid + codec_get_s(r);
	if (r->bad || tid < INT32_MIN || tid > INT32_MAX)
		return false;
	d->last_tid = (int32_t)tid;
	if ((v - 1) % 2 == 1)
		memcpy(d->last_comm, ref->last_comm, sizeof(d->last_comm));
	else if (!codec_get_str(r, d->last_comm, sizeof(d->last_comm)))
		return false;
	d->stack.n = ref->stack.n;
	memcpy(d->stack.func, ref->stack.func,
	    (size_t)ref->stack.n * sizeof(d->stack.func[0]));
	return true;
}

static bool
dec_tick(struct rbuf *r, struct probes *p, const struct probes *pp,
    bool probes2)
{
	const char *seen[N_INTERN];
	struct probe_task *t;
	struct probe_dstack *d;
	uint64_t kinds;
	int i, f, n_seen = 0;
	bool spelled = true;

	for (i = 0; i < STALL_KIND_COUNT; i++)
		p->stall[i].tick_max_ns = codec_get_u(r);
	if (!codec_get_int(r, PROBE_TOP_TASKS, &p->n_tasks))
		return false;
	for (i = 0; i < p->n_tasks; i++) {
		t = &p->task[i];
		if (!dec_tid(r, &t->tid) ||
		    !codec_get_max(r, (1u << STALL_KIND_COUNT) - 1, &kinds) ||
		    !codec_get_str(r, t->comm, sizeof(t->comm)) ||
		    !dec_str_u32(r, &t->count))
			return false;
		t->kinds = (uint8_t)kinds;
		t->total_ns = codec_get_u(r);
		if (!dec_max(r, probes2, t->total_ns, &t->max_ns))
			return false;
	}
	if (!codec_get_int(r, PROBE_TOP_STACKS, &p->n_dstacks))
		return false;
	for (i = 0; i < p->n_dstacks; i++) {
		d = &p->dstack[i];
		if (!dec_str_u32(r, &d->count))
			return false;
		d->total_ns = codec_get_u(r);
		if (!dec_max(r, probes2, d->total_ns, &d->max_ns) ||
		    (probes2 && !dec_dstack_ref(r, pp, d, &spelled)))
			return false;
		if (!spelled)
			continue;
		if (!dec_tid(r, &d->last_tid) ||
		    !codec_get_str(r, d->last_comm, sizeof(d->last_comm)) ||
		    !codec_get_int(r, PROBE_STACK_FRAMES, &d->stack.n))
			return false;
		for (f = 0; f < d->stack.n; f++)
			if (!dec_frame(r, seen, &n_seen, d->stack.func[f]))
				return false;
	}
	return !r->bad;
}

int
codec_dec_probes(struct dec *d, struct rbuf *r, bool probes2)
{
	const struct probes *pp = d->prev != NULL ? &d->prev->probes : NULL;
	struct probes *p = &d->s->probes;
	uint64_t flags, state, v;
	bool delta;
	size_t i;

	if (!codec_get_max(r, DELTA, &flags) ||
	    !codec_get_max(r, PROBES_UNAVAILABLE, &state))
		return codec_fail(d->err, "probes: cut short or malformed");
	delta = (flags & DELTA) != 0;
	if (state == PROBES_NONE)
		return codec_fail(d->err, "probes: written with no state");
	if (delta && (pp == NULL || pp->state == PROBES_NONE))
		return codec_fail(d->err, "probes: a delta without the "
		    "previous sample's");
	/* All of it, past the tick's counts too: only samples with probes
	 * pay for it (30 KB), and the struct reads the same byte for byte. */
	memset(p, 0, sizeof(*p));
	if (delta)	/* the cumulative figures to add to */
		for (i = 0; i < N_SPANS; i++)
			memcpy(cum_at(p, i), cum_at_c(pp, i),
			    spans[i].n * sizeof(uint64_t));
	p->state = (enum probes_state)state;
	if (!codec_get_str(r, p->why, sizeof(p->why)))
		return codec_fail(d->err, "probes: why: malformed");
	if (!codec_get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err, "probes: attached: malformed");
	p->attached = (uint32_t)v;
	if (!codec_get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err, "probes: missing: malformed");
	p->missing = (uint32_t)v;
	p->epoch = codec_get_u(r);
	if (!dec_cum(r, p, delta))
		return codec_fail(d->err, "probes: cumulative figures: an "
		    "index out of range, cut short or malformed");
	if (!dec_tick(r, p, delta ? pp : NULL, probes2))
		return codec_fail(d->err, "probes: this tick's tasks or "
		    "stacks: a count out of range, cut short or malformed");
	return codec_field_done(r, d->err, "probes");
}
