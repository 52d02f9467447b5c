/* /proc/zoneinfo: per-zone free pages, watermarks and sizes. */
#ifndef PAGETOP_ZONEINFO_H
#define PAGETOP_ZONEINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "util/text.h"

enum zoneinfo_field {
	ZI_FREE,	/* "pages free" */
	ZI_MIN,
	ZI_LOW,
	ZI_HIGH,
	ZI_BOOST,	/* 5.16+ */
	ZI_SPANNED,
	ZI_PRESENT,
	ZI_MANAGED,	/* 3.8+ */
	ZI_CMA,		/* 5.12+ */
	ZI_NFIELDS
};

struct zoneinfo_zone {
	int node;
	char zone[NAME_LEN];
	uint64_t v[ZI_NFIELDS];	/* pages */
	uint32_t has;		/* bit f set: v[f] was in the file */
};

struct zoneinfo {
	int n_zones;
	struct zoneinfo_zone zones[MAX_ZONES];	/* in the file's order */
};

/* 0, or -EINVAL with err when there is no "Node N, zone X" record or a
 * known field has a malformed value. Unknown keys are ignored. */
int zoneinfo_parse(const char *buf, size_t len, struct zoneinfo *out,
		   struct parse_error *err);

#endif
