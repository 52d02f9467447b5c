#include "model/sample.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const source_names[SRC_COUNT] = {
	[SRC_BUDDYINFO] = "buddyinfo",
	[SRC_PAGETYPEINFO] = "pagetypeinfo",
	[SRC_VMSTAT] = "vmstat",
	[SRC_MEMINFO] = "meminfo",
	[SRC_ZONEINFO] = "zoneinfo",
	[SRC_PSI_CPU] = "pressure/cpu",
	[SRC_PSI_MEMORY] = "pressure/memory",
	[SRC_PSI_IO] = "pressure/io",
	[SRC_PSI_IRQ] = "pressure/irq",
	[SRC_UPTIME] = "uptime",
	[SRC_TASKS] = "tasks",
};

const char *
source_name(enum source src)
{
	return src < SRC_COUNT ? source_names[src] : "?";
}

void
source_reason(const struct source_status *st, char *dst, size_t size)
{
	switch (st->err) {
	case 0:
		snprintf(dst, size, "ok");
		break;
	case SRC_NOT_READ:
		snprintf(dst, size, "not read on this tick");
		break;
	case ENOENT:
		snprintf(dst, size, "not present (kernel without it)");
		break;
	case EACCES:
	case EPERM:
		snprintf(dst, size, "permission denied (needs root)");
		break;
	case ENODEV:	/* source/procfs.c: a FIFO or device planted in a proc root */
		snprintf(dst, size, "not a regular file (not read)");
		break;
	case EOPNOTSUPP:
		snprintf(dst, size, "not supported (disabled in this kernel)");
		break;
	case EINVAL:
		if (st->line > 0)
			snprintf(dst, size, "malformed: line %d: %s", st->line, st->msg);
		else
			snprintf(dst, size, "malformed: %s", st->msg);
		break;
	default:
		snprintf(dst, size, "%s", strerror(st->err));
		break;
	}
}
