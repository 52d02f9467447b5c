/* The live tick: the one place that reads the running system. */
#ifndef PAGETOP_LIVE_H
#define PAGETOP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/feed.h"

#define LIVE_PTI_EVERY	10.0	/* seconds between pagetypeinfo reads, by default */
#define LIVE_BURST	0.1	/* seconds between samples while a PSI trigger fires */
#define LIVE_BURST_FOR	5.0	/* ... for so long after the last firing */

struct live_opts {
	const char *root;	/* the proc root: "/proc", or a tree of captured files */
	const char *kmsg;	/* a file of /dev/kmsg records; NULL: /dev/kmsg on a real procfs */
	double interval;	/* seconds between ticks, as the caller keeps them */
	double pti_every;	/* seconds between pagetypeinfo reads; 0: LIVE_PTI_EVERY */
	bool marks;		/* take marks from `pagetop mark` */
	bool once;		/* one reading: a --kmsg file is read whole */
	bool no_probes;		/* do not load the kernel probes (source/probes.h) */
	bool no_delayacct;	/* do not read delay accounting (source/delayacct.h) */
	uint64_t dsleep_min_ns;	/* their D-sleep threshold; 0: 1 ms */
	bool no_burst;		/* no PSI triggers, no fast samples */
	double burst;		/* the interval of a burst; 0: LIVE_BURST */
	double burst_for;	/* a burst's length after the last firing; 0: LIVE_BURST_FOR */
	const char *burst_trigger;	/* the PSI spec; NULL: PSI_TRIGGER_SPEC */
};

/*
 * Opens every source of the live system under o->root: the files (held
 * open), and on a real procfs the task scan, sensors and the kernel log (a
 * tree of captured files has none of those; --kmsg names a log anyway).
 * NULL with why ("ROOT: No such file or directory", out of memory). What
 * does not stop sampling (a malformed wait-reason or kernel-log table, no
 * socket for marks) is in f->note, one line each; kernel probes that do
 * not load leave the sample's probes UNAVAILABLE with why; PSI triggers
 * that cannot be made leave f->burst_why; f->note_err is EINVAL
 * when some of it is bad input.
 */
struct feed *live_open(const struct live_opts *o, char *why, size_t size);
/* Kernel-log records that could not be read, and the first one's text. */
uint32_t live_kmsg_bad(const struct feed *f, const char **first);
/* The kernel log read, NULL when none. */
const char *live_kmsg_path(const struct feed *f);

#endif
