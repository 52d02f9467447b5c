/*
 * The report's accumulators, shared by report.c, which feeds them one
 * sample at a time, and report-print.c, which writes them out.
 */
#ifndef PAGETOP_REPORT_INT_H
#define PAGETOP_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/counters.h"
#include "model/probe-derive.h"
#include "parse/kmsg.h"
#include "model/reasons.h"
#include "model/feed.h"
#include "output/report.h"
#include "model/sample.h"

#define MAX_GROUPS	128	/* more stacks than this go to the last group */
#define MAX_SPELLS	(2 * TASKS_MAX_BLOCKED)
#define MAX_EVENTS	24	/* listed; the others are counted */
#define MAX_JUMPS	16	/* pauses between samples, listed */

struct counter_acc {
	bool seen;		/* at least one interval known */
	uint64_t total;
	double peak;		/* per second */
	double peak_at;		/* wall time of the sample ending that interval */
};

struct psi_acc {
	bool seen;
	uint32_t peak;		/* avg10, hundredths of a percent */
	double peak_at;
	double stalled;		/* microseconds, over the intervals known */
	double over;		/* seconds those intervals span */
};

/* A buddyinfo row at one moment. */
struct zone_row {
	double wall;
	int n_orders;
	uint64_t free[MAX_ORDERS];
};

struct zone_acc {
	int node;
	char name[NAME_LEN];
	struct zone_row start, worst, end;
	int worst_high;		/* highest free order at the worst moment */
	int worst_unusable[3];	/* thousandths at orders 2, 3 and the pageblock order */
	/* The last row's figures: a row that did not move (a DMA zone, most
	 * seconds) is not worked out again. */
	int last_n_orders;	/* 0: none yet */
	uint64_t last_free[MAX_ORDERS];
	int last_high, last_unusable[3];
};

/* A task's time in D, followed from sample to sample. */
struct spell {
	int tid;
	double since;		/* mono, as the task scan saw it start */
	double blocked;		/* seconds, when last seen */
	double last_wall;
	bool at_least;		/* blocked before the scan began */
	int group;
	char comm[16];
	unsigned gen;		/* the task sample it was last seen in */
};

struct group_acc {
	bool by_stack;
	unsigned long sig;	/* by_stack: stack_signature() */
	char wchan[48];		/* otherwise */
	unsigned why_seen;	/* otherwise: bit per enum stack_missing seen */
	enum wait_category category;
	char reason[REASON_TEXT_LEN];
	int tasks;		/* distinct thread ids */
	bool tasks_capped;	/* more than the set could count */
	int spells;
	double total;
	double longest;
	bool longest_at_least;
	int longest_tid;
	char longest_comm[16];
	double longest_until;	/* wall time it was last seen blocked */
	bool rest;		/* the group of every stack past MAX_GROUPS - 1 */
	struct stack stack;	/* by_stack: the first seen, same functions for all */
};

#define EVENT_WAYS_SHOWN	4	/* new ways of blocking named in one event */

struct event {
	double wall;
	char what[400];
};

/* A kernel log event: allocation failure, hung task, OOM kill... */
struct kevent {
	double wall;
	enum kmsg_kind kind;
	char brief[100];
	char verdict[400];	/* an allocation failure's capture, or "" */
};

struct jump {
	double from, to;	/* wall times of the samples on either side */
};

#define PROBE_ACC_TASKS		64	/* tasks followed; the others are counted */
#define PROBE_ACC_STACKS	64	/* D stacks followed */

/* A stall kind over the window: the sum of its ticks, and the worst tick. */
struct probe_kind_acc {
	uint64_t count, sum_ns;
	uint64_t worst_ns;		/* the worst tick's total */
	double worst_at;
	uint64_t worst_p99, worst_max;
};

struct probe_task_acc {
	int32_t tid;
	char comm[16];
	uint8_t kinds;
	uint64_t count, total_ns, max_ns;
};

struct probe_stack_acc {
	uint64_t count, total_ns, max_ns;
	int n;
	char func[PROBE_STACK_FRAMES][STACK_FUNC_LEN];
};

/* The kernel probes over the window: every figure a sum of ticks
 * (probe_tick()), so a reattach inside it adds its segments. */
