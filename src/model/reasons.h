/*
 * Why a task is blocked, from its kernel stack: a table (data/wait-reasons,
 * and ~/.config/pagetop/wait-reasons before it) maps function names to a
 * category and a short reason in plain words. The highest-priority rule
 * that matches any frame wins, as in latencytop.
 */
#ifndef PAGETOP_REASONS_H
#define PAGETOP_REASONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/stack.h"
#include "util/text.h"

enum wait_category {
	WAIT_JOURNAL,
	WAIT_WRITEBACK,
	WAIT_PAGE_IO,
	WAIT_RECLAIM,
	WAIT_COMPACTION,
	WAIT_BLOCK,
	WAIT_LOCK,
	WAIT_NFS,
	WAIT_FUSE,
	WAIT_VFORK,
	WAIT_OTHER,
	WAIT_COUNT
};

#define REASONS_MAX_RULES	512
#define REASON_PATTERN_LEN	64
#define REASON_TEXT_LEN		80

/* A rule's texts are in its table's pool, each once (many rules share a
 * reason): a rule is 12 bytes where two fixed fields were 144, and the
 * table takes what its text takes. Offsets, so a table copies whole. */
struct reason_rule {
	int priority;				/* higher wins */
	uint32_t reason;			/* in pool: "waiting for the ext4 journal to commit" */
	unsigned pattern : 17;			/* in pool: a function name; a trailing '*' matches a prefix */
	unsigned plen : 6;			/* the pattern's length without its '*' */
	unsigned category : 4;			/* enum wait_category */
	unsigned prefix : 1;			/* it ends with '*' */
	unsigned dotted : 1;			/* it holds a '.': compared with the whole name */
	unsigned user : 1;			/* from the user's file: wins ties */
};

/* Every rule at its longest fits; with no rules the pool is empty. */
#define REASONS_POOL	(REASONS_MAX_RULES * (REASON_PATTERN_LEN + REASON_TEXT_LEN))
_Static_assert(REASONS_POOL <= 1 << 17 && REASON_PATTERN_LEN <= 64 && WAIT_COUNT <= 16,
	       "reason_rule's bit fields");

/* The pool first: the rules after it start on a page of their own, and
 * a table of a few hundred rules touches a page of them. */
struct reasons {
	int n;
	uint32_t pool_used;
	char pool[REASONS_POOL];
	struct reason_rule r[REASONS_MAX_RULES];
};

/* Rule i's pattern as written ("foo_*") and its reason. */
static inline const char *
reasons_pattern(const struct reasons *rs, int i)
{
	return rs->pool + rs->r[i].pattern;
}

static inline const char *
reasons_text(const struct reasons *rs, int i)
{
	return rs->pool + rs->r[i].reason;
}

struct reason_match {
	enum wait_category category;
	const char *reason;	/* the rule's text, or the frame's function name */
	int frame;		/* the frame that matched or was chosen, -1 none */
	bool matched;		/* a rule matched (else: first meaningful frame) */
};

/* "journal", "writeback", ...; -1 from wait_category_parse for unknown names. */
const char *wait_category_name(enum wait_category c);
int wait_category_parse(const char *name);

/*
 * Appends the rules of one table file's text to out. Lines: "PRIORITY
 * CATEGORY PATTERN REASON...", '#' comments and blank lines allowed.
 * 0, or -EINVAL with err naming the line.
 */
int reasons_parse(const char *buf, size_t len, bool user, struct reasons *out,
		  struct parse_error *err);

/*
 * The system table, then the user's (which take precedence over equal
 * priorities). A missing user file is fine; a missing or malformed system
 * file, or a malformed user file, is reported in why ("FILE: line N: ...")
 * and -errno returned; rules read so far are kept.
 */
int reasons_load(struct reasons *out, const char *system_path, const char *user_path,
		 char *why, size_t size);
/* The installed table (paths_data) and the user's (paths_config). */
int reasons_load_installed(struct reasons *out, char *why, size_t size);

/* The best rule for st; with no match, the first frame that is not
 * scheduler plumbing (schedule, io_schedule, ...), category other; with
 * no stack at all, wchan (which may be NULL or "0"). */
void reasons_match(const struct reasons *rs, const struct stack *st, const char *wchan,
		   struct reason_match *out);

#endif
