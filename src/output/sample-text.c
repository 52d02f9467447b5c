#include "output/sample-text.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "model/counters.h"
#include "model/frag.h"
#include "model/probe-derive.h"
#include "model/taskgroups.h"
#include "util/fmt.h"
#include "util/text.h"

/* Names from the machine or a file, escaped for a terminal (text_escape):
 * a task's name, a zone's, a kernel log line. */
#define ESC(buf, str)	text_esc(buf, sizeof(buf), str)
typedef char esc_name[TEXT_ESCAPED_SIZE(NAME_LEN)];

static void
print_thousandths(FILE *f, int v)
{
	fprintf(f, " %s%d.%03d", v < 0 ? "-" : " ", (v < 0 ? -v : v) / 1000,
		(v < 0 ? -v : v) % 1000);
}

static void
text_memory(FILE *f, const struct sample *s)
{
	static const char *const keys[] = {
		"MemTotal", "MemFree", "MemAvailable", "Cached", "Dirty", "Writeback",
		"AnonPages", "Shmem", "SwapTotal", "SwapFree", NULL
	};
	char h[32];
	int col = 0;

	fprintf(f, "Memory\n");
	for (int i = 0; keys[i]; i++) {
		uint64_t v;

		if (!meminfo_get(&s->mem, keys[i], &v))
			continue;
		fmt_kib(v, h, sizeof(h));
		fprintf(f, "%s%-13s %7s", col == 0 ? "  " : "   ", keys[i], h);
		if (++col == 3) {
			fputc('\n', f);
			col = 0;
		}
	}
	if (col)
		fputc('\n', f);
	fputc('\n', f);
}

static void
text_psi(FILE *f, const struct sample *s)
{
	static const char *const names[PSI_COUNT] = { "cpu", "memory", "io", "irq" };
	bool any = false;

	for (int r = 0; r < PSI_COUNT; r++)
		any |= sample_has(s, SRC_PSI_CPU + r);
	if (!any)
		return;
	fprintf(f, "Pressure stall (%%)      avg10   avg60  avg300   total (s)\n");
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_line *lines[2] = { &s->psi[r].some, &s->psi[r].full };

		if (!sample_has(s, SRC_PSI_CPU + r))
			continue;
		for (int k = 0; k < 2; k++) {
			const struct psi_line *l = lines[k];

			if (!l->present)
				continue;
			fprintf(f, "  %-7s %-4s      %4u.%02u %4u.%02u %4u.%02u %11.1f\n", names[r],
				k ? "full" : "some", l->avg10 / 100, l->avg10 % 100, l->avg60 / 100,
				l->avg60 % 100, l->avg300 / 100, l->avg300 % 100,
				(double)l->total / 1e6);
		}
	}
	fputc('\n', f);
}

