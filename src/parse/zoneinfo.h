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

#define ZI_PROTECTION_MAX	8	/* MAX_NR_ZONES is 5 or 6 */

struct zoneinfo_zone {
	int node;
	char zone[NAME_LEN];
	uint64_t v[ZI_NFIELDS];	/* pages */
	uint32_t has;		/* bit f set: v[f] was in the file */
	/* Read for captures (model/capture.h), not recorded with the zone:
	 * "promo" (6.1+, memory tiering) and "protection: (a, b, ...)", the
	 * lowmem reserve against allocations for each higher zone. */
	bool has_promo;
	uint64_t promo;
	int n_protection;
	uint64_t protection[ZI_PROTECTION_MAX];
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
