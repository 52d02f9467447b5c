/* /proc/stat: the "processes" line, the forks and clones since boot. */
#ifndef PAGETOP_PROCSTAT_H
#define PAGETOP_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

/* "processes 26442": N into *processes. 0, or -EINVAL with the line (0:
 * none) when there is no such line or its N is not a number. */
int procstat_parse(const char *buf, size_t len, uint64_t *processes, struct parse_error *err);

#endif
