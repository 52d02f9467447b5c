/*
 * pagetop compare as text that fits a mail: the hosts side by side, the
 * warnings, then a table per span (the whole window, then each phase
 * matched by its mark) of A, B, the change and the test's p, a '*' at the
 * start of a row whose change stands out. Every line is at most
 * COMPARE_COLUMNS wide: the figure's name is cut to fit its column.
 */
#include "output/compare-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/text.h"

#define NAME_W	24
#define NUM_W	9
#define PCT_W	8
#define FACT_W	16	/* the label, after the marker */
#define VALUE_W	30

/* s cut to at most n bytes, not inside a UTF-8 character. */
static void
cut(char *s, size_t n)
{
	if (strlen(s) <= n)
		return;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	s[n] = '\0';
}

/* s cut to its last bytes, "..." first, at most n in all: a path's end
 * names the file. */
static void
cut_left(char *s, size_t n)
{
	size_t len = strlen(s), from;

	if (len <= n || n < 4)
		return;
	from = len - (n - 3);
	while (from < len && ((unsigned char)s[from] & 0xc0) == 0x80)
		from++;
	memmove(s + 3, s + from, len - from + 1);
	memcpy(s, "...", 3);
}

/* A figure in at most 8 characters: "-" when there is none. */
static void
num(double v, char *dst, size_t size)
{
	double av = fabs(v);

	if (!isfinite(v))
		snprintf(dst, size, "-");
	else if (v == 0)
		snprintf(dst, size, "0");
	else if (av < 1)
		snprintf(dst, size, "%.3f", v);
	else if (av < 100)
		snprintf(dst, size, "%.2f", v);
	else if (av < 10000)
		snprintf(dst, size, "%.1f", v);
	else if (av < 1e7)
		snprintf(dst, size, "%.0f", v);
	else if (av < 1e10)
		snprintf(dst, size, "%.2fM", v / 1e6);
	else
		snprintf(dst, size, "%.2fG", v / 1e9);
}

static void
change(const struct compare_row *w, char *dst, size_t size)
{
	if (isfinite(w->change) && w->change >= 1e5)
		snprintf(dst, size, ">+9999%%");
	else if (isfinite(w->change))
		snprintf(dst, size, "%+.0f%%", w->change);
	else if (isfinite(w->b) && w->b != 0 && (!isfinite(w->a) || w->a == 0))
		snprintf(dst, size, isfinite(w->a) ? "new" : "-");
	else
		snprintf(dst, size, "-");
}

static void
pvalue(double p, char *dst, size_t size)
{
	if (!isfinite(p))
		snprintf(dst, size, "-");
	else if (p < 0.001)
		snprintf(dst, size, "<0.001");
	else
		snprintf(dst, size, "%.3f", p);
}

