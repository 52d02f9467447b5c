/* A sample as human-readable tables: the default output of `pagetop snapshot`. */
#ifndef PAGETOP_SAMPLE_TEXT_H
#define PAGETOP_SAMPLE_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "model/sample.h"

struct task_groups;

/* groups (NULL when not built) give each blocked task its wait reason. */
void sample_text(FILE *f, const struct sample *s, const struct task_groups *groups,
		 const char *root);

/* The kernel probes of s as a readable block: this tick's figures from
 * prev's (NULL: none, then those since the probes attached), the tasks
 * and D stacks of the tick. */
void sample_text_probes(FILE *f, const struct sample *s, const struct sample *prev);
/* The capture at an event, when s has one (sample-text-capture.c). */
void sample_text_capture(FILE *f, const struct sample *s);
/* A duration in ns as "12 us", "3.40 ms", "1.20 s". */
void sample_text_ns(uint64_t ns, char *dst, size_t size);

#endif
