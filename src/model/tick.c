#include "model/tick.h"

#include "util/zero-map.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
tick_init(struct tick *t, char *why, size_t size)
{
	memset(t, 0, sizeof(*t));
	/* Mapped, not calloc()ed: each is large and mostly unused (a few
	 * blocked tasks' groups, a capture only at an event), and calloc()
	 * clears reused heap memory whole, making every page resident. */
	if (!(t->pti = zero_map(sizeof(*t->pti))) || !(t->rs = zero_map(sizeof(*t->rs))) ||
	    !(t->groups = zero_map(sizeof(*t->groups))) || !(t->cap = zero_map(sizeof(*t->cap))) ||
	    !(t->groups->scratch = zero_map(sizeof(*t->groups->scratch)))) {
		tick_free(t);
		return -ENOMEM;
	}
	tick_reset(t);
	return reasons_load_installed(t->rs, why, size);
}

void
tick_free(struct tick *t)
{
	zero_unmap(t->pti, sizeof(*t->pti));
	zero_unmap(t->rs, sizeof(*t->rs));
	if (t->groups)
		zero_unmap(t->groups->scratch, sizeof(*t->groups->scratch));
	zero_unmap(t->groups, sizeof(*t->groups));
	zero_unmap(t->cap, sizeof(*t->cap));
	t->cap = NULL;
	t->pti = NULL;
	t->rs = NULL;
	t->groups = NULL;
}

void
tick_reset(struct tick *t)
{
	for (int i = 0; i < SRC_COUNT; i++)
		t->status[i] = (struct source_status){ .err = SRC_NOT_READ };
	t->have_pti = false;
	t->pti_wall = 0;
	t->have_groups = false;
	t->groups_built = false;
	t->have_cap = false;
	tick_reset_counts(t);
}

void
tick_reset_counts(struct tick *t)
{
	t->kmsg_read = false;
	memset(t->kmsg_total, 0, sizeof(t->kmsg_total));
	t->n = 0;
}

/* The rows in use only: a whole struct pagetypeinfo is 96 KB, mostly
 * room for zones and migratetypes this machine does not have. */
static void
tick_keep_pti(struct pagetypeinfo *dst, const struct pagetypeinfo *src)
{
	dst->pageblock_order = src->pageblock_order;
	dst->pages_per_block = src->pages_per_block;
	dst->n_orders = src->n_orders;
	dst->n_types = src->n_types;
	memcpy(dst->types, src->types, (size_t)src->n_types * sizeof(src->types[0]));
	dst->n_free = src->n_free;
	memcpy(dst->free, src->free, (size_t)src->n_free * sizeof(src->free[0]));
	dst->n_blocks = src->n_blocks;
	memcpy(dst->blocks, src->blocks, (size_t)src->n_blocks * sizeof(src->blocks[0]));
	dst->n_mixed = src->n_mixed;
	memcpy(dst->mixed, src->mixed, (size_t)src->n_mixed * sizeof(src->mixed[0]));
}

void
tick_update(struct tick *t)
{
	const struct sample *s = t->s;

	for (int i = 0; i < SRC_COUNT; i++)
		if (s->status[i].err != SRC_NOT_READ)
			t->status[i] = s->status[i];
	/* Between reads of pagetypeinfo, the last read stays in force. */
	if (s->status[SRC_PAGETYPEINFO].err != SRC_NOT_READ) {
		t->have_pti = sample_has(s, SRC_PAGETYPEINFO);
		if (t->have_pti) {
			tick_keep_pti(t->pti, &s->pti);
			t->pti_wall = s->wall;
			t->pti_reads++;
		}
	}
	t->have_groups = sample_has(s, SRC_TASKS);
	t->groups_built = false;
	/* A capture stays in force until the next (42 KB, at an event only). */
	if (s->n_capture > 0) {
		memcpy(t->cap, &s->capture, sizeof(*t->cap));
		t->have_cap = true;
	}
	if (s->kmsg.read) {
		t->kmsg_read = true;
		for (int k = 0; k < s->kmsg.n && k < KMSG_MAX_EVENTS; k++)
			t->kmsg_total[s->kmsg.ev[k].kind] += kmsg_event_count(&s->kmsg.ev[k]);
	}
	t->n++;
}

const struct task_groups *
tick_groups(struct tick *t)
{
	if (!t->have_groups)
		return NULL;
	if (!t->groups_built) {
		task_groups_build(&t->s->tasks, t->rs, t->s->mono, t->groups);
		t->groups_built = true;
	}
	return t->groups;
}

const uint64_t *
tick_kmsg_total(const struct tick *t)
{
	return t->kmsg_read ? t->kmsg_total : NULL;
}
