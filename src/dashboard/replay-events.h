/*
 * The moments replay's n/N and ' " stop at, found in a recording's feed:
 * marks and gaps from the feed's list, and from the samples themselves
 * kernel log events, reclaim stalls beginning, PSI memory rising past 10%
 * and new groups of blocked tasks. Which kinds n/N stop at is the user's
 * choice (the f key); what a stop found is said in one line.
 */
#ifndef PAGETOP_REPLAY_EVENTS_H
#define PAGETOP_REPLAY_EVENTS_H

#include <stddef.h>

#include "model/feed.h"

enum replay_stop {
	REPLAY_STOP_MARK = 1,
	REPLAY_STOP_KMSG = 2,
	REPLAY_STOP_STALL = 4,		/* direct reclaim or compaction stalls began */
	REPLAY_STOP_PSI = 8,		/* PSI memory some avg10 rose past 10% */
	REPLAY_STOP_GROUP = 16,		/* blocked tasks in a way not seen before */
	REPLAY_STOP_GAP = 32,
};

#define REPLAY_STOP_KINDS	6
/* Every vfork of a build is a new group: left out unless asked for. */
#define REPLAY_STOP_DEFAULT	(REPLAY_STOP_MARK | REPLAY_STOP_KMSG | REPLAY_STOP_STALL | \
				 REPLAY_STOP_PSI | REPLAY_STOP_GAP)

/* Kind k (0 .. REPLAY_STOP_KINDS - 1): its bit and its name, in the order
 * the f key's digits toggle them. */
unsigned replay_events_kind(int k, const char **name);

/*
 * The next (dir 1) or previous (dir -1) sample after (before) p of n where
 * one of kinds happened; SIZE_MAX when none, else the kinds found there in
 * *what. Decodes through f (its tick moves).
 */
size_t replay_events_find(struct feed *f, size_t p, size_t n, unsigned kinds, int dir,
			  unsigned *what);
/* The next (dir 1) or previous (dir -1) mark's sample from p; SIZE_MAX
 * when none. */
size_t replay_events_mark(const struct feed *f, size_t p, int dir);
/*
 * What happened at sample at (in f's tick, with the sample before it),
 * the kinds in what, in one line: "mark 'mke2fs starts' 08:21:11.198",
 * "3 new task groups: journal, writeback, vfork", ...
 */
void replay_events_describe(const struct feed *f, size_t at, unsigned what, char *dst,
			    size_t size);

#endif
