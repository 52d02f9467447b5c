/*
 * pagetop diff written out, as text and as JSON. Both walk the same rows
 * in the same order (the helpers below pair them up), so the JSON says
 * what the text says. Every text line is at most DIFF_COLUMNS wide: the
 * tables are 12 columns of label and 11 of 6, longer rows continue below;
 * a number that does not fit 5 characters is shortened ("123k").
 */
#include "output/diff-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/counters.h"
#include "model/derive.h"
#include "model/probe-derive.h"
#include "output/json.h"
#include "output/sample-text.h"
#include "util/fmt.h"
#include "util/text.h"

#define LABEL_W		12
#define CELL_W		6
#define CELLS		((DIFF_COLUMNS - LABEL_W) / CELL_W)

/* The counters, most relevant first: reclaim, compaction, faults, swap,
 * then the rest. */
const enum counter diff_counters[] = {
	CTR_PGSCAN_KSWAPD, CTR_PGSCAN_DIRECT, CTR_PGSTEAL_KSWAPD, CTR_PGSTEAL_DIRECT,
	CTR_ALLOCSTALL, CTR_PGSCAN_DIRECT_THROTTLE, CTR_PGREFILL,
	CTR_KSWAPD_LOW_WMARK_HIT_QUICKLY, CTR_KSWAPD_HIGH_WMARK_HIT_QUICKLY,
	CTR_COMPACT_STALL, CTR_COMPACT_FAIL, CTR_COMPACT_SUCCESS, CTR_COMPACT_MIGRATE_SCANNED,
	CTR_COMPACT_FREE_SCANNED, CTR_COMPACT_DAEMON_WAKE, CTR_PGMIGRATE_SUCCESS,
	CTR_PGMIGRATE_FAIL,
	CTR_PGMAJFAULT, CTR_PGFAULT, CTR_WORKINGSET_REFAULT, CTR_WORKINGSET_ACTIVATE,
	CTR_THP_FAULT_ALLOC, CTR_THP_FAULT_FALLBACK, CTR_THP_COLLAPSE_ALLOC_FAILED,
	CTR_PSWPIN, CTR_PSWPOUT,
	CTR_OOM_KILL, CTR_PGPGIN, CTR_PGPGOUT, CTR_PGALLOC, CTR_PGFREE,
};
_Static_assert(sizeof(diff_counters) / sizeof(diff_counters[0]) == CTR_COUNT,
	       "every counter has its place");

/* meminfo lines shown even when they did not change. */
static const char *const mem_always[] = { "MemFree", "MemAvailable" };

const char *const diff_psi_names[PSI_COUNT] = {
	[PSI_CPU] = "cpu", [PSI_MEMORY] = "memory", [PSI_IO] = "io", [PSI_IRQ] = "irq",
};

bool
diff_has(const struct diff_args *d, enum source src)
{
	return (d->mask & SRC_BIT(src)) != 0;
}

/* ---- pairing rows ---- */

const struct buddyinfo_zone *
diff_bzone(const struct sample *s, int node, const char *zone)
{
	if (!sample_has(s, SRC_BUDDYINFO))
		return NULL;
	for (int i = 0; i < s->buddy.n_zones; i++)
		if (s->buddy.zones[i].node == node && strcmp(s->buddy.zones[i].zone, zone) == 0)
			return &s->buddy.zones[i];
	return NULL;
}

/* Zone k of the union: a's zones, then b's that a lacks. false past them. */
bool
diff_zone_at(const struct diff_args *d, int k, int *node, const char **zone)
{
	const struct sample *a = &d->a->s, *b = &d->b->s;
	int na = sample_has(a, SRC_BUDDYINFO) ? a->buddy.n_zones : 0;

	if (k < na) {
		*node = a->buddy.zones[k].node;
		*zone = a->buddy.zones[k].zone;
		return true;
	}
	k -= na;
	for (int i = 0; sample_has(b, SRC_BUDDYINFO) && i < b->buddy.n_zones; i++) {
		const struct buddyinfo_zone *z = &b->buddy.zones[i];

		if (diff_bzone(a, z->node, z->zone))
			continue;
		if (k-- == 0) {
			*node = z->node;
			*zone = z->zone;
			return true;
		}
	}
	return false;
}

