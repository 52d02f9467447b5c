/*
 * Captures at the event (model/capture.h): after the kernel log and the
 * probes of a tick are in the sample, an allocation failure, a hung task,
 * an OOM kill, a burst of failed compactions or a long direct-reclaim
 * stall makes this read buddyinfo, pagetypeinfo, zoneinfo and the debugfs
 * extfrag files at once, through the sampler's proc root and parsers, at
 * most once per CAPTURE_FLOOR_S. Nothing is allocated after the open.
 */
#ifndef PAGETOP_SOURCE_CAPTURE_H
#define PAGETOP_SOURCE_CAPTURE_H

#include "model/sample.h"
#include "source/procfs.h"

struct capture_source;

/* fs is the sampler's (its buffer is shared, its root used); the debugfs
 * files are read from /sys/kernel/debug/extfrag on a real procfs, from
 * ROOT/debug/extfrag under any other root. NULL when out of memory. */
struct capture_source *capture_source_open(struct procfs *fs);
void capture_source_close(struct capture_source *cs);
/* Fills s->capture and sets s->n_capture to 0 or 1. */
void capture_source_run(struct capture_source *cs, struct sample *s);

#endif
