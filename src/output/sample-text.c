#include "output/sample-text.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "model/counters.h"
#include "model/frag.h"
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

	if (stack < 0 || stack >= t->n_stacks) {
		snprintf(dst, size, "%s", t->stack_err ? "not readable (needs root)" : "not read");
		return;
	}
	if (t->stacks[stack].n == 0) {
		snprintf(dst, size, "empty");
		return;
	}
	fr = &t->stacks[stack].f[0];
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
