/*
 * Overview: memory, zones against their watermarks, pressure, free blocks
 * per order and reclaim rates on one screen, with a line of blocked tasks
 * and the latest kernel log events. At 80x24 the panels stack (tasks and
 * events share their line, each cut at a word); from 150 columns they
 * stand in two columns with the blocked groups and the events one a line
 * and the rate trends as tall as the rows allow.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/derive.h"
#include "util/arith.h"
#include "model/frag.h"
#include "model/history-probes.h"
#include "views/reclaim-probes.h"
#include "views/view.h"

#define SPARK_MAX 512

/* An area of the screen that panels fill from the top. */
struct area {
	int y, x, w, end;
};

static bool
area_room(const struct area *a, int rows)
{
	return a->y + rows <= a->end;
}

/* Whether zone z's name passes the "/" filter. */
static bool
zone_shown(const struct view_ctx *ctx, int z)
{
	return !ctx->filter[0] || strcasestr(ctx->h->shape.zones[z].name, ctx->filter);
}

/* A section the filter emptied says so, rather than look like no data. */
static void
panel_filtered(const struct view_ctx *ctx, struct area *a, const char *what)
{
	if (!area_room(a, 1))
		return;
	draw_text(a->y++, a->x + 1, a->w - 1, ST_DIM, "filtered: no %s contains \"%s\"", what,
		  ctx->filter);
}

struct mem_item {
	const char *label;
	enum mem_field f;
};

/* The second recording's memory (replay --compare) on one line, "B" first. */
static void
memory_line_b(const struct view_ctx *b, struct area *a, const struct mem_item *items,
	      size_t n)
{
	const struct hist_entry *e = b->e;
	int x = a->x + 1;
	char v[16];

	x += draw_text(a->y, x, a->w - 1, ST_HEAT3, "B ");
	for (size_t i = 0; e && (e->valid & SRC_BIT(SRC_MEMINFO)) && i < n; i++) {
		if (!(e->mem_valid & (1u << items[i].f)))
			continue;
		fmt_kib(e->mem[items[i].f], v, sizeof(v));
		if (x + (int)strlen(items[i].label) + (int)strlen(v) + 2 > a->x + a->w)
			break;
		x += draw_text(a->y, x, a->w, ST_DIM, "%s ", items[i].label);
		x += draw_text(a->y, x, a->w, ST_HEAT3, "%s ", v) + 1;
	}
	a->y++;
}

static void
panel_memory(const struct view_ctx *ctx, struct area *a, int max_lines)
{
	static const struct mem_item items[] = {
		{ "total", MEM_TOTAL }, { "avail", MEM_AVAILABLE }, { "free", MEM_FREE },
		{ "cached", MEM_CACHED }, { "anon", MEM_ANON }, { "dirty", MEM_DIRTY },
		{ "writeback", MEM_WRITEBACK }, { "shmem", MEM_SHMEM },
		{ "slab rec", MEM_SLAB_RECLAIMABLE }, { "swap free", MEM_SWAP_FREE },
	};
	const struct hist_entry *e = ctx->e;
	char why[200], v[16];
	int x = a->x, row = 0;

	if (!area_room(a, 2))
		return;
	view_title(a->y, a->x, a->w, "Memory");
	if (!e || !(e->valid & SRC_BIT(SRC_MEMINFO))) {
		if (view_missing(ctx, SRC_MEMINFO, why, sizeof(why)))
			draw_text(a->y + 1, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		a->y += 2;
		return;
	}
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		int need;

		if (!(e->mem_valid & (1u << items[i].f)))
			continue;
		fmt_kib(e->mem[items[i].f], v, sizeof(v));
		need = (int)strlen(items[i].label) + (int)strlen(v) + 3;
		if (x + need > a->x + a->w) {
			if (row == 1 || max_lines < 2 || !area_room(a, 3))
				break;
			row = 1;
			x = a->x;
		}
		x += draw_text(a->y + 1 + row, x + 1, a->w, ST_DIM, "%s ", items[i].label);
		x += draw_text(a->y + 1 + row, x + 1, a->w, ST_NORMAL, "%s ", v) + 1;
	}
	a->y += 2 + row;
	/* Where the memory has two lines: a short screen keeps its rates. */
	if (ctx->b && max_lines >= 2 && area_room(a, 1))
		memory_line_b(ctx->b, a, items, sizeof(items) / sizeof(items[0]));
}

