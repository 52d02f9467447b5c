/*
 * Two recordings compared, figure by figure, as mmtests' compare-kernels
 * does for benchmarks: for each figure of memory pressure A's value, B's,
 * the change in per cent, and whether the change stands out of the runs'
 * own noise (Mann-Whitney U on the means over blocks of equal time,
 * compare-stats.h). The whole window first, then each phase between
 * marks that both recordings have, matched by the marks' text.
 *
 * Built from the samples one at a time, in one pass over each recording:
 * a span keeps sums over at most COMPARE_BLOCKS blocks of each figure, so
 * a day's recording costs what an hour's does.
 */
#ifndef PAGETOP_COMPARE_H
#define PAGETOP_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "model/feed.h"
#include "model/reasons.h"

#define COMPARE_PHASES	32	/* marks in a window; more: the window alone */
#define COMPARE_COLUMNS	78

struct compare_run;

/* The samples from..to (both included) of f, a recording named path
 * (kept, not copied), with a span for the window and one for each phase
 * between its marks in it. NULL when out of memory. */
struct compare_run *compare_run_new(const struct feed *f, const char *path, size_t from,
				    size_t to);
void compare_run_free(struct compare_run *r);
/* Reads the window's samples in order; rs (kept while it runs) names the
 * reasons of blocked tasks. Returns how many could not be decoded (*why:
 * the first one's why), or -1 when out of memory. */
long compare_run_feed(struct compare_run *r, struct feed *f, const struct reasons *rs,
		      const char **why);

/* A against B as text, every line at most COMPARE_COLUMNS wide. */
void compare_print(FILE *out, const struct compare_run *a, const struct compare_run *b);
/* The same as one JSON object. */
void compare_json(FILE *out, const struct compare_run *a, const struct compare_run *b);

#endif
