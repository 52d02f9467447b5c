/*
 * The summary of a recording: one pass over the samples feeds the
 * accumulators (report-int.h); report-print.c writes them out.
 *
 * Rates, totals and stall times come from neighbouring samples through
 * derive.c, as the screens' do: an interval whose counter went backwards
 * (a reset, a reboot) counts for nothing. Fragmentation figures are
 * frag.c's, the kernel's own. Blocked tasks are followed from sample to
 * sample: a task blocked since the same moment is one spell, and each
 * spell, once over, counts towards the group of its stack (or of its
 * wchan when the stack was not readable).
 */
#include "output/report-int.h"
#include "model/host.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/derive.h"
#include "model/frag.h"
#include "model/stall-events.h"

#define TID_SLOTS	4096	/* to start with: distinct (group, task) pairs */
#define TID_SLOTS_MAX	(1u << 23)	/* 64 MB: more than pid_max allows */

struct report *
report_new(const struct feed *f, const struct reasons *rs, const char *path)
{
	struct report *rep = calloc(1, sizeof(*rep));

	if (!rep || !(rep->tid_set = calloc(TID_SLOTS, sizeof(*rep->tid_set)))) {
		free(rep);
		return NULL;
	}
	rep->tid_cap = TID_SLOTS;
	rep->rs = rs;
	rep->f = f;
	snprintf(rep->path, sizeof(rep->path), "%s", path);
	host_facts(&f->host, rep->host, sizeof(rep->host));
	rep->interval = f->interval;
	rep->pageblock_order = f->host.pageblock_order;
	counters_map_init(&rep->map);
	return rep;
}

void
report_set_title(struct report *rep, const char *title)
{
	snprintf(rep->title, sizeof(rep->title), "%s", title);
}

void
report_free(struct report *rep)
{
	if (!rep)
		return;
	free(rep->tid_set);
	free(rep);
}

/* Counters: totals and peak rates over each interval known, as derive.c
 * makes them: an interval without time, or whose counter reset, counts
 * for nothing. */
static void
add_counters(struct report *rep, const struct sample *prev, const struct sample *s)
{
	const struct tick *t = &rep->f->tick;
	struct counters c;
	struct derived d;

	rep->prev_for_events = rep->ctr;
	if (!sample_has(s, SRC_VMSTAT)) {
		rep->map_from = NULL;
		return;
	}
	/* The names of the sample the map was last used on: no compare. */
	if (prev && prev == rep->map_from && t->s == s && t->prev == prev &&
	    (t->same_shape & SRC_BIT(SRC_VMSTAT)))
		counters_from_vmstat_same(&s->vm, &rep->map, &c);
	else
		counters_from_vmstat_mapped(&s->vm, &rep->map, &c);
	rep->map_from = s;
	derive_pair(rep->have_ctr ? &rep->ctr : NULL, rep->ctr_mono, &c, s->mono, &d);
	for (int k = 0; k < CTR_COUNT; k++) {
		struct counter_acc *a = &rep->acc[k];

		if (isnan(d.rate[k]))
			continue;
		a->total += (uint64_t)d.inc[k];
		if (!a->seen || d.rate[k] > a->peak) {
			a->peak = d.rate[k];
			a->peak_at = s->wall;
		}
		a->seen = true;
	}
	rep->ctr = c;
	rep->ctr_mono = s->mono;
	rep->have_ctr = true;
}

/* A PSI line's peak avg10, and its stall time over each interval known. */
static void
add_psi_line(struct psi_acc *a, const struct psi_line *l, const struct psi_line *pl,
	     double dt, double wall)
{
	int64_t stall;

	if (!l->present)
		return;
	if (!a->seen || l->avg10 > a->peak) {
		a->peak = l->avg10;
		a->peak_at = wall;
	}
	a->seen = true;
	stall = pl && pl->present ? derive_increase(pl->total, l->total) : -1;
	if (stall >= 0 && !isnan(dt)) {
		a->stalled += (double)stall;
		a->over += dt;
	}
}

static void
add_psi(struct report *rep, const struct sample *s)
{
	for (int r = PSI_MEMORY; r <= PSI_IO; r++) {
		bool had = rep->have_psi[r];
		double dt = derive_seconds(rep->psi_mono[r], s->mono);

		/* The PSI sources are in enum psi_resource's order. */
		if (!sample_has(s, SRC_PSI_CPU + r))
			continue;
		add_psi_line(&rep->psi[r][0], &s->psi[r].some, had ? &rep->last_psi[r].some : NULL,
			     dt, s->wall);
		add_psi_line(&rep->psi[r][1], &s->psi[r].full, had ? &rep->last_psi[r].full : NULL,
			     dt, s->wall);
		rep->last_psi[r] = s->psi[r];
		rep->psi_mono[r] = s->mono;
		rep->have_psi[r] = true;
	}
}

