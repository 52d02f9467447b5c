/* debugfs extfrag/unusable_index and extfrag/extfrag_index: a figure per
 * node, zone and order, printed as thousandths ("0.405", "-1.000"). */
#ifndef PAGETOP_EXTFRAG_H
#define PAGETOP_EXTFRAG_H

#include <stddef.h>

#include "util/caps.h"
#include "util/text.h"

struct extfrag_zone {
	int node;
	char zone[NAME_LEN];
	int n_orders;
	int milli[MAX_ORDERS];		/* thousandths; -1000 in extfrag_index */
};

struct extfrag {
	int n_zones;
	struct extfrag_zone zones[MAX_ZONES];
};

/* 0, or -EINVAL with err naming the line. */
int extfrag_parse(const char *buf, size_t len, struct extfrag *out, struct parse_error *err);

#endif
