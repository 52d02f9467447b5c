/*
 * The report written out. Every line is at most REPORT_COLUMNS wide: long
 * text (paths, marks, reasons) wraps at blanks, or anywhere but inside a
 * UTF-8 character when a word is longer than the line.
 */
#include "output/report-int.h"
#include "model/derive.h"
#include "model/taskgroups.h"
#include "util/arith.h"
#include "util/fmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "util/fmt.h"
#include "util/text.h"
#include "util/text.h"

#define LABEL_W		11	/* "Samples:   " */
#define GROUPS_SHOWN	8
#define FRAMES_SHOWN	16

/* The vmstat counters reported, in this order. */
static const struct {
	enum counter c;
	const char *unit;
} report_counters[] = {
	{ CTR_PGSCAN_KSWAPD, "pages" },
	{ CTR_PGSTEAL_KSWAPD, "pages" },
	{ CTR_PGSCAN_DIRECT, "pages" },
	{ CTR_PGSTEAL_DIRECT, "pages" },
	{ CTR_ALLOCSTALL, "stalls" },
	{ CTR_PGSCAN_DIRECT_THROTTLE, "pages" },
	{ CTR_COMPACT_STALL, "stalls" },
	{ CTR_COMPACT_SUCCESS, "stalls" },
	{ CTR_COMPACT_FAIL, "stalls" },
	{ CTR_COMPACT_MIGRATE_SCANNED, "pages" },
	{ CTR_COMPACT_FREE_SCANNED, "pages" },
	{ CTR_COMPACT_DAEMON_WAKE, "wakes" },
	{ CTR_PGMIGRATE_SUCCESS, "pages" },
	{ CTR_PGMAJFAULT, "faults" },
	{ CTR_WORKINGSET_REFAULT, "pages" },
	{ CTR_PSWPIN, "pages" },
	{ CTR_PSWPOUT, "pages" },
	{ CTR_THP_FAULT_FALLBACK, "faults" },
	{ CTR_OOM_KILL, "kills" },
};
#define N_REPORTED	(sizeof(report_counters) / sizeof(report_counters[0]))

/* text from column col, continuing lines at column indent. Every line of
 * the report but its tables passes here: the names in it (a task's, a
 * zone's, a kernel log line, a mark) have their controls escaped. */
static void
put_wrapped(FILE *out, int col, int indent, const char *text)
{
	char shown[TEXT_ESCAPED_SIZE(1024)];
	const char *s = shown;

	text_esc(shown, sizeof(shown), text);

	while (*s) {
		size_t room = col < REPORT_COLUMNS ? (size_t)(REPORT_COLUMNS - col) : 0, next, n;
		bool split;

		n = text_wrap(s, room, &next, &split);
		if (split && col > indent) {
			/* A long word: start it on the next line rather than cut it. */
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			continue;
		}
		fwrite(s, 1, n, out);
		if (s[n] == '\0')
			break;
		s += next;
		fprintf(out, "\n%*s", indent, "");
		col = indent;
	}
	fputc('\n', out);
}

/* "Label:    text", the text wrapped under itself. */
static void
para(FILE *out, const char *label, const char *text)
{
	fprintf(out, "%-*s", LABEL_W, label);
	put_wrapped(out, LABEL_W, LABEL_W, text);
}

/* HH:MM:SS.mmm, with the date too when the report spans more than a day. */
void
report_fmt_when(const struct report *rep, double wall, char *dst, size_t size)
{
	time_t a = (time_t)rep->first, b = (time_t)rep->last;
	struct tm ta, tb;

	localtime_r(&a, &ta);
	localtime_r(&b, &tb);
	fmt_moment(wall, ta.tm_yday == tb.tm_yday && ta.tm_year == tb.tm_year ? FMT_CLOCK :
		   FMT_DAY, dst, size);
}

/* Seconds with a unit: "0.4s", "41s", "5m03s", "2h04m". */
static void
fmt_secs(double s, char *dst, size_t size)
{
	if (s < 9.95)
		snprintf(dst, size, "%.1fs", s < 0 ? 0 : s);
	else
		fmt_duration(s, dst, size);
}