int
report_pageblock_order(const struct report *rep, int n_orders)
{
	int pb = rep->pageblock_order >= 0 ? rep->pageblock_order : 9;

	return pb < n_orders ? pb : n_orders - 1;
}

static void
keep_row(struct zone_row *row, const struct buddyinfo_zone *bz, int n_orders, double wall)
{
	row->wall = wall;
	row->n_orders = n_orders;
	memcpy(row->free, bz->free, sizeof(row->free));
}

/*
 * Worse is a lower highest free order (the largest allocation that could
 * succeed at once), then a higher unusable index at the pageblock order
 * (what THP and compaction work in), at order 3 (PAGE_ALLOC_COSTLY_ORDER,
 * the largest the kernel tries hard for) and at order 2. Ties keep the
 * earlier moment.
 */
static bool
frag_worse(int high, const int *unus, int worst_high, const int *worst_unus)
{
	if (high != worst_high)
		return high < worst_high;
	for (int k = 2; k >= 0; k--)
		if (unus[k] != worst_unus[k])
			return unus[k] > worst_unus[k];
	return false;
}

static void
add_zones(struct report *rep, const struct sample *s)
{
	const struct buddyinfo *b = &s->buddy;

	if (!sample_has(s, SRC_BUDDYINFO))
		return;
	for (int i = 0; i < b->n_zones; i++) {
		const struct buddyinfo_zone *bz = &b->zones[i];
		struct zone_acc *z = i < rep->n_zones ? &rep->zones[i] : NULL;
		int pb = report_pageblock_order(rep, b->n_orders), unus[3], high;
		struct frag f;

		/* Rows keep their place unless memory was plugged in or out. */
		if (!z || z->node != bz->node || strcmp(z->name, bz->zone) != 0) {
			z = NULL;
			for (int k = 0; k < rep->n_zones && !z; k++)
				if (rep->zones[k].node == bz->node &&
				    strcmp(rep->zones[k].name, bz->zone) == 0)
					z = &rep->zones[k];
		}
		if (z && z->last_n_orders == b->n_orders &&
		    memcmp(z->last_free, bz->free, (size_t)b->n_orders * sizeof(bz->free[0])) == 0) {
			high = z->last_high;
			memcpy(unus, z->last_unusable, sizeof(unus));
		} else {
			frag_compute(bz->free, b->n_orders, &f);
			high = f.highest_free_order;
			unus[0] = b->n_orders > 2 ? f.unusable[2] : 1000;
			unus[1] = b->n_orders > 3 ? f.unusable[3] : 1000;
			unus[2] = f.unusable[pb];
		}
		if (!z) {
			if (rep->n_zones == MAX_ZONES)
				continue;
			z = &rep->zones[rep->n_zones++];
			z->node = bz->node;
			snprintf(z->name, sizeof(z->name), "%s", bz->zone);
			keep_row(&z->start, bz, b->n_orders, s->wall);
			keep_row(&z->worst, bz, b->n_orders, s->wall);
			z->worst_high = high;
			memcpy(z->worst_unusable, unus, sizeof(unus));
		} else if (frag_worse(high, unus, z->worst_high, z->worst_unusable)) {
			keep_row(&z->worst, bz, b->n_orders, s->wall);
			z->worst_high = high;
			memcpy(z->worst_unusable, unus, sizeof(unus));
		}
		keep_row(&z->end, bz, b->n_orders, s->wall);
		z->last_n_orders = b->n_orders;
		memcpy(z->last_free, bz->free, (size_t)b->n_orders * sizeof(bz->free[0]));
		z->last_high = high;
		memcpy(z->last_unusable, unus, sizeof(unus));
	}
}

/* The group of a task blocked with stack `stack` of t (-1: none), of
 * signature sig, and wchan. The stack is unpacked (into sc) only for a
 * group that is new: most tasks join one by its signature. */
