/*
 * Overview: memory, zones against their watermarks, pressure, free blocks
 * per order and reclaim rates on one screen, with a line of blocked tasks
 * and the latest kernel log events. At 80x24 the panels stack (tasks and
 * events share their line); from 150 columns they stand in two columns
 * with longer trends.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/derive.h"
#include "util/arith.h"
#include "model/frag.h"
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

static void
panel_memory(const struct view_ctx *ctx, struct area *a, int max_lines)
{
	static const struct { const char *label; enum mem_field f; } items[] = {
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
}

static void
panel_zones(const struct view_ctx *ctx, struct area *a)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const struct hist_entry *e = ctx->e;
	char f[16], mn[16], lo[16], hi[16], why[200];
	uint64_t kib = (uint64_t)(ctx->page_size > 0 ? ctx->page_size : 4096) / 1024;
	int shown = 0, filtered = 0;

	if (!area_room(a, 2))
		return;
	view_title(a->y++, a->x, a->w, "Zones: free against the watermarks");
	if (!e || !(e->valid & SRC_BIT(SRC_ZONEINFO))) {
		if (view_missing(ctx, SRC_ZONEINFO, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	for (int z = 0; z < sh->n_zones && area_room(a, 1); z++) {
		uint64_t wbuf[WM_COUNT];
		const uint64_t *wm = history_wmark(ctx->h, ctx->seq, z, wbuf) ? wbuf : NULL;
		const char *state;
		enum style st;
		int x;

		if (!wm || wm[WM_FREE] == UINT64_MAX || wm[WM_MANAGED] == 0)
			continue;
		if (!zone_shown(ctx, z)) {
			filtered++;
			continue;
		}
		shown++;
		fmt_kib(wm[WM_FREE] * kib, f, sizeof(f));
		fmt_kib(wm[WM_MIN] * kib, mn, sizeof(mn));
		fmt_kib(wm[WM_LOW] * kib, lo, sizeof(lo));
		fmt_kib(wm[WM_HIGH] * kib, hi, sizeof(hi));
		/* What the allocator does at this level, in the kernel's terms. */
		if (wm[WM_FREE] < wm[WM_MIN]) {
			state = "below min: allocations reclaim directly";
			st = ST_BAD;
		} else if (wm[WM_FREE] < wm[WM_LOW]) {
			state = "below low: kswapd woken";
			st = ST_WARN;
		} else if (wm[WM_FREE] < wm[WM_HIGH]) {
			state = "below high: kswapd reclaiming";
			st = ST_WARN;
		} else {
			state = "ok";
			st = ST_GOOD;
		}
		x = a->x + 1;
		x += draw_text(a->y, x, a->w, ST_NORMAL, "%d %-7s", sh->zones[z].node, sh->zones[z].name);
		x += draw_text(a->y, x, a->w, ST_DIM, " free ");
		x += draw_text(a->y, x, a->w, st, "%6s", f);
		x += draw_text(a->y, x, a->x + a->w - x, ST_DIM, "  min %s low %s high %s  ", mn,
			       lo, hi);
		draw_text(a->y, x, a->x + a->w - x, st, "%s", state);
		a->y++;
	}
	if (!shown && filtered)
		panel_filtered(ctx, a, "zone's name");
}

