/*
 * The history: a ring of compact entries allocated once at start-up, so the
 * dashboard can pause and scroll back without allocating per tick. An entry
 * keeps what the screens show over time (memory, PSI, reclaim counters,
 * free blocks and watermarks per zone); pagetypeinfo, read less often, has a
 * ring of its own. Counters are kept as their increases over each
 * interval, by derive.c's reset rule; derive.c makes rates of them.
 *
 * Entries are named by a sequence number that grows by one per push; an
 * entry is gone once the ring has wrapped past it.
 */
#ifndef PAGETOP_HISTORY_H
#define PAGETOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "model/counters.h"
#include "parse/psi.h"
#include "model/sample.h"
#include "model/taskgroups.h"
#include "model/history-probes.h"

/* The meminfo figures kept over time, in kB. */
enum mem_field {
	MEM_TOTAL,
	MEM_FREE,
	MEM_AVAILABLE,
	MEM_BUFFERS,
	MEM_CACHED,
	MEM_DIRTY,
	MEM_WRITEBACK,
	MEM_ANON,
	MEM_SHMEM,
	MEM_SLAB_RECLAIMABLE,
	MEM_SLAB_UNRECLAIMABLE,
	MEM_SWAP_TOTAL,
	MEM_SWAP_FREE,
	MEM_COUNT
};

/* Per zone, from zoneinfo, in pages. */
enum wmark_field { WM_FREE, WM_MIN, WM_LOW, WM_HIGH, WM_MANAGED, WM_COUNT };

struct hist_zone {
	int node;
	char name[NAME_LEN];
};

/* What was learned from the first sample: the zones and orders of
 * buddyinfo, and (once read) the rows and types of pagetypeinfo. */
struct hist_shape {
	int n_zones;
	int n_orders;
	struct hist_zone zones[MAX_ZONES];
	bool pti_known;
	int pageblock_order;		/* -1 unknown */
	int pti_n_types;
	char pti_types[MAX_MTYPES][NAME_LEN];
	int pti_n_rows;			/* free rows: zone x type */
	int pti_row_zone[MAX_ZONES * MAX_MTYPES];	/* index into zones[], -1 if not there */
	int pti_row_type[MAX_ZONES * MAX_MTYPES];
	int pti_n_blocks;
	int pti_block_zone[MAX_ZONES];
};

/* The biggest groups of blocked tasks at one moment, in few bytes. */
#define HIST_TASK_GROUPS	3
#define HIST_REASON_LEN		44
#define HIST_REASONS		256	/* distinct reason texts a history keeps */

struct hist_task_group {
	uint8_t category;		/* enum wait_category */
	bool at_least;
	uint16_t count;
	float longest;			/* seconds */
	const char *reason;		/* "" when the history had no room left */
};

/* Task states counted by the scan. */
enum task_state_field { TS_RUNNING, TS_BLOCKED, TS_SLEEPING, TS_IDLE, TS_STOPPED, TS_ZOMBIE,
			TS_COUNT };

struct hist_tasks {
	uint32_t state[TS_COUNT];
	uint32_t total;
	uint16_t n_blocked;
	uint16_t n_groups;
	struct hist_task_group top[HIST_TASK_GROUPS];	/* by count */
};

/* A PSI line as kept: the averages; the stall time is kept as the
 * increase over the interval (history_psi_stall). */
struct hist_psi_line {
	bool present;
	uint32_t avg10, avg60, avg300;	/* hundredths of a percent */
};

/* One moment, as history_entry() gives it back. The ring itself holds
 * these figures packed (history-pack.c): counters as increases over the
 * interval, kB and pages in 32 bits, blocked-task reasons interned. */
struct hist_entry {
	uint64_t seq;
	double wall;
	double mono;
	uint32_t valid;			/* SRC_BIT() of the sources read */
	uint32_t mem_valid;		/* bit per enum mem_field */
	uint64_t mem[MEM_COUNT];	/* kB */
	struct { struct hist_psi_line some, full; } psi[PSI_COUNT];
	uint32_t ctr_valid;		/* bit per enum counter: the kernel has it */
	int64_t pti_seq;		/* the pagetypeinfo read in force, -1 none */
	double uptime;			/* seconds since boot, NAN unknown */
	struct hist_tasks tasks;	/* valid with SRC_BIT(SRC_TASKS) */
};

/* One pagetypeinfo read. */
struct hist_pti {
	uint64_t seq;			/* the entry it was read with */
	double wall;
};

struct hist_slot;
struct hist_moment;
struct hist_probes;

/*
 * Entries are packed (history-pack.c): counters as varint increases, and the
 * figures of the moment (meminfo, PSI averages, tasks, buddyinfo,
 * watermarks, probes) as varint differences from the entry before in the
 * same block of HIST_BLOCK entries, figures that did not move in runs.
 * Each block's region is sized for the worst case but only the bytes
 * written are ever touched, so the resident memory is what the entries
 * need: about 45 bytes each and a slot of 24 (370 and the slot when every
 * figure took a byte). A block of 256 entries is about three pages, the
 * last one partly used: blocks of 128 left half a page unused in two.
 */
