/* A sample as human-readable tables: the default output of `pagetop snapshot`. */
#ifndef PAGETOP_SAMPLE_TEXT_H
#define PAGETOP_SAMPLE_TEXT_H

#include <stdio.h>

#include "model/sample.h"

void sample_text(FILE *f, const struct sample *s, const char *root);

#endif
