/*
 * The report's "Kernel probes" section: stalls by kind (count, total,
 * rate, the worst tick), the tasks that stalled longest, throttling,
 * fallbacks, compaction by result and the D sleeps by stack, over the
 * window. Every figure is a sum of ticks from probe_tick(), so a reattach
 * inside the window (a new epoch) adds its segments rather than going back.
 */
#include "output/report-int.h"
#include "output/sample-text.h"

#include <stdio.h>
#include <string.h>

#include "util/text.h"

#define TASKS_SHOWN	8
#define STACKS_SHOWN	6
#define PAIRS_SHOWN	5

static void
acc_task(struct probe_acc *a, const struct probe_task *t)
{
	struct probe_task_acc *e = NULL;

	for (int i = 0; i < a->n_tasks; i++)
		if (a->task[i].tid == t->tid &&
		    strncmp(a->task[i].comm, t->comm, sizeof(t->comm)) == 0) {
			e = &a->task[i];
			break;
		}
	if (!e) {
		if (a->n_tasks == PROBE_ACC_TASKS) {
			a->tasks_rest += t->count;
			return;
		}
		e = &a->task[a->n_tasks++];
		memset(e, 0, sizeof(*e));
		e->tid = t->tid;
		memcpy(e->comm, t->comm, sizeof(e->comm));
		e->comm[sizeof(e->comm) - 1] = '\0';
	}
	e->kinds |= t->kinds;
	e->count += t->count;
	e->total_ns += t->total_ns;
	if (t->max_ns > e->max_ns)
		e->max_ns = t->max_ns;
}

static bool
same_stack(const struct probe_stack_acc *e, const struct probe_dstack *d, int n)
{
	if (e->n != n)
		return false;
	for (int f = 0; f < n; f++)
		if (strncmp(e->func[f], d->stack.func[f], STACK_FUNC_LEN) != 0)
			return false;
	return true;
}

static void
acc_stack(struct probe_acc *a, const struct probe_dstack *d)
{
	int n = d->stack.n < 0 ? 0 : d->stack.n > PROBE_STACK_FRAMES ? PROBE_STACK_FRAMES :
	    d->stack.n;
	struct probe_stack_acc *e = NULL;

	for (int i = 0; i < a->n_stacks && !e; i++)
		if (same_stack(&a->stack[i], d, n))
			e = &a->stack[i];
	if (!e) {
		if (a->n_stacks == PROBE_ACC_STACKS) {
			a->stacks_rest += d->count;
			return;
		}
		e = &a->stack[a->n_stacks++];
		memset(e, 0, sizeof(*e));
		e->n = n;
		for (int f = 0; f < n; f++) {
			memcpy(e->func[f], d->stack.func[f], STACK_FUNC_LEN);
			e->func[f][STACK_FUNC_LEN - 1] = '\0';
		}
	}
	e->count += d->count;
	e->total_ns += d->total_ns;
	if (d->max_ns > e->max_ns)
		e->max_ns = d->max_ns;
}

static void
acc_types(struct probe_acc *a, const struct sample *s)
{
	if (!sample_has(s, SRC_PAGETYPEINFO))
		return;
	a->n_types = s->pti.n_types < PROBE_MIGRATETYPES ? s->pti.n_types : PROBE_MIGRATETYPES;
	for (int t = 0; t < a->n_types; t++)
		snprintf(a->types[t], sizeof(a->types[t]), "%s", s->pti.types[t]);
}

