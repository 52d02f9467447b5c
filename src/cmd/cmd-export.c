/*
 * pagetop export FILE: a recording's samples for other tools: CSV (one row
 * per sample, one column per figure), JSON lines (the snapshot shape) or
 * OpenMetrics with timestamps (to backfill Prometheus). CSV and
 * OpenMetrics carry the same figures, named alike, as `serve` exposes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "util/arith.h"
#include "output/export-om.h"
#include "output/json.h"
#include "output/metrics.h"
#include "util/paths.h"
#include "model/reasons.h"
#include "source/replay.h"
#include "output/sample-json.h"
#include "model/taskgroups.h"

static int cmd_export_exec(int, char **);

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "FILE --format csv|json|openmetrics [--since TIME] [--until TIME]\n"
		 "      [--source buddyinfo|pagetypeinfo|vmstat|meminfo|zoneinfo|pressure|tasks|all]",
	.summary = "write a recording's samples as CSV, JSON lines or OpenMetrics (for promtool)",
	.exec = cmd_export_exec,
};

enum export_format { EXPORT_CSV, EXPORT_JSON, EXPORT_OPENMETRICS };

/* pagetypeinfo read less often than the tick: how far back its last read is looked for. */
#define EXPORT_PTI_LOOKBACK	3600

/* The samples of a recording in order, with what the figures need besides. */
struct export_walk {
	struct replay *rp;
	struct pagetypeinfo *pti;	/* the last read in force */
	bool have_pti;
	double pti_wall;
	struct reasons *rs;
	struct task_groups *groups;
	size_t count_from;		/* kernel events are counted from this sample on */
	bool have_kmsg;			/* the recording has the kernel log */
	uint64_t kmsg_total[KMSG_KIND_COUNT];
	struct metrics_input in;
};

/* Decodes sample i (after i - 1, for speed) into w->in. 0, or -errno. */
static int
walk_to(struct export_walk *w, size_t i)
{
	const struct sample *s;
	int r;

	if ((r = replay_seek(w->rp, i)) < 0)
		return r;
	s = w->rp->cur;
	if (s->status[SRC_PAGETYPEINFO].err != SRC_NOT_READ) {
		w->have_pti = sample_has(s, SRC_PAGETYPEINFO);
		if (w->have_pti) {
			*w->pti = s->pti;
			w->pti_wall = s->wall;
		}
	}
	if (sample_has(s, SRC_TASKS))
		task_groups_build(&s->tasks, w->rs, s->mono, w->groups);
	/* A counter from the first sample exported: the lookback adds nothing. */
	if (i >= w->count_from && s->kmsg.read) {
		w->have_kmsg = true;
		for (int k = 0; k < s->kmsg.n && k < KMSG_MAX_EVENTS; k++)
			w->kmsg_total[s->kmsg.ev[k].kind]++;
	}
	w->in = (struct metrics_input){
		.s = s,
		.pti = w->have_pti ? w->pti : NULL,
		.pti_wall = w->pti_wall,
		.groups = sample_has(s, SRC_TASKS) ? w->groups : NULL,
		.kmsg_total = w->have_kmsg ? w->kmsg_total : NULL,
	};
	return 0;
}

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

static void
csv_header(const struct metric_set *m, FILE *out)
{
	fputs("time", out);
	for (int i = 0; i < metrics_n_series(m); i++) {
		fputc(',', out);
		csv_field(out, metrics_series(m, i)->column);
	}
	fputc('\n', out);
}

static void
csv_row(const struct metric_set *m, double wall, const int64_t *v, FILE *out)
{
	char buf[32];

	metrics_format_value(arith_llround(wall * 1000), 3, buf);
	fputs(buf, out);
	for (int i = 0; i < metrics_n_series(m); i++) {
		fputc(',', out);
		if (v[i] == METRIC_NONE)
			continue;
		metrics_format_value(v[i], metrics_series(m, i)->decimals, buf);
		fputs(buf, out);
	}
	fputc('\n', out);
}

