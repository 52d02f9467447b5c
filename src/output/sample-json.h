/* A sample as one JSON object: the shape of `pagetop snapshot --json`. */
#ifndef PAGETOP_SAMPLE_JSON_H
#define PAGETOP_SAMPLE_JSON_H

#include "output/json.h"
#include "model/sample.h"
#include "model/taskgroups.h"

#include "model/counters.h"

/* For a writer of many samples alike (export, through json.memo): the
 * reclaim counters found through a map, not by name at every sample, and
 * the vmstat and meminfo objects written as the sample before's were. */
struct sample_json_memo {
	/* Set by the caller before a sample: SRC_BIT()s of the sources whose
	 * names are those of the sample written last through this memo (a
	 * recording read in order: the tick's same_shape). */
	unsigned same_names;
	struct counters_map counters;
	struct json_members vm, mem;
	/* Each zone's buddyinfo row, fragmentation and zoneinfo, and the
	 * pressure. */
	struct json_piece buddy[MAX_ZONES], frag[MAX_ZONES], zone[MAX_ZONES], psi;
	/* The reclaim counters as members: each valid one's name and value
	 * (entry k is counter reclaim_id[k], -1 none yet). */
	struct json_members reclaim;
	int reclaim_id[CTR_COUNT];
	struct sample_json_reclaim {
		char name[32];
		uint64_t value;
	} reclaim_e[CTR_COUNT];
};

/* 0, or -ENOMEM. */
int sample_json_memo_init(struct sample_json_memo *m);
void sample_json_memo_free(struct sample_json_memo *m);

/* groups: the blocked tasks of s grouped (their category and reason), or
 * NULL to leave those out. */
void sample_json(struct json *j, const struct sample *s, const struct task_groups *groups);
/* The same with the pagetypeinfo of s read at pti_when (a read in force
 * from before s, as dump --at shows it), given as pagetypeinfo.time when
 * it is not s's own time (NAN: s's own read). */
void sample_json_at(struct json *j, const struct sample *s, const struct task_groups *groups,
		    double pti_when);
/* The "probes" member: the probes as recorded (sample_json writes it
 * when their state is not NONE). */
void sample_json_probes(struct json *j, const struct probes *p);
/* A PSI line, {avg10, avg60, avg300, total}, under key. */
struct psi_line;
void sample_json_psi_line(struct json *j, const char *key, const struct psi_line *l);
/* The delay accounting part (sample-json-delays.c). */
void sample_json_delays(struct json *j, const struct delays *dl);
/* The capture at an event (sample-json-capture.c), when n_capture. */
void sample_json_capture(struct json *j, const struct capture *c);

#endif
