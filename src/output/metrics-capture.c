/*
 * The capture at the last event as metrics (model/capture.h): gauges of
 * the allocator's state as it was read at that moment, with the moment
 * itself as a gauge, so that a scrape or an exported series shows the
 * state at the failure, not only the counters around it. The zones are
 * the sample's own buddyinfo rows (a capture's zones are the same
 * machine's), so a set built from the first sample holds a capture that
 * comes later; a zone the capture did not read has no value.
 */
#include "output/metrics.h"
#include "output/metrics-int.h"

#include <stdio.h>
#include <string.h>

#include "model/capture.h"

enum capture_metric {
	CM_READS,
	CM_SKIPPED,
	CM_WALL,
	CM_ORDER,
	CM_TRIGGER,		/* b enum capture_trigger */
	CM_MTYPE,		/* b enum capture_mtype */
	CM_ZONE_FIELD,		/* b the field below */
	CM_UNUSABLE,
	CM_EXTFRAG,
	CM_ELIGIBLE,
	CM_FREE_ABOVE,		/* sub the migratetype */
};

enum { CF_FREE, CF_MIN, CF_LOW, CF_HIGH, CF_BOOST, CF_PROMO, CF_COUNT };

static const char *const capture_field_names[CF_COUNT] = {
	"free", "min", "low", "high", "boost", "promo",
};

/* Label values without spaces: model/capture.c's names are for text. */
static const char *const capture_trigger_labels[CAPTURE_TRIGGER_COUNT] = {
	"kmsg", "reclaim_stall", "compaction_failures",
};

static struct metric_series *
capture_ser(struct metric_set *m, int what, int b, int decimals)
{
	return metrics_ser_add(m, MK_CAPTURE, what, b, 0, decimals);
}

/* A series of a zone row: node and zone kept to find the capture's row. */
static struct metric_series *
capture_zone_ser(struct metric_set *m, int what, int b, int decimals, int node, const char *zone)
{
	struct metric_series *se = capture_ser(m, what, b, decimals);

	if (!se)
		return NULL;
	se->node = node;
	snprintf(se->key, sizeof(se->key), "%s", zone);
	metrics_lab_int(se, "node", node);
	metrics_lab(se, "zone", se->key);
	return se;
}

/* The zones: buddyinfo's rows, or the capture's without buddyinfo. */
static int
capture_zones(const struct metrics_input *in, int i, int *node, const char **zone)
{
	const struct sample *s = in->s;

	if (sample_has(s, SRC_BUDDYINFO)) {
		if (i >= s->buddy.n_zones)
			return 0;
		*node = s->buddy.zones[i].node;
		*zone = s->buddy.zones[i].zone;
		return 1;
	}
	if (!in->cap || i >= in->cap->n_zones)
		return 0;
	*node = in->cap->zones[i].node;
	*zone = in->cap->zones[i].zone;
	return 1;
}

static void
capture_build_zones(struct metric_set *m, const struct metrics_input *in)
{
	const char *zone;
	int node;
	/* The migratetypes: pagetypeinfo's names in force, or the capture's. */
	int n_types = in->pti ? in->pti->n_types : in->cap ? in->cap->n_types : 0;

	metrics_fam_add(m, "pagetop_capture_zone_bytes", METRIC_GAUGE, "bytes",
			"A zone's free memory and watermarks (min, low, high, boost, promo) as "
			"zoneinfo had them at the last capture.");
	for (int i = 0; capture_zones(in, i, &node, &zone); i++)
		for (int f = 0; f < CF_COUNT; f++) {
			struct metric_series *se = capture_zone_ser(m, CM_ZONE_FIELD, f, 0, node, zone);

			if (!se)
				return;
			metrics_lab(se, "field", capture_field_names[f]);
		}
	metrics_fam_add(m, "pagetop_capture_unusable_index", METRIC_GAUGE, "",
			"The unusable free space index at the failed order (order 0 when not "
			"known), from buddyinfo at the last capture.");
	for (int i = 0; capture_zones(in, i, &node, &zone); i++)
		capture_zone_ser(m, CM_UNUSABLE, 0, 3, node, zone);
	metrics_fam_add(m, "pagetop_capture_extfrag_index", METRIC_GAUGE, "",
			"The external fragmentation index at the failed order, from buddyinfo at "
			"the last capture (-1: the request could have been met).");
	for (int i = 0; capture_zones(in, i, &node, &zone); i++)
		capture_zone_ser(m, CM_EXTFRAG, 0, 3, node, zone);
	metrics_fam_add(m, "pagetop_capture_zone_eligible", METRIC_GAUGE, "",
			"1 when the failed request could be served from the zone (its GFP zone "
			"bits), 0 when not.");
	for (int i = 0; capture_zones(in, i, &node, &zone); i++)
		capture_zone_ser(m, CM_ELIGIBLE, 0, 0, node, zone);
	if (!n_types)
		return;
	metrics_fam_add(m, "pagetop_capture_free_blocks_at_or_above", METRIC_GAUGE, "",
			"Free blocks of a migratetype at and above the failed order, from "
			"pagetypeinfo at the last capture.");
	for (int i = 0; capture_zones(in, i, &node, &zone); i++)
		for (int t = 0; t < n_types && t < MAX_MTYPES; t++) {
			const char *type = in->pti ? in->pti->types[t] : in->cap->types[t];
			struct metric_series *se = capture_zone_ser(m, CM_FREE_ABOVE, 0, 0, node, zone);

			if (!se)
				return;
			snprintf(se->sub, sizeof(se->sub), "%s", type);
			metrics_lab(se, "migratetype", se->sub);
		}
}

