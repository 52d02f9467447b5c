/*
 * The allocator's state at the moment of a failure: what pagetop read at
 * once, outside the usual beat, when the kernel log reported an allocation
 * failure, a hung task or an OOM kill, or the probes saw a burst of failed
 * compactions or a long direct-reclaim stall (source/capture.c). One per
 * sample at most; it is recorded (pagetop-recording(5), field CAPTURE), so
 * it holds no pointers and every count has its bound here.
 *
 * The blocked and stalled tasks of that instant are the sample's own
 * (tasks and probes of the same tick): they are not copied.
 */
#ifndef PAGETOP_CAPTURE_H
#define PAGETOP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/caps.h"
#include "parse/zoneinfo.h"

#define CAPTURE_ZONES		32	/* node x zone rows kept (populated zones) */
#define CAPTURE_PROTECTION	ZI_PROTECTION_MAX
#define CAPTURE_FLOOR_S		1.0	/* at least this between two captures */
#define CAPTURE_STALL_NS	100000000ull	/* a direct-reclaim stall this long */
#define CAPTURE_COMPACT_FAILS	8	/* failed compactions in one tick */

/* What asked for the capture. The numbers are recorded. */
enum capture_trigger {
	CAPTURE_KMSG,		/* a kernel-log event: seq, kind */
	CAPTURE_STALL,		/* a direct-reclaim stall over CAPTURE_STALL_NS */
	CAPTURE_COMPACT,	/* CAPTURE_COMPACT_FAILS failed compactions */
	CAPTURE_TRIGGER_COUNT
};

/* The migratetype an allocation asked for, from its GFP mode. Recorded. */
enum capture_mtype {
	CAPTURE_MT_UNKNOWN,
	CAPTURE_MT_UNMOVABLE,
	CAPTURE_MT_MOVABLE,
	CAPTURE_MT_RECLAIMABLE,
	CAPTURE_MT_COUNT
};

/* Bits of capture.read: which files were read and parsed. */
#define CAPTURE_HAS_BUDDY	0x1u
#define CAPTURE_HAS_PTI		0x2u
#define CAPTURE_HAS_ZI		0x4u
#define CAPTURE_HAS_UNUSABLE	0x8u	/* debugfs extfrag/unusable_index */
#define CAPTURE_HAS_EXTFRAG	0x10u	/* debugfs extfrag/extfrag_index */
#define CAPTURE_HAS_ALL		0x1fu

/* Bits of capture_zone.has. */
#define CZ_PTI		0x1u	/* free[][] from pagetypeinfo */
#define CZ_BUDDY	0x2u	/* buddy[] and the computed indices */
#define CZ_ZI		0x4u	/* the zoneinfo figures */
#define CZ_PROMO	0x8u
#define CZ_BOOST	0x10u
#define CZ_UNUSABLE	0x20u	/* debugfs unusable_index at the order */
#define CZ_EXTFRAG	0x40u	/* debugfs extfrag_index at the order */
#define CZ_ALL		0x7fu

struct capture_zone {
	int node;
	char zone[NAME_LEN];
	uint32_t has;			/* CZ_ bits */
	uint32_t free[MAX_MTYPES][MAX_ORDERS];	/* pagetypeinfo, per type and order */
	uint32_t capped[MAX_MTYPES];	/* bit o: free[t][o] was ">100000" */
	uint64_t buddy[MAX_ORDERS];	/* buddyinfo */
	uint64_t free_pages, min, low, high, boost, promo;	/* zoneinfo, pages */
	int n_protection;
	uint64_t protection[CAPTURE_PROTECTION];
	int unusable, extfrag;		/* thousandths at the order, from buddy[] */
	int dbg_unusable, dbg_extfrag;	/* the same read from debugfs */
};

struct capture {
	/* The event it belongs to. */
	enum capture_trigger trigger;
	uint64_t seq;			/* the kernel's record number (KMSG) */
	int kind;			/* enum kmsg_kind (KMSG) */
	int order;			/* the failed order; -1 when not known */
	uint32_t gfp;			/* the GFP mode, 0 when not known */
	enum capture_mtype mtype;	/* the migratetype asked for */
	char comm[16];			/* the task the event names */
	uint64_t stall_ns;		/* STALL: the longest; COMPACT: failures */
	double wall, mono;		/* when it was read */
	/* How many captures and skips so far in this run: the floor at work. */
	uint32_t reads;			/* captures read, this one included */
	uint32_t skipped;		/* events that came within the floor */
	uint32_t read;			/* CAPTURE_HAS_ bits */
	int pageblock_order;		/* -1 when not known */
	int n_orders;			/* of free[][] and buddy[] */
	int n_types;
	char types[MAX_MTYPES][NAME_LEN];	/* pagetypeinfo's names */
	int n_zones;
	struct capture_zone zones[CAPTURE_ZONES];
};

/* The request's migratetype from its GFP mode, from the names the kernel
 * printed after it when there are ("(GFP_HIGHUSER_MOVABLE|...)"), else
 * from the bits as kernels since 4.4 number them. */
enum capture_mtype capture_gfp_mtype(uint32_t gfp, const char *line, size_t len);
/* "Unmovable", ..., "unknown": as pagetypeinfo names them. */
const char *capture_mtype_name(enum capture_mtype mt);
const char *capture_trigger_name(enum capture_trigger t);
/* The index of the request's type in c->types, or -1. */
int capture_type_index(const struct capture *c);
/* Whether the request could come from zone z at all (its GFP zone bits). */
bool capture_zone_eligible(const struct capture *c, const struct capture_zone *z);
/* Free blocks of type t at orders >= order in zone z. */
uint64_t capture_free_at_or_above(const struct capture *c, const struct capture_zone *z,
				  int t, int order);

/*
 * The verdict in plain words, made in this one place for every screen and
 * output: "no free Unmovable block of order >= 5 in DMA32, Normal; Movable
 * had 12 at order >= 5 but the request was Unmovable". Returns dst.
 */
char *capture_verdict(const struct capture *c, char *dst, size_t size);
/* The report's line for an allocation failure: "order 5, mode 0xcc0
 * (Unmovable), Normal free 1234 min 1000 low 1250 high 1500: verdict". */
char *capture_report_line(const struct capture *c, char *dst, size_t size);

/* Lines for the screens and the text outputs, names escaped for a
 * terminal. What it belongs to: "kernel log record 4021, alloc-failure,
 * xxxx: order 10, mode 0x2084020 (Unmovable)". */
char *capture_title(const struct capture *c, char *dst, size_t size);
/* Zone i's figures: "node 0 Normal: free 1234 min 10 low 20 high 30 boost
 * 0 promo 40 protection (0, 0, 1280); order 10: unusable 0.405 extfrag
 * -1.000 (debugfs 0.405 -1.000)". */
char *capture_zone_line(const struct capture *c, int i, char *dst, size_t size);
/* Zone i's free blocks of type t at and above the failed order, the type
 * asked for marked: "* Unmovable    o5 46  o6 21 ...: 75 at order >= 5". */
char *capture_free_line(const struct capture *c, int i, int t, char *dst, size_t size);

#endif
