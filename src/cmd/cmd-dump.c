/* pagetop dump FILE: a recording's figures as the kernel printed them. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/host.h"
#include "cmd/cmd-opts.h"
#include "output/json.h"
#include "parse/kmsg.h"
#include "source/replay.h"
#include "output/sample-json.h"
#include "output/sample-proc.h"
#include "output/sample-text.h"
#include "util/fmt.h"
#include "util/text.h"

/* Text from the recording (or the machine it was made on), escaped for a
 * terminal. */
#define ESC(buf, str)	text_esc(buf, sizeof(buf), str)

static int cmd_dump_exec(int, char **);

/* The recording's kernel-log events for --at event:N, found by reading
 * every sample once (only when asked: it costs a pass). */
struct dump_events {
	size_t n, cap;
	struct when_mark *m;
};

static bool
dump_event_at(const void *ctx, size_t i, struct when_mark *m)
{
	const struct dump_events *de = ctx;

	if (i >= de->n)
		return false;
	*m = de->m[i];
	return true;
}

static int
dump_events_scan(struct feed *f, size_t n, struct dump_events *de)
{
	for (size_t i = 0; i < n; i++) {
		const struct sample *s;

		if (feed_seek(f, i) < 0)
			continue;
		s = f->tick.s;
		for (int k = 0; k < s->kmsg.n && k < KMSG_MAX_EVENTS; k++) {
			if (de->n == de->cap) {
				size_t cap = de->cap ? 2 * de->cap : 64;
				struct when_mark *m = realloc(de->m, cap * sizeof(*m));

				if (!m)
					return -ENOMEM;
				de->m = m;
				de->cap = cap;
			}
			de->m[de->n++] = (struct when_mark){
				kmsg_event_wall(&s->kmsg.ev[k], s->wall, s->mono), i, "" };
		}
	}
	return 0;
}

const struct cmd_entry cmd_dump_entry = {
	.name = "dump",
	.usage = "FILE [--at TIME]\n"
		 "      [--source buddyinfo|pagetypeinfo|vmstat|meminfo|pressure|tasks|events|probes|all]\n"
		 "      [--json] | FILE --info",
	.summary = "print a recording's values at a moment in the kernel's own format (or JSON)",
	.exec = cmd_dump_exec,
};

static void
fmt_time(double t, char *dst, size_t size)
{
	fmt_moment(t, FMT_DATE, dst, size);
}

/* The kernel log events of the whole recording, a line each. */
static void
dump_info_events(struct feed *f, size_t n)
{
	size_t count = 0;
	uint64_t lost = 0, dropped = 0;
	bool read = false;
	int err = 0;
	char a[32], brief[160], eb[TEXT_ESCAPED_SIZE(160)];

	for (size_t i = 0; i < n; i++) {
		const struct kmsg_sample *k;

		if (feed_seek(f, i) < 0)
			continue;
		k = &f->tick.s->kmsg;
		read |= k->read;
		if (k->read && k->err)
			err = k->err;
		lost += k->lost;
		dropped += k->dropped;
		for (int e = 0; e < k->n && e < KMSG_MAX_EVENTS; e++) {
			fmt_time(kmsg_event_wall(&k->ev[e], f->tick.s->wall, f->tick.s->mono), a,
				 sizeof(a));
			kmsg_event_brief(&k->ev[e], brief, sizeof(brief));
			printf("event:      %s  %s  %s\n", a, kmsg_kind_name(k->ev[e].kind),
			       ESC(eb, brief));
			count++;
		}
	}
	if (!read) {
		printf("kernel log: not recorded\n");
		return;
	}
	if (err && !count) {
		kmsg_reason(err, brief, sizeof(brief));
		printf("kernel log: could not be read: %s\n", brief);
		return;
	}
	printf("kernel log: %zu events", count);
	if (lost || dropped)
		printf(" (%llu records overwritten before they were read, %llu events not kept)",
		       (unsigned long long)lost, (unsigned long long)dropped);
	printf("\n");
}

