/*
 * What a recording's delta chunk expects some counters to have moved by,
 * from other counters of the same sample. The kernel prints many numbers
 * twice: meminfo is mostly vmstat's page counts in kB, a single-node box
 * has every nr_zone_* counter equal to its node counter, pgsteal_file is
 * the reclaim steals less the anonymous ones. The codec writes a counter's
 * change less the predicted change, which is zero or small where the
 * prediction holds and no worse than before where it does not: values
 * decode exactly whatever the kernel did. The rules are part of the
 * recording format (man/pagetop-recording.5): never change one, only add
 * rules under new field ids.
 */
#ifndef PAGETOP_CODEC_PREDICT_H
#define PAGETOP_CODEC_PREDICT_H

#include <stdint.h>

#include "parse/buddyinfo.h"
#include "parse/meminfo.h"
#include "parse/vmstat.h"
#include "parse/zoneinfo.h"

#define PREDICT_TERMS	5
#define PREDICT_RULES	48
#define PREDICT_OPS	96	/* terms of all the rules, compiled */

/* The rules that apply to one chunk, with names resolved to indexes. */
struct predict {
	int n;
	struct predict_rule {
		int target;	/* index of the counter predicted */
		int n;
		struct predict_term {
			char src;	/* 'v' vmstat, 'p' vmstat pages as kB,
					 * 'm' meminfo, 'z' zoneinfo's free
					 * pages, all zones */
			int coef;
			int at;		/* index in its source */
		} t[PREDICT_TERMS];
	} r[PREDICT_RULES];
	/*
	 * The same rules compiled for predict_apply, so that applying them
	 * is one loop over their terms without a branch a term: each term as
	 * the byte offset of its value in its source's array (0 for the
	 * zones' sum), which source (0 vmstat, 1 meminfo, 2 the zones),
	 * whether in kB (1: 'p') and its coefficient; a rule's last term has
	 * its target's index + 1 (end), the others 0. A rule without terms
	 * has none. n_ops is -1 when they did not fit: the rules are applied
	 * from r.
	 */
	int n_ops;
	struct predict_op {
		uint32_t off;
		uint8_t src, kb;
		int16_t coef;
		uint32_t end;
	} op[PREDICT_OPS];
};

/* What the rules read: this sample's chunks and the previous sample's.
 * A source is NULL when its chunk in this frame was not a delta chunk
 * read before the one predicted. */
struct predict_src {
	const struct vmstat *v, *pv;
	const struct meminfo *m, *pm;
	const struct zoneinfo *z, *pz;
	uint64_t page_kb;	/* the page size in kB */
};

/* The rules for vmstat counters v (a delta chunk: the previous sample's
 * names are the same); zoneinfo terms when src->z is set. The rules are
 * kept for the thread, valid until its next call; where the thread
 * cannot keep them (out of memory) they are resolved into spare, and
 * with spare NULL there are none (NULL). */
const struct predict *predict_vmstat(const struct vmstat *v, const struct predict_src *src,
				     struct predict *spare);
/* The rules for meminfo keys m; vmstat terms when src->v is set. Kept
 * likewise. */
const struct predict *predict_meminfo(const struct meminfo *m, const struct predict_src *src,
				      struct predict *spare);

/* The change rule i predicts, from the values in src. Terms read the
 * values as they are now, so a decoder applies the rules in order, each
 * after the counters it reads are final. */
uint64_t predict_change(const struct predict *p, int i,
			const struct predict_src *src);

/* Each rule's change added to its target, in order, as a decoder does:
 * the target of a rule is the value at first + target * stride bytes
 * (in src->v or src->m, whose values the terms read). */
void predict_apply(const struct predict *p, const struct predict_src *src,
		   uint64_t *first, size_t stride);

/* The change of zone z's free pages buddyinfo predicts: the pages in its
 * free blocks (b, pb: this sample's buddyinfo and the previous one's, of
 * the same shape). 0 for a zone buddyinfo does not list. */
uint64_t predict_zone_free(const struct zoneinfo_zone *z,
			   const struct buddyinfo *b,
			   const struct buddyinfo *pb);

#endif
