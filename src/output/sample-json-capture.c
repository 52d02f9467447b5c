/* The capture at an event as the "capture" member of a sample's JSON. */
#include "output/sample-json.h"

#include <stdio.h>

#include "model/capture.h"
#include "parse/kmsg.h"

static void
json_milli(struct json *j, const char *key, int v)
{
	json_fixed(j, key, v, 1000);
}

static void
json_capture_zone(struct json *j, const struct capture *c, const struct capture_zone *z)
{
	int order = c->order < 0 ? 0 : c->order;

	json_object_begin(j, NULL);
	json_int(j, "node", z->node);
	json_str(j, "zone", z->zone);
	json_bool(j, "eligible", capture_zone_eligible(c, z));
	if (z->has & CZ_ZI) {
		json_u64(j, "free_pages", z->free_pages);
		json_u64(j, "min", z->min);
		json_u64(j, "low", z->low);
		json_u64(j, "high", z->high);
		if (z->has & CZ_BOOST)
			json_u64(j, "boost", z->boost);
		if (z->has & CZ_PROMO)
			json_u64(j, "promo", z->promo);
		json_array_begin(j, "protection");
		for (int k = 0; k < z->n_protection && k < CAPTURE_PROTECTION; k++)
			json_u64(j, NULL, z->protection[k]);
		json_array_end(j);
	}
	if (z->has & CZ_BUDDY) {
		json_array_begin(j, "buddyinfo");
		for (int o = 0; o < c->n_orders && o < MAX_ORDERS; o++)
			json_u64(j, NULL, z->buddy[o]);
		json_array_end(j);
		json_milli(j, "unusable_index", z->unusable);
		json_milli(j, "extfrag_index", z->extfrag);
	}
	if (z->has & CZ_UNUSABLE)
		json_milli(j, "debugfs_unusable_index", z->dbg_unusable);
	if (z->has & CZ_EXTFRAG)
		json_milli(j, "debugfs_extfrag_index", z->dbg_extfrag);
	if (z->has & CZ_PTI) {
		json_object_begin(j, "free_blocks");
		for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++) {
			json_array_begin(j, c->types[t]);
			for (int o = 0; o < c->n_orders && o < MAX_ORDERS; o++)
				json_u64(j, NULL, z->free[t][o]);
			json_array_end(j);
		}
		json_object_end(j);
		json_object_begin(j, "free_at_or_above_order");
		for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++)
			json_u64(j, c->types[t], capture_free_at_or_above(c, z, t, order));
		json_object_end(j);
	}
	json_object_end(j);
}

void
sample_json_capture(struct json *j, const struct capture *c)
{
	char verdict[1024];

	json_object_begin(j, "capture");
	json_str(j, "trigger", capture_trigger_name(c->trigger));
	if (c->trigger == CAPTURE_KMSG) {
		json_u64(j, "seq", c->seq);
		json_str(j, "kind", kmsg_kind_name((enum kmsg_kind)c->kind));
	} else
		json_u64(j, c->trigger == CAPTURE_STALL ? "stall_ns" : "compact_failures",
		    c->stall_ns);
	if (c->comm[0])
		json_str(j, "comm", c->comm);
	json_int(j, "order", c->order);
	if (c->gfp) {
		char gfp[16];

		snprintf(gfp, sizeof(gfp), "%#x", (unsigned)c->gfp);
		json_str(j, "gfp", gfp);
	}
	json_str(j, "migratetype", capture_mtype_name(c->mtype));
	json_double(j, "time", c->wall, 3);
	json_u64(j, "reads", c->reads);
	json_u64(j, "skipped", c->skipped);
	json_int(j, "pageblock_order", c->pageblock_order);
	json_str(j, "verdict", capture_verdict(c, verdict, sizeof(verdict)));
	json_array_begin(j, "zones");
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
		json_capture_zone(j, c, &c->zones[i]);
	json_array_end(j);
	json_object_end(j);
}