static int
dump_info(struct feed *f, const char *path)
{
	const struct replay *rp = replay_feed_replay(f);
	const struct rec_header *h = rec_reader_header(rp->r);
	struct rec_info info;
	size_t n = replay_count(rp), nm, ng, nd;
	const struct rec_mark *m = rec_reader_marks(rp->r, &nm);
	const struct rec_gap *g = rec_reader_gaps(rp->r, &ng);
	const struct rec_damage *dm = rec_reader_damage(rp->r, &nd);
	char a[32], b[32], facts[400], e[TEXT_ESCAPED_SIZE(1024)];

	rec_reader_info(rp->r, &info);
	printf("file:       %s (%llu bytes, format %d.%d%s)\n", ESC(e, path),
	       (unsigned long long)info.size, info.major, info.minor,
	       info.indexed ? "" : ", not closed properly: frames scanned");
	host_facts(&f->host, facts, sizeof(facts));
	printf("host:       %s\n", ESC(e, facts));
	printf("boot id:    %s\n", ESC(e, h->boot_id));
	printf("recorded:   by pagetop %s", ESC(e, h->version));
	printf(" every %gs: %s\n", h->interval, ESC(e, h->cmdline));
	if (h->pti_every > 0)
		printf("pagetypeinfo: read every %gs\n", h->pti_every);
	if (n) {
		fmt_time(feed_time_of(f, 0), a, sizeof(a));
		fmt_time(feed_time_of(f, n - 1), b, sizeof(b));
		printf("time:       %s to %s (%.0f s)\n", a, b,
		       feed_time_of(f, n - 1) - feed_time_of(f, 0));
	}
	printf("%zu samples\n", n);
	for (size_t i = 0; i < ng; i++) {
		fmt_time(g[i].first, a, sizeof(a));
		printf("gap:        %s, %llu samples lost (the recorder could not keep up)\n", a,
		       (unsigned long long)g[i].lost);
	}
	for (size_t i = 0; i < nm; i++) {
		fmt_time(m[i].wall, a, sizeof(a));
		printf("mark:       %s  %s\n", a, ESC(e, m[i].text));
	}
	for (size_t i = 0; i < nd; i++)
		printf("damage:     at byte %llu, %llu bytes skipped, %llu samples lost\n",
		       (unsigned long long)dm[i].offset, (unsigned long long)dm[i].bytes,
		       (unsigned long long)dm[i].lost);
	if (info.tail)
		printf("damage:     the last %llu bytes are a frame cut short\n",
		       (unsigned long long)info.tail);
	dump_info_events(f, n);
	return 0;
}

/* The kernel log events: not a file of /proc, a bit of their own. */
#define DUMP_EVENTS	(1u << 31)
_Static_assert(SRC_COUNT < 31, "DUMP_EVENTS is not a source's bit");
/* The kernel probes likewise. */
#define DUMP_PROBES	(1u << 30)
_Static_assert(SRC_COUNT < 30, "DUMP_PROBES is not a source's bit");

static const struct {
	const char *name;
	unsigned mask;
} dump_sources[] = {
	{ "buddyinfo", SRC_BIT(SRC_BUDDYINFO) },
	{ "pagetypeinfo", SRC_BIT(SRC_PAGETYPEINFO) },
	{ "vmstat", SRC_BIT(SRC_VMSTAT) },
	{ "meminfo", SRC_BIT(SRC_MEMINFO) },
	{ "pressure", SRC_BIT(SRC_PSI_CPU) | SRC_BIT(SRC_PSI_MEMORY) | SRC_BIT(SRC_PSI_IO) |
	  SRC_BIT(SRC_PSI_IRQ) },
	{ "tasks", SRC_BIT(SRC_TASKS) },
	{ "events", DUMP_EVENTS },
	{ "probes", DUMP_PROBES },
};

/*
 * pagetypeinfo is read less often than the rest: a sample between reads is
 * shown with the read in force (the tick's), copied in with its time.
 */
static double
dump_pti_in_force(const struct tick *t, struct sample *shown)
{
	*shown = *t->s;
	if (t->s->status[SRC_PAGETYPEINFO].err != SRC_NOT_READ)
		return t->s->wall;
	if (!t->have_pti)
		return NAN;
	shown->pti = *t->pti;
	shown->status[SRC_PAGETYPEINFO].err = 0;
	return t->pti_wall;
}

