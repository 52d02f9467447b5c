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
#include "output/export-csv.h"
#include "output/export-jobs.h"
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
	.usage = "FILE --format csv|json|openmetrics [--since TIME] [--until TIME] [--jobs N]\n"
		 "      [--source buddyinfo|pagetypeinfo|vmstat|meminfo|zoneinfo|pressure|tasks|probes|all]",
	.summary = "write a recording's samples as CSV, JSON lines or OpenMetrics (for promtool)",
	.exec = cmd_export_exec,
};

enum export_format { EXPORT_CSV, EXPORT_JSON, EXPORT_OPENMETRICS };

/* The snapshot's JSON, leaving out the sources not asked for. after: the
 * line before through memo was the sample before this one. */
static void
json_line(struct tick *t, unsigned mask, struct sample_json_memo *memo, bool after, FILE *out)
{
	struct sample *s = t->s;
	struct source_status saved[SRC_COUNT];
	enum probes_state probes = s->probes.state;
	struct json j;

	/* The names the memo holds are the sample before's, when it had them. */
	memo->same_names = 0;
	for (int i = 0; after && t->prev && i < SRC_COUNT; i++)
		if ((t->same_shape & SRC_BIT(i)) && sample_has(t->prev, i))
			memo->same_names |= SRC_BIT(i);
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

/*
 * JSON lines by workers (output/export-jobs.h): each reads the recording
 * through a feed of its own, chunk by chunk; a line is its sample's alone.
 */
#define JSON_JOBS_MAX	16
/* Samples a chunk holds at least: a recording's keyframes are 300 apart. */
#define JSON_JOBS_CHUNK	300

struct json_jobs {
	const struct rec_reader *r;	/* the caller's, for its keyframes */
	unsigned mask;
	int n;
	struct feed *f[JSON_JOBS_MAX];
	struct sample_json_memo memo[JSON_JOBS_MAX];
};

static void
json_jobs_chunk(void *arg, int w, size_t lo, size_t hi, FILE *out, struct export_tally *t)
{
	struct json_jobs *jj = arg;
	struct feed *f = jj->f[w];
	size_t last = SIZE_MAX;

	for (size_t i = lo; i < hi; i++) {
		if (feed_seek(f, i) < 0) {
			if (!t->unread++)
				snprintf(t->first_why, sizeof(t->first_why), "%s", f->why);
			continue;
		}
		t->read++;
		json_line(&f->tick, jj->mask, &jj->memo[w], i > lo && last == i - 1, out);
		last = i;
	}
}

/* At the keyframe at or before lo + JSON_JOBS_CHUNK when it is after lo,
 * else at the first keyframe after lo: a chunk that starts between
 * keyframes costs its worker the decoding from the one before. */
static size_t
json_jobs_end(void *arg, size_t lo, size_t to)
{
	const struct json_jobs *jj = arg;
	size_t e = lo + JSON_JOBS_CHUNK, k, a, b;

	if (e >= to)
		return to;
	if ((k = rec_reader_keyframe(jj->r, e)) > lo)
		return k;
	/* The first i in (e, to) whose keyframe is after lo: keyframes
	 * only grow with i. */
	for (a = e + 1, b = to; a < b;) {
		size_t m = a + (b - a) / 2;

		if (rec_reader_keyframe(jj->r, m) > lo)
			b = m;
		else
			a = m + 1;
	}
	return a;
}

static void
json_jobs_close(struct json_jobs *jj)
{
	for (int w = 0; w < jj->n; w++) {
		sample_json_memo_free(&jj->memo[w]);
		feed_close(jj->f[w]);
	}
	jj->n = 0;
}

/*
 * [from, to) of path by jobs workers to stdout; f is the caller's feed,
 * which takes the damage the workers found. 0; 1 when they could not
 * start (the caller exports alone); -errno, said, when writing failed.
 */
static int
json_jobs_export(struct feed *f, const char *path, int jobs, unsigned mask, size_t from,
		 size_t to, struct export_tally *t)
{
	static const struct export_jobs_ops ops = { .chunk = json_jobs_chunk, .end = json_jobs_end };
	struct json_jobs *jj = calloc(1, sizeof(*jj));
	char why[300];
	int r = 1;

	if (!jj)
		return 1;
	jj->r = replay_feed_replay(f)->r;
	jj->mask = mask;
	for (; jj->n < jobs; jj->n++) {
		if (!(jj->f[jj->n] = replay_feed_open(path, why, sizeof(why))))
			break;
		if (sample_json_memo_init(&jj->memo[jj->n]) < 0) {
			feed_close(jj->f[jj->n]);
			break;
		}
	}
	/* A worker or none: alone is as quick. */
	if (jj->n > 1 && (r = export_jobs_run(jj->n, from, to, &ops, jj, STDOUT_FILENO, t)) < 0)
		fprintf(stderr, "pagetop: export: writing: %s\n", strerror(-r));
	for (int w = 0; r <= 0 && w < jj->n; w++)
		if (rec_reader_damage_merge(replay_feed_replay(f)->r,
					    replay_feed_replay(jj->f[w])->r) < 0) {
			fprintf(stderr, "pagetop: out of memory\n");
			r = -ENOMEM;
		}
	json_jobs_close(jj);
	free(jj);
	return r;
}

/* --jobs' default: the CPUs online, at most 4: each worker holds a few
 * MB of text, and one thread writes it all into the page cache. */
static int
json_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

static int
cmd_export_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "source", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *since = NULL, *until = NULL, *path, *format = NULL;
	enum export_format fmt = EXPORT_CSV;
	struct feed *f;
	struct metrics_input in;
	struct metric_set *m = NULL;
	struct export_om *om = NULL;
	struct export_csv *csv = NULL;
	struct sample_json_memo *memo = NULL;
	struct export_write *wr = NULL;
	FILE *dst = NULL;
	int64_t *vals = NULL;
	unsigned mask = 0;
	size_t n, from, to;
	bool built = false, by_jobs = false;
	char why[512], first_why[sizeof(f->why)] = "";
	size_t read = 0, unread = 0, last_read = SIZE_MAX;
	int c, status = 0, jobs = json_jobs_default();
	char *end;
	long v;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
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
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > JSON_JOBS_MAX) {
				fprintf(stderr, "pagetop: export: --jobs: '%s' is not a number from 1 to %d\n",
					optarg, JSON_JOBS_MAX);
				return EXIT_USAGE;
			}
			jobs = (int)v;
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
	/* No more workers than chunks: a short span is one worker's. */
	if (from < to && (to - from + JSON_JOBS_CHUNK - 1) / JSON_JOBS_CHUNK < (size_t)jobs)
		jobs = (int)((to - from + JSON_JOBS_CHUNK - 1) / JSON_JOBS_CHUNK);
	if (fmt == EXPORT_JSON && jobs > 1 && from < to) {
		struct export_tally t = { 0 };
		int r = json_jobs_export(f, path, jobs, mask, from, to, &t);

		if (r <= 0) {
			read = t.read;
			unread = t.unread;
			snprintf(first_why, sizeof(first_why), "%s", t.first_why);
			if (r < 0)
				status = 1;
			by_jobs = true;
		}
	}
	/* CSV and JSON lines go out through a writer of their own (with
	 * stdout's buffer empty: nothing has gone to it). */
	if (fmt != EXPORT_OPENMETRICS && !by_jobs && (wr = export_write_new(STDOUT_FILENO)) &&
	    !(dst = export_write_file(wr))) {
		export_write_end(wr);
		wr = NULL;
		dst = stdout;
	}
	/* OpenMetrics keeps a series for every probe fallback pair of the
	 * span, however late it first shows: the set is built once. */
	for (size_t i = from; fmt == EXPORT_OPENMETRICS && i < to; i++)
		if (feed_seek(f, i) == 0) {
			in = metrics_input_of(&f->tick);
			metrics_note(m, &in);
		}
	for (size_t i = from; !by_jobs && i < to; i++) {
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
			json_line(&f->tick, mask, memo, i > from && last_read == i - 1, dst);
			last_read = i;
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
			    (fmt == EXPORT_CSV && !(csv = export_csv_new(m, dst, jobs > 1)))) {
				fprintf(stderr, "pagetop: out of memory\n");
				status = 1;
				goto out;
			}
			if (fmt == EXPORT_OPENMETRICS && !(om = export_om_new(m, why, sizeof(why)))) {
				fprintf(stderr, "pagetop: export: %s\n", why);
				status = 1;
				goto out;
			}
			built = true;
		}
		metrics_values(m, &in, vals);
		if (fmt == EXPORT_CSV)
			export_csv_row(csv, in.s->wall, vals);
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
	/* The rows formatted and put before the stream closes. */
	export_csv_end(csv);
	csv = NULL;
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
	export_csv_end(csv);
	if (wr) {
		fclose(dst);
		export_write_end(wr);
	}
	export_om_free(om);
	if (memo)
		sample_json_memo_free(memo);
	free(memo);
	free(vals);
	metrics_free(m);
	feed_close(f);
	return status;
}