void
report_probes_add(struct report *rep, const struct sample *prev, const struct sample *cur)
{
	struct probe_acc *a = &rep->probes;
	struct probe_tick *t = &rep->ptick;
	const struct probes *p = &cur->probes;

	acc_types(a, cur);
	if (p->state == PROBES_UNAVAILABLE) {
		a->unavailable++;
		snprintf(a->why, sizeof(a->why), "%s", p->why);
		return;
	}
	if (p->state != PROBES_ON)
		return;
	a->on++;
	a->missing = p->missing;
	a->dsleep_min_ns = p->dsleep_min_ns;
	/* The first sample of the window (or after damage) starts it: its
	 * figures are those of the time before. */
	probe_tick(prev ? &prev->probes : NULL, p, t);
	if (t->state != PTICK_OK && t->state != PTICK_RESET)
		return;
	a->ticks++;
	a->resets += t->state == PTICK_RESET;
	a->over += cur->wall - prev->wall;
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		struct probe_kind_acc *ka = &a->kind[k];
		const struct probe_tick_hist *h = &t->stall[k];

		ka->count += h->count;
		ka->sum_ns += h->sum_ns;
		if (h->count && h->sum_ns > ka->worst_ns) {
			ka->worst_ns = h->sum_ns;
			ka->worst_at = cur->wall;
			ka->worst_p99 = h->p99_ns;
			ka->worst_max = h->max_ns;
		}
	}
	for (int r = 0; r < THROTTLE_REASON_COUNT; r++) {
		a->throttle_count[r] += t->throttle_count[r];
		a->throttle_us[r] += t->throttle_us[r];
	}
	for (int o = 0; o < PROBE_ORDERS; o++)
		for (int m = 0; m < PROBE_MIGRATETYPES; m++)
			for (int n = 0; n < PROBE_MIGRATETYPES; n++)
				a->fallback[o][m][n] += t->fallback[o][m][n];
	a->fallback_total += t->fallback_total;
	a->fallback_fragmenting += t->fallback_fragmenting;
	a->fallback_owner += t->fallback_owner;
	for (int r = 0; r < COMPACT_R_COUNT; r++)
		a->compact_result[r] += t->compact_result[r];
	a->kswapd_awake_ns += t->kswapd_awake_ns;
	a->kcompactd_awake_ns += t->kcompactd_awake_ns;
	a->reclaim_writes += t->reclaim_writes;
	a->dsleep_count += t->dsleep.count;
	a->dsleep_ns += t->dsleep.sum_ns;
	a->dsleep_lost += t->dsleep_lost;
	for (int i = 0; i < p->n_tasks && i < PROBE_TOP_TASKS; i++)
		acc_task(a, &p->task[i]);
	for (int i = 0; i < p->n_dstacks && i < PROBE_TOP_STACKS; i++)
		acc_stack(a, &p->dstack[i]);
}

/* ---- printing ---- */

static const char *
ns_text(uint64_t ns, char *dst, size_t size)
{
	sample_text_ns(ns, dst, size);
	return dst;
}

/* The index of the largest of n totals not yet taken (bit in *taken). */
static int
next_largest(const uint64_t *v, size_t stride, int n, uint64_t *taken)
{
	int best = -1;

	for (int i = 0; i < n && i < 64; i++) {
		uint64_t x = *(const uint64_t *)((const char *)v + (size_t)i * stride);

		if (!(*taken & (1ull << i)) && x && (best < 0 ||
		    x > *(const uint64_t *)((const char *)v + (size_t)best * stride)))
			best = i;
	}
	if (best >= 0)
		*taken |= 1ull << best;
	return best;
}

static void
print_kinds(const struct report *rep, FILE *out)
{
	const struct probe_acc *a = &rep->probes;
	char tot[24], p99[24], max[24], at[24];

	fprintf(out, "  %-8s %8s %10s %8s  %-12s %9s %9s\n", "stalls", "count", "total",
		"per s", "worst tick", "its p99", "its max");
	for (int k = 0; k < STALL_KIND_COUNT; k++) {
		const struct probe_kind_acc *ka = &a->kind[k];

		if (ka->count == 0) {
			fprintf(out, "  %-8s %8s\n", probe_stall_name(k), "0");
			continue;
		}
		report_fmt_when(rep, ka->worst_at, at, sizeof(at));
		fprintf(out, "  %-8s %8llu %10s %8.1f  %-12s %9s %9s\n", probe_stall_name(k),
			(unsigned long long)ka->count, ns_text(ka->sum_ns, tot, sizeof(tot)),
			a->over > 0 ? (double)ka->count / a->over : 0, at,
			ns_text(ka->worst_p99, p99, sizeof(p99)),
			ka->worst_max ? ns_text(ka->worst_max, max, sizeof(max)) : "?");
	}
}

static void
print_tasks(const struct probe_acc *a, FILE *out)
{
	char comm[TEXT_ESCAPED_SIZE(16)], tot[24], max[24], kinds[32];
	uint64_t taken = 0;
	int i;

	if (a->n_tasks == 0)
		return;
	fprintf(out, "  Tasks that stalled longest:\n");
	fprintf(out, "  %8s  %-16s %7s %10s %10s  %s\n", "tid", "command", "stalls", "total",
		"max", "in");
	for (int shown = 0; shown < TASKS_SHOWN &&
	     (i = next_largest(&a->task[0].total_ns, sizeof(a->task[0]), a->n_tasks, &taken)) >= 0;
	     shown++) {
		const struct probe_task_acc *t = &a->task[i];

		probe_stall_kinds_text(t->kinds, kinds, sizeof(kinds));
		text_esc(comm, sizeof(comm), t->comm);
		fprintf(out, "  %8d  %-16.16s %7llu %10s %10s  %s\n", t->tid, comm,
			(unsigned long long)t->count, ns_text(t->total_ns, tot, sizeof(tot)),
			ns_text(t->max_ns, max, sizeof(max)), kinds);
	}
	if (a->n_tasks > TASKS_SHOWN || a->tasks_rest)
		fprintf(out, "  and %d more task%s\n", a->n_tasks - TASKS_SHOWN > 0 ?
			a->n_tasks - TASKS_SHOWN : 0, a->n_tasks - TASKS_SHOWN == 1 ? "" : "s");
}

