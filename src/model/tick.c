#include "model/tick.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
tick_init(struct tick *t, char *why, size_t size)
{
	memset(t, 0, sizeof(*t));
	if (!(t->pti = calloc(1, sizeof(*t->pti))) || !(t->rs = calloc(1, sizeof(*t->rs))) ||
	    !(t->groups = calloc(1, sizeof(*t->groups)))) {
		tick_free(t);
		return -ENOMEM;
	}
	tick_reset(t);
	return reasons_load_installed(t->rs, why, size);
}

void
tick_free(struct tick *t)
{
	free(t->pti);
	free(t->rs);
	free(t->groups);
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
	if (t->groups)
		t->groups->n = 0;
	tick_reset_counts(t);
}

void
tick_reset_counts(struct tick *t)
{
	t->kmsg_read = false;
	memset(t->kmsg_total, 0, sizeof(t->kmsg_total));
	t->n = 0;
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
			*t->pti = s->pti;
			t->pti_wall = s->wall;
		}
	}
	t->have_groups = sample_has(s, SRC_TASKS);
	if (t->have_groups)
		task_groups_build(&s->tasks, t->rs, s->mono, t->groups);
	else
		t->groups->n = 0;
	if (s->kmsg.read) {
		t->kmsg_read = true;
		for (int k = 0; k < s->kmsg.n && k < KMSG_MAX_EVENTS; k++)
			t->kmsg_total[s->kmsg.ev[k].kind]++;
	}
	t->n++;
}

const uint64_t *
tick_kmsg_total(const struct tick *t)
{
	return t->kmsg_read ? t->kmsg_total : NULL;
}
