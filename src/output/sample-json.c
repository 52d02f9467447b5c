#include "output/sample-json.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>

#include <stdio.h>
#include <string.h>

#include "model/counters.h"
#include "model/frag.h"
#include "model/taskgroups.h"
#include "parse/kmsg.h"

/* json_members_u64 reads an entry as its name, then its value. */
_Static_assert(offsetof(struct vmstat_entry, value) == VMSTAT_NAME_LEN, "vmstat entry");
_Static_assert(offsetof(struct meminfo_entry, value) == MEMINFO_NAME_LEN, "meminfo entry");

/* What a zone's buddyinfo row and fragmentation are written from. */
struct zone_key {
	int node, n_orders;
	char zone[NAME_LEN];
	uint64_t free[MAX_ORDERS];
};
_Static_assert(sizeof(struct zone_key) <= JSON_PIECE_IN, "zone key");

/* The piece of zone z (NULL: none), its key made. */
static struct json_piece *
zone_piece(struct json_piece *memo, const struct buddyinfo *bi, int z, struct zone_key *k)
{
	const struct buddyinfo_zone *bz = &bi->zones[z];

	if (!memo || bi->n_orders > MAX_ORDERS)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->node = bz->node;
	k->n_orders = bi->n_orders;
	memcpy(k->zone, bz->zone, strnlen(bz->zone, NAME_LEN));
	memcpy(k->free, bz->free, (size_t)bi->n_orders * sizeof(bz->free[0]));
	return &memo[z];
}

static void
json_buddyinfo(struct json *j, const struct buddyinfo *bi)
{
	json_array_begin(j, "buddyinfo");
	for (int z = 0; z < bi->n_zones; z++) {
		const struct buddyinfo_zone *bz = &bi->zones[z];
		struct zone_key k;
		struct json_piece *pc = zone_piece(j->memo ? j->memo->buddy : NULL, bi, z, &k);

		if (pc && json_piece_hit(j, pc, &k, sizeof(k)))
			continue;
		json_object_begin(j, NULL);
		json_int(j, "node", bz->node);
		json_str(j, "zone", bz->zone);
		json_array_begin(j, "free");
		for (int o = 0; o < bi->n_orders; o++)
			json_u64(j, NULL, bz->free[o]);
		json_array_end(j);
		json_object_end(j);
		if (pc)
			json_piece_end(j, pc);
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

void
sample_json_psi_line(struct json *j, const char *key, const struct psi_line *l)
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
	struct {
		bool has[PSI_COUNT];
		struct psi p[PSI_COUNT];
	} k;

	_Static_assert(sizeof(k) <= JSON_PIECE_IN, "psi key");
	if (j->memo) {
		memset(&k, 0, sizeof(k));
		for (int r = 0; r < PSI_COUNT; r++)
			if ((k.has[r] = sample_has(s, SRC_PSI_CPU + r)))
				k.p[r] = s->psi[r];
		if (json_piece_hit(j, &j->memo->psi, &k, sizeof(k)))
			return;
	}
	json_object_begin(j, "psi");
	for (int r = 0; r < PSI_COUNT; r++) {
		if (!sample_has(s, SRC_PSI_CPU + r))
			continue;
		json_object_begin(j, names[r]);
		if (s->psi[r].some.present)
			sample_json_psi_line(j, "some", &s->psi[r].some);
		if (s->psi[r].full.present)
			sample_json_psi_line(j, "full", &s->psi[r].full);
		json_object_end(j);
	}
	json_object_end(j);
	if (j->memo)
		json_piece_end(j, &j->memo->psi);
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
		struct json_piece *pc = NULL;
		/* What the element is written from, whole (the name's bytes
		 * past its NUL zero). */
		struct {
			int node;
			uint32_t has;
			char zone[NAME_LEN];
			uint64_t v[ZI_NFIELDS];
		} k;

		_Static_assert(sizeof(k) <= JSON_PIECE_IN, "zone key");
		if (j->memo && z < MAX_ZONES) {
			memset(&k, 0, sizeof(k));
			k.node = zz->node;
			k.has = zz->has;
			memcpy(k.zone, zz->zone, strnlen(zz->zone, NAME_LEN));
			for (int f = 0; f < ZI_NFIELDS; f++)
				if (zz->has & (1u << f))
					k.v[f] = zz->v[f];
			pc = &j->memo->zone[z];
			if (json_piece_hit(j, pc, &k, sizeof(k)))
				continue;
		}
		json_object_begin(j, NULL);
		json_int(j, "node", zz->node);
		json_str(j, "zone", zz->zone);
		for (int f = 0; f < ZI_NFIELDS; f++)
			if (zz->has & (1u << f))
				json_u64(j, keys[f], zz->v[f]);
		json_object_end(j);
		if (pc)
			json_piece_end(j, pc);
	}
	json_array_end(j);
}

