/*
 * The kernel probes on the Reclaim screen: per stall kind the tick's
 * count, p50, p99 and longest and the stall time per second; the latency
 * histogram of direct and memcg reclaim over the probes' window (its
 * first and last entry, HIST_PROBE_TICKS ticks), a bar row per bucket;
 * compaction runs by result; throttling by reason; kswapd's awake time;
 * writeback from reclaim. With replay --compare, B's stalls under A's and
 * B's count beside each bucket of the histogram. And
 * what every probe panel says when the probes are off.
 */
#include "views/reclaim-probes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/history-probes.h"
#include "model/probe-derive.h"
#include "util/text.h"

#define LABEL_W		19
#define BAR_MAX		40

enum pl_kind { PL_OFF, PL_MISSING, PL_HEAD, PL_STALL, PL_STALL_B, PL_COMPACT_R, PL_HIST_TITLE, PL_BUCKET,
	       PL_THR_TITLE,
	       PL_THROTTLE, PL_KSWAPD, PL_WRITES, PL_MAX = 64 };

struct pl {
	int n;
	enum pl_kind kind[PL_MAX];
	int arg[PL_MAX];
	bool tick_ok, win_ok;
	struct hist_probe_sum tick, win;	/* the tick shown, the window */
	struct probe_hist reclaim;		/* direct + memcg over the window */
	bool b_ok;				/* replay --compare: B's, from its history */
	struct probe_hist reclaim_b;
	char text[160];				/* PL_OFF, PL_MISSING */
};

bool
probes_panel_on(const struct view_ctx *ctx, char *dst, size_t size)
{
	const char *why;
	char esc[160];
	enum probes_state st = ctx->e ? history_probes_state(ctx->h, ctx->seq, NULL, &why) :
	    PROBES_NONE;

	if (st == PROBES_ON)
		return true;
	if (!ctx->e)
		why = "";
	text_escape(esc, sizeof(esc), why, strlen(why));
	if (st == PROBES_UNAVAILABLE)
		snprintf(dst, size, "probes: %s", esc[0] ? esc : "unavailable");
	else if (esc[0])
		snprintf(dst, size, "probes: %s", esc);
	else
		snprintf(dst, size, "no kernel probes in this recording");
	return false;
}

bool
probes_panel_missing(const struct view_ctx *ctx, char *dst, size_t size)
{
	uint32_t missing = 0;
	size_t n;

	history_probes_state(ctx->h, ctx->seq, &missing, NULL);
	if (!missing)
		return false;
	n = (size_t)snprintf(dst, size, "not attached:");
	for (int i = 0; i < PROBE_ID_COUNT && n < size; i++)
		if ((missing >> i) & 1)
			n += (size_t)snprintf(dst + n, size - n, "%s %s", n > 13 ? "," : "",
					      probe_name((enum probe_id)i));
	return true;
}

void
probes_fmt_ns(double ns, char *dst, size_t size)
{
	if (isnan(ns) || ns < 0)
		snprintf(dst, size, "%s", "-");
	else if (ns < 1e6)
		snprintf(dst, size, "%.0fus", ns / 1e3);
	else if (ns < 1e8)
		snprintf(dst, size, "%.*fms", ns < 1e7 ? 1 : 0, ns / 1e6);
	else if (ns < 1e11)
		snprintf(dst, size, "%.*fs", ns < 1e10 ? 2 : 0, ns / 1e9);
	else
		snprintf(dst, size, "%.0fs", ns / 1e9);
}

/* The bucket's range, "2-4us", "1-2s", "16s+". */
static void
bucket_label(int b, char *dst, size_t size)
{
	uint64_t lo = b == 0 ? 0 : (uint64_t)1 << b, hi = probe_bucket_le_us(b);

	if (hi == UINT64_MAX) {
		probes_fmt_ns((double)lo * 1e3, dst, size);
		strncat(dst, "+", size - strlen(dst) - 1);
		return;
	}
	if (hi <= 1000)
		snprintf(dst, size, "%llu-%lluus", (unsigned long long)lo, (unsigned long long)hi);
	else if (hi <= 1000000)
		snprintf(dst, size, "%.0f-%.0fms", (double)lo / 1e3, (double)hi / 1e3);
	else
		snprintf(dst, size, "%.0f-%.0fs", (double)lo / 1e6, (double)hi / 1e6);
	if (hi > 1000 && hi <= 4000)
		snprintf(dst, size, "%.1f-%.1fms", (double)lo / 1e3, (double)hi / 1e3);
	else if (hi > 1000000 && hi <= 4000000)
		snprintf(dst, size, "%.1f-%.1fs", (double)lo / 1e6, (double)hi / 1e6);
}