int
diff_orders_of(const struct sample *a, const struct sample *b, enum source src)
{
	int na = 0, nb = 0;

	if (sample_has(a, src))
		na = src == SRC_BUDDYINFO ? a->buddy.n_orders : a->pti.n_orders;
	if (sample_has(b, src))
		nb = src == SRC_BUDDYINFO ? b->buddy.n_orders : b->pti.n_orders;
	return na > nb ? na : nb;
}

static const struct pagetypeinfo_free *
pfree(const struct sample *s, int node, const char *zone, const char *type)
{
	const struct pagetypeinfo *p = &s->pti;

	if (!sample_has(s, SRC_PAGETYPEINFO))
		return NULL;
	for (int i = 0; i < p->n_free; i++)
		if (p->free[i].node == node && strcmp(p->free[i].zone, zone) == 0 &&
		    p->free[i].type >= 0 && p->free[i].type < p->n_types &&
		    strcmp(p->types[p->free[i].type], type) == 0)
			return &p->free[i];
	return NULL;
}

static bool
pfree_empty(const struct pagetypeinfo_free *r, int n)
{
	for (int o = 0; r && o < n; o++)
		if (r->free[o])
			return false;
	return true;
}

/* Row k of the free tables' union, as a's then b's rows; rows empty at
 * both moments are left out (*skipped counts them). */
bool
diff_ptype_at(const struct diff_args *d, int k, const struct pagetypeinfo_free **ra,
	 const struct pagetypeinfo_free **rb, int *skipped)
{
	const struct sample *a = &d->a->s, *b = &d->b->s;
	int n = diff_orders_of(a, b, SRC_PAGETYPEINFO);

	*skipped = 0;
	for (int side = 0; side < 2; side++) {
		const struct sample *s = side ? b : a, *o = side ? a : b;

		for (int i = 0; sample_has(s, SRC_PAGETYPEINFO) && i < s->pti.n_free; i++) {
			const struct pagetypeinfo_free *r = &s->pti.free[i], *other;
			const char *type = r->type >= 0 && r->type < s->pti.n_types ?
			    s->pti.types[r->type] : "?";

			other = pfree(o, r->node, r->zone, type);
			if (side && other)
				continue;	/* shown with a's */
			if (pfree_empty(r, n) && pfree_empty(other, n)) {
				(*skipped)++;
				continue;
			}
			if (k-- == 0) {
				*ra = side ? other : r;
				*rb = side ? r : other;
				return true;
			}
		}
	}
	return false;
}

const char *
diff_ptype_name(const struct sample *s, const struct pagetypeinfo_free *r)
{
	return r->type >= 0 && r->type < s->pti.n_types ? s->pti.types[r->type] : "?";
}

/* ---- text ---- */

/* text (escaped) from column col, continued at column col below. */
static void
wrapped(FILE *out, int col, const char *text)
{
	char shown[TEXT_ESCAPED_SIZE(REASON_TEXT_LEN)];
	const char *s = shown;

	text_esc(shown, sizeof(shown), text);
	while (*s) {
		size_t next, n = text_wrap(s, (size_t)(DIFF_COLUMNS - col), &next, NULL);

		fwrite(s, 1, n, out);
		if (next == 0)
			break;
		s += next;
		if (*s)
			fprintf(out, "\n%*s", col, "");
	}
	fputc('\n', out);
}

/* v in at most 5 characters: exact when it fits, else "123k". */
static void
cell_u(uint64_t v, char *dst, size_t size)
{
	if (v <= 99999)
		snprintf(dst, size, "%" PRIu64, v);
	else
		fmt_count((double)v, dst, size);
}

