/* The delay accounting part of a sample as JSON (model/delays.h). */
#include "output/sample-json.h"

#include "output/json.h"

/* This tick's waits per kind, in seconds and counts, over the tasks asked;
 * and the tasks that waited longest. */
void
sample_json_delays(struct json *j, const struct delays *dl)
{
	json_object_begin(j, "delays");
	json_str(j, "state", delays_state_name(dl->state));
	json_str(j, "why", dl->why);
	if (dl->state != DELAYS_ON) {
		json_object_end(j);
		return;
	}
	json_u64(j, "taskstats_version", dl->version);
	json_u64(j, "ran", dl->ran);
	json_u64(j, "asked", dl->asked);
	json_u64(j, "answered", dl->answered);
	json_u64(j, "first_seen", dl->first_seen);
	json_u64(j, "gone", dl->gone);
	json_object_begin(j, "total");
	for (int k = 0; k < DELAY_KIND_COUNT; k++) {
		if (!(dl->kinds & (1u << k)))
			continue;
		json_object_begin(j, delay_kind_name((enum delay_kind)k));
		json_fixed(j, "seconds", (long long)(dl->total_ns[k] / 1000), 1000000);
		json_u64(j, "count", dl->total_count[k]);
		json_object_end(j);
	}
	json_object_end(j);
	json_array_begin(j, "top");
	for (int i = 0; i < dl->n_top && i < DELAYS_TOP_TASKS; i++) {
		const struct delay_task *t = &dl->top[i];

		json_object_begin(j, NULL);
		json_int(j, "tid", t->tid);
		if (t->tgid)
			json_int(j, "tgid", t->tgid);
		json_str(j, "comm", t->comm);
		for (int k = 0; k < DELAY_KIND_COUNT; k++)
			if ((dl->kinds & (1u << k)) && (t->ns[k] || t->count[k])) {
				json_object_begin(j, delay_kind_name((enum delay_kind)k));
				json_fixed(j, "seconds", (long long)(t->ns[k] / 1000), 1000000);
				json_u64(j, "count", t->count[k]);
				json_object_end(j);
			}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
