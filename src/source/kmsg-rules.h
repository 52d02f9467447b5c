/*
 * Which kernel messages are events: a table (data/kmsg-events, with the
 * user's ~/.config/pagetop/kmsg-events before it) of "KIND PATTERN" lines.
 * A pattern is compared with the start of a message's text; '*' matches
 * any run of characters. The first rule that matches wins.
 */
#ifndef PAGETOP_KMSG_RULES_H
#define PAGETOP_KMSG_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/kmsg.h"
#include "util/text.h"

#define KMSG_MAX_RULES		128
#define KMSG_PATTERN_LEN	96

struct kmsg_rule {
	enum kmsg_kind kind;
	char pattern[KMSG_PATTERN_LEN];
	bool user;		/* from the user's file */
};

struct kmsg_rules {
	int n;
	struct kmsg_rule r[KMSG_MAX_RULES];
};

/* Appends the rules of one table's text to out. 0, or -EINVAL with err
 * naming the line. */
int kmsg_rules_parse(const char *buf, size_t len, bool user, struct kmsg_rules *out,
		     struct parse_error *err);
/* The few rules compiled in, for an installation without its table. */
void kmsg_rules_builtin(struct kmsg_rules *out);
/*
 * The user's rules, then the system table's. A missing user file is fine;
 * a missing system table gives the built-in rules (after the user's),
 * -ENOENT and why; a malformed file gives -EINVAL and why ("FILE: line N:
 * ..."), and rules read so far are kept.
 */
int kmsg_rules_load(struct kmsg_rules *out, const char *system_path, const char *user_path,
		    char *why, size_t size);
/* kmsg_rules_load() of the installed table (paths_data) and the user's
 * (paths_config). */
int kmsg_rules_load_installed(struct kmsg_rules *out, char *why, size_t size);
/* The kind of the first rule that matches the text's start, or -1. */
int kmsg_rules_match(const struct kmsg_rules *rs, const char *text, size_t len);
/* pattern ('*': any run) against the start of s[0..n). */
bool kmsg_glob(const char *pattern, const char *s, size_t n);

#endif