/* A time blocked: the scan sees a task from the first tick it is in D, so
 * one seen once was blocked for less than about an interval. */
static void
fmt_blocked(const struct report *rep, double s, char *dst, size_t size)
{
	if (rep->interval > 0 && s < rep->interval)
		snprintf(dst, size, "<%gs", rep->interval);
	else
		fmt_secs(s, dst, size);
}

/* A count in at most 4 characters: "987", "9.9k", "123k", "1.2M", "18E". */
static void
fmt_short(uint64_t v, char *dst, size_t size)
{
	static const char units[] = "kMGTPE";
	double x = (double)v;
	int u = -1;

	if (v < 1000) {
		snprintf(dst, size, "%llu", (unsigned long long)v);
		return;
	}
	while (x >= 999.5 && u < 5) {
		x /= 1000;
		u++;
	}
	snprintf(dst, size, x < 9.95 ? "%.1f%c" : "%.0f%c", x, units[u]);
}

/* A count, exact below 100,000 and then "123k", "39.4M". */
static void
fmt_total(uint64_t v, char *dst, size_t size)
{
	if (v < 100000)
		snprintf(dst, size, "%llu", (unsigned long long)v);
	else
		fmt_short(v, dst, size);
}

static void
print_heading(const struct report *rep, FILE *out)
{
	const struct feed *f = rep->f;
	size_t n = feed_count(f);
	char line[600], a[32], b[32], d[24], iv[96];

	fputs("pagetop report of ", out);
	put_wrapped(out, 18, 2, rep->path);
	if (rep->title[0])
		para(out, "Phase:", rep->title);
	para(out, "Host:", rep->host);
	fmt_moment(rep->first, FMT_DATE, a, sizeof(a));
	fmt_moment(rep->last, FMT_DATE, b, sizeof(b));
	if (strncmp(a, b, 11) == 0)
		memmove(b, b + 11, strlen(b + 11) + 1);	/* the same day: the time only */
	fmt_secs(rep->last - rep->first, d, sizeof(d));
	snprintf(line, sizeof(line), "%s to %s (%s)", a, b, d);
	if (rep->samples == 0)
		snprintf(line, sizeof(line), "no sample could be read");
	if (n && (rep->samples == 0 || feed_time_of(f, 0) < rep->first ||
		  feed_time_of(f, n - 1) > rep->last)) {
		char c[32], e[32];

		/* The whole recording's range, dated where its day is not the report's. */
		fmt_moment(feed_time_of(f, 0), FMT_DATE, c, sizeof(c));
		fmt_moment(feed_time_of(f, n - 1), FMT_DATE, e, sizeof(e));
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 ", of a recording from %s to %s", rep->samples && !strncmp(a, c, 11) ?
			 c + 11 : c, rep->samples && !strncmp(a, e, 11) ? e + 11 : e);
	}
	para(out, "Time:", line);
	if (rep->interval > 0)
		snprintf(iv, sizeof(iv), ", one every %gs", rep->interval);
	else
		iv[0] = '\0';
	/* Samples that came sooner than the interval: bursts (PSI triggers);
	 * their pace from the intervals near the shortest (the first of a
	 * burst is cut short by the firing, not by the pace). */
	if (rep->interval > 0) {
		size_t fast = 0, near = 0;
		double sum = 0, least = rep->interval, t0, t1 = 0;

		/* Each time asked once a pass: the one before is kept. */
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 1; i < n; i++) {
				t0 = i == 1 ? feed_time_of(f, 0) : t1;
				t1 = feed_time_of(f, i);
				if (!(t0 >= rep->first && t1 <= rep->last &&
				      t1 - t0 < FEED_BURST_SHARE * rep->interval))
					continue;
				if (pass == 0) {
					fast++;
					least = arith_min(least, t1 - t0);
				} else if (t1 - t0 < 2 * least) {
					near++;
					sum += t1 - t0;
				}
			}
		if (fast)
			snprintf(iv + strlen(iv), sizeof(iv) - strlen(iv), ", %zu at %.2gs in bursts",
				 fast, sum / (double)near);
	}
	if (rep->unreadable)
		snprintf(line, sizeof(line), "%zu of %zu%s", rep->samples,
			 rep->samples + rep->unreadable, iv);
	else
		snprintf(line, sizeof(line), "%zu%s", rep->samples, iv);
	para(out, "Samples:", line);
}

