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
	MK_PROBE,		/* a enum probe_metric, b, c by it (metrics-probes.c) */
	MK_CAPTURE,		/* a what, b by it (metrics-capture.c) */
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
	/* What each zone's frag was computed from (bit held), kept across
	 * calls: a zone whose free lists did not move keeps its figures. */
	uint64_t frag_held;
	int frag_orders[MAX_ZONES];
	uint64_t frag_free[MAX_ZONES][MAX_ORDERS];
	bool cats_done;
	int cat_count[WAIT_COUNT];
	double cat_longest[WAIT_COUNT];
	/* The rows series check (zone and migratetype names), each once per
	 * metrics_values() call. */
	struct metric_check *check;
	uint8_t *check_ok;
	int n_check, cap_check;
	/* What metrics_values() reads of each series, packed (cap_check
	 * long): a series is 400 bytes, mostly its names. */
	struct metric_plan *plan;
	/* The sample of the last metrics_values() call, and whether every
	 * vmstat (meminfo) series found its name at its index there: a
	 * sample of its names (metrics_input.prev) need not look again. */
	const struct sample *named;
	bool vm_at, mem_at;
	/* The pagetypeinfo read the last call's values are of (0 none). */
	const struct pagetypeinfo *pti_done;
	unsigned long pti_read_done;
	/* The probe fallback pairs seen nonzero: a bit per taken type,
	 * [order][asked] (metrics_note). */
	uint8_t fb_seen[PROBE_ORDERS][PROBE_MIGRATETYPES];
};

struct metric_plan {
	int kind, a, b, check;
	int run;		/* series of its kind from it on, itself too */
};

/* What a row must hold for its series to be read from it: the node, zone
 * and migratetype a set was built with. */
struct metric_check {
	int kind;		/* MK_BUDDY_FREE (any buddyinfo kind), MK_PTI_FREE,
				 * MK_PTI_BLOCKS or MK_ZONE */
	int a, b;		/* the row; the migratetype of a blocks row */
	const struct metric_series *se;	/* the first series of it: node, key, sub */
};

/* Finds the checks of a set just built (metrics-values.c); allocates
 * them. 0, or -ENOMEM. */
int metrics_values_plan(struct metric_set *m);

/* The catalogue's builders (metrics.c), for metrics-probes.c. */
struct metric_family *metrics_fam_add(struct metric_set *m, const char *name,
				      enum metric_type type, const char *unit, const char *help);
struct metric_series *metrics_ser_add(struct metric_set *m, int kind, int a, int b, int c,
				      int decimals);
/* Sets a series' sample name suffix ("_bucket"...) and its CSV column;
 * before any label. */
void metrics_ser_suffix(struct metric_set *m, struct metric_series *se, const char *suffix);
void metrics_lab(struct metric_series *se, const char *name, const char *value);
void metrics_lab_int(struct metric_series *se, const char *name, int value);

/* The kernel probes' families (metrics-probes.c) and their values. */
void metrics_probes_build(struct metric_set *m, const struct metrics_input *in);
int64_t metrics_probes_value(const struct metric_series *se, const struct metrics_input *in);

/* The capture at the last event (metrics-capture.c) and its values. */
void metrics_capture_build(struct metric_set *m, const struct metrics_input *in);
int64_t metrics_capture_value(const struct metric_series *se, const struct metrics_input *in);

/* PSI line some (full 0) or full of resource r; NULL without the resource. */
static inline const struct psi_line *
metrics_psi_line(const struct sample *s, int r, int full)
{
	if (!sample_has(s, SRC_PSI_CPU + r))
		return NULL;
	return full ? &s->psi[r].full : &s->psi[r].some;
}

#endif
