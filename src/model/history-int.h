/*
 * What the three files of the history share. history.c holds the ring and
 * answers the queries, history-push.c makes an entry of a sample, and
 * history-pack.c packs entries into their blocks of varint differences
 * and unpacks them. Nothing outside model/history*.c includes this.
 */
#ifndef PAGETOP_HISTORY_INT_H
#define PAGETOP_HISTORY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model/history.h"
#include "model/history-probes.h"

/* What every chart reads of every entry, unpacked. */
struct hist_slot {
	double wall;
	double mono;
	uint32_t off;			/* of its bytes in its block's region */
	uint16_t valid;			/* SRC_BIT(): SRC_COUNT fits */
};

/* Per stall kind: count and time (sums), the tick's longest (its own), and
 * the latency buckets (sums). */
enum { PS_N, PS_US, PS_MAX_US, PS_BUCKET, PS_FIELDS = PS_BUCKET + PROBE_BUCKETS };

/*
 * The figures of one moment, as plain numbers. An entry stores each as
 * its difference from the entry before in its block (0 for the first),
 * absent figures counting as 0, so the stored differences are small and
 * their varints short. The counters' increases are not among them: they
 * are stored whole, so that a chart reads one entry without the others.
 */
enum {
	M_MEM_VALID,
	M_MEM,					/* kB, by enum mem_field */
	M_AVG = M_MEM + MEM_COUNT,		/* [r][full][avg10, 60, 300] */
	M_STATE = M_AVG + PSI_COUNT * 2 * 3,	/* by enum task_state_field */
	M_TOTAL = M_STATE + TS_COUNT,
	M_N_BLOCKED,
	M_N_GROUPS,
	M_N_TOP,
	M_TOP,					/* [k][TOP_...] */
	M_PTI = M_TOP + HIST_TASK_GROUPS * 5,	/* the read in force + 1: 0 none */
	M_UPTIME,				/* centiseconds since boot + 1: 0 unknown */
	/* Kernel probes (history-probes.c): the state, then with PROBES_ON
	 * running sums of every increase since the history began, so that
	 * any two entries give what happened between them. */
	M_PR_STATE,				/* enum probes_state */
	M_PR_WHY,				/* interned why + 1: 0 none */
	M_PR_MISSING,				/* bit per probe_id */
	M_PR_STALL,				/* [kind][PS_...] */
	M_PR_THROTTLE = M_PR_STALL + STALL_KIND_COUNT * PS_FIELDS,	/* [reason][count, us] */
	M_PR_FB_ORDER = M_PR_THROTTLE + THROTTLE_REASON_COUNT * 2,	/* by order */
	M_PR_FB_PAIR = M_PR_FB_ORDER + PROBE_ORDERS,	/* [asked][taken] */
	M_PR_FB_FRAG = M_PR_FB_PAIR + PROBE_MIGRATETYPES * PROBE_MIGRATETYPES,
	M_PR_FB_OWNER,
	M_PR_KSWAPD_WAKES,
	M_PR_KSWAPD_US,
	M_PR_KCOMPACTD_WAKES,
	M_PR_KCOMPACTD_US,
	M_PR_WRITES,
	M_PR_RECLAIMED,
	M_PR_COMPACT_R,				/* runs by enum probe_compact_result */
	M_PR_DS_COUNT = M_PR_COMPACT_R + COMPACT_R_COUNT,
	M_PR_DS_US,
	M_PR_DS_LOST,
	M_PR_DS_MAX_US,				/* this tick's own, not a sum */
	M_PR_END,
	/* Last, the rows by zone, room for MAX_ZONES: what a machine's few
	 * zones use follows the rest closely, and the room past it is
	 * never touched (hist_moment_clear). */
	M_WMARK = M_PR_END,			/* [zone][field] pages + 1: 0 unknown */
	M_BUDDY = M_WMARK + MAX_ZONES * WM_COUNT,	/* [zone][order], n_zones x n_orders */
	M_COUNT = M_BUDDY + MAX_ZONES * MAX_ORDERS
};
enum { TOP_CATEGORY, TOP_AT_LEAST, TOP_COUNT, TOP_REASON, TOP_MS };

struct hist_moment {
	uint64_t v[M_COUNT];
};

_Static_assert(SRC_COUNT <= 16, "hist_slot.valid is 16 bits");
_Static_assert(PSI_COUNT * 2 <= 8, "a byte of PSI lines");

/* One entry as history_push() makes it, before it is packed. */
struct hist_record {
	double wall;
	double mono;
	uint32_t valid;			/* SRC_BIT() of the sources kept */
	uint32_t ctr_valid;		/* bit per enum counter */
	uint64_t inc[CTR_COUNT];	/* increases as stored (hist_inc_put) */
	uint8_t psi_present;		/* bit r * 2 + full */
	uint64_t stall[PSI_COUNT * 2];	/* PSI stall increases, as stored */
	struct hist_moment m;
};

/* An increase as stored: one more, so that 0 is "unknown" (-1). */
static inline uint64_t
hist_inc_put(int64_t inc)
{
	return inc >= 0 ? (uint64_t)inc + 1 : 0;
}

static inline int64_t
hist_inc_get(uint64_t v)
{
	return v ? (int64_t)(v - 1) : -1;
}

/* history-probes.c */
/* The probes of s into the moment (running sums) and the ring of the
 * tick's tasks and D stacks. */
void hist_push_probes(struct history *h, struct hist_moment *m, const struct sample *s,
		      uint64_t seq);
/* What history_new and history_free do for the probes. */
bool hist_probes_new(struct history *h);
void hist_probes_free(struct history *h);
void hist_probes_reset(struct history *h);

/* history-pack.c */
/* m's figures this shape uses set to 0, or copied from src: the others
 * are 0 in every moment, and never touched. */
void hist_moment_clear(struct hist_moment *m, const struct hist_shape *sh);
void hist_moment_copy(struct hist_moment *dst, const struct hist_moment *src,
		      const struct hist_shape *sh);
/* The most bytes an entry of this shape can take. */
size_t hist_entry_max(const struct hist_shape *sh);
/* Packs e as entry seq, the next one. */
void hist_put_entry(struct history *h, uint64_t seq, const struct hist_record *e);
/* The bytes of entry seq, which must be held. */
uint8_t *hist_entry_bytes(const struct history *h, uint64_t seq);
/* Counter c's stored increase (0: unknown) of entry seq, whose bytes p
 * is at, and p past the counters. */
uint64_t hist_read_counters(const struct history *h, uint64_t seq, const uint8_t **p, int c,
			    uint32_t *valid);
/* PSI stall i's stored increase (0: unknown or not present), the present
 * bits, and p past the stalls; p is past the counters. */
uint64_t hist_read_stall(const uint8_t **p, int i, uint8_t *present);
/* The moment of entry seq (held), unpacked; valid until the next call. */
const struct hist_moment *hist_moment_at(const struct history *h, uint64_t seq);

#endif
