/*
 * The recording codec's task family: the encoder and decoder of the tasks
 * chunk (ids 18 and 27): the threads by state, then the stacks and the
 * blocked tasks, each of which a delta chunk may give as a reference to
 * the previous sample's equal one.
 */

#include "ptrec/codec-int.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>

/* TASKS (18) and TASKS2 (27). */

/* Where in prev's list an equal entry is: its index + 1, or 0. */
static int
stack_ref(const struct tasks *t, int i, const struct tasks *pt)
{
	unsigned long sig = tasks_stack_signature(t, i);
	const char *st, *p;
	size_t len, plen;

	st = tasks_stack_packed(t, i, &len);
	p = tasks_stack_packed(pt, i, &plen);
	if (p != NULL && tasks_stack_signature(pt, i) == sig && plen == len &&
	    memcmp(p, st, len) == 0)
		return i + 1;
	return tasks_stack_find(pt, st, len, sig) + 1;
}

/* A packed stack's frames as the recording has them: func, module. */
static void
enc_stack(struct wbuf *w, const char *p, size_t len)
{
	size_t i = 0, end, tab;

	codec_put_u(w, (uint64_t)stack_packed_frames(p, len));
	for (int k = 0; i < len && k < STACK_MAX_FRAMES; k++) {
		for (end = i; end < len && p[end] != '\n'; end++)
			;
		for (tab = i; tab < end && p[tab] != '\t'; tab++)
			;
		codec_put_u(w, tab - i);
		codec_put_bytes(w, p + i, tab - i);
		codec_put_u(w, tab < end ? end - tab - 1 : 0);
		if (tab < end)
			codec_put_bytes(w, p + tab + 1, end - tab - 1);
		i = end + 1;
	}
}

static int
blocked_ref(const struct blocked_task *b, int i, const struct tasks *pt)
{
	int k;

	if (i < pt->n_blocked && codec_blocked_same(b, &pt->b[i]))
		return i + 1;
	for (k = 0; k < pt->n_blocked; k++)
		if (pt->b[k].tid == b->tid)
			return codec_blocked_same(b, &pt->b[k]) ? k + 1 : 0;
	return 0;
}

void
codec_enc_tasks(struct wbuf *w, const struct tasks *t, const struct tasks *pt,
    double mono, bool diffs)
{
	const struct blocked_task *b;
	const char *st;
	size_t len;
	bool delta = pt != NULL;
	struct nums nw;
	int i, ref;
	uint64_t n = 0;

	if (!diffs) {
		codec_put_u(w, delta ? DELTA : 0);
		for (i = 0; i < 128; i++)
			n += t->by_state[i] != 0;
		codec_put_u(w, n);
		for (i = 0; i < 128; i++)
			if (t->by_state[i] != 0)
				codec_put_u(w, (uint64_t)i);
	}
	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);) {
		codec_num_u(&nw, t->total, delta ? pt->total : 0);
		for (i = 0; i < 128; i++)
			if (t->by_state[i] != 0)
				codec_num_u(&nw, t->by_state[i],
				    delta ? pt->by_state[i] : 0);
	}
	if (diffs)
		return;
	codec_put_u(w, t->truncated);
	codec_put_s(w, t->stack_err);
	codec_put_str(w, t->note, sizeof(t->note));

	codec_put_u(w, (uint64_t)t->n_stacks);
	for (i = 0; i < t->n_stacks; i++) {
		ref = delta ? stack_ref(t, i, pt) : 0;
		codec_put_u(w, (uint64_t)ref);
		if (ref != 0)
			continue;
		st = tasks_stack_packed(t, i, &len);
		enc_stack(w, st, len);
	}

	codec_put_u(w, (uint64_t)t->n_blocked);
	for (i = 0; i < t->n_blocked; i++) {
		b = &t->b[i];
		ref = delta ? blocked_ref(b, i, pt) : 0;
		codec_put_u(w, (uint64_t)ref);
		if (ref == 0) {
			codec_put_s(w, b->tid);
			codec_put_s(w, b->tgid);
			codec_put_str(w, b->comm, sizeof(b->comm));
			codec_put_u(w, (unsigned char)b->state);
			codec_put_str(w, b->wchan, sizeof(b->wchan));
			codec_put_s(w, codec_us(mono) - codec_us(b->since));
			codec_put_u(w, b->since_start);
			codec_put_str(w, b->cmdline, sizeof(b->cmdline));
			codec_put_str(w, b->user, sizeof(b->user));
		}
		codec_put_s(w, b->stack);
	}
}