static void
text_buddyinfo(FILE *f, const struct sample *s, int pb_order)
{
	const struct buddyinfo *bi = &s->buddy;
	esc_name ez;

	fprintf(f, "Free blocks per order (buddyinfo)\n  %-16s", "node zone");
	for (int o = 0; o < bi->n_orders; o++)
		fprintf(f, " %7d", o);
	fprintf(f, "\n");
	for (int z = 0; z < bi->n_zones; z++) {
		fprintf(f, "  %-4d %-11s", bi->zones[z].node, ESC(ez, bi->zones[z].zone));
		for (int o = 0; o < bi->n_orders; o++)
			fprintf(f, " %7" PRIu64, bi->zones[z].free[o]);
		fputc('\n', f);
	}
	fprintf(f, "\nFragmentation (the kernel's extfrag indices)\n");
	fprintf(f, "  %-16s %9s %8s %8s %8s\n", "node zone", "free MiB", "highest", "unus@2",
		"unus@3");
	for (int z = 0; z < bi->n_zones; z++) {
		struct frag fr;

		frag_compute(bi->zones[z].free, bi->n_orders, &fr);
		fprintf(f, "  %-4d %-11s %9.1f %8d", bi->zones[z].node, ESC(ez, bi->zones[z].zone),
			(double)fr.free_pages * (double)s->page_size / (1 << 20), fr.highest_free_order);
		print_thousandths(f, fr.n_orders > 2 ? fr.unusable[2] : 0);
		print_thousandths(f, fr.n_orders > 3 ? fr.unusable[3] : 0);
		if (pb_order > 0 && pb_order < fr.n_orders) {
			fprintf(f, "   unusable@%d", pb_order);
			print_thousandths(f, fr.unusable[pb_order]);
		}
		fputc('\n', f);
	}
	fprintf(f, "\n  %-16s", "unusable index");
	for (int o = 0; o < bi->n_orders; o++)
		fprintf(f, " %6d", o);
	fputc('\n', f);
	for (int z = 0; z < bi->n_zones; z++) {
		struct frag fr;

		frag_compute(bi->zones[z].free, bi->n_orders, &fr);
		fprintf(f, "  %-4d %-11s", bi->zones[z].node, ESC(ez, bi->zones[z].zone));
		for (int o = 0; o < fr.n_orders; o++)
			print_thousandths(f, fr.unusable[o]);
		fprintf(f, "\n  %-16s", "  extfrag index");
		for (int o = 0; o < fr.n_orders; o++)
			print_thousandths(f, fr.extfrag[o]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void
text_zones(FILE *f, const struct zoneinfo *zi)
{
	esc_name ez;

	fprintf(f, "Zone watermarks (pages)\n  %-16s %11s %10s %10s %10s %11s\n", "node zone",
		"free", "min", "low", "high", "managed");
	for (int z = 0; z < zi->n_zones; z++) {
		const struct zoneinfo_zone *zz = &zi->zones[z];

		if (!(zz->has & (1u << ZI_FREE)))
			continue;	/* an empty zone: nothing to show */
		fprintf(f, "  %-4d %-11s %11" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %11" PRIu64 "\n", zz->node, ESC(ez, zz->zone), zz->v[ZI_FREE], zz->v[ZI_MIN],
			zz->v[ZI_LOW], zz->v[ZI_HIGH], zz->v[ZI_MANAGED]);
	}
	fputc('\n', f);
}

static void
text_pagetypeinfo(FILE *f, const struct pagetypeinfo *pti)
{
	esc_name ez, et;

	fprintf(f, "Free blocks per migratetype (pagetypeinfo)");
	if (pti->pageblock_order >= 0)
		fprintf(f, ", pageblock order %d (%" PRIu64 " pages)", pti->pageblock_order,
			pti->pages_per_block);
	fprintf(f, "\n  %-28s", "node zone type");
	for (int o = 0; o < pti->n_orders; o++)
		fprintf(f, " %7d", o);
	fputc('\n', f);
	for (int r = 0; r < pti->n_free; r++) {
		const struct pagetypeinfo_free *row = &pti->free[r];

		fprintf(f, "  %-4d %-11s %-11s", row->node, ESC(ez, row->zone),
			ESC(et, pti->types[row->type]));
		for (int o = 0; o < pti->n_orders; o++)
			fprintf(f, " %s%6u", (row->capped >> o) & 1 ? ">" : " ", row->free[o]);
		fputc('\n', f);
	}
	fprintf(f, "\nPageblocks per migratetype\n  %-16s", "node zone");
	for (int t = 0; t < pti->n_types; t++)
		fprintf(f, " %12s", ESC(et, pti->types[t]));
	fputc('\n', f);
	for (int r = 0; r < pti->n_blocks; r++) {
		fprintf(f, "  %-4d %-11s", pti->blocks[r].node, ESC(ez, pti->blocks[r].zone));
		for (int t = 0; t < pti->n_types; t++)
			fprintf(f, " %12" PRIu64, pti->blocks[r].count[t]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void
text_reclaim(FILE *f, const struct vmstat *vm)
{
	struct counters c;
	int col = 0;

	counters_from_vmstat(vm, &c);
	fprintf(f, "Reclaim and compaction (cumulative since boot)\n");
	for (int i = 0; i < CTR_COUNT; i++) {
		if (!counter_valid(&c, i))
			continue;
		fprintf(f, "  %-29s %13" PRIu64, counter_name(i), c.v[i]);
		if (++col == 2) {
			fputc('\n', f);
			col = 0;
		}
	}
	if (col)
		fputc('\n', f);
	fputc('\n', f);
}

/* The kernel log events of the sample: time, kind, what the kernel said. */
static void
text_events(FILE *f, const struct sample *s)
{
	char when[16], brief[160], shown[TEXT_ESCAPED_SIZE(KMSG_TEXT_MAX)];

	fprintf(f, "Kernel log events\n");
	for (int i = 0; i < s->kmsg.n && i < KMSG_MAX_EVENTS; i++) {
		const struct kmsg_event *ev = &s->kmsg.ev[i];
		time_t t = (time_t)kmsg_event_wall(ev, s->wall, s->mono);
		struct tm tm;

		strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&t, &tm));
		kmsg_event_brief(ev, brief, sizeof(brief));
		fprintf(f, "  %s  %-13s  %s\n", when, kmsg_kind_name(ev->kind),
			ESC(shown, brief));
		text_escape(shown, sizeof(shown), ev->text, kmsg_event_first_line(ev));
		fprintf(f, "            %s\n", shown);
	}
	if (s->kmsg.lost || s->kmsg.dropped)
		fprintf(f, "  %u records lost, %u events not kept\n", s->kmsg.lost, s->kmsg.dropped);
	fputc('\n', f);
}

/* The task's stack top (the group's, as the JSON gives the stack): its
 * first frame, or why there is none. */
static void
text_stack_top(const struct tasks *t, int stack, char *dst, size_t size)
{
	char ef[TEXT_ESCAPED_SIZE(STACK_FUNC_LEN)], em[TEXT_ESCAPED_SIZE(STACK_MODULE_LEN)];
	const struct stack_frame *fr;
	struct stack sc;

	if (stack < 0 || stack >= t->n_stacks) {
		snprintf(dst, size, "%s", t->stack_err ? "not readable (needs root)" : "not read");
		return;
	}
	if (tasks_stack(t, stack, &sc)->n == 0) {
		snprintf(dst, size, "empty");
		return;
	}
	fr = &sc.f[0];
	snprintf(dst, size, "%s%s%s%s", ESC(ef, fr->func), fr->module[0] ? " [" : "",
		 ESC(em, fr->module), fr->module[0] ? "]" : "");
}

/* The blocked tasks, a line each, with what the JSON gives: tid, name,
 * state, how long, why (the group's wait reason, else the wchan) and the
 * stack top. */
static void
text_blocked(FILE *f, const struct tasks *t, const struct task_groups *groups, double now)
{
	char ec[TEXT_ESCAPED_SIZE(sizeof(t->b[0].comm))];
	char ew[TEXT_ESCAPED_SIZE(sizeof(t->b[0].wchan))];
	char er[TEXT_ESCAPED_SIZE(REASON_TEXT_LEN)], top[200], blocked[32];

	fprintf(f, "  Blocked tasks%s\n  %7s  %-16s %-5s %10s  %s\n",
		t->truncated ? " (more than could be listed)" : "", "tid", "name", "state",
		"blocked", "why; wchan; stack top");
	for (int i = 0; i < t->n_blocked; i++) {
		const struct blocked_task *b = &t->b[i];
		const struct task_group *g = groups && i < groups->n_tasks ?
		    &groups->g[groups->of_task[i]] : NULL;

		snprintf(blocked, sizeof(blocked), "%s%.1f s", b->since_start ? ">= " : "",
			 task_blocked_for(t, i, now));
		text_stack_top(t, g && g->stack >= 0 ? g->stack : b->stack, top, sizeof(top));
		fprintf(f, "  %7d  %-16s %-5c %10s  %s%s%s; wchan %s; %s\n", b->tid, ESC(ec, b->comm),
			b->state, blocked, g ? wait_category_name(g->category) : "",
			g ? ": " : "", g ? ESC(er, g->reason) : "no reason (no wait-reason table)",
			b->wchan[0] ? ESC(ew, b->wchan) : "-", top);
	}
}

/* Threads by state letter, and the scan's note: a scan cut short by a
 * descriptor limit or a root it cannot list says so here. */
static void
text_tasks(FILE *f, const struct tasks *t, const struct task_groups *groups, double now)
{
	char note[TEXT_ESCAPED_SIZE(sizeof(t->note))];

	fprintf(f, "Tasks\n  %u threads:", t->total);
	for (int c = 'A'; c <= 'z'; c++)
		if (t->by_state[c])
			fprintf(f, " %c %u", c, t->by_state[c]);
	fputc('\n', f);
	if (t->note[0])
		fprintf(f, "  %s\n", ESC(note, t->note));
	if (t->n_blocked > 0)
		text_blocked(f, t, groups, now);
	fputc('\n', f);
}

void
sample_text(FILE *f, const struct sample *s, const struct task_groups *groups, const char *root)
{
	char when[64], why[200], shown[TEXT_ESCAPED_SIZE(200)];
	time_t t = (time_t)s->wall;
	struct tm tm;
	bool any_missing = false;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", localtime_r(&t, &tm));
	fprintf(f, "pagetop snapshot of %s at %s\n\n", ESC(shown, root), when);
	if (sample_has(s, SRC_MEMINFO))
		text_memory(f, s);
	text_psi(f, s);
	if (sample_has(s, SRC_BUDDYINFO))
		text_buddyinfo(f, s,
		    sample_has(s, SRC_PAGETYPEINFO) ? s->pti.pageblock_order : -1);
	if (sample_has(s, SRC_ZONEINFO))
		text_zones(f, &s->zi);
	if (sample_has(s, SRC_PAGETYPEINFO))
		text_pagetypeinfo(f, &s->pti);
	if (sample_has(s, SRC_VMSTAT))
		text_reclaim(f, &s->vm);
	/* A snapshot of /dev/kmsg has none: only what comes after the start. */
	if (s->kmsg.read && !s->kmsg.err && (s->kmsg.n || s->kmsg.lost || s->kmsg.dropped))
		text_events(f, s);
	sample_text_capture(f, s);
	if (sample_has(s, SRC_TASKS))
		text_tasks(f, &s->tasks, groups, s->mono);
	for (int i = 0; i < SRC_COUNT; i++) {
		if (sample_has(s, i) || s->status[i].err == SRC_NOT_READ)
			continue;
		if (!any_missing)
			fprintf(f, "Unavailable\n");
		any_missing = true;
		source_reason(&s->status[i], why, sizeof(why));
		fprintf(f, "  %-16s %s\n", source_name(i), ESC(shown, why));
	}
	if (s->kmsg.read && s->kmsg.err) {
		if (!any_missing)
			fprintf(f, "Unavailable\n");
		kmsg_reason(s->kmsg.err, why, sizeof(why));
		fprintf(f, "  %-16s %s\n", "kmsg", ESC(shown, why));
	}
}

/* A latency in ns as us, ms or s, three figures. */
void
sample_text_ns(uint64_t ns, char *dst, size_t size)
{
	double v = (double)ns;

	if (ns < 1000000)
		snprintf(dst, size, "%.0f us", v / 1e3);
	else if (ns < 1000000000)
		snprintf(dst, size, "%.*f ms", ns < 10000000 ? 2 : 1, v / 1e6);
	else
		snprintf(dst, size, "%.2f s", v / 1e9);
}

/* The kernel's name of migratetype m, from the sample's pagetypeinfo. */
static const char *
text_mtype(const struct sample *s, int m, char *dst, size_t size)
{
	if (sample_has(s, SRC_PAGETYPEINFO) && m < s->pti.n_types)
		text_escape(dst, size, s->pti.types[m], strnlen(s->pti.types[m], NAME_LEN));
	else
		snprintf(dst, size, "type %d", m);
	return dst;
}

static void
text_probe_line(FILE *f, const char *what, const struct probe_tick_hist *h, double dt)
{
	char tot[24], p50[24], p99[24], mx[24];

	sample_text_ns(h->sum_ns, tot, sizeof(tot));
	sample_text_ns(h->p50_ns, p50, sizeof(p50));
	sample_text_ns(h->p99_ns, p99, sizeof(p99));
	if (h->max_ns)
		sample_text_ns(h->max_ns, mx, sizeof(mx));
	else
		snprintf(mx, sizeof(mx), "-");
	fprintf(f, "  %-10s %8" PRIu64 " %8.1f %10s %10s %10s %10s\n", what, h->count,
		dt > 0 ? (double)h->count / dt : 0, tot, h->count ? p50 : "-",
		h->count ? p99 : "-", h->count ? mx : "-");
}

static void
text_probe_tasks(FILE *f, const struct probes *p)
{
	char tot[24], mx[24], kinds[32];
	esc_name comm;

	fprintf(f, "  stalled tasks this tick (%d):\n", p->n_tasks);
	if (p->n_tasks)
		fprintf(f, "    %8s %-16s %-20s %6s %10s %10s\n", "tid", "comm", "in", "count",
			"total", "max");
	for (int i = 0; i < p->n_tasks && i < PROBE_TOP_TASKS; i++) {
		const struct probe_task *t = &p->task[i];

		probe_stall_kinds_text(t->kinds, kinds, sizeof(kinds));
		sample_text_ns(t->total_ns, tot, sizeof(tot));
		sample_text_ns(t->max_ns, mx, sizeof(mx));
		fprintf(f, "    %8d %-16s %-20s %6u %10s %10s\n", (int)t->tid,
			text_esc(comm, sizeof(comm), t->comm), kinds, (unsigned)t->count, tot, mx);
	}
	fprintf(f, "  D stacks this tick (%d):\n", p->n_dstacks);
	for (int i = 0; i < p->n_dstacks && i < PROBE_TOP_STACKS; i++) {
		const struct probe_dstack *d = &p->dstack[i];
		char fn[TEXT_ESCAPED_SIZE(STACK_FUNC_LEN)];

		sample_text_ns(d->total_ns, tot, sizeof(tot));
		sample_text_ns(d->max_ns, mx, sizeof(mx));
		fprintf(f, "    %u episodes, total %s, max %s; last %d %s\n", (unsigned)d->count, tot,
			mx, (int)d->last_tid, text_esc(comm, sizeof(comm), d->last_comm));
		if (d->stack.n == 0)
			fprintf(f, "      (stack not known)\n");
		for (int k = 0; k < d->stack.n && k < PROBE_STACK_FRAMES; k++)
			fprintf(f, "      %s\n", text_esc(fn, sizeof(fn), d->stack.func[k]));
	}
}

void
sample_text_probes(FILE *f, const struct sample *s, const struct sample *prev)
{
	const struct probes *p = &s->probes;
	static struct probe_tick t;	/* 8 KB of fallbacks: not on the stack */
	char why[TEXT_ESCAPED_SIZE(sizeof(p->why))], a[24], b[24], ma[NAME_LEN * 4 + 1];
	char mb[NAME_LEN * 4 + 1];
	double dt = prev ? s->mono - prev->mono : 0;
	/* Another epoch than any: the figures since the probes attached. In
	 * .bss, set here: as an initialised const it was 30 KB of .rodata,
	 * resident with the rest of the binary. */
	static struct probes since_attach;
	uint64_t n;

	if (p->state == PROBES_NONE) {
		fprintf(f, "probes: not in this sample (not asked for, or recorded without)\n");
		return;
	}
	ESC(why, p->why);
	if (p->state == PROBES_UNAVAILABLE) {
		fprintf(f, "probes: unavailable: %s\n", why);
		return;
	}
	fprintf(f, "probes: on%s%s\n", p->why[0] ? "; " : "", why);
	probe_tick(prev ? &prev->probes : NULL, p, &t);
	if (t.state == PTICK_FIRST) {
		fprintf(f, "  the first sample with probes: no tick to show; since they attached:\n");
		since_attach.state = PROBES_ON;
		since_attach.epoch = UINT64_MAX;
		probe_tick(&since_attach, p, &t);
		dt = 0;
	} else {
		fprintf(f, "  over %.2f s%s\n", dt, t.state == PTICK_RESET ?
			" (the probes reattached: counts since then)" : "");
	}
	fprintf(f, "  %-10s %8s %8s %10s %10s %10s %10s\n", "stall", "count", "/s", "total",
		"p50", "p99", "max");
	for (int k = 0; k < STALL_KIND_COUNT; k++)
		text_probe_line(f, probe_stall_name(k), &t.stall[k], dt);
	text_probe_line(f, "D sleeps", &t.dsleep, dt);
	if (t.dsleep_lost)
		fprintf(f, "  D sleeps not counted (maps full): %" PRIu64 "\n", t.dsleep_lost);
	fprintf(f, "  compaction runs:");
	n = 0;
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		if (t.compact_result[r]) {
			fprintf(f, " %s %" PRIu64, probe_compact_result_name(r), t.compact_result[r]);
			n++;
		}
	fprintf(f, "%s\n", n ? "" : " none");
	fprintf(f, "  throttled:");
	n = 0;
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++)
		if (t.throttle_count[r]) {
			sample_text_ns(t.throttle_us[r] * 1000, a, sizeof(a));
			fprintf(f, " %s %" PRIu64 " (%s)", probe_throttle_name(r),
				t.throttle_count[r], a);
			n++;
		}
	fprintf(f, "%s\n", n ? "" : " none");
	fprintf(f, "  fallbacks: %" PRIu64 " (fragmenting %" PRIu64 ", owner changed %" PRIu64
		")\n", t.fallback_total, t.fallback_fragmenting, t.fallback_owner);
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int x = 0; x < PROBE_MIGRATETYPES; x++)
			for (int y = 0; y < PROBE_MIGRATETYPES; y++)
				if (t.fallback[o][x][y])
					fprintf(f, "    order %2d  %s -> %s  %" PRIu64 "\n", o,
						text_mtype(s, x, ma, sizeof(ma)),
						text_mtype(s, y, mb, sizeof(mb)), t.fallback[o][x][y]);
	sample_text_ns(t.kswapd_awake_ns, a, sizeof(a));
	sample_text_ns(t.kcompactd_awake_ns, b, sizeof(b));
	fprintf(f, "  kswapd: %" PRIu64 " wakes, awake %s; kcompactd: %" PRIu64
		" wakes, awake %s\n", t.kswapd_wakes, a, t.kcompactd_wakes, b);
	fprintf(f, "  written by reclaim: %" PRIu64 " folios\n", t.reclaim_writes);
	text_probe_tasks(f, p);
}