static void
panel_psi(const struct view_ctx *ctx, struct area *a, int max_rows)
{
	static const char *const names[PSI_COUNT] = { "cpu", "memory", "io", "irq" };
	static const int order[PSI_COUNT] = { PSI_MEMORY, PSI_IO, PSI_CPU, PSI_IRQ };
	const struct hist_entry *e = ctx->e;
	double v[SPARK_MAX];
	char why[200];
	int shown = 0;

	if (!area_room(a, 2))
		return;
	view_title(a->y++, a->x, a->w, "Pressure (%)   some: avg10 avg60 avg300   full: avg10 avg60 avg300");
	if (!e || !(e->valid & (SRC_BIT(SRC_PSI_MEMORY) | SRC_BIT(SRC_PSI_IO)))) {
		if (view_missing(ctx, SRC_PSI_MEMORY, why, sizeof(why)))
			draw_text(a->y++, a->x + 1, a->w - 1, ST_WARN, "%s", why);
		return;
	}
	for (int k = 0; k < PSI_COUNT && shown < max_rows && area_room(a, 1); k++) {
		int r = order[k], x = a->x + 1, w, n;
		const struct hist_psi_line *l;
		uint64_t first, last;

		if (!(e->valid & SRC_BIT(SRC_PSI_CPU + r)))
			continue;
		x += draw_text(a->y, x, a->w, ST_NORMAL, "%-7s", names[r]);
		for (int full = 0; full < 2; full++) {
			l = full ? &e->psi[r].full : &e->psi[r].some;
			x += draw_text(a->y, x, a->w, ST_DIM, full ? "    " : "      ");
			if (!l->present) {
				x += draw_text(a->y, x, a->w, ST_DIM, "%19s", "");
				continue;
			}
			x += draw_text(a->y, x, a->w, l->avg10 >= 1000 ? ST_BAD :
				       l->avg10 >= 100 ? ST_WARN : ST_NORMAL, "%3u.%02u", l->avg10 / 100,
				       l->avg10 % 100);
			x += draw_text(a->y, x, a->w, ST_NORMAL, " %3u.%02u %3u.%02u", l->avg60 / 100,
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
			draw_spark(a->y, x + 2, w, v, n, 100, r == PSI_MEMORY ? ST_WARN : ST_TITLE);
		}
		a->y++;
		shown++;
	}
}

static void
panel_orders(const struct view_ctx *ctx, struct area *a)
{
	const struct hist_shape *sh = &ctx->h->shape;
	const struct hist_entry *e = ctx->e;
	int pb = sh->pageblock_order > 0 && sh->pageblock_order < sh->n_orders ?
	    sh->pageblock_order : sh->n_orders - 1;
	/* Figures per order when they fit (5 columns each), glyphs otherwise. */
	int cell = a->w >= 21 + sh->n_orders * 5 + 30 ? 5 : 1, x;
	char why[200], u[3][16], title[256], pbhead[24];
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
		const uint32_t *b = history_buddy(ctx->h, ctx->seq, z);
		uint64_t free[MAX_ORDERS], max = 0;
		struct frag fr;

		if (!b)
			continue;
		if (!zone_shown(ctx, z)) {
			filtered++;
			continue;
		}
		shown++;
		for (int o = 0; o < sh->n_orders; o++) {
			free[o] = b[o];
			if (free[o] > max)
				max = free[o];
		}
		frag_compute(free, sh->n_orders, &fr);
		x = a->x + 1;
		x += draw_text(a->y, x, a->w, ST_NORMAL, "%d %-7s %s ", sh->zones[z].node,
			       sh->zones[z].name, fr.free_pages ? "" : " ");
		x = a->x + 21;
		/* One cell per order: height and colour by count, log scale. */
		for (int o = 0; o < sh->n_orders; o++) {
			double f = max ? arith_log_share((double)free[o], (double)max) : 0;

			if (cell == 1) {
				x += draw_text(a->y, x, 1, draw_heat_style(free[o], max), "%s",
					       free[o] ? draw_level_glyph(f) : ".");
			} else {
				char n[8];

				fmt_count((double)free[o], n, sizeof(n));
				x += draw_text(a->y, x, cell, draw_heat_style(free[o], max), " %*s",
					       cell - 1, free[o] ? n : ".");
			}
		}
		fmt_index(fr.unusable[2 < sh->n_orders ? 2 : 0], u[0], sizeof(u[0]));
		fmt_index(fr.unusable[3 < sh->n_orders ? 3 : 0], u[1], sizeof(u[1]));
		fmt_index(fr.unusable[pb], u[2], sizeof(u[2]));
		x++;
		x += draw_text(a->y, x, a->x + a->w - x, fr.highest_free_order < pb ? ST_BAD :
			       ST_NORMAL, " %4d ", fr.highest_free_order);
		draw_text(a->y, x, a->x + a->w - x, ST_NORMAL, " %6s %6s %7s", u[0], u[1], u[2]);
		a->y++;
	}
	if (!shown && filtered)
		panel_filtered(ctx, a, "zone's name");
}

/* One line: task states and the biggest group of blocked tasks; with
 * events_too, the counts alone and then the latest kernel log events. */
