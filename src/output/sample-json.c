#include "output/sample-json.h"

#include <math.h>

#include <stdio.h>

#include "model/counters.h"
#include "model/frag.h"
#include "model/taskgroups.h"
#include "parse/kmsg.h"

static void
json_buddyinfo(struct json *j, const struct buddyinfo *bi)
{
	json_array_begin(j, "buddyinfo");
	for (int z = 0; z < bi->n_zones; z++) {
		const struct buddyinfo_zone *bz = &bi->zones[z];

		json_object_begin(j, NULL);
		json_int(j, "node", bz->node);
		json_str(j, "zone", bz->zone);
		json_array_begin(j, "free");
		for (int o = 0; o < bi->n_orders; o++)
			json_u64(j, NULL, bz->free[o]);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_blocks(struct json *j, const char *key, const struct pagetypeinfo *pti,
	    const struct pagetypeinfo_blocks *rows, int n)
{
	json_array_begin(j, key);
	for (int r = 0; r < n; r++) {
		json_object_begin(j, NULL);
		json_int(j, "node", rows[r].node);
		json_str(j, "zone", rows[r].zone);
		json_object_begin(j, "counts");
		for (int t = 0; t < pti->n_types; t++)
			json_u64(j, pti->types[t], rows[r].count[t]);
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_pagetypeinfo(struct json *j, const struct pagetypeinfo *pti, double when)
{
	json_object_begin(j, "pagetypeinfo");
	/* Read less often than the rest, a sample between reads shows the
	 * read in force (dump --at), with when it was read; a read of the
	 * sample's own has no time but the sample's. */
	if (!isnan(when))
		json_double(j, "time", when, 3);
	if (pti->pageblock_order >= 0)
		json_int(j, "pageblock_order", pti->pageblock_order);
	if (pti->pages_per_block)
		json_u64(j, "pages_per_block", pti->pages_per_block);
	json_array_begin(j, "free");
	for (int r = 0; r < pti->n_free; r++) {
		const struct pagetypeinfo_free *row = &pti->free[r];

		json_object_begin(j, NULL);
		json_int(j, "node", row->node);
		json_str(j, "zone", row->zone);
		json_str(j, "type", pti->types[row->type]);
		json_array_begin(j, "free");
		for (int o = 0; o < pti->n_orders; o++)
			json_u64(j, NULL, row->free[o]);
		json_array_end(j);
		if (row->capped)
			json_bool(j, "capped", true);
		json_object_end(j);
	}
	json_array_end(j);
	json_blocks(j, "blocks", pti, pti->blocks, pti->n_blocks);
	if (pti->n_mixed)
		json_blocks(j, "mixed_blocks", pti, pti->mixed, pti->n_mixed);
	json_object_end(j);
}

static void
json_psi_line(struct json *j, const char *key, const struct psi_line *l)
{
	json_object_begin(j, key);
	json_fixed(j, "avg10", l->avg10, 100);
	json_fixed(j, "avg60", l->avg60, 100);
	json_fixed(j, "avg300", l->avg300, 100);
	json_u64(j, "total", l->total);
	json_object_end(j);
}

static void
json_psi(struct json *j, const struct sample *s)
{
	static const char *const names[PSI_COUNT] = { "cpu", "memory", "io", "irq" };

	json_object_begin(j, "psi");
	for (int r = 0; r < PSI_COUNT; r++) {
		if (!sample_has(s, SRC_PSI_CPU + r))
			continue;
		json_object_begin(j, names[r]);
		if (s->psi[r].some.present)
			json_psi_line(j, "some", &s->psi[r].some);
		if (s->psi[r].full.present)
			json_psi_line(j, "full", &s->psi[r].full);
		json_object_end(j);
	}
	json_object_end(j);
}

static void
json_zones(struct json *j, const struct zoneinfo *zi)
{
	static const char *const keys[ZI_NFIELDS] = {
		[ZI_FREE] = "free", [ZI_MIN] = "min", [ZI_LOW] = "low", [ZI_HIGH] = "high",
		[ZI_BOOST] = "boost", [ZI_SPANNED] = "spanned", [ZI_PRESENT] = "present",
		[ZI_MANAGED] = "managed", [ZI_CMA] = "cma",
	};

	json_array_begin(j, "zones");
	for (int z = 0; z < zi->n_zones; z++) {
		const struct zoneinfo_zone *zz = &zi->zones[z];

		json_object_begin(j, NULL);
		json_int(j, "node", zz->node);
		json_str(j, "zone", zz->zone);
		for (int f = 0; f < ZI_NFIELDS; f++)
			if (zz->has & (1u << f))
				json_u64(j, keys[f], zz->v[f]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_fragmentation(struct json *j, const struct buddyinfo *bi)
{
	json_array_begin(j, "fragmentation");
	for (int z = 0; z < bi->n_zones; z++) {
		struct frag fr;

		frag_compute(bi->zones[z].free, bi->n_orders, &fr);
		json_object_begin(j, NULL);
		json_int(j, "node", bi->zones[z].node);
		json_str(j, "zone", bi->zones[z].zone);
		json_u64(j, "free_pages", fr.free_pages);
		json_array_begin(j, "unusable_index");
		for (int o = 0; o < fr.n_orders; o++)
			json_fixed(j, NULL, fr.unusable[o], 1000);
		json_array_end(j);
		json_array_begin(j, "extfrag_index");
		for (int o = 0; o < fr.n_orders; o++)
			json_fixed(j, NULL, fr.extfrag[o], 1000);
		json_array_end(j);
		json_int(j, "highest_free_order", fr.highest_free_order);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
json_reclaim(struct json *j, const struct vmstat *vm)
{
	struct counters c;

	counters_from_vmstat(vm, &c);
	json_object_begin(j, "reclaim");
	for (int i = 0; i < CTR_COUNT; i++)
		if (counter_valid(&c, i))
			json_u64(j, counter_name(i), c.v[i]);
	json_object_end(j);
}

static void
json_tasks(struct json *j, const struct tasks *t, const struct task_groups *groups, double now)
{
	char letter[2] = "";

	json_object_begin(j, "tasks");
	json_u64(j, "threads", t->total);
	json_object_begin(j, "states");
	for (int c = 'A'; c <= 'z'; c++) {
		if (!t->by_state[c])
			continue;
		letter[0] = (char)c;
		json_u64(j, letter, t->by_state[c]);
	}
	json_object_end(j);
	if (t->stack_err)
		json_str(j, "stacks", "need root");
	if (t->truncated)
		json_bool(j, "truncated", true);
	if (t->note[0])
		json_str(j, "note", t->note);
	json_array_begin(j, "blocked");
	for (int i = 0; i < t->n_blocked; i++) {
		const struct blocked_task *b = &t->b[i];

		letter[0] = b->state;
		json_object_begin(j, NULL);
		json_int(j, "tid", b->tid);
		json_int(j, "tgid", b->tgid);
		json_str(j, "comm", b->comm);
		json_str(j, "state", letter);
		json_str(j, "wchan", b->wchan);
		json_array_begin(j, "stack");
		if (b->stack >= 0)
			for (int f = 0; f < t->stacks[b->stack].n; f++)
				json_str(j, NULL, t->stacks[b->stack].f[f].func);
		json_array_end(j);
		if (b->stack < 0)
			json_str(j, "stack_missing", task_stack_missing_text(b->stack_why));
		if (groups) {
			const struct task_group *g = &groups->g[groups->of_task[i]];

			json_str(j, "category", wait_category_name(g->category));
			json_str(j, "reason", g->reason);
		}
		json_double(j, "blocked_for", task_blocked_for(t, i, now), 1);
		json_str(j, "blocked_since_source", task_since_name(b->since_from));
		if (b->since_start)
			json_bool(j, "blocked_before_first_scan", true);
		json_str(j, "cmdline", b->cmdline);
		json_str(j, "user", b->user);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* The kernel log events completed on this tick. */
static void
json_events(struct json *j, const struct sample *s)
{
	const struct kmsg_sample *k = &s->kmsg;
	char gfp[16];

	json_array_begin(j, "events");
	for (int i = 0; i < k->n && i < KMSG_MAX_EVENTS; i++) {
		const struct kmsg_event *ev = &k->ev[i];

		json_object_begin(j, NULL);
		json_double(j, "time", kmsg_event_wall(ev, s->wall, s->mono), 3);
		json_double(j, "kernel_time", (double)ev->ts_us / 1e6, 6);
		json_u64(j, "seq", ev->seq);
		json_str(j, "kind", kmsg_kind_name(ev->kind));
		json_int(j, "level", ev->level);
		if (ev->has & KF_COMM)
			json_str(j, "comm", ev->comm);
		if (ev->has & KF_PID)
			json_int(j, "pid", ev->pid);
		if (ev->has & KF_ORDER)
			json_int(j, "order", ev->order);
		if (ev->has & KF_GFP) {
			snprintf(gfp, sizeof(gfp), "%#x", ev->gfp);
			json_str(j, "gfp", gfp);
		}
		if (ev->has & KF_SECONDS)
			json_u64(j, "seconds", ev->seconds);
		if (ev->has & KF_ANON)
			json_u64(j, "anon_rss_kb", ev->anon_kb);
		if (ev->has & KF_FILE)
			json_u64(j, "file_rss_kb", ev->file_kb);
		if (ev->has & KF_SHMEM)
			json_u64(j, "shmem_rss_kb", ev->shmem_kb);
		if (ev->has & KF_DEV)
			json_str(j, "device", ev->dev);
		json_u64(j, "count", kmsg_event_count(ev));
		json_u64(j, "lines", ev->lines);
		if (ev->truncated)
			json_bool(j, "truncated", true);
		json_str(j, "text", ev->text);
		json_object_end(j);
	}
	json_array_end(j);
	if (k->lost)
		json_u64(j, "events_lost", k->lost);
	if (k->dropped)
		json_u64(j, "events_dropped", k->dropped);
}

void
sample_json(struct json *j, const struct sample *s, const struct task_groups *groups)
{
	sample_json_at(j, s, groups, NAN);
}

void
sample_json_at(struct json *j, const struct sample *s, const struct task_groups *groups,
	       double pti_when)
{
	char why[200];

	json_object_begin(j, NULL);
	json_double(j, "time", s->wall, 3);
	if (sample_has(s, SRC_UPTIME))
		json_double(j, "uptime", s->uptime, 2);
	if (sample_has(s, SRC_BUDDYINFO))
		json_buddyinfo(j, &s->buddy);
	if (sample_has(s, SRC_PAGETYPEINFO))
		json_pagetypeinfo(j, &s->pti, pti_when != s->wall ? pti_when : NAN);
	if (sample_has(s, SRC_VMSTAT)) {
		json_object_begin(j, "vmstat");
		for (int i = 0; i < s->vm.n; i++)
			json_u64(j, s->vm.e[i].name, s->vm.e[i].value);
		json_object_end(j);
		json_reclaim(j, &s->vm);
	}
	if (sample_has(s, SRC_MEMINFO)) {
		json_object_begin(j, "meminfo");
		for (int i = 0; i < s->mem.n; i++)
			json_u64(j, s->mem.e[i].name, s->mem.e[i].value);
		json_object_end(j);
	}
	json_psi(j, s);
	if (sample_has(s, SRC_ZONEINFO))
		json_zones(j, &s->zi);
	if (sample_has(s, SRC_BUDDYINFO))
		json_fragmentation(j, &s->buddy);
	if (sample_has(s, SRC_TASKS))
		json_tasks(j, &s->tasks, groups, s->mono);
	if (s->kmsg.read)
		json_events(j, s);
	json_array_begin(j, "unavailable");
	for (int i = 0; i < SRC_COUNT; i++) {
		if (sample_has(s, i) || s->status[i].err == SRC_NOT_READ)
			continue;
		source_reason(&s->status[i], why, sizeof(why));
		json_object_begin(j, NULL);
		json_str(j, "source", source_name(i));
		json_str(j, "reason", why);
		json_object_end(j);
	}
	if (s->kmsg.read && s->kmsg.err) {
		kmsg_reason(s->kmsg.err, why, sizeof(why));
		json_object_begin(j, NULL);
		json_str(j, "source", "kmsg");
		json_str(j, "reason", why);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
