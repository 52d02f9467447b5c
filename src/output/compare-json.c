/* pagetop compare --json: the rows the text shows, as one object. */
#include "output/compare-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/json.h"

static void
json_num(struct json *j, const char *key, double v)
{
	if (isfinite(v))
		json_double(j, key, v, 6);
	else
		json_null(j, key);
}

static void
json_run(struct json *j, const char *key, const struct compare_run *r)
{
	const struct host *h = &r->host;

	json_object_begin(j, key);
	json_str(j, "file", r->path);
	json_object_begin(j, "host");
	json_str(j, "hostname", h->hostname);
	json_str(j, "release", h->release);
	json_str(j, "machine", h->machine);
	json_int(j, "cpus", h->ncpus);
	json_int(j, "nodes", h->nodes);
	json_int(j, "mem_kb", h->mem_kb);
	json_int(j, "page_size", h->page_size);
	json_int(j, "pageblock_order", h->pageblock_order);
	json_object_end(j);
	json_double(j, "interval", r->interval, 3);
	json_double(j, "from", r->first, 3);
	json_double(j, "to", r->last, 3);
	json_u64(j, "samples", r->to - r->from + 1);
	json_u64(j, "unreadable", r->lost);
	json_object_end(j);
}

static void
json_span(struct json *j, const char *key, const struct compare_span *sp)
{
	json_object_begin(j, key);
	json_double(j, "from", sp->t0, 3);
	json_double(j, "to", sp->t1, 3);
	json_u64(j, "samples", sp->samples);
	json_u64(j, "unreadable", sp->lost);
	json_int(j, "blocks", sp->n_blocks);
	json_object_end(j);
}

static void
json_side(struct json *j, const char *key, double total, double value, int blocks)
{
	json_object_begin(j, key);
	json_num(j, "total", total);
	json_num(j, "value", value);
	json_int(j, "blocks", blocks);
	json_object_end(j);
}

static void
json_pair(struct json *j, const struct compare_run *ra, const struct compare_run *rb,
	  const struct compare_pair *p, struct compare_row *rows)
{
	char notes[600];
	int n = compare_rows(ra, p->a, rb, p->b, rows, notes, sizeof(notes));

	json_object_begin(j, NULL);
	if (p->a->role == CMP_WHOLE)
		json_null(j, "phase");
	else
		json_str(j, "phase", p->a->name);
	json_bool(j, "before", p->a->role == CMP_BEFORE);
	json_int(j, "occurrence", p->a->occurrence);
	json_span(j, "a", p->a);
	json_span(j, "b", p->b);
	json_array_begin(j, "figures");
	for (int k = 0; k < n; k++) {
		const struct compare_row *w = &rows[k];

		json_object_begin(j, NULL);
		json_str(j, "section", w->section);
		json_str(j, "figure", w->name);
		json_str(j, "unit", w->unit);
		if (w->total_unit)
			json_str(j, "total_unit", w->total_unit);
		else
			json_null(j, "total_unit");
		json_side(j, "a", w->a_total, w->a, w->a_blocks);
		json_side(j, "b", w->b_total, w->b, w->b_blocks);
		json_num(j, "change_percent", w->change);
		json_num(j, "p", w->p);
		json_bool(j, "stands_out", w->stands_out);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "notes");
	for (const char *l = notes; *l;) {
		size_t len = strcspn(l, "\n");
		char line[600];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		json_str(j, NULL, line);
		l += len + (l[len] == '\n');
	}
	json_array_end(j);
	json_object_end(j);
}

void
compare_json(FILE *out, const struct compare_run *ra, const struct compare_run *rb)
{
	struct compare_pair pairs[COMPARE_SPANS];
	struct compare_row *rows = malloc(COMPARE_ROWS * sizeof(*rows));
	int n = compare_pairs(ra, rb, pairs, COMPARE_SPANS);
	char warn[1200];
	struct json j;

	if (!rows) {
		fprintf(out, "{}\n");
		return;
	}
	json_init(&j, out);
	json_object_begin(&j, NULL);
	json_run(&j, "a", ra);
	json_run(&j, "b", rb);
	compare_warnings(ra, rb, warn, sizeof(warn));
	json_array_begin(&j, "warnings");
	for (const char *l = warn; *l;) {
		size_t len = strcspn(l, "\n");
		char line[400];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		json_str(&j, NULL, line);
		l += len + (l[len] == '\n');
	}
	json_array_end(&j);
	json_object_begin(&j, "test");
	json_str(&j, "name", "mann-whitney-u");
	json_int(&j, "blocks_max", COMPARE_BLOCKS);
	json_int(&j, "blocks_min", COMPARE_MIN_BLOCKS);
	json_double(&j, "alpha", COMPARE_ALPHA, 2);
	json_object_end(&j);
	json_array_begin(&j, "spans");
	for (int k = 0; k < n; k++)
		json_pair(&j, ra, rb, &pairs[k], rows);
	json_array_end(&j);
	json_object_begin(&j, "unmatched");
	for (int s = 0; s < 2; s++) {
		const struct compare_run *r = s ? rb : ra;

		json_array_begin(&j, s ? "b" : "a");
		for (size_t i = 1; i < r->n_spans; i++)
			if (!compare_paired(pairs, n, r->span[i]))
				json_str(&j, NULL, r->span[i]->name);
		json_array_end(&j);
	}
	json_object_end(&j);
	json_object_end(&j);
	fputc('\n', out);
	free(rows);
}
