#include "output/export-csv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/arith.h"
#include "util/fmt-num.h"

/* Rows the ring holds: enough that neither side waits on the other's
 * unevenness (a sample with tasks in D takes longer to read). A side
 * that waits is woken only once half the ring is its to work on: woken
 * for every row, the two threads spent a sixth of the export switching. */
#define CSV_RING	64
#define CSV_BATCH	(CSV_RING / 2)

/*
 * The columns, found once: the series of each and its decimals, and a
 * row's text, written with one fwrite. Most columns do not move from one
 * sample to the next: a run of values the same as the row before is that
 * row's text again, copied whole (at: where each column's ',' was in it,
 * and at[n] its '\n').
 */
struct export_csv {
	FILE *out;
	int n;
	int *ser;
	int *decimals;
	int64_t *last;		/* the row before's values */
	size_t *at;
	bool have_last;
	char *row, *before;	/* this row's text and the one before's */

	/* Rows [tail, head) of the ring wait to be formatted, each n values
	 * and a time. */
	int64_t *vals;
	double wall[CSV_RING];
	unsigned head, tail;
	bool threaded, done;
	bool writer_waits, reader_waits;	/* on an empty ring; on a full one */
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void
csv_field(FILE *out, const char *text)
{
	/* RFC 4180: quoted only when it must be. */
	if (!text[strcspn(text, ",\"\r\n")]) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* A histogram's buckets, a _created and a series of changing shape are
 * not CSV columns. */
static bool
csv_has(const struct metric_set *m, int i)
{
	return !(metrics_series(m, i)->where & (METRIC_NOT_CSV | METRIC_ONLY_OM));
}

/* As metrics_format_value() writes them (no trailing zeros). */
static char *
csv_value(char *p, int64_t v, int decimals)
{
	return p + fmt_num_fixed(v, decimals < 0 || decimals > 9 ? 0 : decimals, true, p);
}

/* The row of the n column values at v. */
static void
csv_row(struct export_csv *c, double wall, const int64_t *v)
{
	char *row = c->row, *p = csv_value(row, arith_llround(wall * 1000), 3), *t;
	int k = 0, e;

	while (k < c->n) {
		int64_t x = v[k];

		/* The row before's text of columns k to e. */
		if (c->have_last && x == c->last[k]) {
			size_t from = c->at[k], to = (size_t)(p - row), len;

			for (e = k + 1; e < c->n && v[e] == c->last[e]; e++)
				;
			len = c->at[e] - from;
			memcpy(p, c->before + from, len);
			for (; k < e; k++)
				c->at[k] = c->at[k] - from + to;
			p += len;
			continue;
		}
		c->at[k] = (size_t)(p - row);
		c->last[k] = x;
		*p++ = ',';
		if (x >= 0 && c->decimals[k] == 0)
			p += fmt_num_u64((uint64_t)x, p);
		else if (x != METRIC_NONE)
			p = csv_value(p, x, c->decimals[k]);
		k++;
	}
	c->at[c->n] = (size_t)(p - row);
	*p++ = '\n';
	fwrite(row, 1, (size_t)(p - row), c->out);
	c->have_last = true;
	t = c->before;
	c->before = c->row;
	c->row = t;
}

static void *
csv_thread(void *arg)
{
	struct export_csv *c = arg;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		unsigned b;

		while (c->tail == c->head && !c->done) {
			c->writer_waits = true;
			pthread_cond_wait(&c->cond, &c->lock);
		}
		if (c->tail == c->head)
			break;
		b = c->tail % CSV_RING;
		pthread_mutex_unlock(&c->lock);
		csv_row(c, c->wall[b], c->vals + (size_t)b * (size_t)c->n);
		pthread_mutex_lock(&c->lock);
		c->tail++;
		if (c->reader_waits && c->head - c->tail <= CSV_RING - CSV_BATCH) {
			c->reader_waits = false;
			pthread_cond_broadcast(&c->cond);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct export_csv *
export_csv_new(const struct metric_set *m, FILE *out, bool threaded)
{
	struct export_csv *c = calloc(1, sizeof(*c));
	int n = metrics_n_series(m);
	size_t size = ((size_t)n + 1) * (1 + FMT_NUM_MAX) + 1, cols = (size_t)n + 1;

	if (!c)
		return NULL;
	c->out = out;
	c->ser = malloc(cols * sizeof(*c->ser));
	c->decimals = malloc(cols * sizeof(*c->decimals));
	c->last = malloc(cols * sizeof(*c->last));
	c->at = malloc(cols * sizeof(*c->at));
	/* "time", then ',' and a value per column, then '\n'. */
	c->row = malloc(size);
	c->before = malloc(size);
	c->vals = malloc(CSV_RING * cols * sizeof(*c->vals));
	if (!c->ser || !c->decimals || !c->last || !c->at || !c->row || !c->before || !c->vals) {
		c->threaded = false;
		export_csv_end(c);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (csv_has(m, i)) {
			c->ser[c->n] = i;
			c->decimals[c->n++] = metrics_series(m, i)->decimals;
		}
	fputs("time", out);
	for (int k = 0; k < c->n; k++) {
		fputc(',', out);
		csv_field(out, metrics_series(m, c->ser[k])->column);
	}
	fputc('\n', out);
	if (threaded && pthread_mutex_init(&c->lock, NULL) == 0) {
		if (pthread_cond_init(&c->cond, NULL) != 0)
			pthread_mutex_destroy(&c->lock);
		else if (pthread_create(&c->th, NULL, csv_thread, c) != 0) {
			pthread_cond_destroy(&c->cond);
			pthread_mutex_destroy(&c->lock);
		} else
			c->threaded = true;
	}
	return c;
}

void
export_csv_row(struct export_csv *c, double wall, const int64_t *v)
{
	unsigned b;
	int64_t *x;

	if (!c->threaded) {
		for (int k = 0; k < c->n; k++)
			c->vals[k] = v[c->ser[k]];
		csv_row(c, wall, c->vals);
		return;
	}
	pthread_mutex_lock(&c->lock);
	while (c->head - c->tail == CSV_RING) {
		c->reader_waits = true;
		pthread_cond_wait(&c->cond, &c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	/* The slot at head is the reader's until head moves past it. */
	b = c->head % CSV_RING;
	x = c->vals + (size_t)b * (size_t)c->n;
	for (int k = 0; k < c->n; k++)
		x[k] = v[c->ser[k]];
	c->wall[b] = wall;
	pthread_mutex_lock(&c->lock);
	c->head++;
	if (c->writer_waits && c->head - c->tail >= CSV_BATCH) {
		c->writer_waits = false;
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
}

void
export_csv_end(struct export_csv *c)
{
	if (!c)
		return;
	if (c->threaded) {
		pthread_mutex_lock(&c->lock);
		c->done = true;
		pthread_cond_broadcast(&c->cond);
		pthread_mutex_unlock(&c->lock);
		pthread_join(c->th, NULL);
		pthread_cond_destroy(&c->cond);
		pthread_mutex_destroy(&c->lock);
	}
	free(c->ser);
	free(c->decimals);
	free(c->last);
	free(c->at);
	free(c->row);
	free(c->before);
	free(c->vals);
	free(c);
}
