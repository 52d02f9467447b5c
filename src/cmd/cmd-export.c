/*
 * pagetop export FILE: a recording's samples for other tools: CSV (one row
 * per sample, one column per figure), JSON lines (the snapshot shape) or
 * OpenMetrics with timestamps (to backfill Prometheus). CSV and
 * OpenMetrics carry the same figures, named alike, as `serve` exposes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "util/arith.h"
#include "util/fmt-num.h"
#include "output/export-om.h"
#include "output/export-write.h"
#include "output/json.h"
#include "output/metrics.h"
#include "output/openmetrics.h"
#include "source/replay.h"
#include "output/sample-json.h"

static int cmd_export_exec(int, char **);

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "FILE --format csv|json|openmetrics [--since TIME] [--until TIME]\n"
		 "      [--source buddyinfo|pagetypeinfo|vmstat|meminfo|zoneinfo|pressure|tasks|probes|all]",
	.summary = "write a recording's samples as CSV, JSON lines or OpenMetrics (for promtool)",
	.exec = cmd_export_exec,
};

enum export_format { EXPORT_CSV, EXPORT_JSON, EXPORT_OPENMETRICS };

static int
csv_field(FILE *out, const char *text)
{
	/* RFC 4180: quoted only when it must be. */
	if (!text[strcspn(text, ",\"\r\n")])
		return fputs(text, out);
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	return fputc('"', out);
}

/* A histogram's buckets, a _created and a series of changing shape are
 * not CSV columns. */
static bool
csv_has(const struct metric_set *m, int i)
{
	return !(metrics_series(m, i)->where & (METRIC_NOT_CSV | METRIC_ONLY_OM));
}

static void
csv_header(const struct metric_set *m, FILE *out)
{
	fputs("time", out);
	for (int i = 0; i < metrics_n_series(m); i++) {
		if (!csv_has(m, i))
			continue;
		fputc(',', out);
		csv_field(out, metrics_series(m, i)->column);
	}
	fputc('\n', out);
}

/*
 * The CSV columns, found once: the series of each and its decimals, and
 * a row's text, written with one fwrite. Most columns do not move from
 * one sample to the next: a run of values the same as the row before is
 * that row's text again, copied whole (at: where each column's ',' was in
 * it, and at[n] its '\n').
 */
struct csv_cols {
	int n;
	int *ser;
	int *decimals;
	int64_t *last;		/* the row before's values */
	size_t *at;
	bool have_last;
	char *row, *before;	/* this row's text and the one before's */
};

static int
csv_cols_init(struct csv_cols *c, const struct metric_set *m)
{
	int n = metrics_n_series(m);
	size_t size = ((size_t)n + 1) * (1 + FMT_NUM_MAX) + 1;

	c->n = 0;
	c->have_last = false;
	c->ser = malloc(((size_t)n + 1) * sizeof(*c->ser));
	c->decimals = malloc(((size_t)n + 1) * sizeof(*c->decimals));
	c->last = malloc(((size_t)n + 1) * sizeof(*c->last));
	c->at = malloc(((size_t)n + 1) * sizeof(*c->at));
	/* "time", then ',' and a value per column, then '\n'. */
	c->row = malloc(size);
	c->before = malloc(size);
	if (!c->ser || !c->decimals || !c->last || !c->at || !c->row || !c->before)
		return -1;
	for (int i = 0; i < n; i++)
		if (csv_has(m, i)) {
			c->ser[c->n] = i;
			c->decimals[c->n++] = metrics_series(m, i)->decimals;
		}
	return 0;
}

static void
csv_cols_free(struct csv_cols *c)
{
	free(c->ser);
	free(c->decimals);
	free(c->last);
	free(c->at);
	free(c->row);
	free(c->before);
}

/* As metrics_format_value() writes them (no trailing zeros). */
static char *
csv_value(char *p, int64_t v, int decimals)
{
	return p + fmt_num_fixed(v, decimals < 0 || decimals > 9 ? 0 : decimals, true, p);
}