struct probe_acc {
	size_t on, unavailable;		/* samples */
	char why[sizeof(((struct probes *)0)->why)];	/* the last unavailable's */
	uint32_t missing;		/* the last sample's */
	size_t ticks, resets;
	double over;			/* seconds the ticks span */
	struct probe_kind_acc kind[STALL_KIND_COUNT];
	uint64_t throttle_count[THROTTLE_REASON_COUNT], throttle_us[THROTTLE_REASON_COUNT];
	uint64_t fallback[PROBE_ORDERS][PROBE_MIGRATETYPES][PROBE_MIGRATETYPES];
	uint64_t fallback_total, fallback_fragmenting, fallback_owner;
	uint64_t compact_result[COMPACT_R_COUNT];
	uint64_t kswapd_awake_ns, kcompactd_awake_ns, reclaim_writes;
	uint64_t dsleep_count, dsleep_ns, dsleep_lost, dsleep_min_ns;
	int n_types;
	char types[PROBE_MIGRATETYPES][NAME_LEN];	/* the kernel's names, when read */
	int n_tasks;
	struct probe_task_acc task[PROBE_ACC_TASKS];
	uint64_t tasks_rest;		/* stalls of tasks past the table */
	int n_stacks;
	struct probe_stack_acc stack[PROBE_ACC_STACKS];
	uint64_t stacks_rest;		/* episodes of stacks past the table */
};

struct report {
	const struct reasons *rs;
	const struct feed *f;
	char path[4096];
	char title[600];	/* report_set_title() */
	char host[400];
	double interval;
	int pageblock_order;	/* from the header; -1 unknown */

	size_t samples;
	size_t unreadable;	/* in the range, lost to damage */
	double first, last;	/* wall times */
	bool have_last;

	struct counters_map map;
	const struct sample *map_from;	/* the sample map was last used on */
	struct counters ctr;	/* of the last sample with vmstat */
	bool have_ctr;
	double ctr_mono;
	struct counter_acc acc[CTR_COUNT];
	struct counters prev_for_events;	/* of the sample before: what ctr was */

	struct psi_acc psi[PSI_COUNT][2];
	struct psi last_psi[PSI_COUNT];
	double psi_mono[PSI_COUNT];
	bool have_psi[PSI_COUNT];

	int n_zones;
	struct zone_acc zones[MAX_ZONES];

	unsigned gen;
	int n_spells;
	struct spell spells[MAX_SPELLS];
	int n_groups;
	struct group_acc groups[MAX_GROUPS];
	size_t lost_spells;	/* more blocked at once than could be followed */
	uint64_t *tid_set;	/* (group + 1) << 32 | tid, 0 empty */
	size_t tid_cap, tid_used;
	int spell_of[TASKS_MAX_BLOCKED];	/* the spell of each task of the sample */

	bool stalling;
	size_t n_events;
	struct event events[MAX_EVENTS];
	size_t events_by_kind[3];

	bool kmsg_recorded;		/* some sample holds the kernel log */
	int kmsg_err;			/* why it could not be read, 0 */
	uint64_t kmsg_lost;		/* records overwritten, events not kept */
	size_t n_kevents;
	struct kevent kevents[MAX_EVENTS];
	size_t kevents_by_kind[KMSG_KIND_COUNT];

	size_t n_jumps;
	struct jump jumps[MAX_JUMPS];

	struct probe_acc probes;
	struct probe_tick ptick;	/* scratch for each tick */

	/* From report_feed(): the recording's marks and gaps in range. */
	const struct feed_mark *fm;	/* marks and gaps in sample order */
	size_t n_fm;
	size_t n_marks, n_gaps;		/* of each kind among them */
};

/* The order whose unusable index breaks ties first: the pageblock order
 * from the header (9 when it lacks it), within the zone's orders. */
int report_pageblock_order(const struct report *rep, int n_orders);
/* HH:MM:SS.mmm, with the date when the report spans more than a day. */
void report_fmt_when(const struct report *rep, double wall, char *dst, size_t size);
/* The kernel probes (report-probes.c): a sample into the window, and the
 * section. */
void report_probes_add(struct report *rep, const struct sample *prev, const struct sample *cur);
void report_probes_print(const struct report *rep, FILE *out);
/* Ends the spells of blocked tasks still open: the report ends there. */
void report_close_spells(struct report *rep);
/* The blocked tasks of s alone into the groups and spells, in time order
 * (what report_add() does with them): for compare, which derives the
 * rest itself. */
void report_add_tasks(struct report *rep, const struct sample *s);

#endif