/* Zone z of ctx's entry against its watermarks on a's next line, labelled
 * by the zone (or by label, for B's under A's); false when its
 * watermarks are not held. */
static bool
zone_row(const struct view_ctx *ctx, struct area *a, int z, const char *label)
{
	const struct hist_shape *sh = &ctx->h->shape;
	char f[16], mn[16], lo[16], hi[16];
	uint64_t kib = (uint64_t)(ctx->page_size > 0 ? ctx->page_size : 4096) / 1024;
	uint64_t wbuf[WM_COUNT];
	const uint64_t *wm = history_wmark(ctx->h, ctx->seq, z, wbuf) ? wbuf : NULL;
	static const char *const below_min[] = { "below min: allocations reclaim directly",
		"below min: direct reclaim", "<min: direct reclaim", "<min", NULL };
	static const char *const below_low[] = { "below low: kswapd woken",
		"<low: kswapd woken", "<low", NULL };
	static const char *const below_high[] = { "below high: kswapd reclaiming",
		"<high: kswapd reclaiming", "<high: kswapd", "<high", NULL };
	static const char *const fine[] = { "ok", NULL };
	const char *const *state;
	enum style st;
	int x, k;

	if (!wm || wm[WM_FREE] == UINT64_MAX || wm[WM_MANAGED] == 0)
		return false;
	fmt_kib(wm[WM_FREE] * kib, f, sizeof(f));
	fmt_kib(wm[WM_MIN] * kib, mn, sizeof(mn));
	fmt_kib(wm[WM_LOW] * kib, lo, sizeof(lo));
	fmt_kib(wm[WM_HIGH] * kib, hi, sizeof(hi));
	/* What the allocator does at this level, in the kernel's terms. */
	if (wm[WM_FREE] < wm[WM_MIN]) {
		state = below_min;
		st = ST_BAD;
	} else if (wm[WM_FREE] < wm[WM_LOW]) {
		state = below_low;
		st = ST_WARN;
	} else if (wm[WM_FREE] < wm[WM_HIGH]) {
		state = below_high;
		st = ST_WARN;
	} else {
		state = fine;
		st = ST_GOOD;
	}
	x = a->x + 1;
	if (label)
		x += draw_text(a->y, x, a->w, ST_HEAT3, "%-9s", label);
	else
		x += draw_text(a->y, x, a->w, ST_NORMAL, "%d %-7s", sh->zones[z].node,
			       sh->zones[z].name);
	x += draw_text(a->y, x, a->w, ST_DIM, " free ");
	x += draw_text(a->y, x, a->w, st, "%6s", f);
	x += draw_text(a->y, x, a->x + a->w - x, ST_DIM, "  min %s low %s high %s  ", mn, lo, hi);
	/* The longest wording that fits: at 80 columns a zone's verdict is
	 * never cut mid-word. */
	for (k = 0; state[k + 1] && (int)strlen(state[k]) > a->x + a->w - x; k++)
		;
	draw_text(a->y, x, a->x + a->w - x, st, "%s", state[k]);
	a->y++;
	return true;
}

static int zone_in_b(const struct view_ctx *ctx, int z);

/* Each zone's free memory against its watermarks; with a second
 * recording, B's same zone under each where the rows allow (b_rows). */
