/* A sample's files printed as the kernel prints them, for `pagetop dump`:
 * what a VM developer asks for ("post /proc/buddyinfo before and after"). */
#ifndef PAGETOP_SAMPLE_PROC_H
#define PAGETOP_SAMPLE_PROC_H

#include <stdbool.h>
#include <stdio.h>

#include "model/sample.h"

/* Prints source src of s in today's kernel format; false when s does not
 * hold it. Tasks print as one /proc/PID/stack per blocked task, headed by
 * a line with its tid, command, state and wchan. */
bool sample_proc_print(FILE *f, const struct sample *s, enum source src);

#endif