static void
csv_row(struct csv_cols *c, double wall, const int64_t *v, FILE *out)
{
	char *row = c->row, *p = csv_value(row, arith_llround(wall * 1000), 3), *t;
	int k = 0, e;

	while (k < c->n) {
		int64_t x = v[c->ser[k]];

		/* The row before's text of columns k to e. */
		if (c->have_last && x == c->last[k]) {
			size_t from = c->at[k], to = (size_t)(p - row), len;

			for (e = k + 1; e < c->n && v[c->ser[e]] == c->last[e]; e++)
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
	fwrite(row, 1, (size_t)(p - row), out);
	c->have_last = true;
	t = c->before;
	c->before = c->row;
	c->row = t;
}

/* The snapshot's JSON, leaving out the sources not asked for. */
static void
json_line(struct tick *t, unsigned mask, struct sample_json_memo *memo, FILE *out)
{
	struct sample *s = t->s;
	struct source_status saved[SRC_COUNT];
	enum probes_state probes = s->probes.state;
	struct json j;

	memcpy(saved, s->status, sizeof(saved));
	if (!(mask & METRICS_SRC_PROBES))
		s->probes.state = PROBES_NONE;
	for (int i = 0; i < SRC_COUNT; i++)
		if (!(mask & SRC_BIT(i)) && i != SRC_UPTIME)
			s->status[i].err = SRC_NOT_READ;
	json_init(&j, out);
	j.memo = memo;
	sample_json(&j, s, tick_groups(t));
	fputc('\n', out);
	memcpy(s->status, saved, sizeof(saved));
	s->probes.state = probes;
}

static int
cmd_export_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "source", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *since = NULL, *until = NULL, *path, *format = NULL;
	enum export_format fmt = EXPORT_CSV;
	struct feed *f;
	struct metrics_input in;
	struct metric_set *m = NULL;
	struct export_om *om = NULL;
	struct csv_cols cols = { 0 };
	struct sample_json_memo *memo = NULL;
	struct export_write *wr = NULL;
	FILE *dst = NULL;
	int64_t *vals = NULL;
	unsigned mask = 0;
	size_t n, from, to;
	bool built = false;
	char why[512], first_why[sizeof(f->why)] = "";
	size_t read = 0, unread = 0, last_read = SIZE_MAX;
	int c, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'S':
			if (metrics_source_parse(optarg, &mask) < 0) {
				fprintf(stderr, "pagetop: export: unknown source '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			return cmd_opt_usage(&cmd_export_entry, true);
		default:
			return cmd_opt_usage(&cmd_export_entry, false);
		}
	}
	if (optind + 1 != argc || !format)
		return cmd_opt_usage(&cmd_export_entry, false);
	if (strcmp(format, "csv") == 0)
		fmt = EXPORT_CSV;
	else if (strcmp(format, "json") == 0)
		fmt = EXPORT_JSON;
	else if (strcmp(format, "openmetrics") == 0)
		fmt = EXPORT_OPENMETRICS;
	else {
		fprintf(stderr, "pagetop: export: --format: '%s' is not csv, json or openmetrics\n",
			format);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (!mask)
		mask = ~0u;
	if (!(f = replay_feed_open(path, why, sizeof(why)))) {
		fprintf(stderr, "pagetop: %s\n", why);
		return 1;
	}
	/* Blocked tasks get their category from today's table, as replay does. */
	if (f->note[0])
		cmd_print_lines(stderr, f->note);
	if (!(m = metrics_new())) {
		fprintf(stderr, "pagetop: out of memory\n");
		status = 1;
		goto out;
	}
	if (fmt == EXPORT_JSON) {
		if (!(memo = malloc(sizeof(*memo))) || sample_json_memo_init(memo) < 0) {
			free(memo);
			memo = NULL;
			fprintf(stderr, "pagetop: out of memory\n");
			status = 1;
			goto out;
		}
	}
	/* CSV and JSON lines go out through a writer of their own (with
	 * stdout's buffer empty: nothing has gone to it). */
	if (fmt != EXPORT_OPENMETRICS && (wr = export_write_new(STDOUT_FILENO)) &&
	    !(dst = export_write_file(wr))) {
		export_write_end(wr);
		wr = NULL;
	}
	if (!dst)
		dst = stdout;
	if ((n = feed_count(f)) == 0) {
		fprintf(stderr, "pagetop: %s: no samples\n", path);
		status = 1;
		goto out;
	}
	/* [from, to): samples at or after --since, at or before --until. */
	if ((status = cmd_opt_span("export", replay_feed_replay(f)->r, n, since, until, &from,
				   &to)) != 0)
		goto out;
	/* OpenMetrics keeps a series for every probe fallback pair of the
	 * span, however late it first shows: the set is built once. */
	for (size_t i = from; fmt == EXPORT_OPENMETRICS && i < to; i++)
		if (feed_seek(f, i) == 0) {
			in = metrics_input_of(&f->tick);
			metrics_note(m, &in);
		}
	for (size_t i = from; i < to; i++) {
		/* The first seek finds what is in force there: the kernel
		 * events are counted from it on. */
		if (feed_seek(f, i) < 0) {
			/* A damaged chunk or a sample that does not decode:
			 * skipped, and said once, below. */
			if (!unread++)
				snprintf(first_why, sizeof(first_why), "%s", f->why);
			continue;
		}
		read++;
		if (fmt == EXPORT_JSON) {
			json_line(&f->tick, mask, memo, dst);
			continue;
		}
		in = metrics_input_of(&f->tick);
		/* Read in order, the sample before is the last call's. */
		if (i > from && last_read == i - 1) {
			in.prev = f->tick.prev;
			in.same_shape = f->tick.same_shape;
		}
		last_read = i;
		/* The columns and series are those of the first sample. */
		if (!built) {
			if (metrics_build(m, &in, mask) < 0 ||
			    !(vals = malloc(((size_t)metrics_n_series(m) + 1) * sizeof(*vals))) ||
			    (fmt == EXPORT_CSV && csv_cols_init(&cols, m) < 0)) {
				fprintf(stderr, "pagetop: out of memory\n");
				status = 1;
				goto out;
			}
			if (fmt == EXPORT_CSV)
				csv_header(m, dst);
			else if (!(om = export_om_new(m, why, sizeof(why)))) {
				fprintf(stderr, "pagetop: export: %s\n", why);
				status = 1;
				goto out;
			}
			built = true;
		}
		metrics_values(m, &in, vals);
		if (fmt == EXPORT_CSV)
			csv_row(&cols, in.s->wall, vals, dst);
		else if (export_om_push(om, in.s->wall, vals, why, sizeof(why)) < 0) {
			fprintf(stderr, "pagetop: export: %s\n", why);
			status = 1;
			goto out;
		}
	}
	if (fmt == EXPORT_OPENMETRICS) {
		if (!om)
			fputs("# EOF\n", stdout);
		else if (export_om_write(om, stdout, why, sizeof(why)) < 0) {
			fprintf(stderr, "pagetop: export: %s\n", why);
			status = 1;
		}
	}
	if (wr) {
		int e = fclose(dst) != 0 ? -EIO : 0, w = export_write_end(wr);

		wr = NULL;
		dst = stdout;
		if (w < 0 || e < 0) {
			fprintf(stderr, "pagetop: export: writing: %s\n", strerror(w < 0 ? -w : -e));
			status = 1;
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pagetop: export: writing: %s\n", strerror(errno));
		status = 1;
	}
	if (from >= to) {
		fprintf(stderr, "pagetop: %s: no samples between --since and --until\n", path);
		status = 1;
	}
	/* Damage is said in any case; with no sample in the span, the line above. */
	if (cmd_recording_status(replay_feed_replay(f), path, read, unread, first_why) != 0 &&
	    from < to)
		status = 1;
out:
	if (wr) {
		fclose(dst);
		export_write_end(wr);
	}
	export_om_free(om);
	csv_cols_free(&cols);
	if (memo)
		sample_json_memo_free(memo);
	free(memo);
	free(vals);
	metrics_free(m);
	feed_close(f);
	return status;
}
