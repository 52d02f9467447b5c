/* A sample as human-readable tables: the default output of `pagetop snapshot`. */
#ifndef PAGETOP_SAMPLE_TEXT_H
#define PAGETOP_SAMPLE_TEXT_H

#include <stdio.h>

#include "model/sample.h"

struct task_groups;

/* groups (NULL when not built) give each blocked task its wait reason. */
void sample_text(FILE *f, const struct sample *s, const struct task_groups *groups,
		 const char *root);

#endif