/* The q-th quantile in ns (probe-derive.c), NAN when empty. */
static double
quantile_ns(const struct probe_hist *l, double q, uint64_t max_ns)
{
	if (l->count == 0)
		return NAN;
	return (double)probe_quantile_ns(l->bucket, l->count, q, max_ns);
}

static void
pl_add(struct pl *p, enum pl_kind k, int arg)
{
	if (p->n < PL_MAX) {
		p->kind[p->n] = k;
		p->arg[p->n++] = arg;
	}
}

static void
pl_build(const struct view_ctx *ctx, struct pl *p)
{
	uint64_t first;
	int lo = -1, hi = -1;

	memset(p, 0, sizeof(*p));
	if (!probes_panel_on(ctx, p->text, sizeof(p->text))) {
		pl_add(p, PL_OFF, 0);
		return;
	}
	if (probes_panel_missing(ctx, p->text, sizeof(p->text)))
		pl_add(p, PL_MISSING, 0);
	p->tick_ok = ctx->seq > 0 && history_probe_sum(ctx->h, ctx->seq - 1, ctx->seq, &p->tick);
	p->win_ok = history_probe_window(ctx->h, ctx->seq, &first) &&
	    history_probe_sum(ctx->h, first, ctx->seq, &p->win);
	pl_add(p, PL_HEAD, 0);
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		pl_add(p, PL_STALL, k);
		if (ctx->b && ctx->b->e &&
		    history_probes_state(ctx->b->h, ctx->b->seq, NULL, NULL) == PROBES_ON)
			pl_add(p, PL_STALL_B, k);
	}
	pl_add(p, PL_COMPACT_R, 0);
	for (int k = STALL_DIRECT; k <= STALL_MEMCG; k++) {
		p->reclaim.count += p->win.stall[k].count;
		p->reclaim.sum_ns += p->win.stall[k].sum_ns;
		for (int b = 0; b < PROBE_BUCKETS; b++)
			p->reclaim.bucket[b] += p->win.stall[k].bucket[b];
	}
	pl_add(p, PL_THR_TITLE, 0);
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++)
		pl_add(p, PL_THROTTLE, r);
	pl_add(p, PL_KSWAPD, 0);
	pl_add(p, PL_WRITES, 0);
	pl_add(p, PL_HIST_TITLE, 0);
	if (ctx->b && ctx->b->e &&
	    history_probes_state(ctx->b->h, ctx->b->seq, NULL, NULL) == PROBES_ON) {
		struct hist_probe_sum wb;
		uint64_t fb;

		if ((p->b_ok = history_probe_window(ctx->b->h, ctx->b->seq, &fb) &&
		     history_probe_sum(ctx->b->h, fb, ctx->b->seq, &wb)))
			for (int k = STALL_DIRECT; k <= STALL_MEMCG; k++) {
				p->reclaim_b.count += wb.stall[k].count;
				for (int b = 0; b < PROBE_BUCKETS; b++)
					p->reclaim_b.bucket[b] += wb.stall[k].bucket[b];
			}
	}
	for (int b = 0; b < PROBE_BUCKETS; b++)
		if (p->reclaim.bucket[b] || p->reclaim_b.bucket[b]) {
			if (lo < 0)
				lo = b;
			hi = b;
		}
	for (int b = lo; lo >= 0 && b <= hi; b++)
		pl_add(p, PL_BUCKET, b);
}

int
reclaim_probes_lines(const struct view_ctx *ctx)
{
	struct pl p;

	pl_build(ctx, &p);
	return p.n;
}

