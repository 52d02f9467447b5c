/*
 * Two spans' figures paired up as rows (the text and the JSON walk the
 * same ones), the change in per cent, and the test: a figure's value in
 * each block of equal time is one observation of the run, and
 * Mann-Whitney U (compare-stats.c) says whether B's blocks sit apart from
 * A's by more than either run's blocks spread among themselves. The
 * spans matched by their marks' text, and the hosts side by side.
 */
#include "output/compare-int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/derive.h"
#include "output/diff-int.h"
#include "util/fmt.h"
#include "util/text.h"

static const char *const sec_pressure = "pressure", *const sec_counters = "counters",
    *const sec_efficiency = "efficiency", *const sec_frag = "fragmentation",
    *const sec_blocked = "blocked", *const sec_kmsg = "kernel_log", *const sec_probes = "probes";

/* A figure of a span over all its blocks: the value and the total. */
static void
fig_sum(const struct compare_span *sp, int fig, double *num, double *den)
{
	bool max = compare_fig_kind(fig) == CMPK_MAX;

	*num = *den = 0;
	for (int b = 0; b < sp->n_blocks; b++) {
		const struct compare_cell *c = &sp->cell[fig][b];

		if (!(c->den > 0))
			continue;
		if (max) {
			if (!(*den > 0) || c->num > *num)
				*num = c->num;
			*den = 1;
		} else {
			*num += c->num;
			*den += c->den;
		}
	}
}

static double
fig_value(enum compare_kind k, double num, double den)
{
	if (!(den > 0))
		return NAN;
	switch (k) {
	case CMPK_SHARE:
		return derive_share(num, den);
	case CMPK_RATIO:
		return derive_ratio((int64_t)num, (int64_t)den);
	case CMPK_TIME:
		return num / den * 100;
	case CMPK_MAX:
		return num;
	case CMPK_RATE:
	case CMPK_MEAN:
		break;
	}
	return num / den;
}

static double
fig_total(enum compare_kind k, double num, double den)
{
	if (!(den > 0))
		return NAN;
	switch (k) {
	case CMPK_RATE:
	case CMPK_TIME:
		return num;
	case CMPK_SHARE:
		return num / 1e6;
	default:
		return NAN;
	}
}

/* The values of the blocks that have the figure; how many. */
static int
fig_blocks(const struct compare_span *sp, int fig, double *v)
{
	enum compare_kind k = compare_fig_kind(fig);
	int n = 0;

	for (int b = 0; b < sp->n_blocks; b++) {
		double x = fig_value(k, sp->cell[fig][b].num, sp->cell[fig][b].den);

		if (isfinite(x))
			v[n++] = x;
	}
	return n;
}

struct rows {
	struct compare_row *rows;
	int n;
	char *notes;
	size_t size, used;
	const char *section, *title;
};

