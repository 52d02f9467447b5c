/* pagetop diff as one JSON object: the rows diff.c pairs, in its order. */
#include "output/diff-int.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/derive.h"
#include "output/json.h"
#include "output/sample-json.h"

static void
json_orders(struct json *j, const char *key, const uint64_t *v, int n)
{
	if (!v) {
		json_null(j, key);
		return;
	}
	json_array_begin(j, key);
	for (int o = 0; o < n; o++)
		json_u64(j, NULL, v[o]);
	json_array_end(j);
}

static void
json_change(struct json *j, const uint64_t *a, const uint64_t *b, int n)
{
	if (!a || !b) {
		json_null(j, "change");
		return;
	}
	json_array_begin(j, "change");
	for (int o = 0; o < n; o++)
		json_int(j, NULL, (long long)b[o] - (long long)a[o]);
	json_array_end(j);
}

static bool
json_missing(struct json *j, const struct diff_args *d, enum source src, const char *key)
{
	if (sample_has(&d->a->s, src) && sample_has(&d->b->s, src))
		return false;
	json_null(j, key);
	return true;
}

static void
json_moment(struct json *j, const char *key, const struct diff_moment *m)
{
	json_object_begin(j, key);
	json_str(j, "spec", m->spec);
	json_double(j, "time", m->s.wall, 3);
	json_u64(j, "sample", m->index);
	if (isnan(m->pti_wall))
		json_null(j, "pagetypeinfo_time");
	else
		json_double(j, "pagetypeinfo_time", m->pti_wall, 3);
	json_object_end(j);
}