static int
find_group(struct report *rep, const struct tasks *t, int stack, unsigned long sig,
	   const char *wchan, struct stack *sc)
{
	struct group_acc *g;
	struct reason_match m;
	static struct stack empty;	/* .bss, not .rodata: never backed */
	const struct stack *st;
	size_t len;

	/* As tasks_stack() would: none when its bytes are not there. */
	if (stack >= 0 && tasks_stack_packed(t, stack, &len) == NULL)
		stack = -1;
	for (int k = 0; k < rep->n_groups; k++) {
		g = &rep->groups[k];
		if (!g->rest && (stack >= 0 ? g->by_stack && g->sig == sig :
				 !g->by_stack && strcmp(g->wchan, wchan) == 0))
			return k;
	}
	if (rep->n_groups == MAX_GROUPS)
		return MAX_GROUPS - 1;
	g = &rep->groups[rep->n_groups];
	memset(g, 0, sizeof(*g));
	if (rep->n_groups == MAX_GROUPS - 1) {
		/* The last group takes the rest, and says so. */
		g->rest = true;
		g->category = WAIT_OTHER;
		snprintf(g->reason, sizeof(g->reason), "stacks past the first %d kinds, together",
			 MAX_GROUPS - 1);
		return rep->n_groups++;
	}
	st = stack >= 0 ? tasks_stack(t, stack, sc) : NULL;
	g->by_stack = st != NULL;
	g->sig = sig;
	snprintf(g->wchan, sizeof(g->wchan), "%s", wchan);
	if (st)
		g->stack = *st;
	reasons_match(rep->rs, st ? st : &empty, wchan, &m);
	g->category = m.category;
	snprintf(g->reason, sizeof(g->reason), "%s", m.reason ? m.reason : "?");
	return rep->n_groups++;
}