static void
print_throttle(const struct probe_acc *a, FILE *out)
{
	char line[256], t[24];
	int len = snprintf(line, sizeof(line), "  Throttled:");
	bool any = false;

	for (int r = 0; r < THROTTLE_REASON_COUNT && len < (int)sizeof(line); r++) {
		if (!a->throttle_count[r])
			continue;
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s %s %llu (%s)",
				any ? "," : "", probe_throttle_name(r),
				(unsigned long long)a->throttle_count[r],
				ns_text(a->throttle_us[r] * 1000, t, sizeof(t)));
		any = true;
	}
	fprintf(out, "%s\n", any ? line : "  Throttled: never");
}

static const char *
mtype(const struct probe_acc *a, int t, char *dst, size_t size)
{
	if (t < a->n_types)
		text_esc(dst, size, a->types[t]);
	else
		snprintf(dst, size, "type %d", t);
	return dst;
}

static void
print_fallbacks(const struct probe_acc *a, FILE *out)
{
	char asked[TEXT_ESCAPED_SIZE(NAME_LEN)], taken[TEXT_ESCAPED_SIZE(NAME_LEN)];
	uint64_t shown_max = UINT64_MAX;

	if (a->fallback_total == 0) {
		fprintf(out, "  Fallbacks to another migratetype: none\n");
		return;
	}
	fprintf(out, "  Fallbacks: %llu, %llu fragmenting (%.0f%%), %llu changed a block's "
		"owner\n", (unsigned long long)a->fallback_total,
		(unsigned long long)a->fallback_fragmenting,
		100.0 * (double)a->fallback_fragmenting / (double)a->fallback_total,
		(unsigned long long)a->fallback_owner);
	/* The largest pairs, without a table of them: each pass finds the
	 * largest below the last one's (ties by position). */
	for (int shown = 0, last = -1; shown < PAIRS_SHOWN; shown++) {
		int best = -1, lo = 0, bo = 0;
		uint64_t bv = 0;

		for (int o = 0; o < PROBE_ORDERS; o++)
			for (int m = 0; m < PROBE_MIGRATETYPES * PROBE_MIGRATETYPES; m++) {
				uint64_t v = a->fallback[o][m / PROBE_MIGRATETYPES]
				    [m % PROBE_MIGRATETYPES];
				int at = o * 64 + m;

				if (!v || v > shown_max || (v == shown_max && at <= last))
					continue;
				if (best < 0 || v > bv) {
					best = at;
					bv = v;
					lo = o;
					bo = m;
				}
			}
		if (best < 0)
			break;
		fprintf(out, "    order %2d  %-12s -> %-12s %10llu\n", lo,
			mtype(a, bo / PROBE_MIGRATETYPES, asked, sizeof(asked)),
			mtype(a, bo % PROBE_MIGRATETYPES, taken, sizeof(taken)),
			(unsigned long long)bv);
		shown_max = bv;
		last = best;
	}
}

static void
print_compaction(const struct probe_acc *a, FILE *out)
{
	char line[400];
	int len = snprintf(line, sizeof(line), "  Compaction runs:");
	bool any = false;

	for (int r = 0; r < COMPACT_R_COUNT && len < (int)sizeof(line); r++) {
		if (!a->compact_result[r])
			continue;
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s %s %llu",
				any ? "," : "", probe_compact_result_name(r),
				(unsigned long long)a->compact_result[r]);
		any = true;
	}
	if (!any) {
		fprintf(out, "  Compaction runs: none\n");
		return;
	}
	/* Wrapped at commas, under the first result. */
	for (char *s = line, *cut; *s; s = cut) {
		size_t room = REPORT_COLUMNS - (s == line ? 0 : 4);

		if (strlen(s) <= room) {
			fprintf(out, "%s%s\n", s == line ? "" : "    ", s);
			break;
		}
		cut = s + room;
		while (cut > s && *cut != ' ')
			cut--;
		if (cut == s)
			cut = s + room;
		fprintf(out, "%s%.*s\n", s == line ? "" : "    ", (int)(cut - s), s);
		while (*cut == ' ')
			cut++;
	}
}

/* A stack's frames after the scheduler's own, innermost first, as many as
 * fit in width. */