/* One sample as text: a "==> /proc/FILE <==" heading per file, as tail(1)
 * does. false when none of the sources asked for is in the sample: then one
 * line on stderr says why (the first one's reason), not an empty output. */
static bool
dump_text(const char *path, const struct sample *s, const struct sample *prev, unsigned mask,
	  double pti_when)
{
	char when[32], why[200], e1[TEXT_ESCAPED_SIZE(200)], e2[TEXT_ESCAPED_SIZE(200)];
	bool first = true;
	int missing = -1;

	for (int src = 0; src < SRC_COUNT; src++) {
		if (!(mask & SRC_BIT(src)))
			continue;
		if (!sample_has(s, src)) {
			if (missing < 0)
				missing = src;
			continue;
		}
		fmt_time(src == SRC_PAGETYPEINFO && !isnan(pti_when) ? pti_when : s->wall, when,
			 sizeof(when));
		printf("%s==> /proc/%s at %s <==\n", first ? "" : "\n", src == SRC_TASKS ?
		       "*/task/*/stack (blocked tasks)" : source_name(src), when);
		sample_proc_print(stdout, s, src);
		first = false;
	}
	/* The probes: shown when recorded, or said missing when asked for. */
	if ((mask & DUMP_PROBES) && s->probes.state != PROBES_NONE) {
		fmt_time(s->wall, when, sizeof(when));
		printf("%s==> kernel probes at %s <==\n", first ? "" : "\n", when);
		sample_text_probes(stdout, s, prev);
		first = false;
	} else if ((mask & DUMP_PROBES) && !(mask & ~(DUMP_PROBES | DUMP_EVENTS))) {
		fmt_time(s->wall, when, sizeof(when));
		fprintf(stderr, "pagetop: %s: no kernel probes at %s: not recorded (the "
			"recording was made without them, or by an older pagetop)\n",
			ESC(e1, path), when);
		return false;
	}
	if (!first || missing < 0)
		return true;
	fmt_time(s->wall, when, sizeof(when));
	source_reason(&s->status[missing], why, sizeof(why));
	fprintf(stderr, "pagetop: %s: no %s at %s: %s\n", ESC(e1, path), source_name(missing), when,
		ESC(e2, why));
	return false;
}

/* A sample's kernel log events as the kernel printed them (dmesg's format),
 * each under a heading with its kind and time. */
static void
dump_events(const struct sample *s, bool *any)
{
	char when[32], shown[TEXT_ESCAPED_SIZE(KMSG_TEXT_MAX)];

	for (int i = 0; i < s->kmsg.n && i < KMSG_MAX_EVENTS; i++) {
		const struct kmsg_event *ev = &s->kmsg.ev[i];
		char stamp[32];

		fmt_time(kmsg_event_wall(ev, s->wall, s->mono), when, sizeof(when));
		snprintf(stamp, sizeof(stamp), "[%5llu.%06llu]", (unsigned long long)(ev->ts_us / 1000000),
			 (unsigned long long)(ev->ts_us % 1000000));
		printf("%s==> /dev/kmsg: %s at %s (record %llu%s) <==\n", *any ? "\n" : "",
		       kmsg_kind_name(ev->kind), when, (unsigned long long)ev->seq,
		       ev->truncated ? ", the first lines" : "");
		for (const char *p = ev->text; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);

			text_escape(shown, sizeof(shown), p, len);
			printf("%s %s\n", stamp, shown);
			p += len + (nl ? 1 : 0);
		}
		*any = true;
	}
}

