/* /proc/pagetypeinfo: free blocks per migratetype and pageblock counts. */
#ifndef PAGETOP_PAGETYPEINFO_H
#define PAGETOP_PAGETYPEINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "util/text.h"

#define PTI_CAP 100000	/* kernels since 5.4 stop counting here and print ">100000" */

/* One row of the free table: one node, zone and migratetype. */
struct pagetypeinfo_free {
	int node;
	char zone[NAME_LEN];
	int type;			/* index into pagetypeinfo.types */
	uint32_t free[MAX_ORDERS];
	uint32_t capped;		/* bit o set: free[o] was ">100000", a lower bound */
};

/* One row of the "Number of blocks type" table (or the mixed table). */
struct pagetypeinfo_blocks {
	int node;
	char zone[NAME_LEN];
	uint64_t count[MAX_MTYPES];	/* indexed like pagetypeinfo.types */
};

struct pagetypeinfo {
	int pageblock_order;		/* -1 when the file has no header (mail copies) */
	uint64_t pages_per_block;	/* 0 when absent */
	int n_orders;
	int n_types;
	char types[MAX_MTYPES][NAME_LEN];	/* names as the kernel prints them */
	int n_free;
	struct pagetypeinfo_free free[MAX_ZONES * MAX_MTYPES];
	int n_blocks;
	struct pagetypeinfo_blocks blocks[MAX_ZONES];
	int n_mixed;			/* "Number of mixed blocks" (page_owner kernels) */
	struct pagetypeinfo_blocks mixed[MAX_ZONES];
};

/* 0, or -EINVAL with err naming the line. Migratetype names are taken from
 * the file, in the order they first appear. Per-node repetition of the
 * whole layout (header, free table, block table) is accepted. */
int pagetypeinfo_parse(const char *buf, size_t len, struct pagetypeinfo *out,
		       struct parse_error *err);

/* The index of a migratetype name, or -1. */
int pagetypeinfo_type(const struct pagetypeinfo *pti, const char *name);

#endif