static void
cell_d(const uint64_t *a, const uint64_t *b, char *dst, size_t size)
{
	char t[8];
	uint64_t v;

	if (!a || !b) {
		snprintf(dst, size, "-");
		return;
	}
	if (*a == *b) {
		snprintf(dst, size, "0");
		return;
	}
	/* With its sign in 5 characters too. */
	v = *b > *a ? *b - *a : *a - *b;
	if (v <= 9999)
		snprintf(t, sizeof(t), "%" PRIu64, v);
	else
		fmt_count((double)v, t, sizeof(t));
	snprintf(dst, size, "%c%s", *b > *a ? '+' : '-', t);
}

/* A table row: label, then one cell per order, continued below past CELLS. */
static void
row(FILE *out, const char *label, const uint64_t *a, const uint64_t *b, int n, int kind)
{
	char cell[16], lab[TEXT_ESCAPED_SIZE(NAME_LEN)];

	text_esc(lab, sizeof(lab), label);
	fprintf(out, "%-*.*s", LABEL_W, LABEL_W, lab);
	for (int o = 0; o < n; o++) {
		if (o > 0 && o % CELLS == 0)
			fprintf(out, "\n%*s", LABEL_W, "");
		if (kind == 2)
			cell_d(a ? &a[o] : NULL, b ? &b[o] : NULL, cell, sizeof(cell));
		else if ((kind ? b : a))
			cell_u((kind ? b : a)[o], cell, sizeof(cell));
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(out, "%*s", CELL_W, cell);
	}
	fputc('\n', out);
}

static void
order_header(FILE *out, const char *label, int n)
{
	fprintf(out, "%-*s", LABEL_W, label);
	for (int o = 0; o < n; o++) {
		if (o > 0 && o % CELLS == 0)
			fprintf(out, "\n%*s", LABEL_W, "");
		fprintf(out, "%*d", CELL_W, o);
	}
	fputc('\n', out);
}

static void
when(double wall, char *dst, size_t size)
{
	if (isnan(wall))
		snprintf(dst, size, "-");
	else
		fmt_moment(wall, FMT_CLOCK, dst, size);
}

/* One line saying why a section is missing at a moment; false when it is
 * at both. */
static bool
missing(FILE *out, const struct diff_args *d, enum source src, const char *title)
{
	char why[200];

	bool ha = sample_has(&d->a->s, src), hb = sample_has(&d->b->s, src);
	const struct diff_moment *m = ha ? d->b : d->a;

	if (ha && hb)
		return false;
	source_reason(&m->s.status[src], why, sizeof(why));
	fprintf(out, "\n%s: not at %s:\n    ", title, ha ? "TO" : hb ? "FROM" : "either moment");
	wrapped(out, 4, why);
	return true;
}

static void
text_buddy(FILE *out, const struct diff_args *d)
{
	const struct sample *a = &d->a->s, *b = &d->b->s;
	int n = diff_orders_of(a, b, SRC_BUDDYINFO), node;
	const char *zone;
	char name[TEXT_ESCAPED_SIZE(NAME_LEN)];

	if (missing(out, d, SRC_BUDDYINFO, "buddyinfo"))
		return;
	fprintf(out, "\nbuddyinfo: free blocks per order\n");
	for (int k = 0; diff_zone_at(d, k, &node, &zone); k++) {
		const struct buddyinfo_zone *za = diff_bzone(a, node, zone), *zb = diff_bzone(b, node, zone);
		char head[64];

		snprintf(head, sizeof(head), "Node %d, zone %s", node, text_esc(name, sizeof(name), zone));
		fprintf(out, "%s\n", head);
		order_header(out, "  order", n);
		row(out, "  FROM", za ? za->free : NULL, NULL, n, 0);
		row(out, "  TO", NULL, zb ? zb->free : NULL, n, 1);
		row(out, "  change", za ? za->free : NULL, zb ? zb->free : NULL, n, 2);
	}
}

