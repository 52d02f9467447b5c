/*
 * What the parts of compare share: a recording's spans (the window and
 * its phases) with their figures summed over blocks of equal time
 * (compare-acc.c), the rows that pair two spans' figures with the change
 * and the test (compare.c), the spans paired by their marks and the hosts
 * side by side (compare-match.c), and the writers (compare-text.c,
 * compare-json.c), which walk the same rows in the same order.
 */
#ifndef PAGETOP_COMPARE_INT_H
#define PAGETOP_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/counters.h"
#include "model/host.h"
#include "model/probe-derive.h"
#include "model/sample.h"
#include "output/compare-stats.h"
#include "output/compare.h"
#include "parse/kmsg.h"

#define COMPARE_BLOCKS		COMPARE_STATS_MAX	/* per span and figure, at most */
#define COMPARE_MIN_BLOCKS	4	/* on each side, for a test */
#define COMPARE_ALPHA		0.01	/* p below it: the change stands out */
#define COMPARE_ZONES		16	/* zones followed in a recording */

/* How a figure's sums over an interval read. */
enum compare_kind {
	CMPK_RATE,	/* num an increase, den seconds: total, per second */
	CMPK_SHARE,	/* num microseconds (stalled, awake), den seconds: total
			 * seconds, share of the time (derive_share) */
	CMPK_RATIO,	/* num part, den whole of two increases (derive_ratio) */
	CMPK_TIME,	/* num seconds in a state, den seconds: total, % of time */
	CMPK_MEAN,	/* num value x seconds, den seconds: the mean over time */
	CMPK_MAX,	/* num the largest value, den 1 once seen */
};

/* The figures, each with its slot in a span's cells. */
enum {
	FIG_CTR = 0,					/* + enum counter */
	FIG_PSI = FIG_CTR + CTR_COUNT,			/* + 2 * resource + full */
	FIG_EFF = FIG_PSI + 2 * PSI_COUNT,		/* kswapd, direct, compaction */
	FIG_BLOCKED = FIG_EFF + 3,			/* tasks in D, the mean */
	FIG_KMSG = FIG_BLOCKED + 1,			/* + enum kmsg_kind */
	FIG_PROBE = FIG_KMSG + KMSG_KIND_COUNT,		/* + stall kind: stalls */
	FIG_PROBE_NS = FIG_PROBE + STALL_KIND_COUNT,	/* + stall kind: time stalled */
	FIG_FALLBACK = FIG_PROBE_NS + STALL_KIND_COUNT,
	FIG_KSWAPD_AWAKE,
	FIG_KCOMPACTD_AWAKE,
	FIG_ZONE,					/* + 4 * zone slot + k */
	FIG_COUNT = FIG_ZONE + 4 * COMPARE_ZONES
};

/* A zone figure k: the time below order 2, 3, the pageblock order, and
 * the worst unusable index at the pageblock order. */
#define ZONE_FIG_WORST	3

enum compare_kind compare_fig_kind(int fig);

struct compare_cell {
	double num, den;
};

enum compare_role { CMP_WHOLE, CMP_BEFORE, CMP_MARK };

struct report;

struct compare_span {
	enum compare_role role;
	char name[200];		/* CMP_MARK: the mark's text; CMP_BEFORE: the first mark's */
	int occurrence;		/* CMP_MARK: 1 for the first mark of this text, 2... */
	double mark_wall;	/* CMP_MARK */
	size_t from, to;	/* samples, both included */
	double t0, t1;		/* their wall times */
	int n_blocks;
	size_t samples, lost;
	bool tasks_seen;	/* a task scan in the span */
	bool kmsg_seen;		/* the kernel log read in the span */
	bool probes_seen;	/* a probe tick in the span */
	/* The blocked-task groups, by the report's accumulators. */
	struct report *rep;	/* while the span is being read */
	int groups;
	double longest, blocked;	/* seconds: the longest spell, all spells */
	struct compare_cell cell[FIG_COUNT][COMPARE_BLOCKS];
};

/* A zone the recording's buddyinfo has, in the order first seen. */
struct compare_zone {
	int node;
	char name[NAME_LEN];
};

#define COMPARE_SPANS	(COMPARE_PHASES + 2)	/* the window, before, phases */

struct compare_run {
	const char *path;
	struct host host;
	double interval;
	size_t count;		/* samples in the recording */
	size_t from, to;	/* the window, both included */
	double first, last;	/* its wall times */
	size_t n_spans;
	struct compare_span *span[COMPARE_SPANS];
	size_t marks_dropped;	/* marks past COMPARE_PHASES: no phases then */
	int pageblock_order;
	int n_zones;
	struct compare_zone zone[COMPARE_ZONES];
	bool zones_lost;
	size_t lost;		/* samples that would not decode */
	char first_why[300];	/* the first one's why */
	/* The step from the previous sample: scratch of compare_run_feed(). */
	struct counters_map map;
	struct counters prev_ctr;
	bool have_prev_ctr;
	struct probe_tick ptick;
	struct compare_cell step[FIG_COUNT];
};

/* A row: one figure of two spans side by side. */
struct compare_row {
	const char *section;	/* its id, "pressure"; a section's rows follow each other */
	const char *title;	/* the section's heading, with its units */
	char name[48];		/* already escaped */
	const char *unit;	/* of mean: "/s", "%", "", "s" */
	const char *total_unit;	/* of total: "", "s", ... NULL: no total */
	bool single;		/* one value a run, no blocks: no test */
	double a_total, b_total;	/* NAN: none */
	double a, b;		/* the mean (or the value); NAN: not in that run */
	double change;		/* per cent, NAN when a is 0 or missing */
	double p;		/* NAN: not tested (too few blocks, a single value) */
	int a_blocks, b_blocks;
	bool stands_out;
};

#define COMPARE_ROWS	(FIG_COUNT + 2 * COMPARE_ZONES * 4 + 8)

/* The rows of span a of run ra against span b of rb, into rows (at least
 * COMPARE_ROWS); how many. notes (size bytes) gets what was left out,
 * one line each ("kernel probes: only A has them"). */
int compare_rows(const struct compare_run *ra, const struct compare_span *a,
		 const struct compare_run *rb, const struct compare_span *b,
		 struct compare_row *rows, char *notes, size_t size);

/* The spans of A and B compared, in order: the window, then each phase
 * matched by its mark's text. */
struct compare_pair {
	const struct compare_span *a, *b;
};
int compare_pairs(const struct compare_run *ra, const struct compare_run *rb,
		  struct compare_pair *pairs, int max);
/* Whether span sp is in one of the n pairs. */
bool compare_paired(const struct compare_pair *pairs, int n, const struct compare_span *sp);

/* The hosts' facts side by side: row k (false past the last) as text
 * (escaped, size bytes each), *differs when the machines' differ. */
bool compare_fact(const struct compare_run *ra, const struct compare_run *rb, int k,
		  const char **label, char *a, char *b, size_t size, bool *differs);
/* The warnings (intervals, machines), one line each into dst. */
void compare_warnings(const struct compare_run *ra, const struct compare_run *rb, char *dst,
		      size_t size);

#endif