static void
panel_tasks(const struct view_ctx *ctx, struct area *a, bool events_too)
{
	const struct hist_entry *e = ctx->e;
	const struct hist_tasks *t;
	bool tasks = e && (e->valid & SRC_BIT(SRC_TASKS));
	int x;

	events_too = events_too && view_events_recent(ctx);
	if (!area_room(a, 1) || (!tasks && !events_too))
		return;
	x = a->x;
	if (tasks) {
		t = &e->tasks;
		x += draw_text(a->y, x, a->w, ST_TITLE, "Tasks ");
		x += draw_text(a->y, x, a->x + a->w - x, ST_NORMAL, "%u running ",
			       t->state[TS_RUNNING]);
		x += draw_text(a->y, x, a->x + a->w - x, t->n_blocked ? ST_BAD : ST_GOOD,
			       "%u blocked", t->n_blocked);
		if (t->n_groups > 0 && !events_too) {
			const struct hist_task_group *g = &t->top[0];
			char d[24];

			fmt_duration(g->longest, d, sizeof(d));
			x += draw_text(a->y, x, a->x + a->w - x, ST_NORMAL, ": %u %s, %s%s: ",
				       g->count, wait_category_name(g->category), g->at_least ?
				       (draw_utf8() ? "\u2265" : ">=") : "", d);
			x += draw_text(a->y, x, a->x + a->w - x, ST_NORMAL, "%s", g->reason);
			if (t->n_groups > 1)
				draw_text(a->y, x, a->x + a->w - x, ST_DIM, " (+%u groups, 4 Tasks)",
					  t->n_groups - 1);
		}
		x += 3;
	}
	if (events_too)
		view_events_inline(ctx, a->y, x, a->x + a->w);
	a->y++;
}

/* The latest kernel log events, on a line of their own. */
static void
panel_events(const struct view_ctx *ctx, struct area *a)
{
	if (!area_room(a, 1) || !view_events_recent(ctx))
		return;
	view_events_inline(ctx, a->y, a->x, a->x + a->w);
	a->y++;
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

static void
rate_cell(const struct view_ctx *ctx, const struct rate_item *it, int y, int x, int w)
{
	const struct hist_entry *e = ctx->e;
	double v[SPARK_MAX];
	char now[16];
	int n, sw = w - 21;

	draw_text(y, x, w, ST_DIM, "%-13s", it->label);
	if (!e || !((e->ctr_valid >> it->c) & 1)) {
		draw_text(y, x + 14, w - 14, ST_DIM, "%6s", "n/a");
		return;
	}
	fmt_count(derive_rate(ctx->h, ctx->seq, it->c), now, sizeof(now));
	draw_text(y, x + 14, w - 14, ST_NORMAL, "%6s", now);
	if (sw < 3)
		return;
	if (sw > SPARK_MAX)
		sw = SPARK_MAX;
	n = view_rates(ctx, it->c, v, sw);
	draw_spark(y, x + 21, sw, v, n, 0, it->st);
}

static void
panel_rates(const struct view_ctx *ctx, struct area *a, int columns)
{
	const struct hist_entry *e = ctx->e;
	int shown[N_RATE_ITEMS], n = 0, rows, cw;
	char why[200];

	if (!area_room(a, 2))
		return;
	view_title(a->y++, a->x, a->w, "Reclaim and compaction (per second)");
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
	rows = (n + columns - 1) / columns;
	if (rows > a->end - a->y)
		rows = a->end - a->y;
	cw = (a->w - 1) / columns;
	for (int i = 0; i < n; i++) {
		int col = i / ((n + columns - 1) / columns), row = i % ((n + columns - 1) / columns);

		if (row >= rows)
			continue;
		rate_cell(ctx, &rate_items[shown[i]], a->y + row, a->x + 1 + col * cw, cw - 2);
	}
	a->y += rows;
}

static void
overview_draw(const struct view_ctx *ctx, void *state)
{
	struct area left = { ctx->y, ctx->x, ctx->cols, ctx->y + ctx->rows };

	(void)state;
	if (ctx->cols >= 150) {
		struct area right;

		left.w = ctx->cols / 2 - 1;
		right = (struct area){ ctx->y, ctx->x + ctx->cols / 2 + 1,
				       ctx->cols - ctx->cols / 2 - 1, left.end };
		panel_memory(ctx, &left, 2);
		left.y++;
		panel_tasks(ctx, &left, false);
		panel_events(ctx, &left);
		left.y++;
		panel_zones(ctx, &left);
		left.y++;
		panel_psi(ctx, &left, PSI_COUNT);
		panel_orders(ctx, &right);
		right.y++;
		panel_rates(ctx, &right, 1);
		return;
	}
	panel_memory(ctx, &left, ctx->rows >= 26 ? 2 : 1);
	panel_tasks(ctx, &left, true);
	panel_zones(ctx, &left);
	panel_psi(ctx, &left, ctx->rows >= 30 ? PSI_COUNT : 2);
	panel_orders(ctx, &left);
	panel_rates(ctx, &left, 2);
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