static void
print_facts(FILE *out, const struct compare_run *ra, const struct compare_run *rb)
{
	char a[200], b[200], warn[1200];
	const char *label;
	bool differs, any = false;

	fprintf(out, "%-*s%-*s%s\n", 2 + FACT_W, "", VALUE_W, "A", "B");
	for (int k = 0; compare_fact(ra, rb, k, &label, a, b, sizeof(a), &differs); k++) {
		if (k == 0) {
			cut_left(a, VALUE_W - 1);
			cut_left(b, VALUE_W - 1);
		}
		cut(a, VALUE_W - 1);
		cut(b, VALUE_W - 1);
		fprintf(out, "%-2s%-*s%-*s%s\n", differs ? "*" : "", FACT_W, label, VALUE_W, a, b);
		any |= differs;
	}
	if (any)
		fprintf(out, "(* where the machines differ)\n");
	compare_warnings(ra, rb, warn, sizeof(warn));
	for (const char *l = warn; *l;) {
		size_t n = strcspn(l, "\n");

		fprintf(out, "warning: %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

/* "A: 2026-11-30 08:00:01.000 to 08:10:00.500 (10m), 1200 samples" */
static void
print_side(FILE *out, const char *side, const struct compare_span *sp)
{
	char t0[FMT_MOMENT_SIZE], t1[FMT_MOMENT_SIZE], len[32];

	fmt_moment(sp->t0, FMT_DATE, t0, sizeof(t0));
	fmt_moment(sp->t1, FMT_CLOCK, t1, sizeof(t1));
	fmt_duration(sp->t1 - sp->t0, len, sizeof(len));
	fprintf(out, "  %s: %s to %s (%s), %zu samples", side, t0, t1, len, sp->samples);
	if (sp->lost)
		fprintf(out, ", %zu unreadable", sp->lost);
	fprintf(out, "\n");
}

static void
print_heading(FILE *out, const struct compare_span *a, int k, int n)
{
	char text[TEXT_ESCAPED_SIZE(200)];

	text_esc(text, sizeof(text), a->name);
	cut(text, 50);
	if (a->role == CMP_WHOLE)
		fprintf(out, "The whole window\n");
	else if (a->role == CMP_BEFORE)
		fprintf(out, "Phase %d of %d: before \"%s\"\n", k, n, text);
	else if (a->occurrence > 1)
		fprintf(out, "Phase %d of %d: \"%s\" (mark #%d of that text)\n", k, n, text,
			a->occurrence);
	else
		fprintf(out, "Phase %d of %d: \"%s\"\n", k, n, text);
}

static void
print_pair(FILE *out, const struct compare_run *ra, const struct compare_run *rb,
	   const struct compare_pair *p, struct compare_row *rows)
{
	char notes[600], ta[16], va[16], tb[16], vb[16], ch[16], pv[16], name[NAME_W + 1];
	const char *section = NULL;
	int n = compare_rows(ra, p->a, rb, p->b, rows, notes, sizeof(notes));

	print_side(out, "A", p->a);
	print_side(out, "B", p->b);
	fprintf(out, "\n%-*s%*s%*s%*s%*s%*s%*s\n", 2 + NAME_W, "", NUM_W, "A total", NUM_W, "A",
		NUM_W, "B total", NUM_W, "B", PCT_W, "change", PCT_W, "p");
	for (int k = 0; k < n; k++) {
		const struct compare_row *w = &rows[k];

		if (w->section != section) {
			fprintf(out, "%s\n", w->title);
			section = w->section;
		}
		num(w->a_total, ta, sizeof(ta));
		num(w->a, va, sizeof(va));
		num(w->b_total, tb, sizeof(tb));
		num(w->b, vb, sizeof(vb));
		change(w, ch, sizeof(ch));
		pvalue(w->p, pv, sizeof(pv));
		snprintf(name, sizeof(name), "%s", w->name);
		cut(name, NAME_W - 1);
		fprintf(out, "%-2s%-*s%*s%*s%*s%*s%*s%*s\n", w->stands_out ? "*" : "", NAME_W, name,
			NUM_W, ta, NUM_W, va, NUM_W, tb, NUM_W, vb, PCT_W, ch, PCT_W, pv);
	}
	if (n == 0)
		fprintf(out, "  (no figure is above 0 in either)\n");
	for (const char *l = notes; *l;) {
		size_t len = strcspn(l, "\n");

		fprintf(out, "  note: %.*s\n", (int)len, l);
		l += len + (l[len] == '\n');
	}
}

static void
print_phases(FILE *out, const struct compare_run *ra, const struct compare_run *rb,
	     const struct compare_pair *pairs, int n)
{
	char text[TEXT_ESCAPED_SIZE(200)];

	if (ra->n_spans == 1 && rb->n_spans == 1) {
		fprintf(out, "Phases: none (%s)\n", ra->marks_dropped || rb->marks_dropped ?
			"too many marks: see the warning" : "no marks in either window");
		return;
	}
	fprintf(out, "Phases: %d matched by their marks' text\n", n - 1);
	for (int k = 0; k < 2; k++) {
		const struct compare_run *r = k ? rb : ra;

		for (size_t i = 1; i < r->n_spans; i++) {
			if (compare_paired(pairs, n, r->span[i]))
				continue;
			text_esc(text, sizeof(text), r->span[i]->name);
			cut(text, 50);
			fprintf(out, "  only in %s: %s\"%s\"\n", k ? "B" : "A",
				r->span[i]->role == CMP_BEFORE ? "before " : "", text);
		}
	}
}

void
compare_print(FILE *out, const struct compare_run *ra, const struct compare_run *rb)
{
	struct compare_pair pairs[COMPARE_SPANS];
	struct compare_row *rows = malloc(COMPARE_ROWS * sizeof(*rows));
	int n = compare_pairs(ra, rb, pairs, COMPARE_SPANS);

	if (!rows) {
		fprintf(out, "pagetop compare: out of memory\n");
		return;
	}
	fprintf(out, "pagetop compare: A against B\n\n");
	print_facts(out, ra, rb);
	fprintf(out, "\n");
	print_phases(out, ra, rb, pairs, n);
	for (int k = 0; k < n; k++) {
		fprintf(out, "\n");
		print_heading(out, pairs[k].a, k, n - 1);
		print_pair(out, ra, rb, &pairs[k], rows);
	}
	fprintf(out, "\nA row marked * has a change that stands out of the runs' own noise:\n"
		"Mann-Whitney U on the means of up to %d blocks of equal time, p < %g\n"
		"(pagetop(1)).\n",
		COMPARE_BLOCKS, COMPARE_ALPHA);
	free(rows);
}
