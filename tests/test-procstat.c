/*
 * procstat_parse: the "processes" line of every /proc/stat in
 * proc/procstat, read off the files by eye; every prefix of each (one cut
 * before the number does not parse, and names the line once it holds the
 * whole key; one inside the number gives the digits so far, one past it
 * the whole number); flipped bytes; hand-made lines; and
 * this machine's own /proc/stat.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tap.h"
#include "parse/procstat.h"

#define PROCSTAT_DIR "proc/procstat"

struct expect {
	const char *file;
	uint64_t processes;
	int line;		/* of the "processes" line */
};

static const struct expect expects[] = {
	{ "jc-2cpu-5.8.txt", 9831, 7 },
	{ "live-6.18-x86_64-2cpu.txt", 833516, 7 },
	{ "node_exporter-8cpu-2014.txt", 26442, 13 },
};

static const struct expect *
find_expect(const char *base)
{
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (strcmp(expects[i].file, base) == 0)
			return &expects[i];
	return NULL;
}

/* Damaged copies: a number, or -EINVAL with a message about a line that
 * is in the input. Counts the other outcomes in *ctx. */
static int
damage_parse(const char *buf, size_t len, void *ctx)
{
	struct parse_error err;
	uint64_t v;
	int r = procstat_parse(buf, len, &v, &err), lines = 0;

	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (r != 0 && (r != -EINVAL || err.msg[0] == '\0' || err.line < 0 ||
		       err.line > lines + 1))
		(*(int *)ctx)++;
	return r;
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e = find_expect(base);
	struct parse_error err;
	uint64_t v, want;
	size_t len, digits, end;
	char *buf, *key;
	int r, bad = 0, wrong = 0;

	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	buf = fixture_load(rel, &len);
	r = procstat_parse(buf, len, &v, &err);
	if (!tap_ok(r == 0, "%s: parses", base)) {
		printf("#   line %d: %s\n", err.line, err.msg);
		free(buf);
		return;
	}
	tap_eq_u64(v, e->processes, "%s: processes", base);

	/* Every prefix, in a buffer of exactly its size. */
	key = strstr(buf, "\nprocesses ");
	if (!tap_ok(key != NULL, "%s: has a processes line", base)) {
		free(buf);
		return;
	}
	digits = (size_t)(key - buf) + strlen("\nprocesses ");
	for (end = digits; end < len && buf[end] >= '0' && buf[end] <= '9'; end++)
		;
	for (size_t cut = 0; cut <= len; cut++) {
		char *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		r = procstat_parse(copy, cut, &v, &err);
		want = 0;
		for (size_t i = digits; i < cut && i < end; i++)
			want = want * 10 + (uint64_t)(buf[i] - '0');
		if (cut <= digits)
			wrong += r != -EINVAL ||
			    err.line != (cut >= digits - 1 ? e->line : 0);
		else
			wrong += r != 0 || v != want;
		free(copy);
	}
	tap_eq_int(wrong, 0, "%s: prefixes: none before the number, its digits so far "
		   "after", base);

	fixture_damage(buf, len, damage_parse, &bad);
	tap_eq_int(bad, 0, "%s: damaged copies give a number or -EINVAL with a message", base);
	free(buf);
}

struct hand {
	const char *text;
	int ok;
	uint64_t processes;
	int line;		/* of the error, when not ok */
};

static const struct hand hands[] = {
	{ "processes 12\n", 1, 12, 0 },
	{ "processes 12", 1, 12, 0 },
	{ "processes\t7\n", 1, 7, 0 },
	{ "  processes 5\n", 1, 5, 0 },
	{ "processes 5 6\n", 1, 5, 0 },
	{ "cpu  1 2 3\nprocesses 1\nprocesses 2\n", 1, 1, 0 },
	{ "procs_running 3\nprocesses 4\n", 1, 4, 0 },
	{ "processes 18446744073709551615\n", 1, UINT64_MAX, 0 },
	{ "processes 0\n", 1, 0, 0 },
	{ "", 0, 0, 0 },
	{ "\n\n", 0, 0, 0 },
	{ "procs_running 1\nprocs_blocked 0\n", 0, 0, 0 },
	{ "cpu processes 5\n", 0, 0, 0 },
	{ "xprocesses 5\n", 0, 0, 0 },
	{ "processes5\n", 0, 0, 0 },
	{ "processes\n", 0, 0, 1 },
	{ "cpu  1\nprocesses \n", 0, 0, 2 },
	{ "processes x\n", 0, 0, 1 },
	{ "processes -1\n", 0, 0, 1 },
	{ "processes 12x\n", 0, 0, 1 },
	{ "processes 18446744073709551616\n", 0, 0, 1 },
	{ "ctxt 1\nbtime 2\nprocesses 1.5\n", 0, 0, 3 },
};

static void
check_hand(void)
{
	struct parse_error err;
	uint64_t v;
	char shown[80];
	int r;

	for (size_t i = 0; i < sizeof(hands) / sizeof(hands[0]); i++) {
		const struct hand *h = &hands[i];
		size_t n = 0;

		for (const char *s = h->text; *s && n + 3 < sizeof(shown); s++) {
			if (*s == '\n' || *s == '\t') {
				shown[n++] = '\\';
				shown[n++] = *s == '\n' ? 'n' : 't';
			} else
				shown[n++] = *s;
		}
		shown[n] = '\0';
		v = 0;
		r = procstat_parse(h->text, strlen(h->text), &v, &err);
		if (h->ok)
			tap_ok(r == 0 && v == h->processes, "\"%s\": processes %llu", shown,
			       (unsigned long long)h->processes);
		else
			tap_ok(r == -EINVAL && err.msg[0] != '\0' && err.line == h->line,
			       "\"%s\": rejected on line %d (%s)", shown, err.line, err.msg);
	}
	tap_ok(procstat_parse("processes 1\n", 12, &v, NULL) == 0 &&
	       procstat_parse("processes\n", 10, &v, NULL) == -EINVAL, "err may be NULL");
}

/* This machine's, which counts at least the forks that made this test. */
static void
check_self(void)
{
	char buf[1 << 16];
	uint64_t v = 0;
	size_t n;
	FILE *f;

	if (!(f = fopen("/proc/stat", "r"))) {
		tap_ok(1, "/proc/stat # SKIP not readable");
		return;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	tap_ok(procstat_parse(buf, n, &v, NULL) == 0 && v > 0, "/proc/stat: processes %llu",
	       (unsigned long long)v);
}

int
main(void)
{
	char **list = fixture_list(PROCSTAT_DIR);
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_u64(n, sizeof(expects) / sizeof(expects[0]), "every expectation has its fixture");
	fixture_list_free(list);
	check_hand();
	check_self();
	return tap_done();
}
