/*
 * A recording summarised in plain text that fits a mail (78 columns):
 * host and time range, gaps, pressure, reclaim and compaction, the worst
 * moment of fragmentation per zone, the blocked-task groups, events and
 * marks. Built from the samples one at a time, in order, by accumulators:
 * a day's recording is never held in memory.
 */
#ifndef PAGETOP_REPORT_H
#define PAGETOP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/reasons.h"
#include "model/feed.h"
#include "model/sample.h"

struct report;

/* A report on feed f (a recording); rs (kept, not copied) names the
 * reasons of blocked tasks. path is the recording's name for the heading.
 * NULL when out of memory. */
struct report *report_new(const struct feed *f, const struct reasons *rs, const char *path);
void report_free(struct report *rep);

/*
 * Adds the next sample, in time order. prev is the sample decoded just
 * before it, or NULL when there is none (the first, or the first after
 * damage): rates and totals carry on across it, events are looked for
 * only between neighbours.
 */
void report_add(struct report *rep, const struct sample *prev, const struct sample *cur);

/*
 * Adds samples from..to of f in order, and takes the marks and gaps of
 * the recording between their times. Returns how many samples could not
 * be decoded (damage); they are counted in the report too.
 */
size_t report_feed(struct report *rep, struct feed *f, size_t from, size_t to);

/* A line under the heading naming what part of the recording this is
 * ("Phase: 2 of 3, ..."), for a report per phase; "" (the default): none. */
void report_set_title(struct report *rep, const char *title);

/* Prints the summary; every line is at most REPORT_COLUMNS wide. */
void report_print(struct report *rep, FILE *out);

#define REPORT_COLUMNS	78

#endif
