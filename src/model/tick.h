/*
 * A tick: one sample plus what stays in force between reads, kept in one
 * place for every output. pagetypeinfo is read less often than the rest
 * (it takes the zone lock), so the last read and its time stay in force;
 * a source not read on this tick keeps the status of its last read; the
 * blocked tasks are grouped by how they wait; the capture at the last
 * event stays in force until the next; kernel-log events are
 * counted since the tick began. The feeds fill t->s and call
 * tick_update(); the dashboard, record, serve, snapshot, dump, report and
 * export all read the result.
 */
#ifndef PAGETOP_TICK_H
#define PAGETOP_TICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/reasons.h"
#include "model/sample.h"
#include "model/taskgroups.h"

struct tick {
	struct sample *s;		/* this tick's sample (the feed's) */
	const struct sample *prev;	/* the sample before it, when the feed has it */
	/* Bit per source (SRC_BIT) whose data in s has prev's shape and
	 * names (a recording's delta chunk); 0 when not known. */
	unsigned same_shape;
	/* Each source's status; for a source not read on this tick, that
	 * of its last read. */
	struct source_status status[SRC_COUNT];
	struct pagetypeinfo *pti;	/* the last read in force, when have_pti */
	bool have_pti;
	double pti_wall;		/* when it was read */
	unsigned long pti_reads;	/* reads kept, ever (not reset): a new one when it moves */
	struct reasons *rs;		/* the wait-reason table */
	struct task_groups *groups;	/* s's blocked tasks: see tick_groups() */
	bool have_groups;		/* s holds a task scan */
	bool groups_built;		/* groups are s's (built on demand) */
	struct capture *cap;		/* the capture at the last event, when have_cap */
	bool have_cap;
	bool kmsg_read;			/* a kernel log was read since tick_reset() */
	uint64_t kmsg_total[KMSG_KIND_COUNT];	/* events per kind since then */
	unsigned long n;		/* ticks since tick_reset() */
};

/* Allocates what the tick keeps and loads the installed wait-reason table
 * (data/wait-reasons and the user's ~/.config/pagetop/wait-reasons).
 * 0; -ENOMEM; or the table's error with why (-EINVAL: malformed, a bad
 * input; otherwise missing), when the tick still works: tasks are then
 * explained by their first frame. */
int tick_init(struct tick *t, char *why, size_t size);
void tick_free(struct tick *t);
/* Forgets what is in force: a recording's seek elsewhere. */
void tick_reset(struct tick *t);
/* Keeps what is in force but counts from here: kernel-log totals, n. */
void tick_reset_counts(struct tick *t);
/* Takes in t->s (filled by the feed). Never allocates. */
void tick_update(struct tick *t);
/* s's blocked tasks grouped by how they wait, or NULL without a task scan.
 * Built the first time a tick asks, so a walk that never looks (report,
 * a seek's look-back) does not pay for it. Never allocates. */
const struct task_groups *tick_groups(struct tick *t);
/* The kernel-log totals, or NULL when no log is read (or it failed). */
const uint64_t *tick_kmsg_total(const struct tick *t);

#endif