static int
dec_stacks(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	char packed[STACK_PACKED_MAX], func[STACK_FUNC_LEN];
	char module[STACK_MODULE_LEN];
	const char *p;
	size_t len, lf, lm;
	uint64_t ref;
	int i, k, n, frames;
	bool lost;

	if (!codec_get_int(r, TASKS_MAX_STACKS, &n))
		return codec_fail(d->err, "tasks: more than %d stacks",
		    TASKS_MAX_STACKS);
	tasks_stacks_clear(t);
	for (i = 0; i < n; i++) {
		if (!codec_get_max(r, pt != NULL ? (uint64_t)pt->n_stacks : 0,
		    &ref))
			return codec_fail(d->err,
			    "tasks: stack %d: bad reference", i);
		if (ref != 0) {
			p = tasks_stack_packed(pt, (int)ref - 1, &len);
			lost = (pt->stacks_lost >> (ref - 1)) & 1;
			if (lost || tasks_stack_add_packed(t, p, len,
			    tasks_stack_signature(pt, (int)ref - 1)) < 0)
				goto lost;
			continue;
		}
		/* Packed as read: "func\tmodule\n" a frame. */
		if (!codec_get_int(r, STACK_MAX_FRAMES, &frames))
			return codec_fail(d->err, "tasks: stack %d: more "
			    "than %d frames", i, STACK_MAX_FRAMES);
		for (len = 0, k = 0; k < frames; k++) {
			if (!codec_get_str(r, func, sizeof(func)) ||
			    !codec_get_str(r, module, sizeof(module)))
				return codec_fail(d->err,
				    "tasks: stack %d frame %d: bad name", i, k);
			lf = strlen(func);
			lm = strlen(module);
			memcpy(packed + len, func, lf);
			len += lf;
			if (lm > 0) {
				packed[len++] = '\t';
				memcpy(packed + len, module, lm);
				len += lm;
			}
			packed[len++] = '\n';
		}
		if (tasks_stack_add_packed(t, packed, len,
		    stack_packed_signature(packed, len)) >= 0)
			continue;
lost:
		/* Its bytes do not fit: an empty stack no task refers to. */
		(void)tasks_stack_add_packed(t, packed, 0, 0);
		t->stacks_lost |= 1ull << i;
	}
	return 0;
}

static int
dec_blocked(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	int64_t mono = codec_us(d->s->mono), age, stack;
	struct blocked_task *b;
	uint64_t ref, v;
	int i;

	if (!codec_get_int(r, TASKS_MAX_BLOCKED, &t->n_blocked))
		return codec_fail(d->err, "tasks: more than %d blocked tasks",
		    TASKS_MAX_BLOCKED);
	for (i = 0; i < t->n_blocked; i++) {
		b = &t->b[i];
		if (!codec_get_max(r, pt != NULL ? (uint64_t)pt->n_blocked : 0,
		    &ref))
			return codec_fail(d->err,
			    "tasks: blocked task %d: bad reference", i);
		if (ref != 0)
			*b = pt->b[ref - 1];
		else {
			memset(b, 0, sizeof(*b));
			if (!codec_get_sint(r, &b->tid) ||
			    !codec_get_sint(r, &b->tgid) ||
			    !codec_get_str(r, b->comm, sizeof(b->comm)) ||
			    !codec_get_max(r, UINT8_MAX, &v))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad ids", i);
			b->state = (char)v;
			if (!codec_get_str(r, b->wchan, sizeof(b->wchan)))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad wchan", i);
			age = codec_get_s(r);
			b->since = codec_from_us((int64_t)((uint64_t)mono -
			    (uint64_t)age));
			if (!codec_get_bool(r, &b->since_start) ||
			    !codec_get_str(r, b->cmdline, sizeof(b->cmdline)) ||
			    !codec_get_str(r, b->user, sizeof(b->user)))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad strings", i);
		}
		stack = codec_get_s(r);
		if (r->bad || stack < -1 || stack >= t->n_stacks)
			return codec_fail(d->err,
			    "tasks: blocked task %d: bad stack", i);
		b->stack = (int)stack;
		/* What a recording without BLOCKED_WHY says. */
		if (b->stack >= 0 && ((t->stacks_lost >> b->stack) & 1)) {
			b->stack = -1;
			b->stack_why = STACK_NOT_KEPT;
			d->stack_lost[i / 64] |= 1ull << (i % 64);
		} else if (b->stack >= 0)
			b->stack_why = STACK_HAVE;
		else if (t->stack_err == EACCES || t->stack_err == EPERM)
			b->stack_why = STACK_DENIED;
		else if (t->stack_err == ENOENT)
			b->stack_why = STACK_NO_FILE;
		else
			b->stack_why = STACK_UNSAID;
		b->since_from = b->since_start ? SINCE_START : SINCE_SEEN;
	}
	return 0;
}