static void
print_gaps(const struct report *rep, FILE *out)
{
	const char *label = "Gaps:";
	char line[200], a[24], b[24], d[24];

	for (size_t k = 0; k < rep->n_fm; k++) {
		const struct feed_mark *g = &rep->fm[k];

		if (g->kind != FEED_GAP)
			continue;
		report_fmt_when(rep, g->wall, a, sizeof(a));
		report_fmt_when(rep, g->last, b, sizeof(b));
		snprintf(line, sizeof(line), "%s to %s: %llu samples lost, the recorder fell behind", a, b, (unsigned long long)g->lost);
		para(out, label, line);
		label = "";
	}
	for (size_t k = 0; k < rep->n_jumps && k < MAX_JUMPS; k++) {
		const struct jump *j = &rep->jumps[k];
		bool known = false;

		/* A gap the recorder wrote down is said above. */
		for (size_t i = 0; i < rep->n_fm && !known; i++)
			known = rep->fm[i].kind == FEED_GAP && rep->fm[i].wall > j->from &&
			    rep->fm[i].wall < j->to;
		if (known)
			continue;
		report_fmt_when(rep, j->from, a, sizeof(a));
		report_fmt_when(rep, j->to, b, sizeof(b));
		fmt_secs(j->to - j->from, d, sizeof(d));
		snprintf(line, sizeof(line), "%s to %s: no samples for %s", a, b, d);
		para(out, label, line);
		label = "";
	}
	if (rep->n_jumps > MAX_JUMPS) {
		snprintf(line, sizeof(line), "and %zu more pauses between samples",
			 rep->n_jumps - MAX_JUMPS);
		para(out, label, line);
		label = "";
	}
	if (rep->unreadable) {
		snprintf(line, sizeof(line), "%zu samples could not be read (damage)", rep->unreadable);
		para(out, label, line);
		label = "";
	}
	if (*label)
		para(out, label, "none");
}

static void
fmt_pct(uint32_t hundredths, char *dst, size_t size)
{
	snprintf(dst, size, "%u.%02u%%", hundredths / 100, hundredths % 100);
}

static void
print_psi(const struct report *rep, FILE *out)
{
	static const char *const names[] = { [PSI_MEMORY] = "memory", [PSI_IO] = "io" };

	fprintf(out, "\n%-26s%8s  %11s  %s\n", "Pressure stalls (PSI)", "mean", "peak avg10", "at");
	for (int r = PSI_MEMORY; r <= PSI_IO; r++) {
		if (!rep->psi[r][0].seen && !rep->psi[r][1].seen) {
			fprintf(out, "  %-24s%s\n", names[r], "not in the recording");
			continue;
		}
		for (int full = 0; full < 2; full++) {
			const struct psi_acc *a = &rep->psi[r][full];
			char label[32], mean[16], peak[16], at[24];

			if (!a->seen)
				continue;
			snprintf(label, sizeof(label), "%s %s", names[r], full ? "full" : "some");
			if (a->over > 0)
				snprintf(mean, sizeof(mean), "%.2f%%",
					 derive_share(a->stalled, a->over));
			else
				snprintf(mean, sizeof(mean), "-");
			fmt_pct(a->peak, peak, sizeof(peak));
			report_fmt_when(rep, a->peak_at, at, sizeof(at));
			if (a->peak == 0)
				snprintf(at, sizeof(at), "-");
			fprintf(out, "  %-24s%8s  %11s  %s\n", label, mean, peak, at);
		}
	}
	fprintf(out, "  (mean: share of the time stalled, from the totals; peak: the\n"
		"  kernel's 10-second average)\n");
}

