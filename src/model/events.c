#include "model/events.h"

#include <stdlib.h>
#include <string.h>

struct events *
events_new(size_t cap)
{
	struct events *ev = calloc(1, sizeof(*ev));

	if (!ev || cap == 0 || !(ev->e = calloc(cap, sizeof(*ev->e))) ||
	    !(ev->caps = calloc(EVENTS_CAPTURES, sizeof(*ev->caps)))) {
		if (ev)
			free(ev->e);
		free(ev);
		return NULL;
	}
	ev->cap = cap;
	return ev;
}

void
events_free(struct events *ev)
{
	if (!ev)
		return;
	free(ev->e);
	free(ev->caps);
	free(ev);
}

void
events_reset(struct events *ev)
{
	ev->next = 0;
	ev->lost = 0;
	ev->dropped = 0;
	ev->caps_next = 0;
}

void
events_push(struct events *ev, uint64_t hseq, const struct sample *s)
{
	const struct kmsg_sample *k = &s->kmsg;

	ev->lost += k->lost;
	ev->dropped += k->dropped;
	for (int i = 0; i < k->n && i < KMSG_MAX_EVENTS; i++) {
		struct event_entry *e = &ev->e[ev->next % ev->cap];

		e->hseq = hseq;
		e->wall = kmsg_event_wall(&k->ev[i], s->wall, s->mono);
		e->ev = k->ev[i];
		ev->next++;
	}
	/* What was read at the event stays with it (Enter on the Events screen). */
	if (s->n_capture > 0)
		ev->caps[ev->caps_next++ % EVENTS_CAPTURES] = s->capture;
}

const struct capture *
events_capture(const struct events *ev, uint64_t seq)
{
	uint64_t n = ev->caps_next < EVENTS_CAPTURES ? ev->caps_next : EVENTS_CAPTURES;

	for (uint64_t k = 1; k <= n; k++) {
		const struct capture *c = &ev->caps[(ev->caps_next - k) % EVENTS_CAPTURES];

		if (c->trigger == CAPTURE_KMSG && c->seq == seq)
			return c;
	}
	return NULL;
}

bool
events_range(const struct events *ev, uint64_t *first, uint64_t *last)
{
	if (ev->next == 0)
		return false;
	*last = ev->next - 1;
	*first = ev->next > ev->cap ? ev->next - ev->cap : 0;
	return true;
}

const struct event_entry *
events_get(const struct events *ev, uint64_t i)
{
	if (i >= ev->next || ev->next - i > ev->cap)
		return NULL;
	return &ev->e[i % ev->cap];
}

bool
events_last_at(const struct events *ev, uint64_t hseq, uint64_t *i)
{
	uint64_t first, last;

	if (!events_range(ev, &first, &last))
		return false;
	/* Events arrive in history order: walk back from the newest. */
	for (uint64_t k = last + 1; k-- > first;)
		if (events_get(ev, k)->hseq <= hseq) {
			*i = k;
			return true;
		}
	return false;
}