/* TASKS2: the letters, then the counts as numbers. */
static int
dec_tasks2(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	struct numr nr;
	uint64_t n, letter, k;
	uint8_t letters[128];
	bool seen[128];

	if (!codec_get_max(r, 128, &n))
		return codec_fail(d->err, "tasks: bad state count");
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < n; k++) {
		if (!codec_get_max(r, 127, &letter) || seen[letter])
			return codec_fail(d->err, "tasks: bad state letter");
		seen[letter] = true;
		letters[k] = (uint8_t)letter;
	}
	codec_numr_begin(&nr, d, r, delta, 1 + n);
	t->total = codec_numr_u32(&nr, delta ? pt->total : 0);
	for (k = 0; k < n; k++)
		t->by_state[letters[k]] = codec_numr_u32(&nr,
		    delta ? pt->by_state[letters[k]] : 0);
	if (r->bad)
		return codec_fail(d->err, "tasks: cut short or malformed");
	return 0;
}

/* What TASKS and TASKS2 have alike after the counts. */
static int
dec_tasks_rest(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	int64_t serr;

	if (!codec_get_bool(r, &t->truncated))
		return codec_fail(d->err, "tasks: bad truncated flag");
	serr = codec_get_s(r);
	if (serr < INT_MIN || serr > INT_MAX ||
	    !codec_get_str(r, t->note, sizeof(t->note)))
		return codec_fail(d->err, "tasks: bad flags or note");
	t->stack_err = (int)serr;
	if (dec_stacks(d, r, delta) < 0 || dec_blocked(d, r, delta) < 0)
		return -EINVAL;
	return codec_field_done(r, d->err, "tasks");
}

/* BLOCKED_WHY (28): u count, count x (u why no stack, u since from). */
void
codec_enc_blocked_why(struct wbuf *w, const struct tasks *t)
{
	codec_put_u(w, (uint64_t)t->n_blocked);
	for (int i = 0; i < t->n_blocked; i++) {
		enum stack_missing why = t->b[i].stack_why;

		/* Kept true to the stack whatever the scan said. */
		if (t->b[i].stack >= 0)
			why = STACK_HAVE;
		else if (why == STACK_HAVE || why >= STACK_MISSING_COUNT)
			why = STACK_UNSAID;
		codec_put_u(w, (uint64_t)why);
		codec_put_u(w, (uint64_t)t->b[i].since_from);
	}
}

int
codec_dec_blocked_why(struct dec *d, struct rbuf *r)
{
	struct tasks *t = &d->s->tasks;
	struct blocked_task *b;
	uint64_t n, why, from;

	if (d->blocked_why)
		return codec_fail(d->err, "blocked tasks' whys: twice");
	d->blocked_why = true;
	n = codec_get_u(r);
	if (r->bad || n != (uint64_t)t->n_blocked)
		return codec_fail(d->err, "blocked tasks' whys: %" PRIu64
		    " for %d tasks", n, t->n_blocked);
	for (int i = 0; i < t->n_blocked; i++) {
		b = &t->b[i];
		why = codec_get_u(r);
		from = codec_get_u(r);
		if (r->bad)
			break;
		/* A newer reason or source this reader does not know. */
		if (why >= STACK_MISSING_COUNT)
			why = STACK_UNSAID;
		if (from >= SINCE_COUNT)
			from = SINCE_SEEN;
		if ((d->stack_lost[i / 64] >> (i % 64)) & 1) {
			b->since_from = (enum blocked_since)from;
			continue;
		}
		if ((why == STACK_HAVE) != (b->stack >= 0))
			return codec_fail(d->err, "blocked task %d: why no "
			    "stack: %" PRIu64 " with stack %d", i, why,
			    b->stack);
		b->stack_why = (enum stack_missing)why;
		b->since_from = (enum blocked_since)from;
	}
	return codec_field_done(r, d->err, "blocked tasks' whys");
}

int
codec_dec_tasks(struct dec *d, struct rbuf *r)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt;
	uint64_t n, letter, k;
	bool delta, seen[128];

	if (codec_dec_flags(d, r, SRC_TASKS, "tasks", &delta) < 0)
		return -EINVAL;
	pt = delta ? &d->prev->tasks : NULL;
	if (d->v2)
		return dec_tasks2(d, r, delta) < 0 ? -EINVAL :
		    dec_tasks_rest(d, r, delta);
	t->total = codec_get_n32(r, delta, delta ? pt->total : 0);
	if (!codec_get_max(r, 128, &n))
		return codec_fail(d->err, "tasks: bad state count");
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < n; k++) {
		if (!codec_get_max(r, 127, &letter) || seen[letter])
			return codec_fail(d->err, "tasks: bad state letter");
		seen[letter] = true;
		t->by_state[letter] = codec_get_n32(r, delta,
		    delta ? pt->by_state[letter] : 0);
	}
	return dec_tasks_rest(d, r, delta);
}