static void
draw_stall(const struct view_ctx *ctx, const struct pl *p, int k, int y, bool b)
{
	static const char *const labels[2][STALL_KIND_COUNT] = {
		{ "direct reclaim", "memcg reclaim", "compaction" },
		{ "  B direct", "  B memcg", "  B compaction" },
	};
	const char *const *label = labels[b];
	const struct probe_hist *l = &p->tick.stall[k];
	uint64_t max = p->tick.stall_max_ns[k];
	char p50[16], p99[16], mx[16], per[16], win[16];

	if (!p->tick_ok) {
		draw_text(y, ctx->x, ctx->cols, ST_DIM, "%-*s %s", LABEL_W, label[k], draw_unknown());
		return;
	}
	probes_fmt_ns(quantile_ns(l, 0.5, max), p50, sizeof(p50));
	probes_fmt_ns(quantile_ns(l, 0.99, max), p99, sizeof(p99));
	probes_fmt_ns(l->count ? (double)max : NAN, mx, sizeof(mx));
	probes_fmt_ns(p->tick.seconds > 0 ? (double)l->sum_ns / p->tick.seconds : NAN, per,
		      sizeof(per));
	probes_fmt_ns((double)p->win.stall[k].sum_ns, win, sizeof(win));
	draw_text(y, ctx->x, ctx->cols, l->count ? ST_WARN : ST_DIM,
		  "%-*s %6llu %6s %6s %6s %8s/s %8llu %7s", LABEL_W, label[k],
		  (unsigned long long)l->count, p50, p99, mx, per,
		  (unsigned long long)p->win.stall[k].count, win);
}

/* Under the compaction stalls, compaction runs (kcompactd's and tasks')
 * by result, the tick's and the window's: "success 1/10 complete 0/5",
 * the results the window had. */
static void
draw_compact_results(const struct view_ctx *ctx, const struct pl *p, int y)
{
	char line[256];
	size_t n = (size_t)snprintf(line, sizeof(line), "%-*s", LABEL_W, "runs, tick/window");
	bool any = false;

	for (int r = 0; r < COMPACT_R_COUNT && n < sizeof(line); r++) {
		if (!p->win.compact_result[r])
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %llu/%llu",
				      probe_compact_result_name((enum probe_compact_result)r),
				      (unsigned long long)(p->tick_ok ? p->tick.compact_result[r] : 0),
				      (unsigned long long)p->win.compact_result[r]);
		any = true;
	}
	if (!any && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, " no compaction in the window");
	draw_text(y, ctx->x, ctx->cols, any ? ST_NORMAL : ST_DIM, "%s", line);
}

static void
draw_bucket(const struct view_ctx *ctx, const struct pl *p, int b, int y)
{
	uint64_t top = 0, v = p->reclaim.bucket[b];
	int w = ctx->cols - 12 - 9, bar;
	char lab[48];

	for (int i = 0; i < PROBE_BUCKETS; i++)
		if (p->reclaim.bucket[i] > top)
			top = p->reclaim.bucket[i];
	if (w > BAR_MAX)
		w = BAR_MAX;
	bucket_label(b, lab, sizeof(lab));
	draw_text(y, ctx->x, 12, ST_DIM, "%11s", lab);
	bar = top && w > 0 ? (int)((double)v * w / (double)top + 0.999) : 0;
	for (int i = 0; i < bar; i++)
		draw_text(y, ctx->x + 12 + i, 1, ST_HEAT3, "%s", draw_utf8() ? "\u2588" : "#");
	draw_text(y, ctx->x + 12 + (w > 0 ? w : 0) + 1, 8, v ? ST_NORMAL : ST_DIM, "%llu",
		  (unsigned long long)v);
	/* B's count of the same bucket beside A's. */
	if (p->b_ok)
		draw_text(y, ctx->x + 12 + (w > 0 ? w : 0) + 10, 12, ST_HEAT3, "B %llu",
			  (unsigned long long)p->reclaim_b.bucket[b]);
}