static void __attribute__((format(printf, 2, 3)))
note(struct rows *rs, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (rs->used + 1 >= rs->size)
		return;
	va_start(ap, fmt);
	r = vsnprintf(rs->notes + rs->used, rs->size - rs->used, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	rs->used += (size_t)r < rs->size - rs->used ? (size_t)r : rs->size - rs->used - 1;
	if (rs->used + 1 < rs->size) {
		rs->notes[rs->used++] = '\n';
		rs->notes[rs->used] = '\0';
	}
}

static void
row_change(struct compare_row *w)
{
	if (isfinite(w->a) && isfinite(w->b) && w->a != 0)
		w->change = (w->b - w->a) / fabs(w->a) * 100;
	else if (isfinite(w->a) && isfinite(w->b) && w->b == 0)
		w->change = 0;
	else
		w->change = NAN;
}

/* A row of a single value a run (no blocks, no test). */
static void
row_single(struct rows *rs, const char *name, const char *unit, double a, double b)
{
	struct compare_row *w = &rs->rows[rs->n];

	/* As the figures: left out when 0 in both. */
	if (!(a != 0) && !(b != 0))
		return;
	rs->n++;
	memset(w, 0, sizeof(*w));
	w->section = rs->section;
	w->title = rs->title;
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->unit = unit;
	w->single = true;
	w->a_total = w->b_total = NAN;
	w->a = a;
	w->b = b;
	w->p = NAN;
	row_change(w);
}

/* Figure fa of a against fb of b (fb -1: b lacks it; fa -1: a does).
 * Left out when neither has it, or it is 0 in both. */
static void
row_fig(struct rows *rs, const struct compare_span *a, int fa, const struct compare_span *b,
	int fb, const char *name, const char *unit, const char *total_unit)
{
	enum compare_kind k = compare_fig_kind(fa >= 0 ? fa : fb);
	double na = 0, da = 0, nb = 0, db = 0, va[COMPARE_BLOCKS], vb[COMPARE_BLOCKS];
	struct compare_row *w = &rs->rows[rs->n];
	struct compare_mwu m;

	if (fa >= 0)
		fig_sum(a, fa, &na, &da);
	if (fb >= 0)
		fig_sum(b, fb, &nb, &db);
	memset(w, 0, sizeof(*w));
	w->a = fig_value(k, na, da);
	w->b = fig_value(k, nb, db);
	if (!(isfinite(w->a) && w->a != 0) && !(isfinite(w->b) && w->b != 0))
		return;
	rs->n++;
	w->section = rs->section;
	w->title = rs->title;
	text_esc(w->name, sizeof(w->name), name);
	w->unit = unit;
	w->total_unit = total_unit;
	w->a_total = total_unit ? fig_total(k, na, da) : NAN;
	w->b_total = total_unit ? fig_total(k, nb, db) : NAN;
	row_change(w);
	w->p = NAN;
	w->a_blocks = fa >= 0 ? fig_blocks(a, fa, va) : 0;
	w->b_blocks = fb >= 0 ? fig_blocks(b, fb, vb) : 0;
	if (w->a_blocks >= COMPARE_MIN_BLOCKS && w->b_blocks >= COMPARE_MIN_BLOCKS &&
	    compare_mwu(va, w->a_blocks, vb, w->b_blocks, &m) == 0) {
		w->p = m.p;
		w->stands_out = m.p < COMPARE_ALPHA && w->a != w->b;
	}
}

static void
section(struct rows *rs, const char *id, const char *title)
{
	rs->section = id;
	rs->title = title;
}

static void
rows_zones(struct rows *rs, const struct compare_run *ra, const struct compare_span *a,
	   const struct compare_run *rb, const struct compare_span *b)
{
	int pb = ra->pageblock_order >= 0 ? ra->pageblock_order : 9;
	const int below[3] = { 2, 3, pb };
	char name[64];

	section(rs, sec_frag, "Fragmentation: % of the time the highest free order was below k (total: s)");
	/* A's zones, then those only B has. */
	for (int pass = 0; pass < 2; pass++) {
		const struct compare_run *r = pass ? rb : ra, *o = pass ? ra : rb;

		for (int z = 0; z < r->n_zones; z++) {
			int oz = -1, fr = FIG_ZONE + 4 * z, fo, fa, fb;

			for (int k = 0; k < o->n_zones && oz < 0; k++)
				if (o->zone[k].node == r->zone[z].node &&
				    strcmp(o->zone[k].name, r->zone[z].name) == 0)
					oz = k;
			if (pass == 1 && oz >= 0)
				continue;
			fo = oz >= 0 ? FIG_ZONE + 4 * oz : -1;
			fa = pass ? fo : fr;
			fb = pass ? fr : fo;
			for (int k = 0; k < 4; k++) {
				if (k == ZONE_FIG_WORST)
					snprintf(name, sizeof(name), "%d %s worst unusable",
						 r->zone[z].node, r->zone[z].name);
				else
					snprintf(name, sizeof(name), "%d %s order<%d",
						 r->zone[z].node, r->zone[z].name, below[k]);
				row_fig(rs, a, fa < 0 ? -1 : fa + k, b, fb < 0 ? -1 : fb + k, name,
					k == ZONE_FIG_WORST ? "" : "%",
					k == ZONE_FIG_WORST ? NULL : "s");
			}
		}
	}
}

int
compare_rows(const struct compare_run *ra, const struct compare_span *a,
	     const struct compare_run *rb, const struct compare_span *b,
	     struct compare_row *rows, char *notes, size_t size)
{
	static const int psi_order[PSI_COUNT] = { PSI_MEMORY, PSI_IO, PSI_CPU, PSI_IRQ };
	static const char *const eff_names[3] = {
		"kswapd stolen/scanned", "direct stolen/scanned", "compaction success",
	};
	struct rows rs = { .rows = rows, .notes = notes, .size = size };
	char name[64];

	if (size)
		notes[0] = '\0';
	section(&rs, sec_pressure, "Pressure: % of the time stalled (total: seconds stalled)");
	for (int i = 0; i < PSI_COUNT; i++)
		for (int full = 0; full < 2; full++) {
			int fig = FIG_PSI + 2 * psi_order[i] + full;

			snprintf(name, sizeof(name), "%s %s", diff_psi_names[psi_order[i]],
				 full ? "full" : "some");
			row_fig(&rs, a, fig, b, fig, name, "%", "s");
		}
	section(&rs, sec_counters, "Reclaim, compaction, faults, swap: per second (total: pages or events)");
	for (int i = 0; i < CTR_COUNT; i++)
		row_fig(&rs, a, FIG_CTR + diff_counters[i], b, FIG_CTR + diff_counters[i],
			counter_name(diff_counters[i]), "/s", "");
	section(&rs, sec_efficiency, "Efficiency: pages stolen per page scanned, compactions succeeded per stall");
	for (int i = 0; i < 3; i++)
		row_fig(&rs, a, FIG_EFF + i, b, FIG_EFF + i, eff_names[i], "", NULL);
	rows_zones(&rs, ra, a, rb, b);
	section(&rs, sec_blocked, "Blocked tasks: ways of blocking, the longest and all spells (s), mean in D");
	if (a->tasks_seen && b->tasks_seen) {
		row_single(&rs, "groups", "", a->groups, b->groups);
		row_single(&rs, "longest spell", "s", a->longest, b->longest);
		row_single(&rs, "all spells", "s", a->blocked, b->blocked);
		row_fig(&rs, a, FIG_BLOCKED, b, FIG_BLOCKED, "tasks in D", "", NULL);
	} else if (a->tasks_seen || b->tasks_seen) {
		note(&rs, "blocked tasks: only %s scanned them", a->tasks_seen ? "A" : "B");
	}
	section(&rs, sec_kmsg, "Kernel log events: per second (total: events)");
	if (a->kmsg_seen && b->kmsg_seen) {
		for (int k = 0; k < KMSG_KIND_COUNT; k++)
			row_fig(&rs, a, FIG_KMSG + k, b, FIG_KMSG + k,
				kmsg_kind_name((enum kmsg_kind)k), "/s", "");
	} else if (a->kmsg_seen || b->kmsg_seen) {
		note(&rs, "kernel log: only %s read it", a->kmsg_seen ? "A" : "B");
	}
	section(&rs, sec_probes, "Kernel probes: per second (stall time: ms a second); awake: % of the time");
	if (a->probes_seen && b->probes_seen) {
		for (int k = 0; k < STALL_KIND_COUNT; k++) {
			snprintf(name, sizeof(name), "%s stalls",
				 probe_stall_name((enum probe_stall_kind)k));
			row_fig(&rs, a, FIG_PROBE + k, b, FIG_PROBE + k, name, "/s", "");
			snprintf(name, sizeof(name), "%s stall time",
				 probe_stall_name((enum probe_stall_kind)k));
			row_fig(&rs, a, FIG_PROBE_NS + k, b, FIG_PROBE_NS + k, name, "ms/s", "ms");
		}
		row_fig(&rs, a, FIG_FALLBACK, b, FIG_FALLBACK, "fallbacks", "/s", "");
		row_fig(&rs, a, FIG_KSWAPD_AWAKE, b, FIG_KSWAPD_AWAKE, "kswapd awake", "%", "s");
		row_fig(&rs, a, FIG_KCOMPACTD_AWAKE, b, FIG_KCOMPACTD_AWAKE, "kcompactd awake",
			"%", "s");
	} else if (a->probes_seen || b->probes_seen) {
		note(&rs, "kernel probes: only %s has them", a->probes_seen ? "A" : "B");
	}
	if (ra->zones_lost || rb->zones_lost)
		note(&rs, "zones past the first %d are left out", COMPARE_ZONES);
	return rs.n;
}