#define HIST_BLOCK	256

struct history {
	size_t cap;
	uint64_t next;			/* seq of the next push */
	struct hist_shape shape;
	struct hist_slot *slot;		/* cap entries: times, sources, where */
	uint8_t *bytes;			/* n_blocks regions of region_size */
	size_t n_blocks, region_size;
	size_t enc_off;			/* where the next entry goes in its block */
	uint32_t enc_ctr_valid;		/* the known counters of its block's first */
	struct counters last_ctr;	/* the previous push's counters, for increases */
	double last_mono;		/* and its time */
	uint64_t last_stall[PSI_COUNT][2];	/* and its PSI stall totals */
	uint8_t last_stall_valid;	/* bit r * 2 + full */
	bool have_last;
	struct hist_moment *enc;	/* the moment of the last push, in its block */
	struct hist_moment *cur;	/* the last one unpacked (cur_seq) */
	uint64_t cur_seq;		/* UINT64_MAX: none */
	int n_reasons;
	char reasons[HIST_REASONS][HIST_REASON_LEN];
	size_t pti_cap;
	uint64_t pti_next;
	struct hist_pti *pti;		/* pti_cap */
	uint32_t *pti_free;		/* pti_cap x rows x n_orders */
	uint32_t *pti_capped;		/* pti_cap x rows */
	uint32_t *pti_blocks;		/* pti_cap x n_blocks x n_types */
	struct hist_probes *pr;		/* what history-probes.c keeps */
};

/* Sizes the ring for cap entries from the shape of the first sample and
 * (when it has one) its pagetypeinfo; pti_cap rings of pagetypeinfo reads.
 * NULL when out of memory. */
struct history *history_new(size_t cap, size_t pti_cap, const struct sample *first);
void history_free(struct history *h);
/* Empties the history, keeping its shape and memory (a replay's seek). */
void history_reset(struct history *h);
/* Copies what the screens need from s, and a summary of its blocked-task
 * groups (NULL without a task scan); never allocates. */
void history_push(struct history *h, const struct sample *s, const struct task_groups *groups);
static inline bool
hist_counter_valid(const struct hist_entry *e, enum counter c)
{
	return (e->ctr_valid >> c) & 1;
}
/* The state letters counted in field f: "R", "D", "S", "I", "Tt", "Z". */
const char *task_state_letters(enum task_state_field f);

/* The oldest and newest seq held; false when empty. */
bool history_range(const struct history *h, uint64_t *first, uint64_t *last);
/* Unpacks entry seq into out; false when it is not (or no longer) held. */
bool history_entry(const struct history *h, uint64_t seq, struct hist_entry *out);
/* Cheap reads of one figure of entry seq, for charts over many entries. */
bool history_has(const struct history *h, uint64_t seq);
uint32_t history_valid(const struct history *h, uint64_t seq);	/* 0 when not held */
double history_wall(const struct history *h, uint64_t seq);	/* NAN when not held */
double history_mono(const struct history *h, uint64_t seq);	/* NAN when not held */
/* The uptime the entry's sample read; NAN when not held or not read. */
double history_uptime(const struct history *h, uint64_t seq);
/* The increase of counter c since the entry before (which must still be
 * held), or -1 when unknown: the first entry, a reset, a counter the
 * kernel lacks. */
int64_t history_ctr_delta(const struct history *h, uint64_t seq, enum counter c);
/* Microseconds stalled on resource r ("some", or "full") since the entry
 * before, or -1 when unknown. */
int64_t history_psi_stall(const struct history *h, uint64_t seq, int r, bool full);
/* Free blocks per order of zone z at entry seq (n_orders values), valid
 * until the next call into the history. */
const uint32_t *history_buddy(const struct history *h, uint64_t seq, int z);
/* Watermarks of zone z at entry seq into out (UINT64_MAX unknown); false
 * when the entry is not held. */
bool history_wmark(const struct history *h, uint64_t seq, int z, uint64_t out[WM_COUNT]);
/* The pagetypeinfo read in force at entry seq, as its ring index, or -1. */
int64_t history_pti_at(const struct history *h, uint64_t seq);
const struct hist_pti *history_pti(const struct history *h, int64_t pti_seq);
/* Free blocks of pagetypeinfo row r (n_orders values) and its capped bits. */
const uint32_t *history_pti_free(const struct history *h, int64_t pti_seq, int r,
				 uint32_t *capped);
/* Pageblocks per type (pti_n_types values) of block row b. */
const uint32_t *history_pti_blocks(const struct history *h, int64_t pti_seq, int b);
/* The latest entry at or before wall-clock time t, or the first one. */
uint64_t history_find_time(const struct history *h, double t);

#endif