static void
stack_text(const struct probe_stack_acc *e, char *dst, size_t width)
{
	char f[TEXT_ESCAPED_SIZE(STACK_FUNC_LEN)];
	size_t n = 0;
	int i = 0;

	while (i < e->n - 1 && (strstr(e->func[i], "schedule") || strcmp(e->func[i], "") == 0))
		i++;
	dst[0] = '\0';
	if (e->n == 0) {
		snprintf(dst, width + 1, "(stack not known)");
		return;
	}
	for (; i < e->n; i++) {
		size_t len;

		text_esc(f, sizeof(f), e->func[i]);
		len = strlen(f);
		if (n + (n ? 3 : 0) + len > width)
			break;
		n += (size_t)snprintf(dst + n, width + 1 - n, "%s%s", n ? " < " : "", f);
	}
	if (n == 0)
		snprintf(dst, width + 1, "%.*s", (int)width, f);
}

static void
print_dsleep(const struct probe_acc *a, FILE *out)
{
	char tot[24], max[24], min[24], frames[REPORT_COLUMNS + 1];
	uint64_t taken = 0;
	int i;

	fprintf(out, "  D sleeps of %s or more: %llu, %s in all%s\n",
		ns_text(a->dsleep_min_ns, min, sizeof(min)), (unsigned long long)a->dsleep_count,
		ns_text(a->dsleep_ns, tot, sizeof(tot)), a->dsleep_lost ? " (some lost)" : "");
	if (a->n_stacks == 0)
		return;
	fprintf(out, "  %7s %10s %10s  %s\n", "count", "total", "max", "stack (innermost first)");
	for (int shown = 0; shown < STACKS_SHOWN &&
	     (i = next_largest(&a->stack[0].total_ns, sizeof(a->stack[0]), a->n_stacks,
			       &taken)) >= 0; shown++) {
		const struct probe_stack_acc *e = &a->stack[i];

		stack_text(e, frames, REPORT_COLUMNS - 32);
		fprintf(out, "  %7llu %10s %10s  %s\n", (unsigned long long)e->count,
			ns_text(e->total_ns, tot, sizeof(tot)), ns_text(e->max_ns, max, sizeof(max)),
			frames);
	}
	if (a->n_stacks > STACKS_SHOWN || a->stacks_rest)
		fprintf(out, "  and %d more stack%s\n", a->n_stacks > STACKS_SHOWN ?
			a->n_stacks - STACKS_SHOWN : 0, a->n_stacks - STACKS_SHOWN == 1 ? "" : "s");
}

void
report_probes_print(const struct report *rep, FILE *out)
{
	const struct probe_acc *a = &rep->probes;
	char why[TEXT_ESCAPED_SIZE(sizeof(a->why))], ks[24], kc[24];

	fputc('\n', out);
	if (a->on == 0) {
		if (a->unavailable) {
			text_esc(why, sizeof(why), a->why);
			fprintf(out, "Kernel probes: unavailable: %.*s\n", REPORT_COLUMNS - 28, why);
		} else {
			fprintf(out, "Kernel probes: no kernel probes in this recording\n");
		}
		return;
	}
	fprintf(out, "Kernel probes: %zu tick%s over %.1fs", a->ticks, a->ticks == 1 ? "" : "s",
		a->over);
	if (a->resets)
		fprintf(out, ", reattached %zu time%s", a->resets, a->resets == 1 ? "" : "s");
	if (a->unavailable)
		fprintf(out, ", unavailable in %zu sample%s", a->unavailable,
			a->unavailable == 1 ? "" : "s");
	fputc('\n', out);
	if (a->missing) {
		char line[400];
		int len = snprintf(line, sizeof(line), "not attached:");

		for (int i = 0; i < PROBE_ID_COUNT && len < (int)sizeof(line); i++)
			if (a->missing & (1u << i))
				len += snprintf(line + len, sizeof(line) - (size_t)len, " %s,",
						probe_name(i));
		if (len > 0 && line[len - 1] == ',')
			line[len - 1] = '\0';
		fprintf(out, "  %.*s\n", REPORT_COLUMNS - 2, line);
	}
	print_kinds(rep, out);
	print_tasks(a, out);
	print_throttle(a, out);
	print_fallbacks(a, out);
	print_compaction(a, out);
	fprintf(out, "  kswapd awake %s, kcompactd awake %s, reclaim wrote %llu folios\n",
		ns_text(a->kswapd_awake_ns, ks, sizeof(ks)),
		ns_text(a->kcompactd_awake_ns, kc, sizeof(kc)),
		(unsigned long long)a->reclaim_writes);
	print_dsleep(a, out);
}