static void
json_buddy(struct json *j, const struct diff_args *d)
{
	int n = diff_orders_of(&d->a->s, &d->b->s, SRC_BUDDYINFO), node;
	const char *zone;

	if (json_missing(j, d, SRC_BUDDYINFO, "buddyinfo"))
		return;
	json_array_begin(j, "buddyinfo");
	for (int k = 0; diff_zone_at(d, k, &node, &zone); k++) {
		const struct buddyinfo_zone *za = diff_bzone(&d->a->s, node, zone);
		const struct buddyinfo_zone *zb = diff_bzone(&d->b->s, node, zone);

		json_object_begin(j, NULL);
		json_int(j, "node", node);
		json_str(j, "zone", zone);
		json_orders(j, "from", za ? za->free : NULL, n);
		json_orders(j, "to", zb ? zb->free : NULL, n);
		json_change(j, za ? za->free : NULL, zb ? zb->free : NULL, n);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_pti(struct json *j, const struct diff_args *d)
{
	const struct pagetypeinfo_free *ra, *rb;
	int n = diff_orders_of(&d->a->s, &d->b->s, SRC_PAGETYPEINFO), skipped;

	if (json_missing(j, d, SRC_PAGETYPEINFO, "pagetypeinfo"))
		return;
	json_array_begin(j, "pagetypeinfo");
	for (int k = 0; diff_ptype_at(d, k, &ra, &rb, &skipped); k++) {
		const struct pagetypeinfo_free *r = ra ? ra : rb;
		uint64_t fa[MAX_ORDERS], fb[MAX_ORDERS];

		for (int o = 0; o < MAX_ORDERS; o++) {
			fa[o] = ra ? ra->free[o] : 0;
			fb[o] = rb ? rb->free[o] : 0;
		}
		json_object_begin(j, NULL);
		json_int(j, "node", r->node);
		json_str(j, "zone", r->zone);
		json_str(j, "type", ra ? diff_ptype_name(&d->a->s, ra) : diff_ptype_name(&d->b->s, rb));
		json_orders(j, "from", ra ? fa : NULL, n);
		json_orders(j, "to", rb ? fb : NULL, n);
		json_change(j, ra ? fa : NULL, rb ? fb : NULL, n);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_vmstat(struct json *j, const struct diff_args *d)
{
	struct counters ca, cb;
	struct derived dv;

	if (json_missing(j, d, SRC_VMSTAT, "vmstat"))
		return;
	diff_derive_moments(d, &ca, &cb, &dv);
	json_array_begin(j, "vmstat");
	for (size_t k = 0; k < CTR_COUNT; k++) {
		enum counter c = diff_counters[k];

		if (dv.inc[c] <= 0)
			continue;
		json_object_begin(j, NULL);
		json_str(j, "counter", counter_name(c));
		json_u64(j, "from", ca.v[c]);
		json_u64(j, "to", cb.v[c]);
		json_int(j, "increase", dv.inc[c]);
		if (isnan(dv.rate[c]))
			json_null(j, "per_second");
		else
			json_double(j, "per_second", dv.rate[c], 3);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "vmstat_went_back");
	for (size_t k = 0; k < CTR_COUNT; k++) {
		enum counter c = diff_counters[k];

		if (counter_valid(&ca, c) && counter_valid(&cb, c) && dv.inc[c] < 0)
			json_str(j, NULL, counter_name(c));
	}
	json_array_end(j);
}

static void
json_meminfo(struct json *j, const struct diff_args *d)
{
	const struct meminfo *ma = &d->a->s.mem, *mb = &d->b->s.mem;

	if (json_missing(j, d, SRC_MEMINFO, "meminfo"))
		return;
	json_array_begin(j, "meminfo");
	for (int side = 0; side < 2; side++) {
		const struct meminfo *s = side ? mb : ma, *o = side ? ma : mb;

		for (int i = 0; i < s->n; i++) {
			const struct meminfo_entry *e = &s->e[i];
			uint64_t v;
			bool ino = meminfo_get(o, e->name, &v);

			if ((side && ino) || (!side && !diff_mem_shown(e, mb)))
				continue;
			json_object_begin(j, NULL);
			json_str(j, "name", e->name);
			json_str(j, "unit", e->kb ? "kB" : "");
			if (side)
				json_null(j, "from");
			else
				json_u64(j, "from", e->value);
			if (!side && !ino)
				json_null(j, "to");
			else
				json_u64(j, "to", side ? e->value : v);
			if (ino && !side)
				json_int(j, "change", (long long)v - (long long)e->value);
			else
				json_null(j, "change");
			json_object_end(j);
		}
	}
	json_array_end(j);
}

static void
json_psi(struct json *j, const struct diff_args *d)
{
	json_array_begin(j, "pressure");
	for (int r = 0; r < PSI_COUNT; r++) {
		enum source src = SRC_PSI_CPU + r;

		if (!diff_has(d, src) || !sample_has(&d->a->s, src) || !sample_has(&d->b->s, src))
			continue;
		for (int full = 0; full < 2; full++) {
			const struct psi_line *a = full ? &d->a->s.psi[r].full : &d->a->s.psi[r].some;
			const struct psi_line *b = full ? &d->b->s.psi[r].full : &d->b->s.psi[r].some;
			double share = diff_psi_between(d, r, full);

			if (!a->present || !b->present)
				continue;
			json_object_begin(j, NULL);
			json_str(j, "resource", diff_psi_names[r]);
			json_str(j, "line", full ? "full" : "some");
			sample_json_psi_line(j, "from", a);
			sample_json_psi_line(j, "to", b);
			if (isnan(share))
				json_null(j, "stalled_between");
			else
				json_double(j, "stalled_between", share, 2);
			json_object_end(j);
		}
	}
	json_array_end(j);
}

static void
json_tasks(struct json *j, const struct diff_args *d)
{
	const struct task_group *ga, *gb;

	if (json_missing(j, d, SRC_TASKS, "tasks"))
		return;
	json_array_begin(j, "tasks");
	for (int k = 0; diff_group_at(d, k, &ga, &gb); k++) {
		const struct task_group *g = gb ? gb : ga;

		json_object_begin(j, NULL);
		json_str(j, "reason", g->reason);
		json_int(j, "from", ga ? ga->count : 0);
		json_int(j, "to", gb ? gb->count : 0);
		json_double(j, "longest", g->longest, 3);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_hist(struct json *j, const char *key, const struct probe_tick_hist *h)
{
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_u64(j, "sum_ns", h->sum_ns);
	json_u64(j, "p50_ns", h->p50_ns);
	json_u64(j, "p99_ns", h->p99_ns);
	json_object_end(j);
}

static void
json_probes(struct json *j, const struct diff_args *d)
{
	static struct probe_tick pt;
	const struct probe_tick *t;
	const char *why;

	if (!(t = diff_probes_between(d, &pt, &why))) {
		json_object_begin(j, "probes");
		json_str(j, "none", why);
		json_object_end(j);
		return;
	}
	json_object_begin(j, "probes");
	json_object_begin(j, "stall");
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		json_hist(j, probe_stall_name(k), &t->stall[k]);
	json_object_end(j);
	json_hist(j, "dsleep", &t->dsleep);
	json_object_begin(j, "compaction");
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		json_u64(j, probe_compact_result_name(r), t->compact_result[r]);
	json_object_end(j);
	json_u64(j, "fallbacks", t->fallback_total);
	json_u64(j, "fallbacks_fragmenting", t->fallback_fragmenting);
	json_u64(j, "kswapd_wakes", t->kswapd_wakes);
	json_u64(j, "kcompactd_wakes", t->kcompactd_wakes);
	json_u64(j, "reclaim_writes", t->reclaim_writes);
	json_object_end(j);
}

void
diff_json(FILE *out, const struct diff_args *d)
{
	struct json j;

	json_init(&j, out);
	json_object_begin(&j, NULL);
	json_str(&j, "file", d->path);
	json_moment(&j, "from", d->a);
	json_moment(&j, "to", d->b);
	json_bool(&j, "reversed", d->reversed);
	json_double(&j, "seconds", d->b->s.wall - d->a->s.wall, 3);
	if (diff_has(d, SRC_BUDDYINFO))
		json_buddy(&j, d);
	if (diff_has(d, SRC_PAGETYPEINFO))
		json_pti(&j, d);
	if (diff_has(d, SRC_VMSTAT))
		json_vmstat(&j, d);
	if (diff_has(d, SRC_MEMINFO))
		json_meminfo(&j, d);
	json_psi(&j, d);
	if (diff_has(d, SRC_TASKS))
		json_tasks(&j, d);
	if (d->mask & DIFF_PROBES)
		json_probes(&j, d);
	json_object_end(&j);
	fputc('\n', out);
}
