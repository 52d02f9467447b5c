/* One tick's raw values from every kernel source, with which were valid.
 * Cumulative counters stay cumulative: rates are derived downstream. */
#ifndef PAGETOP_SAMPLE_H
#define PAGETOP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/buddyinfo.h"
#include "parse/kmsg.h"
#include "parse/meminfo.h"
#include "parse/pagetypeinfo.h"
#include "parse/psi.h"
#include "model/capture.h"
#include "model/delays.h"
#include "model/probes.h"
#include "model/sensors.h"
#include "model/tasks.h"
#include "parse/vmstat.h"
#include "parse/zoneinfo.h"

enum source {
	SRC_BUDDYINFO,
	SRC_PAGETYPEINFO,
	SRC_VMSTAT,
	SRC_MEMINFO,
	SRC_ZONEINFO,
	SRC_PSI_CPU,
	SRC_PSI_MEMORY,
	SRC_PSI_IO,
	SRC_PSI_IRQ,
	SRC_UPTIME,
	SRC_FILE_COUNT,			/* the files above; the rest are read otherwise */
	SRC_TASKS = SRC_FILE_COUNT,	/* the task scan (taskscan.c) */
	SRC_COUNT
};

enum psi_resource { PSI_CPU, PSI_MEMORY, PSI_IO, PSI_IRQ, PSI_COUNT };

#define SRC_ALL		((1u << SRC_FILE_COUNT) - 1)	/* every file */
#define SRC_BIT(s)	(1u << (s))
/* The err of a source that was not read on this tick (pagetypeinfo is read
 * less often than the others because it takes the zone lock). */
#define SRC_NOT_READ	(-1)

struct source_status {
	int err;		/* 0: valid; an errno; EINVAL: malformed; SRC_NOT_READ */
	int line;		/* with EINVAL: the line that was wrong */
	char msg[120];		/* with EINVAL: what was wrong */
};

struct sample {
	double wall;		/* seconds since the epoch */
	double mono;		/* CLOCK_MONOTONIC seconds */
	long page_size;		/* bytes; the files count pages */
	struct source_status status[SRC_COUNT];
	struct buddyinfo buddy;
	struct pagetypeinfo pti;
	struct vmstat vm;
	struct meminfo mem;
	struct zoneinfo zi;
	struct psi psi[PSI_COUNT];
	double uptime;		/* seconds since boot */
	struct sensors sensors;	/* read by the dashboard, not by sampler_read() */
	struct kmsg_sample kmsg;	/* kernel log events: filled by kmsg-source.c */
	struct probes probes;	/* kernel probes: filled by source/probes.c */
	struct delays delays;	/* delay accounting: source/delayacct.c */
	int n_capture;		/* 0 or 1: capture holds a read at an event */
	struct capture capture;	/* source/capture.c (model/capture.h) */
	struct tasks tasks;	/* SRC_TASKS: filled by the task scan; the last
				 * member (ptrec/codec.c clears up to it) */
};

/* "buddyinfo", "pressure/memory": the file's path under the proc root. */
const char *source_name(enum source src);
static inline bool
sample_has(const struct sample *s, enum source src)
{
	return s->status[src].err == 0;
}
/* Why a source is missing, in a few words: "permission denied (needs
 * root)", "not present", "malformed: line 3: ...". */
void source_reason(const struct source_status *st, char *dst, size_t size);

#endif
