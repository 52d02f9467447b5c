/* /proc/vmstat: every counter by name. */
#ifndef PAGETOP_VMSTAT_H
#define PAGETOP_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "util/text.h"

struct vmstat_entry {
	char name[VMSTAT_NAME_LEN];
	uint64_t value;
};

struct vmstat {
	int n;
	struct vmstat_entry e[MAX_VMSTAT];	/* in the file's order */
	int skipped;				/* lines past MAX_VMSTAT or malformed */
};

/* 0, or -EINVAL when the buffer holds no counter at all. Malformed lines
 * are counted in skipped, not fatal: the file gains names every release. */
int vmstat_parse(const char *buf, size_t len, struct vmstat *out,
		 struct parse_error *err);
/* Looks a counter up by name; false when the kernel does not have it. */
bool vmstat_get(const struct vmstat *vm, const char *name, uint64_t *value);

#endif
