/*
 * export's CSV: a header of the series' columns, then a row a sample. A
 * row's text depends only on its values, so with a thread to spare the
 * rows are formatted by one of their own while the caller reads and
 * derives the next samples (the values pass through a ring): reading
 * and formatting take about as long as each other.
 */
#ifndef PAGETOP_EXPORT_CSV_H
#define PAGETOP_EXPORT_CSV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/metrics.h"

struct export_csv;

/* The columns of m (built), the header written to out, which only this
 * writes to until export_csv_end(). threaded: rows formatted by a thread
 * (without one when it cannot start). NULL when out of memory. */
struct export_csv *export_csv_new(const struct metric_set *m, FILE *out, bool threaded);
/* A row: the sample's time and metrics_values()'s v. Never allocates. */
void export_csv_row(struct export_csv *c, double wall, const int64_t *v);
/* The rows all written to out (its errors are out's), and c freed. */
void export_csv_end(struct export_csv *c);

#endif
