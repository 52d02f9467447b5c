/*
 * Replay's stops. Marks and gaps come from the feed's list, in sample
 * order; the rest is found by decoding the samples in order (cheap) and
 * comparing each with the one before, as stall_events() does for the
 * report. Going back, a window at a time, so that an event close by is
 * found without decoding from the start of a day's recording.
 */
#include "dashboard/replay-events.h"
#include "model/counters.h"
#include "model/reasons.h"
#include "model/stall-events.h"
#include "util/fmt.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Samples searched at a time going back. */
#define EVENT_WINDOW	600
/* New task groups named on the status line. */
#define GROUPS_NAMED	8

static const struct {
	unsigned bit;
	const char *name;
} replay_events_kinds[REPLAY_STOP_KINDS] = {
	{ REPLAY_STOP_MARK, "marks" },
	{ REPLAY_STOP_KMSG, "kernel log" },
	{ REPLAY_STOP_STALL, "stalls" },
	{ REPLAY_STOP_PSI, "PSI" },
	{ REPLAY_STOP_GROUP, "new task groups" },
	{ REPLAY_STOP_GAP, "gaps" },
};

#define SAMPLE_KINDS	(REPLAY_STOP_KMSG | REPLAY_STOP_STALL | REPLAY_STOP_PSI | \
			 REPLAY_STOP_GROUP)

unsigned
replay_events_kind(int k, const char **name)
{
	if (k < 0 || k >= REPLAY_STOP_KINDS)
		return 0;
	if (name)
		*name = replay_events_kinds[k].name;
	return replay_events_kinds[k].bit;
}

/* The kinds in the feed's list (marks, gaps) at sample i. */
static unsigned
replay_events_listed(const struct feed_mark *m, size_t nm, size_t i)
{
	size_t lo = 0, hi = nm;
	unsigned what = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m[mid].sample < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nm && m[lo].sample == i; lo++)
		what |= m[lo].kind == FEED_MARK ? REPLAY_STOP_MARK : REPLAY_STOP_GAP;
	return what;
}

/* The kinds the samples show at cur, after prev. map (NULL: none) spares
 * matching every vmstat name of every sample. */
static unsigned
replay_events_sampled(const struct sample *prev, const struct sample *cur,
		      struct counters_map *map, bool *stalling)
{
	struct counters p, c;
	unsigned ev, what = 0;
	int task;

	if (map) {
		counters_from_vmstat_mapped(&prev->vm, map, &p);
		counters_from_vmstat_mapped(&cur->vm, map, &c);
	} else {
		counters_from_vmstat(&prev->vm, &p);
		counters_from_vmstat(&cur->vm, &c);
	}
	/* Called whatever is asked for: it follows whether stalls go on. */
	ev = stall_events(prev, &p, cur, &c, stalling, &task);
	if (ev & STALL_EV_PSI_MEMORY)
		what |= REPLAY_STOP_PSI;
	if (ev & STALL_EV_RECLAIM)
		what |= REPLAY_STOP_STALL;
	if (ev & STALL_EV_BLOCKED)
		what |= REPLAY_STOP_GROUP;
	if (cur->kmsg.n > 0)
		what |= REPLAY_STOP_KMSG;
	return what;
}

/* Sample i's kinds among kinds, decoded in order after i - 1. */
static unsigned
replay_events_at(struct feed *f, size_t i, unsigned kinds, const struct feed_mark *m,
		 size_t nm, struct counters_map *map, bool *stalling)
{
	unsigned what = replay_events_listed(m, nm, i);

	if ((kinds & SAMPLE_KINDS) && feed_seek(f, i) == 0 && f->tick.prev)
		what |= replay_events_sampled(f->tick.prev, f->tick.s, map, stalling);
	return what & kinds;
}

/* The nearest listed moment of kinds after (dir 1) or before p. */
static size_t
replay_events_nearest_listed(const struct feed_mark *m, size_t nm, size_t p, unsigned kinds,
			     int dir)
{
	size_t best = SIZE_MAX;

	for (size_t k = 0; k < nm; k++) {
		size_t at = m[k].sample;
		unsigned bit = m[k].kind == FEED_MARK ? REPLAY_STOP_MARK : REPLAY_STOP_GAP;

		if (!(kinds & bit))
			continue;
		if (dir > 0 ? at > p && (best == SIZE_MAX || at < best) :
		    at < p && (best == SIZE_MAX || at > best))
			best = at;
	}
	return best;
}

size_t
replay_events_find(struct feed *f, size_t p, size_t n, unsigned kinds, int dir,
		   unsigned *what)
{
	size_t nm, found = SIZE_MAX, best;
	const struct feed_mark *m = feed_marks(f, &nm);
	struct counters_map *map = NULL;
	bool stalling = false;
	unsigned w;

	*what = 0;
	best = replay_events_nearest_listed(m, nm, p, kinds, dir);
	if (!(kinds & SAMPLE_KINDS)) {
		if (best != SIZE_MAX)
			*what = replay_events_listed(m, nm, best) & kinds;
		return best;
	}
	if ((map = malloc(sizeof(*map))))
		counters_map_init(map);
	if (dir > 0) {
		size_t end = best == SIZE_MAX ? n - 1 : best;

		/* Whether stalls went on at p, so that they do not "begin"
		 * again at every n while they last. */
		if (p > 0 && feed_seek(f, p - 1) == 0)
			replay_events_at(f, p, REPLAY_STOP_STALL, m, nm, map, &stalling);
		else
			feed_seek(f, p);
		for (size_t i = p + 1; i <= end && found == SIZE_MAX; i++)
			if ((w = replay_events_at(f, i, kinds, m, nm, map, &stalling))) {
				found = i;
				*what = w;
			}
	} else {
		size_t lower = best == SIZE_MAX ? 1 : best;

		/* Each window is decoded from two samples early: "stalls
		 * beginning" needs whether the sample before stalled. */
		for (size_t hi = p; hi > lower && found == SIZE_MAX;) {
			size_t lo = hi - lower > EVENT_WINDOW ? hi - EVENT_WINDOW : lower;
			size_t start = lo >= 2 ? lo - 2 : 0;

			stalling = false;
			feed_seek(f, start);
			for (size_t i = start + 1; i < hi; i++)
				if ((w = replay_events_at(f, i, kinds, m, nm, map, &stalling)) &&
				    i >= lo) {
					found = i;
					*what = w;
				}
			hi = lo;
		}
	}
	free(map);
	return found;
}