static void
panel_zones(const struct view_ctx *ctx, struct area *a, bool b_rows)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const struct hist_entry *e = ctx->e;
	char why[200];
	int shown = 0, filtered = 0, zb;

	if (!area_room(a, 2))
		return;
	view_title(a->y++, a->x, a->w, "Zones: free against the watermarks");
	if (!e || !(e->valid & SRC_BIT(SRC_ZONEINFO))) {
		if (view_missing(ctx, SRC_ZONEINFO, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	for (int z = 0; z < sh->n_zones && area_room(a, 1); z++) {
		if (!zone_shown(ctx, z)) {
			filtered++;
			continue;
		}
		if (!zone_row(ctx, a, z, NULL))
			continue;
		shown++;
		if (b_rows && ctx->b && ctx->b->e && (ctx->b->e->valid & SRC_BIT(SRC_ZONEINFO)) &&
		    (zb = zone_in_b(ctx, z)) >= 0 && area_room(a, 1))
			zone_row(ctx->b, a, zb, "  B");
	}
	if (!shown && filtered)
		panel_filtered(ctx, a, "zone's name");
}

/* PSI resource r of ctx's entry on line y from x, label first: some and
 * full with their averages, and the trend of "some". */
static void
psi_row(const struct view_ctx *ctx, const struct area *a, int y, int r, const char *label,
	enum style trend)
{
	const struct hist_entry *e = ctx->e;
	double v[SPARK_MAX];
	int x = a->x + 1, w, n;
	uint64_t first, last;

	x += draw_text(y, x, a->w, ST_NORMAL, "%-7s", label);
	if (!e || !(e->valid & SRC_BIT(SRC_PSI_CPU + r))) {
		draw_text(y, x, a->w, ST_DIM, "      %s", draw_unknown());
		return;
	}
	for (int full = 0; full < 2; full++) {
		const struct hist_psi_line *l = full ? &e->psi[r].full : &e->psi[r].some;

		x += draw_text(y, x, a->w, ST_DIM, full ? "    " : "      ");
		if (!l->present) {
			x += draw_text(y, x, a->w, ST_DIM, "%19s", "");
			continue;
		}
		x += draw_text(y, x, a->w, l->avg10 >= 1000 ? ST_BAD :
			       l->avg10 >= 100 ? ST_WARN : ST_NORMAL, "%3u.%02u", l->avg10 / 100,
			       l->avg10 % 100);
		x += draw_text(y, x, a->w, ST_NORMAL, " %3u.%02u %3u.%02u", l->avg60 / 100,
			       l->avg60 % 100, l->avg300 / 100, l->avg300 % 100);
	}
	/* The trend of "some" from the stall totals: finer than avg10. */
	w = a->x + a->w - x - 2;
	if (w >= 4 && history_range(ctx->h, &first, &last)) {
		if (w > SPARK_MAX)
			w = SPARK_MAX;
		n = 0;
		for (uint64_t s = ctx->seq + 1 - (ctx->seq + 1 - first < (uint64_t)w ?
		     ctx->seq + 1 - first : (uint64_t)w); s <= ctx->seq; s++)
			v[n++] = derive_psi_share(ctx->h, s, r, false);
		draw_spark(y, x + 2, w, v, n, 100, trend);
	}
}

/* With a second recording (B), each resource has B's line under it. */
static void
panel_psi(const struct view_ctx *ctx, struct area *a, int max_rows)
{
	static const char *const names[PSI_COUNT] = { "cpu", "memory", "io", "irq" };
	static const int order[PSI_COUNT] = { PSI_MEMORY, PSI_IO, PSI_CPU, PSI_IRQ };
	const struct hist_entry *e = ctx->e;
	char why[200];
	int shown = 0, per = ctx->b ? 2 : 1;

	if (!area_room(a, 2))
		return;
	view_title(a->y++, a->x, a->w, "Pressure (%)   some: avg10 avg60 avg300   full: avg10 avg60 avg300");
	if (!e || !(e->valid & (SRC_BIT(SRC_PSI_MEMORY) | SRC_BIT(SRC_PSI_IO)))) {
		if (view_missing(ctx, SRC_PSI_MEMORY, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	for (int k = 0; k < PSI_COUNT && shown + per <= max_rows * per && area_room(a, per);
	     k++) {
		int r = order[k];

		if (!(e->valid & SRC_BIT(SRC_PSI_CPU + r)))
			continue;
		psi_row(ctx, a, a->y++, r, names[r], r == PSI_MEMORY ? ST_WARN : ST_TITLE);
		if (ctx->b)
			psi_row(ctx->b, a, a->y++, r, "   B", ST_HEAT3);
		shown += per;
	}
}

/* Zone z's free blocks per order in ctx on line y, cell columns an order:
 * b, the second recording's line ("B" for the zone's name). */
static void
orders_row(const struct view_ctx *ctx, const struct area *a, int y, int z, int cell, int pb,
	   bool b)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const uint32_t *bl = history_buddy(ctx->h, ctx->seq, z);
	uint64_t free[MAX_ORDERS], max = 0;
	char u[3][16];
	struct frag fr;
	int x, n = sh->n_orders;

	if (!bl)
		return;
	for (int o = 0; o < n; o++) {
		free[o] = bl[o];
		if (free[o] > max)
			max = free[o];
	}
	frag_compute(free, n, &fr);
	x = a->x + 1;
	if (b)
		draw_text(y, x, a->w, ST_HEAT3, "%9s", "B");
	else
		draw_text(y, x, a->w, ST_NORMAL, "%d %-7s %s ", sh->zones[z].node,
			  sh->zones[z].name, fr.free_pages ? "" : " ");
	x = a->x + 21;
	/* One cell per order: height and colour by count, log scale. */
	for (int o = 0; o < n; o++) {
		double f = max ? arith_log_share((double)free[o], (double)max) : 0;

		if (cell == 1) {
			x += draw_text(y, x, 1, draw_heat_style(free[o], max), "%s",
				       free[o] ? draw_level_glyph(f) : ".");
		} else {
			char num[8];

			fmt_count((double)free[o], num, sizeof(num));
			x += draw_text(y, x, cell, draw_heat_style(free[o], max), " %*s",
				       cell - 1, free[o] ? num : ".");
		}
	}
	if (pb >= n)
		pb = n - 1;
	fmt_index(fr.unusable[2 < n ? 2 : 0], u[0], sizeof(u[0]));
	fmt_index(fr.unusable[3 < n ? 3 : 0], u[1], sizeof(u[1]));
	fmt_index(fr.unusable[pb], u[2], sizeof(u[2]));
	x++;
	x += draw_text(y, x, a->x + a->w - x, fr.highest_free_order < pb ? ST_BAD :
		       ST_NORMAL, " %4d ", fr.highest_free_order);
	draw_text(y, x, a->x + a->w - x, ST_NORMAL, " %6s %6s %7s", u[0], u[1], u[2]);
}

/* The zone of the second recording with zone z's node and name; -1 none. */
static int
zone_in_b(const struct view_ctx *ctx, int z)
{
	const struct hist_shape *sb = &ctx->b->h->shape;
	const struct hist_zone *zone = &ctx->h->shape.zones[z];

	for (int k = 0; k < sb->n_zones; k++)
		if (sb->zones[k].node == zone->node && strcmp(sb->zones[k].name, zone->name) == 0)
			return k;
	return -1;
}

/* With a second recording, and rows to spare (b_rows), B's line under
 * each zone. */
static void
panel_orders(const struct view_ctx *ctx, struct area *a, bool b_rows)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const struct hist_entry *e = ctx->e;
	int pb = sh->pageblock_order > 0 && sh->pageblock_order < sh->n_orders ?
	    sh->pageblock_order : sh->n_orders - 1;
	/* Figures per order when they fit (5 columns each), glyphs otherwise. */
	int cell = a->w >= 21 + sh->n_orders * 5 + 30 ? 5 : 1;
	char why[200], title[256], pbhead[24];
	int shown = 0, filtered = 0;

	snprintf(pbhead, sizeof(pbhead), "unus@%d", pb);
	if (!area_room(a, 2))
		return;
	/* The heads of the figures stand in the title line, over their columns. */
	snprintf(title, sizeof(title), "%-*s%4s  %6s %6s %7.7s",
		 21 + (cell == 1 ? sh->n_orders : sh->n_orders * cell) + 2, "Free blocks per order",
		 "high", "unus@2", "unus@3", pbhead);
	view_title(a->y, a->x, a->w, e && (e->valid & SRC_BIT(SRC_BUDDYINFO)) ? title :
		   "Free blocks per order");
	if (!e || !(e->valid & SRC_BIT(SRC_BUDDYINFO))) {
		a->y++;
		if (view_missing(ctx, SRC_BUDDYINFO, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	a->y++;
	for (int z = 0; z < sh->n_zones && area_room(a, 1); z++) {
		int zb;

		if (!history_buddy(ctx->h, ctx->seq, z))
			continue;
		if (!zone_shown(ctx, z)) {
			filtered++;
			continue;
		}
		shown++;
		orders_row(ctx, a, a->y++, z, cell, pb, false);
		if (b_rows && ctx->b && (zb = zone_in_b(ctx, z)) >= 0 && area_room(a, 1) &&
		    ctx->b->e && (ctx->b->e->valid & SRC_BIT(SRC_BUDDYINFO)))
			orders_row(ctx->b, a, a->y++, zb, cell, pb, true);
	}
	if (!shown && filtered)
		panel_filtered(ctx, a, "zone's name");
}

static void
group_text(const struct hist_task_group *g, int w, char *dst, size_t size)
{
	char d[24], text[160];

	fmt_duration(g->longest, d, sizeof(d));
	snprintf(text, sizeof(text), "%u %s, %s%s: %s", g->count, wait_category_name(g->category),
		 g->at_least ? (draw_utf8() ? "\u2265" : ">=") : "", d, g->reason);
	view_fit(text, w, dst, size);
}

/* One line: task states and the biggest group of blocked tasks; with
 * events_too, the counts alone and then the latest kernel log events.
 * What does not fit is left out whole, the reason cut at a word. */
/* replay --compare: B's task states and its biggest group on one line,
 * under A's. */
static void
tasks_line_b(const struct view_ctx *ctx, struct area *a)
{
	const struct hist_entry *e = ctx->b ? ctx->b->e : NULL;
	const struct hist_tasks *t;
	int x, end = a->x + a->w;

	if (!e || !(e->valid & SRC_BIT(SRC_TASKS)) || !area_room(a, 1))
		return;
	t = &e->tasks;
	x = a->x + draw_text(a->y, a->x, a->w, ST_HEAT3, "  B   ");
	x += draw_text(a->y, x, end - x, ST_NORMAL, "%u running ", t->state[TS_RUNNING]);
	x += draw_text(a->y, x, end - x, t->n_blocked ? ST_BAD : ST_GOOD, "%u blocked",
		       t->n_blocked);
	if (t->n_groups > 0 && end - x > 12) {
		char g[160];

		group_text(&t->top[0], end - x - 2, g, sizeof(g));
		draw_text(a->y, x, end - x, ST_NORMAL, ": %s", g);
	}
	a->y++;
}

static void
panel_tasks(const struct view_ctx *ctx, struct area *a, bool events_too)
{
	const struct hist_entry *e = ctx->e;
	const struct hist_tasks *t;
	bool tasks = e && (e->valid & SRC_BIT(SRC_TASKS));
	int x, end = a->x + a->w;

	events_too = events_too && view_events_recent(ctx);
	if (!area_room(a, 1) || (!tasks && !events_too))
		return;
	x = a->x;
	if (tasks) {
		t = &e->tasks;
		x += draw_text(a->y, x, a->w, ST_TITLE, "Tasks ");
		x += draw_text(a->y, x, end - x, ST_NORMAL, "%u running ", t->state[TS_RUNNING]);
		x += draw_text(a->y, x, end - x, t->n_blocked ? ST_BAD : ST_GOOD, "%u blocked",
			       t->n_blocked);
		if (t->n_groups > 0 && !events_too) {
			char more[48] = "", g[160];
			int room;

			if (t->n_groups > 1)
				snprintf(more, sizeof(more), " (+%u groups, 4 Tasks)", t->n_groups - 1);
			room = end - x - 2 - (int)strlen(more);
			/* The reason matters more than where the others are. */
			if (t->n_groups > 1 && room < 40) {
				snprintf(more, sizeof(more), " (+%u)", t->n_groups - 1);
				room = end - x - 2 - (int)strlen(more);
			}
			group_text(&t->top[0], room, g, sizeof(g));
			x += draw_text(a->y, x, end - x, ST_NORMAL, ": %s", g);
			draw_text(a->y, x, end - x, ST_DIM, "%s", more);
		}
		x += 3;
	}
	if (events_too)
		view_events_inline(ctx, a->y, x, end);
	a->y++;
	if (tasks && ctx->b && ctx->rows >= 30)
		tasks_line_b(ctx, a);
}

/* Tall and wide: the task states, then the biggest groups of blocked
 * tasks one a line under them. */
static void
panel_task_groups(const struct view_ctx *ctx, struct area *a, int max_rows)
{
	static const char *const names[TS_COUNT] = {
		"running", "blocked", "sleeping", "idle", "stopped", "zombie"
	};
	const struct hist_entry *e = ctx->e;
	const struct hist_tasks *t;
	int x, end = a->x + a->w, n;

	if (!e || !(e->valid & SRC_BIT(SRC_TASKS)) || !area_room(a, 1) || max_rows < 1)
		return;
	t = &e->tasks;
	x = a->x;
	x += draw_text(a->y, x, a->w, ST_TITLE, "Tasks ");
	for (int k = 0; k < TS_COUNT; k++) {
		char item[32];

		snprintf(item, sizeof(item), "%u %s  ", t->state[k], names[k]);
		if (x + (int)strlen(item) > end)
			break;
		x += draw_text(a->y, x, end - x, k == TS_BLOCKED ? (t->n_blocked ? ST_BAD :
			       ST_GOOD) : ST_NORMAL, "%s", item);
	}
	if (t->n_groups > 0 && x + 20 <= end)
		draw_text(a->y, x, end - x, ST_DIM, "(4 Tasks)");
	a->y++;
	n = t->n_groups < HIST_TASK_GROUPS ? t->n_groups : HIST_TASK_GROUPS;
	for (int k = 0; k < n && k < max_rows - 1 && area_room(a, 1); k++) {
		char g[160];

		group_text(&t->top[k], a->w - 7, g, sizeof(g));
		draw_text(a->y++, a->x + 7, a->w - 7, ST_NORMAL, "%s", g);
	}
	if (t->n_groups > n && area_room(a, 1) && max_rows > n + 1)
		draw_text(a->y++, a->x + 7, a->w - 7, ST_DIM, "+%u more groups", t->n_groups - n);
	if (ctx->b)
		tasks_line_b(ctx, a);
}

struct rate_item {
	const char *label;
	enum counter c;
	enum style st;
};

static const struct rate_item rate_items[] = {
	{ "kswapd scan", CTR_PGSCAN_KSWAPD, ST_TITLE },
	{ "kswapd steal", CTR_PGSTEAL_KSWAPD, ST_GOOD },
	{ "direct scan", CTR_PGSCAN_DIRECT, ST_WARN },
	{ "direct steal", CTR_PGSTEAL_DIRECT, ST_WARN },
	{ "allocstall", CTR_ALLOCSTALL, ST_BAD },
	{ "compact stall", CTR_COMPACT_STALL, ST_WARN },
	{ "compact ok", CTR_COMPACT_SUCCESS, ST_GOOD },
	{ "compact fail", CTR_COMPACT_FAIL, ST_BAD },
	{ "major faults", CTR_PGMAJFAULT, ST_WARN },
	{ "refaults", CTR_WORKINGSET_REFAULT, ST_WARN },
	{ "THP fallback", CTR_THP_FAULT_FALLBACK, ST_WARN },
	{ "OOM kills", CTR_OOM_KILL, ST_BAD },
};
#define N_RATE_ITEMS ((int)(sizeof(rate_items) / sizeof(rate_items[0])))

/* The trend of rate c in ctx's history over parts lines from (y, x), sw
 * wide (a taller chart has its scale at scale_x on its second line). */
static void
rate_chart(const struct view_ctx *ctx, enum counter c, int y, int x, int sw, int parts,
	   int scale_x, enum style st)
{
	double v[SPARK_MAX], max = 0;
	char now[16];
	int n;

	if (sw > SPARK_MAX)
		sw = SPARK_MAX;
	n = view_rates(ctx, c, v, sw);
	if (parts <= 1) {
		draw_spark(y, x, sw, v, n, 0, st);
		return;
	}
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > max)
			max = v[i];
	if (max > 0) {
		fmt_count(max, now, sizeof(now));
		draw_text(y + 1, scale_x, 10, ST_DIM, "max %6s", now);
	}
	for (int p = 0; p < parts; p++)
		view_chart_line(y + p, x, sw, v, n, max, p, parts, st);
}

/* A rate's value in ctx at (y, x), 6 wide; false when not recorded. */
static bool
rate_value(const struct view_ctx *ctx, enum counter c, int y, int x, int w, enum style st)
{
	const struct hist_entry *e = ctx->e;
	char now[16];

	if (!e || !((e->ctr_valid >> c) & 1)) {
		draw_text(y, x, w, ST_DIM, "%6s", "n/a");
		return false;
	}
	fmt_count(derive_rate(ctx->h, ctx->seq, c), now, sizeof(now));
	draw_text(y, x, w, st, "%6s", now);
	return true;
}

/* A rate's label, value and trend, over parts lines (a taller chart, its
 * scale under the value, on tall screens). With a second recording (B),
 * its value beside and its trend under, over as many lines. */
static void
rate_cell(const struct view_ctx *ctx, const struct rate_item *it, int y, int x, int w,
	  int parts)
{
	int vx = ctx->b ? 28 : 21, sw = w - vx;
	bool a, b = false;

	draw_text(y, x, w, ST_DIM, "%-13s", it->label);
	a = rate_value(ctx, it->c, y, x + 14, w - 14, ST_NORMAL);
	if (ctx->b) {
		b = rate_value(ctx->b, it->c, y, x + 21, w - 21, ST_HEAT3);
		draw_text(y + parts, x, w, ST_DIM, "%13s", "B");
	}
	if (sw < 3)
		return;
	if (a)
		rate_chart(ctx, it->c, y, x + vx, sw, parts, x + 10, it->st);
	if (b)
		rate_chart(ctx->b, it->c, y + parts, x + vx, sw, parts, x + 17, ST_HEAT3);
}

/* The rates dropped first when the rows are too few for all: those
 * another rate or the probes' line tells much of. */
static const enum counter rate_drop_order[] = {
	CTR_THP_FAULT_FALLBACK, CTR_COMPACT_SUCCESS, CTR_PGSTEAL_KSWAPD, CTR_PGSTEAL_DIRECT,
	CTR_WORKINGSET_REFAULT, CTR_COMPACT_FAIL, CTR_PGMAJFAULT, CTR_PGSCAN_KSWAPD,
};

/* Keeps at most max of the n rates in shown[], in their order, dropping
 * by rate_drop_order; returns how many are left. */
static int
rates_fit(int *shown, int n, int max)
{
	for (size_t d = 0; n > max && d < sizeof(rate_drop_order) / sizeof(rate_drop_order[0]);
	     d++)
		for (int i = 0; i < n; i++)
			if (rate_items[shown[i]].c == rate_drop_order[d]) {
				memmove(&shown[i], &shown[i + 1], (size_t)(n - i - 1) * sizeof(*shown));
				n--;
				break;
			}
	return n < max ? n : max;
}

/* The panel's title and one line: the time tasks stalled in direct
 * reclaim and in compaction per second, from the kernel probes. Without
 * them, why, on the title's rule when it fits there (no row spent). */
static void
panel_probes(const struct view_ctx *ctx, struct area *a, const char *title)
{
	struct hist_probe_sum t;
	char line[160], fit[160], d[16], c[16];
	int tw = (int)strlen(title);

	if (!probes_panel_on(ctx, line, sizeof(line))) {
		view_title(a->y, a->x, a->w, title);
		if (tw + 2 + view_fit(line, (int)sizeof(fit), fit, sizeof(fit)) + 2 <= a->w)
			draw_text(a->y, a->x + tw, a->w - tw, ST_DIM, " %s ", line);
		else if (area_room(a, 2))
			draw_text(++a->y, a->x + 1, a->w - 1, ST_DIM, "%s", line);
		a->y++;
		return;
	}
	a->y = view_title(a->y, a->x, a->w, title);
	if (!area_room(a, 1))
		return;
	if (ctx->seq == 0 || !history_probe_sum(ctx->h, ctx->seq - 1, ctx->seq, &t) ||
	    t.seconds <= 0) {
		draw_text(a->y++, a->x + 1, a->w - 1, ST_DIM, "stalled: %s", draw_unknown());
		return;
	}
	probes_fmt_ns((double)t.stall[STALL_DIRECT].sum_ns / t.seconds, d, sizeof(d));
	probes_fmt_ns((double)t.stall[STALL_COMPACT].sum_ns / t.seconds, c, sizeof(c));
	draw_text(a->y++, a->x + 1, a->w - 1,
		  t.stall[STALL_DIRECT].count || t.stall[STALL_COMPACT].count ? ST_WARN : ST_NORMAL,
		  "stalled in direct reclaim %s/s (%llu)  in compaction %s/s (%llu)", d,
		  (unsigned long long)t.stall[STALL_DIRECT].count, c,
		  (unsigned long long)t.stall[STALL_COMPACT].count);
}

static void
panel_rates(const struct view_ctx *ctx, struct area *a, int columns, int parts)
{
	const struct hist_entry *e = ctx->e;
	int shown[N_RATE_ITEMS], n = 0, rows, cw, per;
	char why[200];

	if (!area_room(a, 2))
		return;
	panel_probes(ctx, a, "Reclaim and compaction (per second)");
	if (!e || !(e->valid & SRC_BIT(SRC_VMSTAT))) {
		if (view_missing(ctx, SRC_VMSTAT, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	for (int i = 0; i < N_RATE_ITEMS; i++)
		if (!ctx->filter[0] || strcasestr(rate_items[i].label, ctx->filter) ||
		    strcasestr(counter_name(rate_items[i].c), ctx->filter))
			shown[n++] = i;
	if (n == 0) {
		panel_filtered(ctx, a, "rate's name");
		return;
	}
	if (a->end <= a->y)
		return;
	/* With a second recording each rate has its chart twice. */
	per = ctx->b ? 2 : 1;
	if (parts > 1 && ctx->b)
		parts /= 2;
	n = rates_fit(shown, n, (a->end - a->y) / per * columns);
	rows = (n + columns - 1) / columns;
	/* Taller charts where every rate still gets its lines. */
	if (parts < 1 || rows * parts * per > a->end - a->y)
		parts = 1;
	if (rows * per > a->end - a->y)
		rows = (a->end - a->y) / per;
	cw = (a->w - 1) / columns;
	for (int i = 0; i < n; i++) {
		int col = i / ((n + columns - 1) / columns), row = i % ((n + columns - 1) / columns);

		if (row >= rows)
			continue;
		rate_cell(ctx, &rate_items[shown[i]], a->y + row * parts * per,
			  a->x + 1 + col * cw, cw - 2, parts);
	}
	a->y += rows * parts * per;
}

static void
overview_draw(const struct view_ctx *ctx, void *state)
{
	struct area left = { ctx->y, ctx->x, ctx->cols, ctx->y + ctx->rows };

	(void)state;
	if (ctx->cols >= 150) {
		struct area right;
		int y;

		left.w = ctx->cols / 2 - 1;
		right = (struct area){ ctx->y, ctx->x + ctx->cols / 2 + 1,
				       ctx->cols - ctx->cols / 2 - 1, left.end };
		panel_memory(ctx, &left, 2);
		left.y++;
		panel_zones(ctx, &left, true);
		left.y++;
		panel_psi(ctx, &left, PSI_COUNT);
		left.y++;
		/* The rows left: the blocked groups, then the events under them
		 * (up to the 10 newest), the tasks at least a line. */
		y = left.y;
		panel_task_groups(ctx, &left, left.end - left.y - 2);
		if (left.y > y && left.end - left.y > 2)
			left.y++;
		left.y += view_events_lines(ctx, left.y, left.x, left.w,
					    left.end - left.y < 10 ? left.end - left.y : 10);
		panel_orders(ctx, &right, true);
		right.y++;
		panel_rates(ctx, &right, 1, (right.end - right.y - 1) / N_RATE_ITEMS > 4 ? 4 :
			    (right.end - right.y - 1) / N_RATE_ITEMS);
		return;
	}
	panel_memory(ctx, &left, ctx->rows >= 26 ? 2 : 1);
	panel_tasks(ctx, &left, true);
	panel_zones(ctx, &left, ctx->rows >= 40);
	panel_psi(ctx, &left, ctx->rows >= 30 ? PSI_COUNT : 2);
	panel_orders(ctx, &left, ctx->rows >= 40);
	panel_rates(ctx, &left, 2, 1);
}

static const char *const overview_help[] = {
	"/text       show only zones and rates whose name contains text",
	NULL
};

const struct view view_overview = {
	.name = "overview",
	.title = "Overview",
	.key = '1',
	.draw = overview_draw,
	.help = overview_help,
};