void
reclaim_probes_draw(const struct view_ctx *ctx, int i, int y)
{
	struct pl p;
	char a[16], b[16], c[16];
	int r;

	pl_build(ctx, &p);
	if (i < 0 || i >= p.n)
		return;
	r = p.arg[i];
	switch (p.kind[i]) {
	case PL_OFF:
	case PL_MISSING:
		draw_text(y, ctx->x + 2, ctx->cols - 2, ST_WARN, "%s", p.text);
		break;
	case PL_HEAD:
		draw_text(y, ctx->x, ctx->cols, ST_DIM, "%-*s %6s %6s %6s %6s %10s %8s %7s",
			  LABEL_W, "stalls this tick", "count", "p50", "p99", "max", "stalled",
			  "window", "total");
		break;
	case PL_STALL:
		draw_stall(ctx, &p, r, y, false);
		break;
	case PL_STALL_B: {
		/* B's figures at its own moment, from its own history. */
		static struct pl pb;

		pl_build(ctx->b, &pb);
		draw_stall(ctx, &pb, r, y, true);
		break;
	}
	case PL_COMPACT_R:
		draw_compact_results(ctx, &p, y);
		break;
	case PL_HIST_TITLE:
		fmt_duration(p.win.seconds, a, sizeof(a));
		if (p.b_ok)
			snprintf(b, sizeof(b), "%llu", (unsigned long long)p.reclaim_b.count);
		draw_text(y, ctx->x, ctx->cols, ST_DIM,
			  "reclaim latency, direct and memcg, last %s: %llu stalls%s%s%s", a,
			  (unsigned long long)p.reclaim.count, p.reclaim.count ? "" : ", none",
			  p.b_ok ? ", B " : "", p.b_ok ? b : "");
		break;
	case PL_BUCKET:
		draw_bucket(ctx, &p, r, y);
		break;
	case PL_THR_TITLE:
		draw_text(y, ctx->x, ctx->cols, ST_DIM, "%-*s %6s %20s %10s %8s %7s", LABEL_W,
			  "throttled for", "count", "", "slept", "window", "slept");
		break;
	case PL_THROTTLE:
		/* The stall table's columns: slept per second under "stalled". */
		probes_fmt_ns(p.tick_ok && p.tick.seconds > 0 ?
			      (double)p.tick.throttle_us[r] * 1e3 / p.tick.seconds : NAN, a,
			      sizeof(a));
		probes_fmt_ns((double)p.win.throttle_us[r] * 1e3, b, sizeof(b));
		draw_text(y, ctx->x, ctx->cols, p.tick.throttle_count[r] ? ST_WARN : ST_DIM,
			  "  %-*s %6llu %20s %8s/s %8llu %7s", LABEL_W - 2,
			  probe_throttle_name((enum probe_throttle_reason)r),
			  (unsigned long long)p.tick.throttle_count[r], "", a,
			  (unsigned long long)p.win.throttle_count[r], b);
		break;
	case PL_KSWAPD:
		probes_fmt_ns(p.tick_ok && p.tick.seconds > 0 ?
			      (double)p.tick.kswapd_awake_us * 1e3 / p.tick.seconds : NAN,
			      a, sizeof(a));
		probes_fmt_ns((double)p.win.kswapd_awake_us * 1e3, b, sizeof(b));
		draw_text(y, ctx->x, ctx->cols, p.tick.kswapd_awake_us ? ST_NORMAL : ST_DIM,
			  "%-*s %6llu %20s %8s/s %8llu %7s", LABEL_W, "kswapd wakes, awake",
			  (unsigned long long)p.tick.kswapd_wakes, "", a,
			  (unsigned long long)p.win.kswapd_wakes, b);
		break;
	case PL_WRITES:
		snprintf(c, sizeof(c), "%.0f", p.tick_ok && p.tick.seconds > 0 ?
			 (double)p.tick.reclaim_writes / p.tick.seconds : 0.0);
		draw_text(y, ctx->x, ctx->cols, p.tick.reclaim_writes ? ST_WARN : ST_DIM,
			  "%-*s %6llu %20s %8s/s %8llu", LABEL_W, "reclaim writes",
			  (unsigned long long)p.tick.reclaim_writes, "", c,
			  (unsigned long long)p.win.reclaim_writes);
		break;
	default:
		break;
	}
}