static void
json_fragmentation(struct json *j, const struct buddyinfo *bi)
{
	json_array_begin(j, "fragmentation");
	for (int z = 0; z < bi->n_zones; z++) {
		struct frag fr;
		struct zone_key k;
		struct json_piece *pc = zone_piece(j->memo ? j->memo->frag : NULL, bi, z, &k);

		if (pc && json_piece_hit(j, pc, &k, sizeof(k)))
			continue;
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
		if (pc)
			json_piece_end(j, pc);
	}
	json_array_end(j);
}

int
sample_json_memo_init(struct sample_json_memo *m)
{
	m->same_names = 0;
	counters_map_init(&m->counters);
	if (json_members_init(&m->vm, MAX_VMSTAT, VMSTAT_NAME_LEN) < 0)
		return -ENOMEM;
	if (json_members_init(&m->mem, MAX_MEMINFO, MEMINFO_NAME_LEN) < 0) {
		json_members_free(&m->vm);
		return -ENOMEM;
	}
	_Static_assert(sizeof(m->reclaim_e[0]) == sizeof(m->reclaim_e[0].name) + 8,
	    "a reclaim entry is its name, then its value");
	if (json_members_init(&m->reclaim, CTR_COUNT, sizeof(m->reclaim_e[0].name)) < 0) {
		json_members_free(&m->vm);
		json_members_free(&m->mem);
		return -ENOMEM;
	}
	for (int i = 0; i < CTR_COUNT; i++)
		m->reclaim_id[i] = -1;
	for (int z = 0; z < MAX_ZONES; z++)
		m->buddy[z].held = m->frag[z].held = m->zone[z].held = false;
	m->psi.held = false;
	return 0;
}

void
sample_json_memo_free(struct sample_json_memo *m)
{
	json_members_free(&m->vm);
	json_members_free(&m->mem);
	json_members_free(&m->reclaim);
}

/* The "reclaim" member of c as the memo's members (most counters move by
 * a little or not at all): false, nothing written, when a name does not
 * fit an entry. */
static bool
json_reclaim_members(struct json *j, const struct counters *c)
{
	struct sample_json_memo *m = j->memo;
	struct sample_json_reclaim *e;
	const char *name;
	int i, n = 0;

	for (i = 0; i < CTR_COUNT; i++) {
		if (!counter_valid(c, i))
			continue;
		e = &m->reclaim_e[n];
		if (m->reclaim_id[n] != i) {
			name = counter_name(i);
			if (strlen(name) >= sizeof(e->name)) {
				m->reclaim_id[n] = -1;
				return false;
			}
			/* Whole: the members compare the bytes past the NUL too. */
			memset(e->name, 0, sizeof(e->name));
			memcpy(e->name, name, strlen(name));
			m->reclaim_id[n] = i;
		}
		e->value = c->v[i];
		n++;
	}
	json_members_u64(j, "reclaim", &m->reclaim, m->reclaim_e, sizeof(m->reclaim_e[0]), n);
	return true;
}

/* same: vm has the names of the vmstat the memo's map was last used on. */
static void
json_reclaim(struct json *j, const struct vmstat *vm, bool same)
{
	struct counters c;

	if (j->memo && same)
		counters_from_vmstat_same(vm, &j->memo->counters, &c);
	else if (j->memo)
		counters_from_vmstat_mapped(vm, &j->memo->counters, &c);
	else
		counters_from_vmstat(vm, &c);
	if (j->memo && json_reclaim_members(j, &c))
		return;
	json_object_begin(j, "reclaim");
	for (int i = 0; i < CTR_COUNT; i++)
		if (counter_valid(&c, i))
			json_u64(j, counter_name(i), c.v[i]);
	json_object_end(j);
}

/* The function names of stack i of t, as stack_unpack() cuts them (at a
 * tab, a NUL or the field's size), read from the packed bytes without
 * unpacking the rest: export writes them for every blocked task. */