size_t
replay_events_mark(const struct feed *f, size_t p, int dir)
{
	size_t nm;
	const struct feed_mark *m = feed_marks(f, &nm);

	return replay_events_nearest_listed(m, nm, p, REPLAY_STOP_MARK, dir);
}

/* "; " between the parts of a line. */
static void
replay_events_add(char *dst, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
replay_events_add(char *dst, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*len + 1 >= size)
		return;
	if (*len > 0) {
		r = snprintf(dst + *len, size - *len, "; ");
		*len += r > 0 ? (size_t)r : 0;
		if (*len >= size)
			*len = size - 1;
	}
	va_start(ap, fmt);
	r = vsnprintf(dst + *len, size - *len, fmt, ap);
	va_end(ap);
	*len += r > 0 ? (size_t)r : 0;
	if (*len >= size)
		*len = size - 1;
}

/* "N new task groups: journal, writeback, vfork", each named by its wait
 * category (or, when no rule matched, its reason). */
static void
replay_events_groups(const struct feed *f, char *dst, size_t size, size_t *len)
{
	const struct sample *prev = f->tick.prev, *cur = f->tick.s;
	int tasks[GROUPS_NAMED], n;
	char names[200] = "";
	size_t nl = 0;

	if (!prev)
		return;
	n = stall_new_blocked(prev, cur, tasks, GROUPS_NAMED);
	if (n <= 0)
		return;
	for (int k = 0; k < n && k < GROUPS_NAMED; k++) {
		const struct blocked_task *b = &cur->tasks.b[tasks[k]];
		static struct stack empty;	/* .bss, not .rodata: never backed */
		static struct stack sc;	/* 7.5 KB: the dashboard's thread only */
		struct reason_match rm;
		const char *name;

		const struct stack *st = b->stack >= 0 ? tasks_stack(&cur->tasks, b->stack, &sc) :
		    NULL;

		reasons_match(f->tick.rs, st ? st : &empty, b->wchan, &rm);
		name = rm.matched || !rm.reason ? wait_category_name(rm.category) : rm.reason;
		nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s", k ? ", " : "",
				       name ? name : "?");
		if (nl >= sizeof(names))
			nl = sizeof(names) - 1;
	}
	replay_events_add(dst, size, len, "%d new task group%s: %s%s", n, n == 1 ? "" : "s",
			  names, n > GROUPS_NAMED ? ", ..." : "");
}

/* A counter's increase; 0 over a reset. */
static uint64_t
replay_events_rise(const struct counters *p, const struct counters *c, int k)
{
	return c->v[k] > p->v[k] ? c->v[k] - p->v[k] : 0;
}

void
replay_events_describe(const struct feed *f, size_t at, unsigned what, char *dst, size_t size)
{
	size_t nm, len = 0;
	const struct feed_mark *m = feed_marks(f, &nm);
	const struct sample *prev = f->tick.prev, *cur = f->tick.s;
	bool here = f->at == at;
	char t[FMT_MOMENT_SIZE];

	dst[0] = '\0';
	for (size_t k = 0; k < nm; k++) {
		if (m[k].sample != at)
			continue;
		fmt_moment(m[k].wall, FMT_CLOCK, t, sizeof(t));
		if (m[k].kind == FEED_MARK && (what & REPLAY_STOP_MARK))
			replay_events_add(dst, size, &len, "mark '%s' %s", m[k].text, t);
		if (m[k].kind == FEED_GAP && (what & REPLAY_STOP_GAP))
			replay_events_add(dst, size, &len, "gap: %llu sample%s lost from %s",
					  (unsigned long long)m[k].lost, m[k].lost == 1 ? "" : "s",
					  t);
	}
	if (!here)
		return;
	if ((what & REPLAY_STOP_KMSG) && cur->kmsg.n > 0) {
		char brief[160];

		kmsg_event_brief(&cur->kmsg.ev[0], brief, sizeof(brief));
		replay_events_add(dst, size, &len, "kernel: %s %s%s (5 Events)",
				  kmsg_kind_name(cur->kmsg.ev[0].kind), brief,
				  cur->kmsg.n > 1 ? " and more" : "");
	}
	if ((what & REPLAY_STOP_PSI) && sample_has(cur, SRC_PSI_MEMORY))
		replay_events_add(dst, size, &len, "memory pressure %.1f%% (some avg10)",
				  cur->psi[PSI_MEMORY].some.avg10 / 100.0);
	if ((what & REPLAY_STOP_STALL) && prev) {
		struct counters p, c;

		counters_from_vmstat(&prev->vm, &p);
		counters_from_vmstat(&cur->vm, &c);
		replay_events_add(dst, size, &len, "stalls begin: %llu in direct reclaim, %llu in "
				  "compaction",
				  (unsigned long long)replay_events_rise(&p, &c, CTR_ALLOCSTALL),
				  (unsigned long long)replay_events_rise(&p, &c, CTR_COMPACT_STALL));
	}
	if (what & REPLAY_STOP_GROUP)
		replay_events_groups(f, dst, size, &len);
}
