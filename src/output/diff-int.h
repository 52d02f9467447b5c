/*
 * What diff.c (the text) and diff-json.c share: the rows of both moments
 * paired up, walked in one order by both, and the figures between them.
 */
#ifndef PAGETOP_DIFF_INT_H
#define PAGETOP_DIFF_INT_H

#include <stdbool.h>

#include "model/counters.h"
#include "model/derive.h"
#include "model/probe-derive.h"
#include "output/diff.h"

/* The counters in the order shown: reclaim, compaction, faults, swap, the rest. */
extern const enum counter diff_counters[CTR_COUNT];
extern const char *const diff_psi_names[PSI_COUNT];

bool diff_has(const struct diff_args *d, enum source src);
/* The buddyinfo row of node and zone in s, or NULL. */
const struct buddyinfo_zone *diff_bzone(const struct sample *s, int node, const char *zone);
/* Zone k of both moments' buddyinfo: a's, then b's that a lacks; false past them. */
bool diff_zone_at(const struct diff_args *d, int k, int *node, const char **zone);
/* The orders of src (buddyinfo or pagetypeinfo) at either moment. */
int diff_orders_of(const struct sample *a, const struct sample *b, enum source src);
/* Row k of the pagetypeinfo free tables' union (NULL: not at that moment);
 * rows empty at both are left out and counted in *skipped. */
bool diff_ptype_at(const struct diff_args *d, int k, const struct pagetypeinfo_free **ra,
		   const struct pagetypeinfo_free **rb, int *skipped);
const char *diff_ptype_name(const struct sample *s, const struct pagetypeinfo_free *r);
/* Both moments' counters and derive.c's figures from a to b. */
void diff_derive_moments(const struct diff_args *d, struct counters *ca, struct counters *cb,
			 struct derived *dv);
/* Whether a meminfo line is shown: it changed, or is one always shown. */
bool diff_mem_shown(const struct meminfo_entry *e, const struct meminfo *other);
/* The share of the time between the moments resource r stalled; NAN unknown. */
double diff_psi_between(const struct diff_args *d, int r, bool full);
/* Group k of both moments' task groups (NULL: not at that moment). */
bool diff_group_at(const struct diff_args *d, int k, const struct task_group **ga,
		   const struct task_group **gb);
/* The probes' figures from a to b into t; NULL, with why, when not comparable. */
const struct probe_tick *diff_probes_between(const struct diff_args *d, struct probe_tick *t,
					     const char **why);

#endif
