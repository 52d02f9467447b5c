/* /proc/buddyinfo: free blocks per node, zone and order. */
#ifndef PAGETOP_BUDDYINFO_H
#define PAGETOP_BUDDYINFO_H

#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "util/text.h"

struct buddyinfo_zone {
	int node;
	char zone[NAME_LEN];
	uint64_t free[MAX_ORDERS];	/* free blocks of 2^order pages */
};

struct buddyinfo {
	int n_orders;			/* the same for every row */
	int n_zones;
	struct buddyinfo_zone zones[MAX_ZONES];
};

/* 0, or -EINVAL with err saying which line is wrong. Rows keep the file's
 * order; every row must have the same number of counts (1..MAX_ORDERS). */
int buddyinfo_parse(const char *buf, size_t len, struct buddyinfo *out,
		    struct parse_error *err);

#endif