void
metrics_capture_build(struct metric_set *m, const struct metrics_input *in)
{
	struct metric_series *se;

	metrics_fam_add(m, "pagetop_captures", METRIC_COUNTER, "",
			"Reads of the allocator's state at an event (allocation failure, hung task, "
			"OOM kill, a long reclaim stall or failed compactions) since the run began.");
	capture_ser(m, CM_READS, 0, 0);
	metrics_fam_add(m, "pagetop_capture_skips", METRIC_COUNTER, "",
			"Events not captured because they came within the floor between two "
			"captures, as of the last capture.");
	capture_ser(m, CM_SKIPPED, 0, 0);
	metrics_fam_add(m, "pagetop_capture_timestamp_seconds", METRIC_GAUGE, "seconds",
			"When the last capture was read (seconds since the epoch).");
	capture_ser(m, CM_WALL, 0, 3);
	metrics_fam_add(m, "pagetop_capture_order", METRIC_GAUGE, "",
			"The failed allocation order of the last capture (-1: not known).");
	capture_ser(m, CM_ORDER, 0, 0);
	metrics_fam_add(m, "pagetop_capture_trigger", METRIC_GAUGE, "",
			"1 for what asked for the last capture, 0 for the others.");
	for (int t = 0; t < CAPTURE_TRIGGER_COUNT; t++)
		if ((se = capture_ser(m, CM_TRIGGER, t, 0)))
			metrics_lab(se, "trigger", capture_trigger_labels[t]);
	metrics_fam_add(m, "pagetop_capture_request_migratetype", METRIC_GAUGE, "",
			"1 for the migratetype the failed request asked for (from its GFP mode), "
			"0 for the others.");
	for (int t = 0; t < CAPTURE_MT_COUNT; t++)
		if ((se = capture_ser(m, CM_MTYPE, t, 0)))
			metrics_lab(se, "migratetype", capture_mtype_name(t));
	capture_build_zones(m, in);
}

static const struct capture_zone *
capture_zone_find(const struct capture *c, const struct metric_series *se)
{
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
		if (c->zones[i].node == se->node && strcmp(c->zones[i].zone, se->key) == 0)
			return &c->zones[i];
	return NULL;
}

static int
capture_type_named(const struct capture *c, const char *name)
{
	for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++)
		if (strcmp(c->types[t], name) == 0)
			return t;
	return -1;
}

static int64_t
capture_field(const struct capture_zone *z, int f, long page_size)
{
	uint64_t pages;

	if (!(z->has & CZ_ZI) || (f == CF_BOOST && !(z->has & CZ_BOOST)) ||
	    (f == CF_PROMO && !(z->has & CZ_PROMO)))
		return METRIC_NONE;
	pages = f == CF_FREE ? z->free_pages : f == CF_MIN ? z->min : f == CF_LOW ? z->low :
	    f == CF_HIGH ? z->high : f == CF_BOOST ? z->boost : z->promo;
	pages *= (uint64_t)(page_size > 0 ? page_size : 4096);
	return pages > (uint64_t)METRICS_VALUE_MAX ? METRICS_VALUE_MAX : (int64_t)pages;
}

int64_t
metrics_capture_value(const struct metric_series *se, const struct metrics_input *in)
{
	const struct capture *c = in->cap;
	const struct capture_zone *z;
	int t;

	if (se->a == CM_READS || se->a == CM_SKIPPED)
		return !c ? 0 : se->a == CM_READS ? c->reads : c->skipped;
	if (!c)
		return METRIC_NONE;
	switch (se->a) {
	case CM_WALL:
		return (int64_t)(c->wall * 1000 + 0.5);
	case CM_ORDER:
		return c->order;
	case CM_TRIGGER:
		return (int)c->trigger == se->b;
	case CM_MTYPE:
		return (int)c->mtype == se->b;
	}
	if (!(z = capture_zone_find(c, se)))
		return METRIC_NONE;
	switch (se->a) {
	case CM_ZONE_FIELD:
		return capture_field(z, se->b, in->s->page_size);
	case CM_UNUSABLE:
		return (z->has & CZ_BUDDY) ? z->unusable : METRIC_NONE;
	case CM_EXTFRAG:
		return (z->has & CZ_BUDDY) ? z->extfrag : METRIC_NONE;
	case CM_ELIGIBLE:
		return capture_zone_eligible(c, z);
	case CM_FREE_ABOVE:
		if (c->order < 0 || !(z->has & CZ_PTI) || (t = capture_type_named(c, se->sub)) < 0)
			return METRIC_NONE;
		return (int64_t)capture_free_at_or_above(c, z, t, c->order);
	}
	return METRIC_NONE;
}
