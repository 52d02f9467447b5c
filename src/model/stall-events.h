/* Moments worth stopping at in a recording, found between a sample and
 * the one before it: replay's n/N steps to them, report lists them. */
#ifndef PAGETOP_STALL_EVENTS_H
#define PAGETOP_STALL_EVENTS_H

#include <stdbool.h>

#include "model/counters.h"
#include "model/sample.h"

/* PSI memory "some" avg10 rising to this (hundredths of a percent, as
 * the kernel prints it) or past it is an event. */
#define STALL_PSI_MEMORY	1000

enum stall_event {
	STALL_EV_PSI_MEMORY = 1,	/* memory pressure rose past 10% */
	STALL_EV_RECLAIM = 2,		/* direct reclaim or compaction stalls began */
	STALL_EV_BLOCKED = 4,		/* a task blocked in a way not seen just before */
};

/*
 * The events (a mask of enum stall_event) at cur, after prev. pc and cc are
 * the counters of prev and cur (counters_from_vmstat). *stalling carries
 * from call to call whether stalls went on at the sample before; *new_task
 * is the index in cur->tasks.b of the task behind STALL_EV_BLOCKED, or -1.
 */
unsigned stall_events(const struct sample *prev, const struct counters *pc,
		      const struct sample *cur, const struct counters *cc, bool *stalling,
		      int *new_task);

/*
 * Every way of blocking new at cur (a stack, or without one a wchan, that
 * no task of prev was blocked with): how many, with the index in
 * cur->tasks.b of the first task of each in tasks[], at most cap of them.
 * Several can come at once: an fsync and the journal thread it waits on.
 */
int stall_new_blocked(const struct sample *prev, const struct sample *cur, int *tasks,
		      int cap);

#endif