static int
cmd_dump_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "source", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "info", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *at = NULL, *path;
	bool as_json = false, info = false, printed = false;
	unsigned mask = 0;
	struct sample *shown = NULL;
	struct feed *f;
	struct dump_events events = { 0, 0, NULL };
	struct replay *rp;
	char why[512], first_why[sizeof(f->why)] = "";
	int c, status = 0;
	size_t from, to, n, read = 0, unread = 0;
	bool shown_one = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			at = optarg;
			break;
		case 's': {
			bool all = strcmp(optarg, "all") == 0, found = all;

			for (size_t i = 0; i < sizeof(dump_sources) / sizeof(dump_sources[0]); i++)
				if (all || strcmp(optarg, dump_sources[i].name) == 0) {
					mask |= dump_sources[i].mask;
					found = true;
				}
			if (!found) {
				fprintf(stderr, "pagetop: dump: unknown source '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'j':
			as_json = true;
			break;
		case 'i':
			info = true;
			break;
		case 'h':
			return cmd_opt_usage(&cmd_dump_entry, true);
		default:
			return cmd_opt_usage(&cmd_dump_entry, false);
		}
	}
	if (optind + 1 != argc)
		return cmd_opt_usage(&cmd_dump_entry, false);
	path = argv[optind];
	if (!mask)
		mask = ~0u;
	if (!(f = replay_feed_open(path, why, sizeof(why)))) {
		char e[TEXT_ESCAPED_SIZE(sizeof(why))];

		fprintf(stderr, "pagetop: %s\n", ESC(e, why));
		return 1;
	}
	rp = replay_feed_replay(f);
	if (info) {
		status = dump_info(f, path);
		goto out;
	}
	n = feed_count(f);
	if (n == 0) {
		fprintf(stderr, "pagetop: %s: no samples\n", path);
		status = 1;
		goto out;
	}
	from = 0;
	to = n - 1;
	if (at) {
		struct when_span span;
		double t;

		cmd_opt_recording_span(rp->r, n, &span);
		if (strstr(at, "event:") || strchr(at, ':')) {
			if (dump_events_scan(f, n, &events) < 0) {
				fprintf(stderr, "pagetop: out of memory\n");
				status = 1;
				goto out;
			}
			span.event = dump_event_at;
			span.event_ctx = &events;
		}
		status = cmd_opt_time("dump", "--at", at, &span, &t);
		if (status != 0)
			goto out;
		from = to = when_pick(&span, t);
	} else if (!as_json) {
		/* Text without --at: the last moment that can be read (those
		 * after it are warned about) ... */
		for (to = n - 1; to > 0 && feed_seek(f, to) < 0; to--)
			if (!unread++)
				snprintf(first_why, sizeof(first_why), "%s", f->why);
		from = to;
		/* ... but the events of the whole recording. */
		if (mask & DUMP_EVENTS)
			from = 0;
	}
	for (size_t i = from; i <= to; i++) {
		const struct tick *t = &f->tick;
		double pti_when = NAN;

		/* A damaged chunk or a sample that does not decode: skipped,
		 * and said once, below. */
		if (feed_seek(f, i) < 0) {
			if (!unread++)
				snprintf(first_why, sizeof(first_why), "%s", f->why);
			continue;
		}
		read++;
		/* One moment shows the pagetypeinfo read in force there. */
		if (from == to && (mask & (SRC_BIT(SRC_PAGETYPEINFO) | DUMP_PROBES))) {
			if (!shown && !(shown = malloc(sizeof(*shown)))) {
				fprintf(stderr, "pagetop: out of memory\n");
				status = 1;
				goto out;
			}
			pti_when = dump_pti_in_force(t, shown);
		}
		if (as_json) {
			struct json j;

			json_init(&j, stdout);
			if (from == to && shown)
				sample_json_at(&j, shown, tick_groups(&f->tick), pti_when);
			else
				sample_json(&j, t->s, tick_groups(&f->tick));
			fputc('\n', stdout);
			continue;
		}
		if (mask & DUMP_EVENTS)
			dump_events(t->s, &printed);
		/* What was read at the event comes with it. */
		if ((mask & DUMP_EVENTS) && t->s->n_capture > 0) {
			printf("\n");
			sample_text_capture(stdout, t->s);
		}
		if (i != to)
			continue;
		shown_one = true;
		if (printed && (mask & ~DUMP_EVENTS))
			printf("\n");
		if (!dump_text(path, shown ? shown : t->s, t->prev, mask, pti_when))
			status = 1;
	}
	if (!as_json && mask == DUMP_EVENTS && !printed && read)
		printf("no kernel log event %s\n", at ? "in this sample" : "in the recording");
	/* The text of one moment needs that moment; events and JSON, any sample. */
	if (cmd_recording_status(rp, path, !as_json && mask != DUMP_EVENTS ? shown_one : read,
				 unread, first_why) != 0)
		status = 1;
out:
	free(events.m);
	free(shown);
	feed_close(f);
	return status;
}