static void
print_counters(const struct report *rep, FILE *out)
{
	const struct counter_acc *acc = rep->acc;
	bool any = false;

	fprintf(out, "\n%-38s%9s  %11s  %s\n", "Reclaim and compaction (vmstat)", "total",
		"peak rate", "at");
	for (size_t k = 0; k < N_REPORTED; k++) {
		const struct counter_acc *a = &acc[report_counters[k].c];
		char total[16], peak[24], at[24];

		if (!a->seen)
			continue;
		any = true;
		fmt_total(a->total, total, sizeof(total));
		if (a->peak < 999.5)
			fmt_count(a->peak, peak, sizeof(peak));
		else
			fmt_short(a->peak < 1.8e19 ? (uint64_t)a->peak : UINT64_MAX, peak, sizeof(peak));
		strcat(peak, "/s");
		report_fmt_when(rep, a->peak_at, at, sizeof(at));
		if (a->peak == 0)
			snprintf(at, sizeof(at), "-");
		fprintf(out, "  %-28s%-8s%9s  %11s  %s\n", counter_name(report_counters[k].c),
			report_counters[k].unit, total, peak, at);
	}
	if (!any) {
		fprintf(out, "  none: %s\n", rep->samples < 2 ? "one sample makes no interval" :
			"no vmstat in the recording");
		return;
	}
	for (int direct = 0; direct < 2; direct++) {
		const struct counter_acc *scan = &acc[direct ? CTR_PGSCAN_DIRECT : CTR_PGSCAN_KSWAPD];
		const struct counter_acc *steal = &acc[direct ? CTR_PGSTEAL_DIRECT : CTR_PGSTEAL_KSWAPD];

		if (scan->seen && steal->seen && scan->total > 0)
			fprintf(out, "  %s reclaim took %.1f%% of the pages it scanned\n",
				direct ? "direct" : "kswapd",
				100 * derive_ratio((int64_t)steal->total, (int64_t)scan->total));
	}
	if (acc[CTR_COMPACT_STALL].seen && acc[CTR_COMPACT_SUCCESS].seen &&
	    acc[CTR_COMPACT_STALL].total > 0) {
		uint64_t ok = acc[CTR_COMPACT_SUCCESS].total, all = acc[CTR_COMPACT_STALL].total;

		fprintf(out, "  compaction succeeded in %llu of %llu stalls (%.0f%%)\n",
			(unsigned long long)ok, (unsigned long long)all,
			100 * derive_ratio((int64_t)ok, (int64_t)all));
	}
}

static void
fmt_index3(int v, char *dst, size_t size)
{
	snprintf(dst, size, "%d.%03d", v / 1000, v % 1000);
}

/* The three rows of a zone, as many orders a line as fit. */
static void
print_rows(FILE *out, const struct zone_acc *z)
{
	const struct zone_row *rows[3] = { &z->start, &z->worst, &z->end };
	static const char *const names[3] = { "start", "worst", "end" };
	const int label = 10, avail = REPORT_COLUMNS - label;
	int n = z->start.n_orders, w = 3, per, len_of_order;
	bool exact;
	char buf[32];

	for (int r = 0; r < 3; r++)
		if (rows[r]->n_orders > n)
			n = rows[r]->n_orders;
	for (int r = 0; r < 3; r++)
		for (int o = 0; o < rows[r]->n_orders; o++) {
			int len = snprintf(buf, sizeof(buf), "%llu", (unsigned long long)rows[r]->free[o]);

			if (len + 1 > w)
				w = len + 1;
		}
	if ((len_of_order = snprintf(buf, sizeof(buf), "%d", n - 1)) + 1 > w)
		w = len_of_order + 1;
	exact = w * n <= avail;
	if (!exact)
		w = 5;	/* fmt_short: at most 4 characters */
	per = avail / w;
	for (int o0 = 0; o0 < n; o0 += per) {
		int o1 = o0 + per < n ? o0 + per : n;

		fprintf(out, "    %-*s", label - 4, "order");
		for (int o = o0; o < o1; o++)
			fprintf(out, "%*d", w, o);
		fputc('\n', out);
		for (int r = 0; r < 3; r++) {
			fprintf(out, "    %-*s", label - 4, names[r]);
			for (int o = o0; o < o1; o++) {
				if (o >= rows[r]->n_orders)
					snprintf(buf, sizeof(buf), "-");
				else if (exact)
					snprintf(buf, sizeof(buf), "%llu",
						 (unsigned long long)rows[r]->free[o]);
				else
					fmt_short(rows[r]->free[o], buf, sizeof(buf));
				fprintf(out, "%*s", w, buf);
			}
			fputc('\n', out);
		}
	}
}