/* The snapshot's JSON, leaving out the sources not asked for. */
static void
json_line(struct export_walk *w, unsigned mask, FILE *out)
{
	struct sample *s = w->rp->cur;
	struct source_status saved[SRC_COUNT];
	struct json j;

	memcpy(saved, s->status, sizeof(saved));
	for (int i = 0; i < SRC_COUNT; i++)
		if (!(mask & SRC_BIT(i)) && i != SRC_UPTIME)
			s->status[i].err = SRC_NOT_READ;
	json_init(&j, out);
	sample_json(&j, s, w->in.groups);
	fputc('\n', out);
	memcpy(s->status, saved, sizeof(saved));
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
	struct export_walk w = { 0 };
	struct metric_set *m = NULL;
	struct export_om *om = NULL;
	int64_t *vals = NULL;
	unsigned mask = 0;
	size_t n, from, to, start;
	bool built = false;
	char why[512], sys[4096], user[4096];
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
	if (!(w.rp = replay_open(path, why, sizeof(why)))) {
		fprintf(stderr, "pagetop: %s\n", why);
		return 1;
	}
	if (!(w.pti = calloc(1, sizeof(*w.pti))) || !(w.rs = calloc(1, sizeof(*w.rs))) ||
	    !(w.groups = calloc(1, sizeof(*w.groups))) || !(m = metrics_new())) {
		fprintf(stderr, "pagetop: out of memory\n");
		status = 1;
		goto out;
	}
	/* Blocked tasks get their category from today's table, as replay does. */
	paths_data("wait-reasons", sys, sizeof(sys));
	paths_config("wait-reasons", user, sizeof(user));
	if (reasons_load(w.rs, sys, user, why, sizeof(why)) < 0)
		fprintf(stderr, "pagetop: %s\n", why);
	if ((n = replay_count(w.rp)) == 0) {
		fprintf(stderr, "pagetop: %s: no samples\n", path);
		status = 1;
		goto out;
	}
	/* [from, to): samples at or after --since, at or before --until. */
	if ((status = cmd_opt_span("export", w.rp->r, n, since, until, &from, &to)) != 0)
		goto out;
	start = from > EXPORT_PTI_LOOKBACK ? from - EXPORT_PTI_LOOKBACK : 0;
	w.count_from = from;
	for (size_t i = start; i < from; i++)
		walk_to(&w, i);
	for (size_t i = from; i < to; i++) {
		if (walk_to(&w, i) < 0) {
			/* A damaged chunk: its samples are skipped and reported below. */
			status = 1;
			continue;
		}
		if (fmt == EXPORT_JSON) {
			json_line(&w, mask, stdout);
			continue;
		}
		/* The columns and series are those of the first sample. */
		if (!built) {
			if (metrics_build(m, &w.in, mask) < 0 ||
			    !(vals = malloc(((size_t)metrics_n_series(m) + 1) * sizeof(*vals)))) {
				fprintf(stderr, "pagetop: out of memory\n");
				status = 1;
				goto out;
			}
			if (fmt == EXPORT_CSV)
				csv_header(m, stdout);
			else if (!(om = export_om_new(m, why, sizeof(why)))) {
				fprintf(stderr, "pagetop: export: %s\n", why);
				status = 1;
				goto out;
			}
			built = true;
		}
		metrics_values(m, &w.in, vals);
		if (fmt == EXPORT_CSV)
			csv_row(m, w.in.s->wall, vals, stdout);
		else if (export_om_push(om, w.in.s->wall, vals, why, sizeof(why)) < 0) {
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
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pagetop: export: writing: %s\n", strerror(errno));
		status = 1;
	}
	if (from >= to) {
		fprintf(stderr, "pagetop: %s: no samples between --since and --until\n", path);
		status = 1;
	}
	if (replay_report_damage(w.rp, path, stderr) > 0)
		status = 1;
out:
	export_om_free(om);
	free(vals);
	metrics_free(m);
	free(w.groups);
	free(w.rs);
	free(w.pti);
	replay_close(w.rp);
	return status;
}