static void
text_pti(FILE *out, const struct diff_args *d)
{
	const struct sample *a = &d->a->s, *b = &d->b->s;
	const struct pagetypeinfo_free *ra, *rb;
	int n = diff_orders_of(a, b, SRC_PAGETYPEINFO), skipped = 0, last_node = -1;
	char ta[FMT_MOMENT_SIZE], tb[FMT_MOMENT_SIZE], zone[NAME_LEN] = "";
	char e1[TEXT_ESCAPED_SIZE(NAME_LEN)], e2[TEXT_ESCAPED_SIZE(NAME_LEN)];

	if (missing(out, d, SRC_PAGETYPEINFO, "pagetypeinfo"))
		return;
	when(d->a->pti_wall, ta, sizeof(ta));
	when(d->b->pti_wall, tb, sizeof(tb));
	fprintf(out, "\npagetypeinfo: free blocks per migratetype and order\n"
		"  (the reads in force: FROM's at %s, TO's at %s)\n", ta, tb);
	for (int k = 0; diff_ptype_at(d, k, &ra, &rb, &skipped); k++) {
		const struct pagetypeinfo_free *r = ra ? ra : rb;
		uint64_t fa[MAX_ORDERS], fb[MAX_ORDERS];

		if (r->node != last_node || strcmp(r->zone, zone) != 0) {
			last_node = r->node;
			snprintf(zone, sizeof(zone), "%s", r->zone);
			fprintf(out, "Node %d, zone %s\n", r->node, text_esc(e1, sizeof(e1), zone));
			order_header(out, "  order", n);
		}
		for (int o = 0; o < MAX_ORDERS; o++) {
			fa[o] = ra ? ra->free[o] : 0;
			fb[o] = rb ? rb->free[o] : 0;
		}
		snprintf(e2, sizeof(e2), " %s", ra ? diff_ptype_name(a, ra) : diff_ptype_name(b, rb));
		row(out, e2, ra ? fa : NULL, NULL, n, 0);
		row(out, "   TO", NULL, rb ? fb : NULL, n, 1);
		row(out, "   change", ra ? fa : NULL, rb ? fb : NULL, n, 2);
	}
	if (skipped)
		fprintf(out, "  (%d rows without free blocks at either moment left out)\n", skipped);
}

void
diff_derive_moments(const struct diff_args *d, struct counters *ca, struct counters *cb,
	       struct derived *dv)
{
	counters_from_vmstat(&d->a->s.vm, ca);
	counters_from_vmstat(&d->b->s.vm, cb);
	derive_pair(ca, d->a->s.mono, cb, d->b->s.mono, dv);
}

static void
fmt_rate(double r, char *dst, size_t size)
{
	if (isnan(r))
		snprintf(dst, size, "-");
	else
		snprintf(dst, size, r < 1000 ? "%.2f" : "%.0f", r);
}

static void
text_vmstat(FILE *out, const struct diff_args *d)
{
	struct counters ca, cb;
	struct derived dv;
	int shown = 0, back = 0;
	char rate[32];

	if (missing(out, d, SRC_VMSTAT, "vmstat"))
		return;
	diff_derive_moments(d, &ca, &cb, &dv);
	fprintf(out, "\n%-38s %12s  %12s\n", "vmstat: counters that moved", "increase",
		"per second");
	for (size_t k = 0; k < CTR_COUNT; k++) {
		enum counter c = diff_counters[k];

		if (counter_valid(&ca, c) && counter_valid(&cb, c) && dv.inc[c] < 0)
			back++;
		if (dv.inc[c] <= 0)
			continue;
		fmt_rate(dv.rate[c], rate, sizeof(rate));
		fprintf(out, "  %-36s %12" PRId64 "  %12s\n", counter_name(c), dv.inc[c], rate);
		shown++;
	}
	if (!shown)
		fprintf(out, "  none\n");
	if (back)
		fprintf(out, "  (%d went back, a reset or a reboot: not counted)\n", back);
}

