/*
 * The recording codec's shape checks: the counts a sample may hold before
 * either side indexes by them, and whether two samples' chunks have the
 * same shape (counts, names, flags), so that a delta chunk can leave it
 * out.
 */

#include "ptrec/codec-int.h"

#include <string.h>

/*
 * The counts a sample may hold, checked before either side indexes by
 * them: the encoder trusts neither its sample nor its previous one, the
 * decoder not the previous sample it is handed.
 */
bool
codec_sample_sane(const struct sample *s)
{
	const struct tasks *t = &s->tasks;
	int i;

	if (sample_has(s, SRC_BUDDYINFO) &&
	    (s->buddy.n_orders < 0 || s->buddy.n_orders > MAX_ORDERS ||
	    s->buddy.n_zones < 0 || s->buddy.n_zones > MAX_ZONES))
		return false;
	if (sample_has(s, SRC_PAGETYPEINFO)) {
		const struct pagetypeinfo *p = &s->pti;

		if (p->n_orders < 0 || p->n_orders > MAX_ORDERS ||
		    p->n_types < 0 || p->n_types > MAX_MTYPES ||
		    p->n_free < 0 || p->n_free > MAX_ZONES * MAX_MTYPES ||
		    p->n_blocks < 0 || p->n_blocks > MAX_ZONES ||
		    p->n_mixed < 0 || p->n_mixed > MAX_ZONES)
			return false;
		for (i = 0; i < p->n_free; i++)
			if (p->free[i].type < 0 ||
			    p->free[i].type >= p->n_types ||
			    p->free[i].capped >> p->n_orders != 0)
				return false;
	}
	if (sample_has(s, SRC_VMSTAT) &&
	    (s->vm.n < 0 || s->vm.n > MAX_VMSTAT))
		return false;
	if (sample_has(s, SRC_MEMINFO) &&
	    (s->mem.n < 0 || s->mem.n > MAX_MEMINFO))
		return false;
	if (sample_has(s, SRC_ZONEINFO) &&
	    (s->zi.n_zones < 0 || s->zi.n_zones > MAX_ZONES))
		return false;
	if (s->sensors.n < 0 || s->sensors.n > MAX_SENSORS)
		return false;
	for (i = 0; i < s->sensors.n; i++)
		if ((unsigned)s->sensors.r[i].kind >= N_WIRE_KINDS)
			return false;
	if (sample_has(s, SRC_TASKS)) {
		if (t->n_blocked < 0 || t->n_blocked > TASKS_MAX_BLOCKED ||
		    t->n_stacks < 0 || t->n_stacks > TASKS_MAX_STACKS)
			return false;
		for (i = 0; i < t->n_stacks; i++)
			if (t->stack_at[i + 1] < t->stack_at[i] ||
			    t->stack_at[i + 1] > TASKS_STACK_BYTES)
				return false;
		for (i = 0; i < t->n_blocked; i++)
			if (t->b[i].stack < -1 || t->b[i].stack >= t->n_stacks)
				return false;
	}
	return true;
}

/* The previous sample had this source valid: a chunk may be a delta. */
bool
codec_prev_has(const struct sample *prev, enum source src)
{
	return prev != NULL && sample_has(prev, src);
}

bool
codec_status_same(const struct source_status *a, const struct source_status *b)
{
	return a->err == b->err && a->line == b->line &&
	    strncmp(a->msg, b->msg, sizeof(a->msg)) == 0;
}

static bool
name_same(const char *a, const char *b, size_t size)
{
	return strncmp(a, b, size) == 0;
}

/* Same shape: the chunk can leave it out. */

bool
codec_buddy_same(const struct buddyinfo *a, const struct buddyinfo *b)
{
	int i;

	if (a->n_orders != b->n_orders || a->n_zones != b->n_zones)
		return false;
	for (i = 0; i < a->n_zones; i++)
		if (a->zones[i].node != b->zones[i].node ||
		    !name_same(a->zones[i].zone, b->zones[i].zone, NAME_LEN))
			return false;
	return true;
}