/* Slot of key in a set of cap slots (a power of two): its own or an empty one. */
static size_t
tid_slot(const uint64_t *set, size_t cap, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 40) & (cap - 1);

	while (set[i] != 0 && set[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Counts tid in group g once: an open-addressed set of (group, tid) pairs,
 * doubled when three quarters full, up to TID_SLOTS_MAX. */
static void
count_task(struct report *rep, int g, int tid)
{
	uint64_t key = ((uint64_t)(g + 1) << 32) | (uint32_t)tid;
	size_t i = tid_slot(rep->tid_set, rep->tid_cap, key);

	if (rep->tid_set[i] == key)
		return;
	if (rep->tid_used + 1 > rep->tid_cap / 4 * 3) {
		uint64_t *set = rep->tid_cap < TID_SLOTS_MAX ?
		    calloc(rep->tid_cap * 2, sizeof(*set)) : NULL;

		if (!set) {
			rep->groups[g].tasks_capped = true;
			return;
		}
		for (size_t k = 0; k < rep->tid_cap; k++)
			if (rep->tid_set[k])
				set[tid_slot(set, rep->tid_cap * 2, rep->tid_set[k])] = rep->tid_set[k];
		free(rep->tid_set);
		rep->tid_set = set;
		rep->tid_cap *= 2;
		i = tid_slot(rep->tid_set, rep->tid_cap, key);
	}
	rep->tid_set[i] = key;
	rep->tid_used++;
	rep->groups[g].tasks++;
}

/* A spell is over: it counts towards its group. */
static void
close_spell(struct report *rep, const struct spell *sp)
{
	struct group_acc *g = &rep->groups[sp->group];

	g->spells++;
	g->total += sp->blocked;
	count_task(rep, sp->group, sp->tid);
	if (g->spells == 1 || sp->blocked > g->longest) {
		g->longest = sp->blocked;
		g->longest_at_least = sp->at_least;
		g->longest_tid = sp->tid;
		g->longest_until = sp->last_wall;
		memcpy(g->longest_comm, sp->comm, sizeof(g->longest_comm));
	}
}

static void
add_tasks(struct report *rep, const struct sample *s)
{
	const struct tasks *t = &s->tasks;
	unsigned long sigs[TASKS_MAX_STACKS];
	int moved[MAX_SPELLS], kept = 0;
	static struct stack sc;	/* 7.5 KB: off the stack */

	if (!sample_has(s, SRC_TASKS))
		return;
	rep->gen++;
	for (int k = 0; k < t->n_stacks && k < TASKS_MAX_STACKS; k++)
		sigs[k] = tasks_stack_signature(t, k);
	for (int i = 0; i < t->n_blocked; i++) {
		const struct blocked_task *b = &t->b[i];
		bool has_stack = b->stack >= 0 && b->stack < t->n_stacks;
		struct spell *sp = NULL;
		double d = s->mono - b->since;

		/* Tasks keep their order from scan to scan: try the same place first. */
		if (i < rep->n_spells && rep->spells[i].tid == b->tid &&
		    fabs(rep->spells[i].since - b->since) < 1e-3)
			sp = &rep->spells[i];
		for (int k = 0; k < rep->n_spells && !sp; k++)
			if (rep->spells[k].tid == b->tid && fabs(rep->spells[k].since - b->since) < 1e-3)
				sp = &rep->spells[k];
		/* In D before the recorder started, then its real start from
		 * when it last ran: the same spell. */
		for (int k = 0; k < rep->n_spells && !sp && b->since_from == SINCE_SCHED; k++)
			if (rep->spells[k].tid == b->tid && rep->spells[k].at_least &&
			    b->since <= rep->spells[k].since) {
				sp = &rep->spells[k];
				sp->since = b->since;
			}
		if (!sp) {
			if (rep->n_spells == MAX_SPELLS) {
				rep->lost_spells++;
				rep->spell_of[i] = -1;
				continue;
			}
			sp = &rep->spells[rep->n_spells++];
			memset(sp, 0, sizeof(*sp));
			sp->tid = b->tid;
			sp->since = b->since;
			sp->group = -1;
		}
		sp->blocked = d > 0 ? d : 0;
		sp->last_wall = s->wall;
		sp->at_least = b->since_start;
		sp->gen = rep->gen;
		memcpy(sp->comm, b->comm, sizeof(sp->comm));
		sp->comm[sizeof(sp->comm) - 1] = '\0';
		/* A stack read later (the worker is behind) moves it to its stack's group. */
		if (sp->group < 0 || (has_stack && !rep->groups[sp->group].by_stack))
			sp->group = find_group(rep, t, has_stack ? b->stack : -1,
					       has_stack ? sigs[b->stack] : 0, b->wchan, &sc);
		if (!has_stack && (unsigned)b->stack_why < 32)
			rep->groups[sp->group].why_seen |= 1u << b->stack_why;
		rep->spell_of[i] = (int)(sp - rep->spells);
	}
	/* Spells not seen in this scan are over; the rest move up, in scan order. */
	for (int k = 0; k < rep->n_spells; k++) {
		if (rep->spells[k].gen != rep->gen) {
			close_spell(rep, &rep->spells[k]);
			moved[k] = -1;
			continue;
		}
		moved[k] = kept;
		rep->spells[kept++] = rep->spells[k];
	}
	rep->n_spells = kept;
	for (int i = 0; i < t->n_blocked; i++)
		if (rep->spell_of[i] >= 0)
			rep->spell_of[i] = moved[rep->spell_of[i]];
}

/* Appends to e's text at *n, as far as it fits. */
static void __attribute__((format(printf, 3, 4)))
event_put(struct event *e, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= sizeof(e->what))
		return;
	va_start(ap, fmt);
	r = vsnprintf(e->what + *n, sizeof(e->what) - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n += (size_t)r;
}

/* What happened at cur, each kind of it; the new ways of blocking each
 * named by its first task, up to EVENT_WAYS_SHOWN, then how many more. */
static void
add_event(struct report *rep, const struct sample *prev, const struct sample *cur, unsigned ev)
{
	int tasks[EVENT_WAYS_SHOWN], ways = 0;
	struct event *e;
	size_t n = 0;
	const char *sep = "";

	if (ev & STALL_EV_BLOCKED)
		ways = stall_new_blocked(prev, cur, tasks, EVENT_WAYS_SHOWN);
	for (int k = 0; k < 3; k++)
		if (ev & (1u << k))
			rep->events_by_kind[k] += k == 2 && ways > 0 ? (size_t)ways : 1;
	if (rep->n_events++ >= MAX_EVENTS)
		return;
	e = &rep->events[rep->n_events - 1];
	e->wall = cur->wall;
	e->what[0] = '\0';
	if (ev & STALL_EV_PSI_MEMORY) {
		event_put(e, &n, "memory pressure past 10%% (PSI some avg10 %u.%02u%%)",
			  cur->psi[PSI_MEMORY].some.avg10 / 100,
			  cur->psi[PSI_MEMORY].some.avg10 % 100);
		sep = "; ";
	}
	if (ev & STALL_EV_RECLAIM) {
		event_put(e, &n, "%sdirect reclaim or compaction stalls begin", sep);
		sep = "; ";
	}
	for (int w = 0; w < ways && w < EVENT_WAYS_SHOWN; w++) {
		int sp = rep->spell_of[tasks[w]];
		const char *why = sp >= 0 ? rep->groups[rep->spells[sp].group].reason : "?";

		event_put(e, &n, "%s%s blocked: %s", sep, cur->tasks.b[tasks[w]].comm, why);
		sep = "; ";
	}
	if (ways > EVENT_WAYS_SHOWN)
		event_put(e, &n, ", and %d more blocked new ways", ways - EVENT_WAYS_SHOWN);
}

static void
add_kmsg(struct report *rep, const struct sample *cur)
{
	const struct kmsg_sample *k = &cur->kmsg;

	if (!k->read)
		return;
	rep->kmsg_recorded = true;
	if (k->err) {
		rep->kmsg_err = k->err;
		return;
	}
	rep->kmsg_lost += k->lost + k->dropped;
	for (int i = 0; i < k->n && i < KMSG_MAX_EVENTS; i++) {
		const struct kmsg_event *ev = &k->ev[i];
		struct kevent *e;

		if (ev->kind >= 0 && ev->kind < KMSG_KIND_COUNT)
			rep->kevents_by_kind[ev->kind]++;
		if (rep->n_kevents++ >= MAX_EVENTS)
			continue;
		e = &rep->kevents[rep->n_kevents - 1];
		e->wall = kmsg_event_wall(ev, cur->wall, cur->mono);
		e->kind = ev->kind;
		kmsg_event_brief(ev, e->brief, sizeof(e->brief));
		/* The zones as they were at that failure (model/capture.c). */
		e->verdict[0] = '\0';
		if (cur->n_capture && cur->capture.trigger == CAPTURE_KMSG &&
		    cur->capture.seq == ev->seq)
			capture_report_line(&cur->capture, e->verdict, sizeof(e->verdict));
	}
}

void
report_add(struct report *rep, const struct sample *prev, const struct sample *cur)
{
	if (rep->samples == 0)
		rep->first = cur->wall;
	else if (rep->have_last && rep->interval > 0 &&
		 cur->wall - rep->last > 2.5 * rep->interval + 0.5) {
		if (rep->n_jumps < MAX_JUMPS)
			rep->jumps[rep->n_jumps] = (struct jump){ rep->last, cur->wall };
		rep->n_jumps++;
	}
	rep->samples++;
	rep->last = cur->wall;
	rep->have_last = true;

	add_counters(rep, prev, cur);
	add_psi(rep, cur);
	add_zones(rep, cur);
	add_tasks(rep, cur);
	add_kmsg(rep, cur);
	report_probes_add(rep, prev, cur);
	if (prev) {
		int task;
		unsigned ev = stall_events(prev, &rep->prev_for_events, cur, &rep->ctr,
					   &rep->stalling, &task);
		if (ev)
			add_event(rep, prev, cur, ev);
	}
}

size_t
report_feed(struct report *rep, struct feed *f, size_t from, size_t to)
{
	size_t n = feed_count(f), nm, lost = 0, k;
	const struct feed_mark *m = feed_marks(f, &nm);
	bool prev_ok = false;
	double lo, hi;

	if (n == 0 || from > to || to >= n)
		return 0;
	for (size_t i = from; i <= to; i++) {
		/* Read in order, the tick's previous sample is i - 1 when it
		 * was read too. */
		if (feed_seek(f, i) < 0) {
			lost++;
			prev_ok = false;
			continue;
		}
		report_add(rep, prev_ok ? f->tick.prev : NULL, f->tick.s);
		prev_ok = true;
	}
	rep->unreadable += lost;
	/* A mark belongs to the range when it falls within it, or before
	 * (after) it when the range starts (ends) the recording; a gap when
	 * it lies between two of its samples. They come in sample order. */
	lo = from == 0 ? -INFINITY : feed_time_of(f, from);
	hi = to == n - 1 ? INFINITY : feed_time_of(f, to);
	for (k = 0; k < nm; k++)
		if (m[k].kind == FEED_MARK ? m[k].wall >= lo :
		    m[k].sample > from || (from == 0 && m[k].sample == 0))
			break;
	rep->fm = m + k;
	for (rep->n_fm = 0; k < nm; k++, rep->n_fm++) {
		if (m[k].kind == FEED_MARK && m[k].wall > hi)
			break;
		if (m[k].kind == FEED_GAP && m[k].sample > to && to != n - 1)
			break;
		if (m[k].kind == FEED_MARK)
			rep->n_marks++;
		else
			rep->n_gaps++;
	}
	return lost;
}

void
report_close_spells(struct report *rep)
{
	for (int k = 0; k < rep->n_spells; k++)
		close_spell(rep, &rep->spells[k]);
	rep->n_spells = 0;
}

void
report_add_tasks(struct report *rep, const struct sample *s)
{
	add_tasks(rep, s);
}