bool
diff_mem_shown(const struct meminfo_entry *e, const struct meminfo *other)
{
	uint64_t v;

	for (size_t k = 0; k < sizeof(mem_always) / sizeof(mem_always[0]); k++)
		if (strcmp(e->name, mem_always[k]) == 0)
			return true;
	return !meminfo_get(other, e->name, &v) || v != e->value;
}

static void
text_meminfo(FILE *out, const struct diff_args *d)
{
	const struct meminfo *ma = &d->a->s.mem, *mb = &d->b->s.mem;
	char name[TEXT_ESCAPED_SIZE(MEMINFO_NAME_LEN)], va[32], vb[32], ch[32];
	int same = 0;

	if (missing(out, d, SRC_MEMINFO, "meminfo"))
		return;
	fprintf(out, "\nmeminfo%-23s%14s  %14s  %14s\n", "", "FROM", "TO", "change");
	for (int i = 0; i < ma->n; i++) {
		const struct meminfo_entry *e = &ma->e[i];
		uint64_t v;
		bool inb = meminfo_get(mb, e->name, &v);
		const char *u = e->kb ? " kB" : "";

		if (!diff_mem_shown(e, mb)) {
			same++;
			continue;
		}
		snprintf(va, sizeof(va), "%" PRIu64 "%s", e->value, u);
		if (inb) {
			snprintf(vb, sizeof(vb), "%" PRIu64 "%s", v, u);
			snprintf(ch, sizeof(ch), "%s%" PRIu64 "%s", v == e->value ? "" :
				 v > e->value ? "+" : "-", v > e->value ? v - e->value :
				 e->value - v, u);
		} else {
			snprintf(vb, sizeof(vb), "-");
			snprintf(ch, sizeof(ch), "-");
		}
		fprintf(out, "  %-28.28s%14s  %14s  %14s\n", text_esc(name, sizeof(name), e->name),
			va, vb, ch);
	}
	for (int i = 0; i < mb->n; i++) {
		uint64_t v;

		if (!meminfo_get(ma, mb->e[i].name, &v))
			fprintf(out, "  %-28.28s%14s  %11" PRIu64 "%s  %14s\n",
				text_esc(name, sizeof(name), mb->e[i].name), "-", mb->e[i].value,
				mb->e[i].kb ? " kB" : "   ", "-");
	}
	if (same)
		fprintf(out, "  (%d more the same at both)\n", same);
}

static void
fmt_pct(uint32_t h, char *dst, size_t size)
{
	snprintf(dst, size, "%u.%02u%%", h / 100, h % 100);
}

/* The share of the time between the moments the line's tasks stalled. */
double
diff_psi_between(const struct diff_args *d, int r, bool full)
{
	const struct psi_line *a = full ? &d->a->s.psi[r].full : &d->a->s.psi[r].some;
	const struct psi_line *b = full ? &d->b->s.psi[r].full : &d->b->s.psi[r].some;
	int64_t inc;

	if (!a->present || !b->present)
		return NAN;
	inc = derive_increase(a->total, b->total);
	return derive_share((double)inc, derive_seconds(d->a->s.mono, d->b->s.mono));
}

