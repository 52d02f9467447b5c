/*
 * The kernel probes as the history keeps them (history-probes.c). Every
 * entry holds running sums of the probes' increases since the history
 * began (a reattach, a new epoch, starts from what the new probes
 * counted), so the figures between any two entries are one subtraction:
 * a tick's, or a window's histogram from its first and last entry. The
 * tick's own lists (tasks that stalled, D stacks) are kept for the last
 * HIST_PROBE_TICKS entries in a ring, so a window over them is exact and
 * follows a pause or a scroll back; that is also the window the screens
 * show them over.
 */
#ifndef PAGETOP_HISTORY_PROBES_H
#define PAGETOP_HISTORY_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/probes.h"
#include "model/reasons.h"

struct history;

#define HIST_PROBE_TICKS	64	/* ticks of tasks and D stacks kept */
#define HIST_STACKS		128	/* distinct D stacks a history names */
#define HIST_WHYS		8	/* distinct "why" texts a history keeps */
#define HIST_PROBE_TASKS	64	/* tasks a window lists at most */
#define HIST_PROBE_DSTACKS	64	/* D stacks a window lists at most */

/* What the probes counted from entry a to entry b (a before b): sums of
 * the increases, and the largest tick maxima in (a, b]. */
struct hist_probe_sum {
	double seconds;			/* b's mono time less a's */
	struct probe_hist stall[STALL_KIND_COUNT];	/* count, sum_ns, buckets */
	uint64_t stall_max_ns[STALL_KIND_COUNT];	/* to the microsecond */
	uint64_t throttle_count[THROTTLE_REASON_COUNT];
	uint64_t throttle_us[THROTTLE_REASON_COUNT];
	uint64_t fb_order[PROBE_ORDERS];	/* summed over migratetype pairs */
	uint64_t fb_pair[PROBE_MIGRATETYPES][PROBE_MIGRATETYPES];	/* [asked][taken] */
	uint64_t fb_fragmenting, fb_owner;
	uint64_t kswapd_wakes, kswapd_awake_us;	/* summed over nodes */
	uint64_t kcompactd_wakes, kcompactd_awake_us;
	uint64_t reclaim_writes, reclaimed;
	uint64_t compact_result[COMPACT_R_COUNT];	/* compaction runs by result */
	uint64_t ds_count, ds_us, ds_lost, ds_max_us;
};

/* The state of the probes at entry seq (PROBES_NONE when not held), what
 * did not attach (bits per probe_id) and the why text ("" when none),
 * valid while the history lives. */
enum probes_state history_probes_state(const struct history *h, uint64_t seq, uint32_t *missing,
				       const char **why);
/* What the probes counted from entry a to entry b; false unless both are
 * held and the probes were on at both. */
bool history_probe_sum(const struct history *h, uint64_t a, uint64_t b,
		       struct hist_probe_sum *out);
/* The window ending at seq: its first entry with the probes on, no more
 * than HIST_PROBE_TICKS back (and before seq); false when there is none. */
bool history_probe_window(const struct history *h, uint64_t seq, uint64_t *first);

/* A task that stalled in reclaim or compaction, over a window. */
struct hist_probe_task {
	int32_t tid;
	uint8_t kinds;			/* a bit per probe_stall_kind */
	char comm[16];			/* as the kernel gave it: escape it */
	uint64_t count, total_ns, max_ns;
};

/* D sleeps of one stack over a window, with its wait reason. */
struct hist_probe_dstack {
	int stack;			/* history_stack_*; -1: the table was full */
	uint64_t count, total_ns, max_ns;
	int32_t last_tid;
	char last_comm[16];
};

/* The tasks of the ticks in (a, b], by tid, longest total first; at most
 * max of them (the rest are counted in *more). */
int history_probe_tasks(const struct history *h, uint64_t a, uint64_t b,
			struct hist_probe_task *out, int max, int *more);
/* The D sleeps of the ticks in (a, b] by stack, most total time first. */
int history_probe_dstacks(const struct history *h, uint64_t a, uint64_t b,
			  struct hist_probe_dstack *out, int max, int *more);
/* A stack's wait reason and category (from the table set with
 * history_set_reasons, matched once when the stack was first seen), and
 * the frame it was chosen by ("" none); as the kernel named them: escape. */
const char *history_stack_reason(const struct history *h, int stack,
				 enum wait_category *category, const char **frame);

/* The wait-reason table D stacks are matched with; NULL: first frames. */
void history_set_reasons(struct history *h, const struct reasons *rs);

#endif
