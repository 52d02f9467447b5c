/*
 * What stands beside the figures of a comparison: which spans of A and B
 * are compared (the windows, then the phases whose marks have the same
 * text, the Nth mark of a text with the other's Nth), the two hosts'
 * facts side by side, and the warnings that the runs are not alike.
 */
#include "output/compare-int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"
#include "util/text.h"

int
compare_pairs(const struct compare_run *ra, const struct compare_run *rb,
	      struct compare_pair *pairs, int max)
{
	bool used[COMPARE_SPANS] = { false };
	int n = 0;

	if (max < 1)
		return 0;
	pairs[n++] = (struct compare_pair){ ra->span[0], rb->span[0] };
	for (size_t i = 1; i < ra->n_spans && n < max; i++) {
		const struct compare_span *a = ra->span[i];

		for (size_t j = 1; j < rb->n_spans; j++) {
			const struct compare_span *b = rb->span[j];

			if (used[j] || b->role != a->role || strcmp(a->name, b->name) != 0 ||
			    a->occurrence != b->occurrence)
				continue;
			used[j] = true;
			pairs[n++] = (struct compare_pair){ a, b };
			break;
		}
	}
	return n;
}

bool
compare_paired(const struct compare_pair *pairs, int n, const struct compare_span *sp)
{
	for (int k = 0; k < n; k++)
		if (pairs[k].a == sp || pairs[k].b == sp)
			return true;
	return false;
}

static void
fact_str(char *dst, size_t size, const char *s)
{
	if (!s[0])
		snprintf(dst, size, "?");
	else
		text_esc(dst, size, s);
}

static void
fact_long(char *dst, size_t size, long long v, const char *unit)
{
	if (v <= 0)
		snprintf(dst, size, "?");
	else
		snprintf(dst, size, "%lld%s", v, unit);
}

/* Fact k of run r into dst; its label. NULL past the last. */
static const char *
fact(const struct compare_run *r, int k, char *dst, size_t size)
{
	const struct host *h = &r->host;

	switch (k) {
	case 0:
		fact_str(dst, size, r->path);
		return "file";
	case 1:
		fact_str(dst, size, h->hostname);
		return "host";
	case 2:
		fact_str(dst, size, h->release);
		return "kernel";
	case 3:
		fact_str(dst, size, h->machine);
		return "machine";
	case 4:
		fact_long(dst, size, h->ncpus, "");
		return "CPUs";
	case 5:
		fact_long(dst, size, h->mem_kb, " kB");
		return "memory";
	case 6:
		fact_long(dst, size, h->page_size, "");
		return "page size";
	case 7:
		if (h->pageblock_order >= 0)
			snprintf(dst, size, "%d", h->pageblock_order);
		else
			snprintf(dst, size, "?");
		return "pageblock order";
	case 8:
		snprintf(dst, size, "%g s", r->interval);
		return "interval";
	case 9:
		fmt_moment(r->first, FMT_DATE, dst, size);
		return "from";
	case 10:
		fmt_moment(r->last, FMT_DATE, dst, size);
		return "to";
	case 11:
		fmt_duration(r->last - r->first, dst, size);
		return "length";
	case 12:
		snprintf(dst, size, "%zu", r->to - r->from + 1);
		return "samples";
	default:
		return NULL;
	}
}

bool
compare_fact(const struct compare_run *ra, const struct compare_run *rb, int k,
	     const char **label, char *a, char *b, size_t size, bool *differs)
{
	if (!(*label = fact(ra, k, a, size)))
		return false;
	fact(rb, k, b, size);
	/* The file, the times and the length always differ: not the machine. */
	*differs = k >= 1 && k <= 8 && strcmp(a, b) != 0;
	return true;
}

static void
put(char *dst, size_t size, size_t *n, const char *s)
{
	if (*n < size)
		*n += (size_t)snprintf(dst + *n, size - *n, "%s", s);
}

void
compare_warnings(const struct compare_run *ra, const struct compare_run *rb, char *dst,
		 size_t size)
{
	const struct host *a = &ra->host, *b = &rb->host;
	char line[400];
	size_t n = 0, m = 0;
	const char *sep = "";

	if (size)
		dst[0] = '\0';
	if (fabs(ra->interval - rb->interval) > 1e-9) {
		snprintf(line, sizeof(line), "the intervals differ (A %g s, B %g s)\n", ra->interval,
			 rb->interval);
		put(dst, size, &n, line);
	}
	line[0] = '\0';
#define DIFFERS(cond, what) \
	if (cond) { \
		m += (size_t)snprintf(line + m, sizeof(line) - m, "%s%s", sep, what); \
		sep = ", "; \
	}
	DIFFERS(a->hostname[0] && b->hostname[0] && strcmp(a->hostname, b->hostname), "host");
	DIFFERS(a->machine[0] && b->machine[0] && strcmp(a->machine, b->machine), "machine");
	DIFFERS(a->ncpus > 0 && b->ncpus > 0 && a->ncpus != b->ncpus, "CPUs");
	DIFFERS(a->nodes > 0 && b->nodes > 0 && a->nodes != b->nodes, "nodes");
	DIFFERS(a->mem_kb > 0 && b->mem_kb > 0 && a->mem_kb != b->mem_kb, "memory");
	DIFFERS(a->page_size > 0 && b->page_size > 0 && a->page_size != b->page_size,
		"page size");
#undef DIFFERS
	if (m) {
		put(dst, size, &n, "the machines differ (");
		put(dst, size, &n, line);
		put(dst, size, &n, "): a change may be the machine's\n");
	}
	for (int k = 0; k < 2; k++) {
		const struct compare_run *r = k ? rb : ra;

		if (!r->marks_dropped)
			continue;
		snprintf(line, sizeof(line), "%s has %zu marks, more than %d: phases are not "
			 "compared\n", k ? "B" : "A", r->marks_dropped,
			 COMPARE_PHASES);
		put(dst, size, &n, line);
	}
}
