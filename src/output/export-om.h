/*
 * A recording as one OpenMetrics exposition with timestamps, for
 * `promtool tsdb create-blocks-from openmetrics`. OpenMetrics wants every
 * series whole before the next (families and metrics must not interleave),
 * while a recording gives every series one sample at a time: rows go into
 * blocks in memory, each block's columns are delta- and varint-encoded
 * into an unlinked temporary file, and the exposition is written column
 * by column from there. Memory stays a few megabytes however long the
 * recording; the temporary file is about a byte per value (55 MB for a
 * day at 1 s with 585 series).
 */
#ifndef PAGETOP_EXPORT_OM_H
#define PAGETOP_EXPORT_OM_H

#include <stdint.h>
#include <stdio.h>

#include "output/metrics.h"

struct export_om;

/* NULL with why when out of memory or no temporary file can be made. */
struct export_om *export_om_new(const struct metric_set *m, char *why, size_t size);
void export_om_free(struct export_om *x);
/* One row: the values of every series of the set at wall time wall (s). */
int export_om_push(struct export_om *x, double wall, const int64_t *v, char *why, size_t size);
/* Writes the exposition, "# EOF" last. 0, or -errno with why. */
int export_om_write(struct export_om *x, FILE *out, char *why, size_t size);

#endif
