/*
 * A sample's figures as Prometheus metrics: families (name, type, unit,
 * help) and their series (labels, and where in a sample the value is).
 * A set is built from one sample's shape and then read from any sample of
 * that shape: `serve` renders the newest sample as an exposition, `export`
 * writes a recording as timestamped OpenMetrics or as CSV columns. Values
 * are exact fixed-point integers, v / 10^decimals, as the kernel's own
 * figures are (thousandths of an index, microseconds of stall), so nothing
 * is rounded on the way.
 */
#ifndef PAGETOP_METRICS_H
#define PAGETOP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sample.h"
#include "model/taskgroups.h"
#include "model/tick.h"

/* A series with no value in a sample (its source missing or shaped otherwise). */
#define METRIC_NONE	INT64_MIN

enum metric_type { METRIC_GAUGE, METRIC_COUNTER, METRIC_HISTOGRAM };

/* Where a series goes (metric_series.where): a histogram's buckets and the
 * series of a shape that changes (fallbacks by migratetype pair) are not
 * CSV columns; a total is a CSV column only (Prometheus sums the series);
 * a counter's _created is OpenMetrics only (0.0.4 has no such line). */
#define METRIC_NOT_CSV		1u
#define METRIC_ONLY_CSV		2u
#define METRIC_ONLY_OM		4u

struct metric_family {
	char name[80];		/* "pagetop_vmstat_pgscan_kswapd"; counters add "_total" */
	enum metric_type type;
	const char *unit;	/* "bytes", "seconds", "ratio" or "" (a suffix of name) */
	const char *help;
	char key[VMSTAT_NAME_LEN];	/* the kernel's name, after help: "MemTotal" */
	int first, n;		/* its series in the set */
};

/* What metrics_values() reads of every series comes first, together; the
 * names for the text formats after. */
struct metric_series {
	int kind;		/* where the value is: see metrics-int.h */
	int a, b, c;		/* row, order, type, field... by kind */
	/* Found once a build (metrics-values.c): the check of its row that
	 * series of the same row share, or -1; for a name, key's whole
	 * words before the one with its NUL, and that word's mask. */
	int check;
	int key_words;
	uint64_t key_mask;
	int node;		/* with key and sub: what the row must hold, */
	char key[VMSTAT_NAME_LEN];	/* checked in every sample so a row */
	char sub[NAME_LEN];	/* that moved is never misread */
	int decimals;
	int family;
	const char *suffix;	/* NULL: the type's ("_total" for a counter);
				 * "_bucket", "_sum", "_count", "_created" */
	unsigned where;		/* METRIC_NOT_CSV... */
	char labels[128];	/* node="0",zone="Normal",order="3"; "" for none */
	char column[128];	/* for CSV: buddyinfo_free_blocks.0.Normal.3 */
};

/* What a set reads: a sample, the pagetypeinfo read in force (it is read
 * less often than the rest) and the blocked tasks' groups. */
struct metrics_input {
	const struct sample *s;
	const struct pagetypeinfo *pti;	/* NULL when none was read */
	double pti_wall;		/* when it was read */
	unsigned long pti_read;		/* which read it is (tick.pti_reads); 0 not known */
	const struct task_groups *groups;	/* NULL: tasks without categories */
	/* Kernel log events per enum kmsg_kind since the start (a counter
	 * the caller keeps, from each sample's kmsg); NULL: no kernel log. */
	const uint64_t *kmsg_total;
	/* The capture at the last event, in force until the next one
	 * (model/capture.h); NULL before any. */
	const struct capture *cap;
	/* When s is a delta of the sample of the previous metrics_values()
	 * call, that sample, unchanged since (export reading in order),
	 * and the sources of s in its shape, with its names (SRC_BIT()s,
	 * tick.same_shape): their names are not looked at again. NULL and
	 * 0 when not known (metrics_input_of). With prev, v holds what
	 * the previous call wrote: what has not moved is left there. */
	const struct sample *prev;
	unsigned same_shape;
};

/* --source names, as `dump` takes them, plus zoneinfo; "all" is every one. */
#define METRICS_SRC_BUDDYINFO		SRC_BIT(SRC_BUDDYINFO)
#define METRICS_SRC_PAGETYPEINFO	SRC_BIT(SRC_PAGETYPEINFO)
#define METRICS_SRC_PROBES		(1u << 31)	/* not a file: the kernel probes */
#define METRICS_SRC_CAPTURE		(1u << 30)	/* the capture at the last event */
#define METRICS_SRC_PRESSURE		(SRC_BIT(SRC_PSI_CPU) | SRC_BIT(SRC_PSI_MEMORY) | \
					 SRC_BIT(SRC_PSI_IO) | SRC_BIT(SRC_PSI_IRQ))
/* 0 with the bits of name (or of a comma-separated list) or'ed into mask;
 * -1 for an unknown name. */
int metrics_source_parse(const char *name, unsigned *mask);

struct metric_set;

struct metric_set *metrics_new(void);
void metrics_free(struct metric_set *m);
/* (Re)builds m from the shape of in, keeping the families of the sources in
 * mask (SRC_BIT()s; ~0u for all). Allocates only when m must grow.
 * 0, or -ENOMEM. */
int metrics_build(struct metric_set *m, const struct metrics_input *in, unsigned mask);
/* Remembers what in holds that a later build must keep a series for: the
 * probe fallback pairs seen nonzero (a counter that went back to 0 at a
 * reattach keeps its series). metrics_build() notes its own input; export
 * notes every sample first, so that a set built once holds them all. */
void metrics_note(struct metric_set *m, const struct metrics_input *in);
int metrics_n_families(const struct metric_set *m);
int metrics_n_series(const struct metric_set *m);
const struct metric_family *metrics_family(const struct metric_set *m, int f);
const struct metric_series *metrics_series(const struct metric_set *m, int i);
/* The value of every series in in: v[metrics_n_series()], METRIC_NONE where
 * there is none. Never allocates. */
void metrics_values(struct metric_set *m, const struct metrics_input *in, int64_t *v);

/* What a tick offers the metrics: the sample and what is in force. Kernel
 * events are counted only where the log could be read. */
static inline struct metrics_input
metrics_input_of(struct tick *t)
{
	return (struct metrics_input){
		.s = t->s,
		.pti = t->have_pti ? t->pti : NULL,
		.pti_wall = t->pti_wall,
		.pti_read = t->have_pti ? t->pti_reads : 0,
		.groups = tick_groups(t),
		.kmsg_total = t->s->kmsg.err ? NULL : tick_kmsg_total(t),
		.cap = t->have_cap ? t->cap : NULL,
	};
}

#endif
