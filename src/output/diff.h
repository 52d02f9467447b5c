/*
 * Two moments of a recording side by side (pagetop diff): buddyinfo and
 * pagetypeinfo with the change per order and migratetype, the vmstat
 * counters' increases between them with rates, meminfo and PSI at both,
 * the blocked-task groups present at either, and the kernel probes'
 * figures between them. Text fits DIFF_COLUMNS, to paste into a mail; the
 * JSON is the same as one object. Increases and rates are derive.c's (its
 * reset rule), the probes' differences probe-derive.c's.
 */
#ifndef PAGETOP_DIFF_H
#define PAGETOP_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/host.h"
#include "model/sample.h"
#include "model/taskgroups.h"

#define DIFF_COLUMNS	78

/* The kernel probes: not a file of /proc, a bit of their own in a mask of
 * SRC_BIT()s. */
#define DIFF_PROBES	(1u << 30)
_Static_assert(SRC_COUNT < 30, "DIFF_PROBES is not a source's bit");

/* One moment as the tick had it: the sample with the pagetypeinfo read in
 * force copied in, and its blocked-task groups. */
struct diff_moment {
	const char *spec;		/* as typed: "mark:A", "08:21:11.2" */
	size_t index;			/* the sample picked */
	struct sample s;
	double pti_wall;		/* when its pagetypeinfo was read; NAN: none */
	bool have_groups;
	struct task_groups groups;
};

/* What to compare: the sources of mask (SRC_BIT()s, DIFF_PROBES), from a
 * to b (a no later than b; reversed: the user gave them the other way). */
struct diff_args {
	const char *path;
	const struct host *host;
	const struct diff_moment *a, *b;
	unsigned mask;
	bool reversed;
};

void diff_print(FILE *out, const struct diff_args *d);
void diff_json(FILE *out, const struct diff_args *d);

#endif
