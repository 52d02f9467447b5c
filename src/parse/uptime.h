/* /proc/uptime: seconds since boot. */
#ifndef PAGETOP_UPTIME_H
#define PAGETOP_UPTIME_H

#include <stddef.h>

#include "util/text.h"

/* "12345.67 54321.00": the first figure, in seconds. 0 or -EINVAL. */
int uptime_parse(const char *buf, size_t len, double *out, struct parse_error *err);

#endif