static bool
rows_same(const struct pagetypeinfo_blocks *a,
    const struct pagetypeinfo_blocks *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i].node != b[i].node ||
		    !name_same(a[i].zone, b[i].zone, NAME_LEN))
			return false;
	return true;
}

bool
codec_pti_same(const struct pagetypeinfo *a, const struct pagetypeinfo *b)
{
	int i;

	if (a->pageblock_order != b->pageblock_order ||
	    a->pages_per_block != b->pages_per_block ||
	    a->n_orders != b->n_orders || a->n_types != b->n_types ||
	    a->n_free != b->n_free || a->n_blocks != b->n_blocks ||
	    a->n_mixed != b->n_mixed)
		return false;
	for (i = 0; i < a->n_types; i++)
		if (!name_same(a->types[i], b->types[i], NAME_LEN))
			return false;
	for (i = 0; i < a->n_free; i++)
		if (a->free[i].node != b->free[i].node ||
		    a->free[i].type != b->free[i].type ||
		    !name_same(a->free[i].zone, b->free[i].zone, NAME_LEN))
			return false;
	return rows_same(a->blocks, b->blocks, a->n_blocks) &&
	    rows_same(a->mixed, b->mixed, a->n_mixed);
}

bool
codec_vm_same(const struct vmstat *a, const struct vmstat *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (!name_same(a->e[i].name, b->e[i].name, VMSTAT_NAME_LEN))
			return false;
	return true;
}

bool
codec_mem_same(const struct meminfo *a, const struct meminfo *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->e[i].kb != b->e[i].kb ||
		    !name_same(a->e[i].name, b->e[i].name, MEMINFO_NAME_LEN))
			return false;
	return true;
}

bool
codec_zi_same(const struct zoneinfo *a, const struct zoneinfo *b)
{
	int i;

	if (a->n_zones != b->n_zones)
		return false;
	for (i = 0; i < a->n_zones; i++)
		if (a->zones[i].node != b->zones[i].node ||
		    a->zones[i].has != b->zones[i].has ||
		    !name_same(a->zones[i].zone, b->zones[i].zone, NAME_LEN))
			return false;
	return true;
}

unsigned
codec_psi_lines(const struct psi *p)
{
	return (p->some.present ? PSI_SOME : 0) |
	    (p->full.present ? PSI_FULL : 0);
}

bool
codec_sensors_same(const struct sensors *a, const struct sensors *b)
{
	int i;

	if (a->available != b->available || a->n != b->n ||
	    !name_same(a->why, b->why, sizeof(a->why)))
		return false;
	for (i = 0; i < a->n; i++)
		if (a->r[i].kind != b->r[i].kind ||
		    !name_same(a->r[i].chip, b->r[i].chip,
		    sizeof(a->r[i].chip)) ||
		    !name_same(a->r[i].label, b->r[i].label,
		    sizeof(a->r[i].label)))
			return false;
	return true;
}

/* Everything of a blocked task but its stack. */
bool
codec_blocked_same(const struct blocked_task *a, const struct blocked_task *b)
{
	return a->tid == b->tid && a->tgid == b->tgid &&
	    a->state == b->state && a->since_start == b->since_start &&
	    codec_us(a->since) == codec_us(b->since) &&
	    name_same(a->comm, b->comm, sizeof(a->comm)) &&
	    name_same(a->wchan, b->wchan, sizeof(a->wchan)) &&
	    name_same(a->cmdline, b->cmdline, sizeof(a->cmdline)) &&
	    name_same(a->user, b->user, sizeof(a->user));
}

/* A chunk's flags, and the previous chunk a delta chunk needs. */
int
codec_dec_flags(struct dec *d, struct rbuf *r, enum source src,
    const char *what, bool *delta)
{
	if (!codec_get_flags(r, delta))
		return codec_fail(d->err, "%s: bad flags", what);
	if (*delta && !codec_prev_has(d->prev, src))
		return codec_fail(d->err,
		    "%s: a delta without the previous sample's", what);
	if (*delta)
		d->delta_chunks |= SRC_BIT(src);
	return 0;
}
