/* /proc/meminfo: every "Key: value [kB]" line. */
#ifndef PAGETOP_MEMINFO_H
#define PAGETOP_MEMINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "util/text.h"

struct meminfo_entry {
	char name[MEMINFO_NAME_LEN];
	uint64_t value;
	bool kb;		/* printed with " kB"; HugePages_* counts are not */
};

struct meminfo {
	int n;
	struct meminfo_entry e[MAX_MEMINFO];	/* in the file's order */
	int skipped;				/* lines in other forms */
};

/* 0, or -EINVAL when the buffer holds no "Key: value" line at all. */
int meminfo_parse(const char *buf, size_t len, struct meminfo *out,
		  struct parse_error *err);
bool meminfo_get(const struct meminfo *mi, const char *name, uint64_t *value);

#endif
