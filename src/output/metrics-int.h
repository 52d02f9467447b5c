/*
 * What the catalogue (metrics.c) and the value reader (metrics-values.c)
 * share: where a series' value is in a sample, and the set itself, with
 * the figures computed once per metrics_values() call.
 */
#ifndef PAGETOP_METRICS_INT_H
#define PAGETOP_METRICS_INT_H

#include "model/frag.h"
#include "output/metrics.h"
#include "output/openmetrics.h"

/* Where a series' value is in a sample. */
enum metric_kind {
	MK_BUDDY_FREE,		/* a zone row, b order */
	MK_UNUSABLE,		/* a zone row, b order */
	MK_EXTFRAG,		/* a zone row, b order */
	MK_PTI_FREE,		/* a free row, b order */
	MK_PTI_BLOCKS,		/* a blocks row, b migratetype */
	MK_PTI_TIME,
	MK_ZONE,		/* a zoneinfo row, b field */
	MK_VMSTAT,		/* a entry */
	MK_MEMINFO,		/* a entry */
	MK_PSI_AVG,		/* a resource, b some/full, c window */
	MK_PSI_TOTAL,		/* a resource, b some/full */
	MK_THREADS,		/* a state letter */
	MK_BLOCKED,		/* a category */
	MK_BLOCKED_LONGEST,	/* a category */
	MK_SOURCE_UP,		/* a source */
	MK_KMSG,		/* a kind */
};

#define METRICS_MAX_SERIES	65536	/* far above any kernel's shape */
/* Values stay well inside int64 so that differences of two never overflow. */
#define METRICS_VALUE_MAX	((int64_t)1 << 61)

struct metric_set {
	int n_fam, cap_fam;
	struct metric_family *fam;
	int n_ser, cap_ser;
	struct metric_series *ser;
	int64_t *vals;			/* scratch for metrics_render, cap_ser long */
	bool failed;			/* out of memory while building */
	/* Per metrics_values() call: figures computed once per zone or sample. */
	struct frag frag[MAX_ZONES];
	uint64_t frag_done;
	bool cats_done;
	int cat_count[WAIT_COUNT];
	double cat_longest[WAIT_COUNT];
};

/* PSI line some (full 0) or full of resource r; NULL without the resource. */
static inline const struct psi_line *
metrics_psi_line(const struct sample *s, int r, int full)
{
	if (!sample_has(s, SRC_PSI_CPU + r))
		return NULL;
	return full ? &s->psi[r].full : &s->psi[r].some;
}

#endif