static void
print_zones(const struct report *rep, FILE *out)
{
	char text[400], head[TEXT_ESCAPED_SIZE(NAME_LEN) + 32], a[24], b[24], u[3][16];
	char ez[TEXT_ESCAPED_SIZE(NAME_LEN)];
	int pb = report_pageblock_order(rep, rep->n_zones ? rep->zones[0].start.n_orders : MAX_ORDERS);

	report_fmt_when(rep, rep->first, a, sizeof(a));
	report_fmt_when(rep, rep->last, b, sizeof(b));
	snprintf(text, sizeof(text), "Fragmentation per zone: the worst moment has the lowest "
		 "highest free order; ties go to the highest unusable index at order %d (%s), "
		 "then 3, then 2. Free blocks per order (buddyinfo) at the start (%s), then, "
		 "and at the end (%s):", pb, rep->pageblock_order >= 0 ? "the pageblock order" :
		 "the pageblock order is not in the recording", a, b);
	fputc('\n', out);
	put_wrapped(out, 0, 0, text);
	if (rep->n_zones == 0) {
		fprintf(out, "  no buddyinfo in the recording\n");
		return;
	}
	for (int i = 0; i < rep->n_zones; i++) {
		const struct zone_acc *z = &rep->zones[i];

		report_fmt_when(rep, z->worst.wall, a, sizeof(a));
		for (int k = 0; k < 3; k++)
			fmt_index3(z->worst_unusable[k], u[k], sizeof(u[k]));
		if (z->worst_high < 0)
			snprintf(text, sizeof(text), "worst at %s: no free block at all", a);
		else
			snprintf(text, sizeof(text), "worst at %s: highest free order %d, unusable "
				 "index %s at order %d, %s at 3, %s at 2", a, z->worst_high, u[2],
				 report_pageblock_order(rep, z->worst.n_orders), u[1], u[0]);
		snprintf(head, sizeof(head), "  Node %d, zone %s: ", z->node,
			 text_esc(ez, sizeof(ez), z->name));
		fputs(head, out);
		put_wrapped(out, (int)strlen(head), 4, text);
		print_rows(out, z);
	}
}

static void
print_stack(FILE *out, const struct group_acc *g)
{
	char line[400];

	if (g->rest)
		return;
	if (!g->by_stack) {
		size_t n = (size_t)snprintf(line, sizeof(line), "no kernel stack recorded");
		const char *sep = ": ";

		/* Why, as the recorder knew it: each reason seen, once. */
		for (int w = 1; w < STACK_MISSING_COUNT && n < sizeof(line); w++)
			if (g->why_seen & (1u << w)) {
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", sep,
						      task_stack_missing_text((enum stack_missing)w));
				sep = "; ";
			}
		if (n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, "; wchan %s",
				 g->wchan[0] ? g->wchan : "unknown");
		fprintf(out, "%10s", "");
		put_wrapped(out, 10, 10, line);
		return;
	}
	for (int f = 0; f < g->stack.n && f < FRAMES_SHOWN; f++) {
		const struct stack_frame *fr = &g->stack.f[f];

		snprintf(line, sizeof(line), "%s%s%s%s", fr->func, fr->module[0] ? " [" : "",
			 fr->module, fr->module[0] ? "]" : "");
		fprintf(out, "%10s", "");
		put_wrapped(out, 10, 12, line);
	}
	if (g->stack.n > FRAMES_SHOWN)
		fprintf(out, "%10s... %d more frames\n", "", g->stack.n - FRAMES_SHOWN);
}