static void
json_stack_funcs(struct json *j, const struct tasks *t, int i)
{
	char func[STACK_FUNC_LEN];
	size_t len, at = 0;
	const char *p = tasks_stack_packed(t, i, &len);

	for (int n = 0; p && at < len && n < STACK_MAX_FRAMES; n++) {
		size_t end = at, tab, k;

		while (end < len && p[end] != '\n')
			end++;
		for (tab = at; tab < end && p[tab] != '\t'; tab++)
			;
		k = strnlen(p + at, tab - at);
		if (k > sizeof(func) - 1)
			k = sizeof(func) - 1;
		memcpy(func, p + at, k);
		func[k] = '\0';
		json_str(j, NULL, func);
		at = end + 1;
	}
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
		json_stack_funcs(j, t, b->stack);
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
	if (j->memo) {
		j->memo->vm.names_held = j->memo->same_names & SRC_BIT(SRC_VMSTAT);
		j->memo->mem.names_held = j->memo->same_names & SRC_BIT(SRC_MEMINFO);
	}
	if (sample_has(s, SRC_VMSTAT) && j->memo) {
		json_reclaim(j, &s->vm, json_members_u64(j, "vmstat", &j->memo->vm, s->vm.e,
							 sizeof(s->vm.e[0]), s->vm.n));
	} else if (sample_has(s, SRC_VMSTAT)) {
		json_object_begin(j, "vmstat");
		for (int i = 0; i < s->vm.n; i++)
			json_u64(j, s->vm.e[i].name, s->vm.e[i].value);
		json_object_end(j);
		json_reclaim(j, &s->vm, false);
	}
	if (sample_has(s, SRC_MEMINFO) && j->memo) {
		json_members_u64(j, "meminfo", &j->memo->mem, s->mem.e, sizeof(s->mem.e[0]),
				 s->mem.n);
	} else if (sample_has(s, SRC_MEMINFO)) {
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
	if (s->probes.state != PROBES_NONE)
		sample_json_probes(j, &s->probes);
	if (s->delays.state != DELAYS_NONE)
		sample_json_delays(j, &s->delays);
	if (s->n_capture > 0)
		sample_json_capture(j, &s->capture);
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

static void
json_u64s(struct json *j, const char *key, const uint64_t *v, int n)
{
	json_array_begin(j, key);
	for (int i = 0; i < n; i++)
		json_u64(j, NULL, v[i]);
	json_array_end(j);
}

static void
json_probe_hist(struct json *j, const char *key, const struct probe_hist *h)
{
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_u64(j, "sum_ns", h->sum_ns);
	json_u64s(j, "buckets", h->bucket, PROBE_BUCKETS);
	json_object_end(j);
}

static void
json_probe_bits(struct json *j, const char *key, uint32_t bits)
{
	json_array_begin(j, key);
	for (int i = 0; i < PROBE_ID_COUNT; i++)
		if (bits & (1u << i))
			json_str(j, NULL, probe_name(i));
	json_array_end(j);
}

static void
json_probe_daemon(struct json *j, const char *key, const uint64_t *wakes,
		  const uint64_t *order, const uint64_t *awake)
{
	json_object_begin(j, key);
	json_u64s(j, "wakes_by_node", wakes, PROBE_NODES);
	json_u64s(j, "wakes_by_order", order, PROBE_ORDERS);
	json_u64s(j, "awake_ns_by_node", awake, PROBE_NODES);
	json_object_end(j);
}

static void
json_probe_tick(struct json *j, const struct probes *p)
{
	json_array_begin(j, "tasks");
	for (int i = 0; i < p->n_tasks && i < PROBE_TOP_TASKS; i++) {
		const struct probe_task *t = &p->task[i];

		json_object_begin(j, NULL);
		json_int(j, "tid", t->tid);
		json_str(j, "comm", t->comm);
		json_array_begin(j, "kinds");
		for (int k = 0; k < STALL_KIND_COUNT; k++)
			if (t->kinds & (1u << k))
				json_str(j, NULL, probe_stall_name(k));
		json_array_end(j);
		json_u64(j, "count", t->count);
		json_u64(j, "total_ns", t->total_ns);
		json_u64(j, "max_ns", t->max_ns);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "dstacks");
	for (int i = 0; i < p->n_dstacks && i < PROBE_TOP_STACKS; i++) {
		const struct probe_dstack *d = &p->dstack[i];

		json_object_begin(j, NULL);
		json_u64(j, "count", d->count);
		json_u64(j, "total_ns", d->total_ns);
		json_u64(j, "max_ns", d->max_ns);
		json_int(j, "last_tid", d->last_tid);
		json_str(j, "last_comm", d->last_comm);
		json_array_begin(j, "stack");
		for (int f = 0; f < d->stack.n && f < PROBE_STACK_FRAMES; f++)
			json_str(j, NULL, d->stack.func[f]);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The probes as recorded: cumulative figures since they attached (a
 * consumer differences two samples of the same epoch) and this tick's. */
void
sample_json_probes(struct json *j, const struct probes *p)
{
	static const char *const st[] = { "none", "on", "unavailable" };

	json_object_begin(j, "probes");
	json_str(j, "state", (unsigned)p->state < 3 ? st[p->state] : "?");
	json_str(j, "why", p->why);
	if (p->state != PROBES_ON) {
		json_object_end(j);
		return;
	}
	json_probe_bits(j, "attached", p->attached);
	json_probe_bits(j, "missing", p->missing);
	json_u64(j, "epoch_ns", p->epoch);
	json_array_begin(j, "bucket_le_us");
	for (int i = 0; i < PROBE_BUCKETS - 1; i++)
		json_u64(j, NULL, probe_bucket_le_us(i));
	json_array_end(j);
	json_object_begin(j, "stall");
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		const struct probe_stall *s = &p->stall[k];

		json_object_begin(j, probe_stall_name(k));
		json_probe_hist(j, "latency", &s->lat);
		json_u64s(j, "count_by_order", s->order_count, PROBE_ORDERS);
		json_u64s(j, "ns_by_order", s->order_ns, PROBE_ORDERS);
		json_u64(j, "reclaimed", s->reclaimed);
		json_u64(j, "tick_max_ns", s->tick_max_ns);
		json_object_end(j);
	}
	json_object_end(j);
	json_object_begin(j, "compaction");
	for (int r = 0; r < COMPACT_R_COUNT; r++) {
		json_object_begin(j, probe_compact_result_name(r));
		json_u64(j, "runs", p->compact_result[r]);
		json_probe_hist(j, "latency", &p->compact_lat[r]);
		json_object_end(j);
	}
	json_u64s(j, "tries_by_order", p->compact_try, PROBE_ORDERS);
	json_u64s(j, "deferred_by_order", p->compact_deferred, PROBE_ORDERS);
	json_object_end(j);
	json_object_begin(j, "throttle");
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++) {
		json_object_begin(j, probe_throttle_name(r));
		json_u64(j, "count", p->throttle_count[r]);
		json_u64(j, "us", p->throttle_us[r]);
		json_object_end(j);
	}
	json_object_end(j);
	json_array_begin(j, "fallbacks");
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int a = 0; a < PROBE_MIGRATETYPES; a++)
			for (int t = 0; t < PROBE_MIGRATETYPES; t++) {
				if (!p->fallback[o][a][t])
					continue;
				json_object_begin(j, NULL);
				json_int(j, "order", o);
				json_int(j, "asked", a);
				json_int(j, "taken", t);
				json_u64(j, "count", p->fallback[o][a][t]);
				json_object_end(j);
			}
	json_array_end(j);
	json_u64s(j, "fallback_fragmenting_by_order", p->fallback_fragmenting, PROBE_ORDERS);
	json_u64s(j, "fallback_owner_by_order", p->fallback_owner, PROBE_ORDERS);
	json_probe_daemon(j, "kswapd", p->kswapd_wakes, p->kswapd_wake_order, p->kswapd_awake_ns);
	json_probe_daemon(j, "kcompactd", p->kcompactd_wakes, p->kcompactd_wake_order,
			  p->kcompactd_awake_ns);
	json_u64(j, "reclaim_writes", p->reclaim_writes);
	json_object_begin(j, "dsleep");
	json_u64(j, "min_ns", p->dsleep_min_ns);
	json_probe_hist(j, "latency", &p->dsleep);
	json_u64(j, "lost", p->dsleep_lost);
	json_object_end(j);
	json_probe_tick(j, p);
	json_object_end(j);
}
