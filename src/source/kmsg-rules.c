#include "source/kmsg-rules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/paths.h"

/* A table larger than this is not a table. */
#define RULES_FILE_MAX	(256 * 1024)

/* The events that matter most, for when data/kmsg-events is not installed. */
static const char builtin_rules[] =
	"alloc-failure  *: page allocation failure: order:*\n"
	"alloc-failure  *: page allocation failure. order:*\n"
	"alloc-failure  *: vmalloc error: size *\n"
	"alloc-stall    *: page allocation stalls for *\n"
	"hung-task      INFO: task * blocked for more than *\n"
	"oom-invoked    * invoked oom-killer: *\n"
	"oom-kill       Out of memory: Killed process *\n"
	"oom-kill       Memory cgroup out of memory: Killed process *\n"
	"oom-kill       Killed process *\n"
	"oom-reaped     oom_reaper: reaped process *\n"
	"io-error       * error, dev *, sector *\n"
	"io-error       Buffer I/O error on dev*\n"
	"fs-error       Aborting journal on device *\n"
	"fs-error       EXT4-fs error (device *\n";

bool
kmsg_glob(const char *p, const char *s, size_t n)
{
	const char *star = NULL;
	size_t i = 0, star_i = 0;

	/* The classic one-star backtracking: on a mismatch, the last '*'
	 * takes one more character. The text may go on past the pattern. */
	while (*p) {
		if (*p == '*') {
			star = ++p;
			star_i = i;
			continue;
		}
		if (i < n && s[i] == *p) {
			p++;
			i++;
			continue;
		}
		if (star && star_i < n) {
			p = star;
			i = ++star_i;
			continue;
		}
		return false;
	}
	return true;
}

int
kmsg_rules_match(const struct kmsg_rules *rs, const char *text, size_t len)
{
	for (int i = 0; rs && i < rs->n; i++)
		if (kmsg_glob(rs->r[i].pattern, text, len))
			return (int)rs->r[i].kind;
	return -1;
}

int
kmsg_rules_parse(const char *buf, size_t len, bool user, struct kmsg_rules *out,
		 struct parse_error *err)
{
	struct text_cursor c;
	struct span line, w;
	int kind;

	if (err)
		memset(err, 0, sizeof(*err));
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		struct kmsg_rule *r;

		line = span_trim(line);
		if (line.len == 0 || line.s[0] == '#')
			continue;
		if (out->n >= KMSG_MAX_RULES)
			return parse_fail(err, c.line, "more than %d rules", KMSG_MAX_RULES);
		r = &out->r[out->n];
		span_next_word(&line, &w);
		if ((kind = kmsg_kind_parse(w.s, w.len)) < 0)
			return parse_fail(err, c.line, "unknown kind \"%.*s\"", (int)(w.len < 32 ? w.len : 32),
					  w.s);
		line = span_trim(line);
		if (line.len == 0)
			return parse_fail(err, c.line, "no pattern after the kind");
		if (!span_copy(line, r->pattern, sizeof(r->pattern)))
			return parse_fail(err, c.line, "pattern is longer than %d characters",
					  KMSG_PATTERN_LEN - 1);
		if (strspn(r->pattern, "*") == strlen(r->pattern))
			return parse_fail(err, c.line, "pattern \"%s\" matches every message", r->pattern);
		r->kind = (enum kmsg_kind)kind;
		r->user = user;
		out->n++;
	}
	return 0;
}

void
kmsg_rules_builtin(struct kmsg_rules *out)
{
	kmsg_rules_parse(builtin_rules, sizeof(builtin_rules) - 1, false, out, NULL);
}

/* One table file into rs; -errno and why on failure. */
static int
rules_load_file(struct kmsg_rules *rs, const char *path, bool user, char *why, size_t size)
{
	struct parse_error err;
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int r;

	if (!f) {
		r = -errno;
		snprintf(why, size, "%s: %s", path, strerror(-r));
		return r;
	}
	if (!(buf = malloc(RULES_FILE_MAX + 1))) {
		fclose(f);
		snprintf(why, size, "%s: out of memory", path);
		return -ENOMEM;
	}
	n = fread(buf, 1, RULES_FILE_MAX + 1, f);
	r = ferror(f) ? -EIO : n > RULES_FILE_MAX ? -EFBIG : 0;
	fclose(f);
	if (r == 0 && (r = kmsg_rules_parse(buf, n, user, rs, &err)) < 0)
		snprintf(why, size, "%s: line %d: %s", path, err.line, err.msg);
	else if (r < 0)
		snprintf(why, size, "%s: %s", path, strerror(-r));
	free(buf);
	return r;
}

int
kmsg_rules_load(struct kmsg_rules *out, const char *system_path, const char *user_path,
		char *why, size_t size)
{
	char other[256];
	int ru = 0, rs = 0;

	out->n = 0;
	if (size > 0)
		why[0] = '\0';
	if (user_path && (ru = rules_load_file(out, user_path, true, why, size)) < 0 &&
	    (ru == -ENOENT || ru == -ENOTDIR)) {
		ru = 0;
		why[0] = '\0';
	}
	/* The system table is read even after a bad user file: every rule we can get. */
	if (system_path) {
		char *w = ru ? other : why;
		size_t wsize = ru ? sizeof(other) : size;

		rs = rules_load_file(out, system_path, false, w, wsize);
		if (rs == -ENOENT || rs == -ENOTDIR) {
			snprintf(w, wsize, "%s: not found: kernel log events from the built-in table",
				 system_path);
			kmsg_rules_builtin(out);
		}
	}
	return ru ? ru : rs;
}

int
kmsg_rules_load_installed(struct kmsg_rules *out, char *why, size_t size)
{
	char sys[4096], user[4096];

	paths_data("kmsg-events", sys, sizeof(sys));
	paths_config("kmsg-events", user, sizeof(user));
	return kmsg_rules_load(out, sys, user, why, size);
}