static void
text_psi(FILE *out, const struct diff_args *d)
{
	bool any = false;

	for (int r = 0; r < PSI_COUNT; r++)
		any |= diff_has(d, SRC_PSI_CPU + r);
	if (!any)
		return;
	fprintf(out, "\n%-20s %10s %7s %11s %7s %9s\n", "pressure (PSI)", "avg10 FROM", "TO",
		"avg60 FROM", "TO", "between");
	for (int r = 0; r < PSI_COUNT; r++) {
		enum source src = SRC_PSI_CPU + r;

		if (!diff_has(d, src))
			continue;
		if (!sample_has(&d->a->s, src) || !sample_has(&d->b->s, src)) {
			fprintf(out, "  %-18s not at %s\n", diff_psi_names[r],
				sample_has(&d->a->s, src) ? "TO" : sample_has(&d->b->s, src) ?
				"FROM" : "either moment");
			continue;
		}
		for (int full = 0; full < 2; full++) {
			const struct psi_line *a = full ? &d->a->s.psi[r].full : &d->a->s.psi[r].some;
			const struct psi_line *b = full ? &d->b->s.psi[r].full : &d->b->s.psi[r].some;
			char label[32], a10[16], b10[16], a60[16], b60[16], bt[16];
			double share = diff_psi_between(d, r, full);

			if (!a->present || !b->present)
				continue;
			snprintf(label, sizeof(label), "%s %s", diff_psi_names[r], full ? "full" : "some");
			fmt_pct(a->avg10, a10, sizeof(a10));
			fmt_pct(b->avg10, b10, sizeof(b10));
			fmt_pct(a->avg60, a60, sizeof(a60));
			fmt_pct(b->avg60, b60, sizeof(b60));
			if (isnan(share))
				snprintf(bt, sizeof(bt), "-");
			else
				snprintf(bt, sizeof(bt), "%.2f%%", share);
			fprintf(out, "  %-18s %10s %7s %11s %7s %9s\n", label, a10, b10, a60, b60, bt);
		}
	}
	fprintf(out, "  (between: the share of the time stalled from FROM to TO, from the\n"
		"  totals)\n");
}

/* Group k of the union of both moments' groups, matched by what their
 * tasks share and their reason. */
bool
diff_group_at(const struct diff_args *d, int k, const struct task_group **ga,
	 const struct task_group **gb)
{
	const struct task_groups *A = d->a->have_groups ? &d->a->groups : NULL;
	const struct task_groups *B = d->b->have_groups ? &d->b->groups : NULL;

	for (int side = 0; side < 2; side++) {
		const struct task_groups *s = side ? B : A, *o = side ? A : B;

		for (int i = 0; s && i < s->n; i++) {
			const struct task_group *other = NULL;

			for (int j = 0; o && j < o->n && !other; j++)
				if (o->g[j].sig == s->g[i].sig &&
				    strcmp(o->g[j].reason, s->g[i].reason) == 0)
					other = &o->g[j];
			if (side && other)
				continue;
			if (k-- == 0) {
				*ga = side ? other : &s->g[i];
				*gb = side ? &s->g[i] : other;
				return true;
			}
		}
	}
	return false;
}

static void
text_tasks(FILE *out, const struct diff_args *d)
{
	const struct task_group *ga, *gb;
	int k;

	if (missing(out, d, SRC_TASKS, "blocked tasks"))
		return;
	fprintf(out, "\nblocked tasks: groups at either moment\n"
		"  FROM    TO  longest  why\n");
	for (k = 0; diff_group_at(d, k, &ga, &gb); k++) {
		char longest[24];
		const struct task_group *g = gb ? gb : ga;

		fmt_duration(g->longest, longest, sizeof(longest));
		fprintf(out, "  %4d  %4d  %7s%s ", ga ? ga->count : 0, gb ? gb->count : 0,
			longest, g->at_least ? "+" : " ");
		wrapped(out, 23, g->reason);
	}
	if (k == 0)
		fprintf(out, "  none\n");
}

/* The probes' figures between the moments, into t; NULL with why when
 * there are none to compare. */
const struct probe_tick *
diff_probes_between(const struct diff_args *d, struct probe_tick *t, const char **why)
{
	static struct probes b;
	const struct probes *a = &d->a->s.probes;

	if (a->state != PROBES_ON || d->b->s.probes.state != PROBES_ON) {
		*why = "not on at both moments";
		return NULL;
	}
	/* The longest of TO's own tick bounds nothing over many ticks: the
	 * percentiles stand on the buckets alone. */
	b = d->b->s.probes;
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		b.stall[k].tick_max_ns = 0;
	b.n_dstacks = 0;
	probe_tick(a, &b, t);
	if (t->state != PTICK_OK) {
		*why = "reattached between the moments (another epoch): not compared";
		return NULL;
	}
	return t;
}