static void
print_tasks(struct report *rep, FILE *out)
{
	int order[MAX_GROUPS], n = 0, tasks = 0, shown;
	bool capped = false, any_at_least = false;
	double total = 0;
	char line[300], a[24], b[24], c[24];

	report_close_spells(rep);
	for (int k = 0; k < rep->n_groups; k++) {
		const struct group_acc *g = &rep->groups[k];

		if (g->spells == 0)
			continue;
		order[n++] = k;
		tasks += g->tasks;
		capped |= g->tasks_capped;
		total += g->total;
	}
	/* The most time blocked first; an insertion sort of a few groups. */
	for (int i = 1; i < n; i++) {
		int k = order[i], j = i - 1;

		while (j >= 0 && rep->groups[order[j]].total < rep->groups[k].total) {
			order[j + 1] = order[j];
			j--;
		}
		order[j + 1] = k;
	}
	fputc('\n', out);
	if (rep->gen == 0) {
		fprintf(out, "Blocked tasks: no task scan in the recording\n");
		return;
	}
	if (n == 0) {
		fprintf(out, "Blocked tasks: none seen in state D\n");
		return;
	}
	fmt_blocked(rep, total, a, sizeof(a));
	snprintf(line, sizeof(line), "Blocked tasks (state D) by stack: %d group%s, %d%s "
		 "task%s, %s blocked in all", n, n == 1 ? "" : "s", tasks, capped ? "+" : "",
		 tasks == 1 ? "" : "s", a);
	put_wrapped(out, 0, 2, line);
	fprintf(out, "  %6s %8s %8s  %s\n", "tasks", "total", "longest", "why");
	shown = n < GROUPS_SHOWN ? n : GROUPS_SHOWN;
	for (int i = 0; i < shown; i++) {
		const struct group_acc *g = &rep->groups[order[i]];

		fmt_blocked(rep, g->total, a, sizeof(a));
		fmt_blocked(rep, g->longest, b, sizeof(b));
		if (g->longest_at_least) {
			strcat(b, "+");
			any_at_least = true;
		}
		fprintf(out, "  %5d%s %8s %8s  ", g->tasks, g->tasks_capped ? "+" : " ", a, b);
		snprintf(line, sizeof(line), "%s: %s", wait_category_name(g->category), g->reason);
		put_wrapped(out, 28, 28, line);
		report_fmt_when(rep, g->longest_until, c, sizeof(c));
		snprintf(line, sizeof(line), "longest: %s (tid %d), %s until %s%s",
			 g->longest_comm, g->longest_tid, b, c, g->by_stack ? ", in:" : "");
		fprintf(out, "%8s", "");
		put_wrapped(out, 8, 10, line);
		print_stack(out, g);
	}
	if (n > shown) {
		double rest = 0;
		int rest_tasks = 0;

		for (int i = shown; i < n; i++) {
			rest += rep->groups[order[i]].total;
			rest_tasks += rep->groups[order[i]].tasks;
		}
		fmt_blocked(rep, rest, a, sizeof(a));
		fprintf(out, "  and %d more groups: %d tasks, %s blocked\n", n - shown, rest_tasks, a);
	}
	if (any_at_least)
		fprintf(out, "  (+: blocked already when the recording began, so at least that)\n");
	if (rep->lost_spells)
		fprintf(out, "  (%zu times more tasks were blocked at once than could be "
			"followed)\n", rep->lost_spells);
}

