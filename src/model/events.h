/*
 * The kernel log events the dashboard has seen: a ring of its own beside
 * the history, allocated once, filled where samples are pushed into the
 * history. Each event keeps the history entry it arrived with, so the
 * screens show the events up to the sample shown (paused or replayed).
 */
#ifndef PAGETOP_EVENTS_H
#define PAGETOP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/kmsg.h"
#include "model/sample.h"

#define EVENTS_KEPT	256

struct event_entry {
	uint64_t hseq;			/* the history entry it arrived with */
	double wall;			/* when the kernel printed it */
	struct kmsg_event ev;
};

struct events {
	size_t cap;
	uint64_t next;			/* number of the next event pushed */
	uint64_t lost;			/* records overwritten, events dropped: totals */
	uint64_t dropped;
	struct event_entry *e;		/* cap entries */
	struct capture *caps;		/* EVENTS_CAPTURES: the newest captures */
	uint64_t caps_next;
};

#define EVENTS_CAPTURES	8	/* captures kept with the events (42 KB each) */

/* NULL when out of memory. */
struct events *events_new(size_t cap);
void events_free(struct events *ev);
/* Empties the ring (a replay's seek), keeping its memory. */
void events_reset(struct events *ev);
/* The events of sample s, which went into the history as entry hseq. */
void events_push(struct events *ev, uint64_t hseq, const struct sample *s);
/* The oldest and newest event numbers held; false when empty. */
bool events_range(const struct events *ev, uint64_t *first, uint64_t *last);
/* Event number i, or NULL when not (or no longer) held. */
const struct event_entry *events_get(const struct events *ev, uint64_t i);
/* The newest event that arrived with history entry hseq or before it:
 * its number in *i; false when there is none. */
/* The capture read at kernel-log record seq, or NULL when none is kept. */
const struct capture *events_capture(const struct events *ev, uint64_t seq);
bool events_last_at(const struct events *ev, uint64_t hseq, uint64_t *i);

#endif