static void
text_probes(FILE *out, const struct diff_args *d)
{
	static struct probe_tick pt;	/* 8 KB of fallbacks: not on the stack */
	const struct probe_tick *t;
	const char *why;
	double dt = derive_seconds(d->a->s.mono, d->b->s.mono);

	if (!(t = diff_probes_between(d, &pt, &why))) {
		fprintf(out, "\nkernel probes: %s\n", why);
		return;
	}
	fprintf(out, "\nkernel probes between them%10s%8s %10s %10s %10s\n", "count", "/s", "total",
		"p50", "p99");
	for (int k = 0; k <= STALL_KIND_COUNT; k++) {
		const struct probe_tick_hist *h = k < STALL_KIND_COUNT ? &t->stall[k] : &t->dsleep;
		char tot[16], p50[16], p99[16];

		sample_text_ns(h->sum_ns, tot, sizeof(tot));
		sample_text_ns(h->p50_ns, p50, sizeof(p50));
		sample_text_ns(h->p99_ns, p99, sizeof(p99));
		fprintf(out, "  %-24s%10" PRIu64 "%8.1f %10s %10s %10s\n",
			k < STALL_KIND_COUNT ? probe_stall_name(k) : "D sleeps", h->count,
			isnan(dt) ? 0 : (double)h->count / dt, tot, h->count ? p50 : "-",
			h->count ? p99 : "-");
	}
	fprintf(out, "  compaction runs:");
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		if (t->compact_result[r])
			fprintf(out, " %s %" PRIu64, probe_compact_result_name(r), t->compact_result[r]);
	fprintf(out, "\n  fallbacks: %" PRIu64 " (fragmenting %" PRIu64 ", owner changed %"
		PRIu64 ")\n", t->fallback_total, t->fallback_fragmenting, t->fallback_owner);
	fprintf(out, "  kswapd wakes %" PRIu64 ", kcompactd wakes %" PRIu64
		", written by reclaim %" PRIu64 "\n", t->kswapd_wakes, t->kcompactd_wakes,
		t->reclaim_writes);
}

static void
text_moment(FILE *out, const char *label, const struct diff_moment *m)
{
	char t[FMT_MOMENT_SIZE], spec[26];

	/* The time as typed, cut to what the line has room for. */
	fmt_moment(m->s.wall, FMT_DATE, t, sizeof(t));
	text_escape(spec, sizeof(spec), m->spec, strlen(m->spec));
	fprintf(out, "%-6s%s, sample %zu (%s)\n", label, t, m->index, spec);
}

void
diff_print(FILE *out, const struct diff_args *d)
{
	char path[TEXT_ESCAPED_SIZE(60)], facts[400];
	size_t pl = strlen(d->path);

	/* A long path keeps its end: the file's name. */
	text_escape(path, sizeof(path), pl > 54 ? d->path + pl - 54 : d->path, pl > 54 ? 54 : pl);
	fprintf(out, "pagetop diff of %s%s\n", pl > 54 ? "..." : "", path);
	host_facts(d->host, facts, sizeof(facts));
	fprintf(out, "Host: ");
	wrapped(out, 6, facts);
	text_moment(out, "FROM:", d->a);
	text_moment(out, "TO:", d->b);
	fprintf(out, "%.3fs between them%s\n", d->b->s.wall - d->a->s.wall,
		d->reversed ? " (TO is before FROM: shown from the earlier)" :
		d->a->index == d->b->index ? " (the same sample)" : "");
	if (diff_has(d, SRC_BUDDYINFO))
		text_buddy(out, d);
	if (diff_has(d, SRC_PAGETYPEINFO))
		text_pti(out, d);
	if (diff_has(d, SRC_VMSTAT))
		text_vmstat(out, d);
	if (diff_has(d, SRC_MEMINFO))
		text_meminfo(out, d);
	text_psi(out, d);
	if (diff_has(d, SRC_TASKS))
		text_tasks(out, d);
	if (d->mask & DIFF_PROBES)
		text_probes(out, d);
}