/* The kernel's own messages: allocation failures, hung tasks, OOM kills. */
static void
print_kernel_log(const struct report *rep, FILE *out)
{
	char line[400], at[24];
	size_t n;
	int len;

	fputc('\n', out);
	if (!rep->kmsg_recorded) {
		fprintf(out, "Kernel log: not recorded\n");
		return;
	}
	if (rep->kmsg_err && rep->n_kevents == 0) {
		fprintf(out, "Kernel log: could not be read (%s%s)\n", strerror(rep->kmsg_err),
			rep->kmsg_err == EPERM || rep->kmsg_err == EACCES ? ": needs root" : "");
		return;
	}
	if (rep->n_kevents == 0) {
		fprintf(out, "Kernel log: no allocation failure, hung task, OOM kill or other "
			"event\n");
		return;
	}
	len = snprintf(line, sizeof(line), "Kernel log: %zu event%s (", rep->n_kevents,
		       rep->n_kevents == 1 ? "" : "s");
	n = 0;
	for (int k = 0; k < KMSG_KIND_COUNT && len < (int)sizeof(line); k++)
		if (rep->kevents_by_kind[k])
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%zu %s",
					n++ ? ", " : "", rep->kevents_by_kind[k], kmsg_kind_name(k));
	if (len < (int)sizeof(line))
		snprintf(line + len, sizeof(line) - (size_t)len, ")");
	put_wrapped(out, 0, 2, line);
	for (size_t k = 0; k < rep->n_kevents && k < MAX_EVENTS; k++) {
		const struct kevent *e = &rep->kevents[k];

		report_fmt_when(rep, e->wall, at, sizeof(at));
		snprintf(line, sizeof(line), "%s  %-13s  %s", at, kmsg_kind_name(e->kind), e->brief);
		fputs("  ", out);
		put_wrapped(out, 2, 2 + (int)strlen(at) + 2 + 13 + 2, line);
		if (e->verdict[0]) {
			fputs("    ", out);
			put_wrapped(out, 4, 6, e->verdict);
		}
	}
	if (rep->n_kevents > MAX_EVENTS)
		fprintf(out, "  and %zu more: pagetop dump FILE --source events lists them all\n",
			rep->n_kevents - MAX_EVENTS);
	if (rep->kmsg_lost)
		fprintf(out, "  (%llu records lost or not kept)\n",
			(unsigned long long)rep->kmsg_lost);
}

static void
print_events(const struct report *rep, FILE *out)
{
	char line[200], at[24];

	fputc('\n', out);
	if (rep->n_events == 0) {
		fprintf(out, "Events: none (memory pressure past 10%%, reclaim stalls beginning, "
			"tasks\n  blocked a new way)\n");
		return;
	}
	snprintf(line, sizeof(line), "Events: %zu (%zu memory pressure past 10%%, %zu reclaim "
		 "stalls beginning, %zu tasks blocked a new way)", rep->n_events,
		 rep->events_by_kind[0], rep->events_by_kind[1], rep->events_by_kind[2]);
	put_wrapped(out, 0, 2, line);
	for (size_t k = 0; k < rep->n_events && k < MAX_EVENTS; k++) {
		report_fmt_when(rep, rep->events[k].wall, at, sizeof(at));
		fprintf(out, "  %s  ", at);
		put_wrapped(out, 4 + (int)strlen(at), 4 + (int)strlen(at), rep->events[k].what);
	}
	if (rep->n_events > MAX_EVENTS)
		fprintf(out, "  and %zu more: n and N in replay step through them all\n",
			rep->n_events - MAX_EVENTS);
}

static void
print_marks(const struct report *rep, FILE *out)
{
	char at[24];

	fputc('\n', out);
	if (rep->n_marks == 0) {
		fprintf(out, "Marks: none\n");
		return;
	}
	fprintf(out, "Marks: %zu\n", rep->n_marks);
	for (size_t k = 0; k < rep->n_fm; k++) {
		if (rep->fm[k].kind != FEED_MARK)
			continue;
		report_fmt_when(rep, rep->fm[k].wall, at, sizeof(at));
		fprintf(out, "  %s  ", at);
		put_wrapped(out, 4 + (int)strlen(at), 4 + (int)strlen(at), rep->fm[k].text);
	}
}

void
report_print(struct report *rep, FILE *out)
{
	print_heading(rep, out);
	print_gaps(rep, out);
	if (rep->samples == 0)
		return;
	print_psi(rep, out);
	print_counters(rep, out);
	print_zones(rep, out);
	print_tasks(rep, out);
	report_probes_print(rep, out);
	print_kernel_log(rep, out);
	print_events(rep, out);
	print_marks(rep, out);
}
