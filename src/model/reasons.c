/*
 * Wait reasons: a table of "PRIORITY CATEGORY PATTERN REASON..." lines
 * (data/wait-reasons, then the user's file) and the matcher that picks
 * one rule for a stack.
 *
 * Matching compares a pattern with a frame's name after its compiler
 * suffix is dropped: C identifiers have no dots, so everything from the
 * first '.' is one (".constprop.0", ".isra.0", ".part.26", ".cold",
 * ".llvm.123", ".lto_priv.0"), and "shrink_slab" matches
 * "shrink_slab.constprop.0" whatever the build called it. A pattern that
 * itself holds a '.' is compared with the whole name. The stack keeps the
 * suffixes (stack.c) so that what is shown is what the kernel printed.
 *
 * The best rule has the highest priority; ties go to a user rule, then to
 * the innermost frame, then to the earlier rule. With no rule, the first
 * frame that is not plumbing is shown as it is (see plumbing_rank).
 */

#include "model/reasons.h"
#include "util/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/readall.h"

/* A table larger than this is not a table. */
#define REASONS_FILE_MAX	(1024 * 1024)

/* At most this much of a bad word is quoted in a message. */
#define SHOWN_MAX 32

static const char *const category_names[WAIT_COUNT] = {
	[WAIT_JOURNAL] = "journal",
	[WAIT_WRITEBACK] = "writeback",
	[WAIT_PAGE_IO] = "page-io",
	[WAIT_RECLAIM] = "reclaim",
	[WAIT_COMPACTION] = "compaction",
	[WAIT_BLOCK] = "block",
	[WAIT_LOCK] = "lock",
	[WAIT_NFS] = "nfs",
	[WAIT_FUSE] = "fuse",
	[WAIT_VFORK] = "vfork",
	[WAIT_OTHER] = "other",
};

/* Shown for a task with neither a stack nor a wchan. */
static const char no_stack_reason[] = "unknown (kernel stack needs root)";

const char *
wait_category_name(enum wait_category c)
{
	if ((int)c < 0 || c >= WAIT_COUNT)
		return "unknown";
	return category_names[c];
}

int
wait_category_parse(const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < WAIT_COUNT; i++) {
		if (strcmp(name, category_names[i]) == 0)
			return i;
	}
	return -1;
}

static int
shown(struct span w)
{
	return (int)(w.len < SHOWN_MAX ? w.len : SHOWN_MAX);
}

/* One rule's texts while its line is read. */
struct rule_text {
	char pattern[REASON_PATTERN_LEN];
	char reason[REASON_TEXT_LEN];
};

/* One non-comment line into r and t. */
static int
reasons_line(struct span rest, int line, struct reason_rule *r,
    struct rule_text *t, struct parse_error *err)
{
	struct span w;
	char cat[16];
	int c;

	if (!span_next_word(&rest, &w) || span_to_int(w, &r->priority) != 0)
		return parse_fail(err, line,
		    "priority \"%.*s\" is not an integer", shown(w), w.s);

	if (!span_next_word(&rest, &w))
		return parse_fail(err, line, "no category after the priority");
	if (!span_copy(w, cat, sizeof(cat)) ||
	    (c = wait_category_parse(cat)) < 0)
		return parse_fail(err, line, "unknown category \"%.*s\"",
		    shown(w), w.s);
	r->category = (unsigned)c;

	if (!span_next_word(&rest, &w))
		return parse_fail(err, line, "no pattern after the category");
	if (!span_copy(w, t->pattern, sizeof(t->pattern)))
		return parse_fail(err, line,
		    "pattern \"%.*s...\" is longer than %d characters",
		    shown(w), w.s, REASON_PATTERN_LEN - 1);
	if (strcspn(t->pattern, "*") + 1 < w.len)
		return parse_fail(err, line,
		    "pattern \"%s\": '*' only at the end of a name",
		    t->pattern);
	/* A lone '*' would hide the fallback for every stack. */
	if (strcmp(t->pattern, "*") == 0)
		return parse_fail(err, line, "pattern \"*\" matches everything");

	rest = span_trim(rest);
	if (rest.len == 0)
		return parse_fail(err, line, "no reason after the pattern");
	if (!span_copy(rest, t->reason, sizeof(t->reason)))
		return parse_fail(err, line,
		    "reason is longer than %d characters", REASON_TEXT_LEN - 1);
	return 0;
}

/* s's offset in rs's pool, added unless an earlier rule's reason is s
 * (the pool has room: every rule fits at its longest). */
static uint32_t
pool_put(struct reasons *rs, const char *s, bool shared)
{
	size_t len = strlen(s) + 1;
	uint32_t at;

	for (int i = 0; shared && i < rs->n; i++)
		if (strcmp(rs->pool + rs->r[i].reason, s) == 0)
			return rs->r[i].reason;
	at = rs->pool_used;
	memcpy(rs->pool + at, s, len);
	rs->pool_used += (uint32_t)len;
	return at;
}

int
reasons_parse(const char *buf, size_t len, bool user, struct reasons *out,
    struct parse_error *err)
{
	struct text_cursor c;
	struct rule_text t;
	struct span line;

	if (err != NULL)
		memset(err, 0, sizeof(*err));
	/* No rule left points into it. */
	if (out->n == 0)
		out->pool_used = 0;
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		struct reason_rule *r = &out->r[out->n];
		size_t plen;

		line = span_trim(line);
		if (line.len == 0 || line.s[0] == '#')
			continue;
		if (out->n >= REASONS_MAX_RULES)
			return parse_fail(err, c.line, "more than %d rules",
			    REASONS_MAX_RULES);
		if (reasons_line(line, c.line, r, &t, err) != 0)
			return -EINVAL;
		plen = strlen(t.pattern);
		r->prefix = plen > 0 && t.pattern[plen - 1] == '*';
		if (r->prefix)
			plen--;
		r->plen = (unsigned)plen;
		r->dotted = memchr(t.pattern, '.', plen) != NULL;
		r->user = user;
		r->pattern = pool_put(out, t.pattern, false);
		r->reason = pool_put(out, t.reason, true);
		out->n++;
	}
	return 0;
}

/* The whole of path, malloc'd; -errno. Start-up only. A read error is
 * -EIO, whatever read() said, as it was when this read through stdio. */
static int
read_whole(const char *path, char **buf, size_t *len)
{
	char *p = NULL, *np;
	size_t cap = 0, n = 0;
	ssize_t got;
	int fd;

	*buf = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	do {
		if (n == cap) {
			if (cap >= REASONS_FILE_MAX) {
				free(p);
				close(fd);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 16384;
			if ((np = realloc(p, cap)) == NULL) {
				free(p);
				close(fd);
				return -ENOMEM;
			}
			p = np;
		}
		if ((got = readall(fd, p + n, cap - n, READALL_HERE)) < 0) {
			free(p);
			close(fd);
			return -EIO;
		}
		n += (size_t)got;
	} while (n == cap);
	close(fd);
	*buf = p;
	*len = n;
	return 0;
}

/* One table file into rs; a message in why on failure. */
static int
reasons_load_file(struct reasons *rs, const char *path, bool user,
    bool missing_ok, char *why, size_t size)
{
	struct parse_error err;
	char *buf;
	size_t len;
	int r;

	if ((r = read_whole(path, &buf, &len)) != 0) {
		if (missing_ok && (r == -ENOENT || r == -ENOTDIR))
			return 0;
		snprintf(why, size, "%s: %s", path, strerror(-r));
		return r;
	}
	r = reasons_parse(buf, len, user, rs, &err);
	free(buf);
	if (r != 0) {
		if (err.line > 0)
			snprintf(why, size, "%s: line %d: %s", path, err.line,
			    err.msg);
		else
			snprintf(why, size, "%s: %s", path, err.msg);
	}
	return r;
}

/*
 * The user's file is read even when the system one failed, so that a
 * caller who carries on with a warning has every rule it can get; why
 * and the return value describe the first failure.
 */
int
reasons_load(struct reasons *out, const char *system_path,
    const char *user_path, char *why, size_t size)
{
	char other[256];
	int r = 0, r2 = 0;

	out->n = 0;
	out->pool_used = 0;
	if (size > 0)
		why[0] = '\0';
	if (system_path != NULL)
		r = reasons_load_file(out, system_path, false, false, why, size);
	if (user_path != NULL)
		r2 = reasons_load_file(out, user_path, true, true,
		    r != 0 ? other : why, r != 0 ? sizeof(other) : size);
	return r != 0 ? r : r2;
}

/* The length of func without its compiler suffix. */
static size_t
func_base_len(const char *func)
{
	return strcspn(func, ".");
}

static bool
rule_matches(const char *pat, size_t plen, bool prefix, bool dotted,
    const char *func)
{
	size_t flen = dotted ? strlen(func) : func_base_len(func);

	if (prefix)
		return flen >= plen && memcmp(func, pat, plen) == 0;
	return flen == plen && memcmp(func, pat, plen) == 0;
}

/*
 * How much a frame says about why the task waits, for stacks no rule
 * matches: 0 for the scheduler itself and unnamed addresses (never
 * chosen while anything else is there), 1 for generic waits, sleeps and
 * entry code (chosen only when every frame is one of them), 2 for the
 * rest. Kept short: an unknown stack shows its first rank-2 frame.
 */
static int
plumbing_rank(const char *func)
{
	static const char *const core[] = {
		"__switch_to", "__switch_to_asm", "__schedule", "schedule",
		"preempt_schedule", "preempt_schedule_common",
		"preempt_schedule_irq", "__cond_resched", "_cond_resched",
	};
	static const char *const generic[] = {
		"schedule_timeout", "schedule_timeout_uninterruptible",
		"schedule_timeout_killable", "schedule_timeout_interruptible",
		"schedule_timeout_idle", "schedule_hrtimeout",
		"schedule_hrtimeout_range", "schedule_hrtimeout_range_clock",
		"schedule_preempt_disabled", "io_schedule",
		"io_schedule_timeout", "bit_wait", "bit_wait_io",
		"bit_wait_timeout", "bit_wait_io_timeout", "wait_woken",
		"msleep", "msleep_interruptible", "usleep_range",
		"usleep_range_state", "kthread", "child_rip", "int_signal",
		"tracesys", "do_syscall_64", "do_fast_syscall_32",
		"system_call_fastpath", "__sys_trace_return",
	};
	static const char *const generic_prefix[] = {
		"wait_for_completion", "__wait_for_common", "wait_for_common",
		"do_wait_for_common", "__wait_on_bit", "out_of_line_wait_on_bit",
		"ret_from_fork", "entry_SYSCALL", "el0_",
	};
	size_t n = func_base_len(func), i, k;

	if (strncmp(func, "0x", 2) == 0)
		return 0;
	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
		if (strlen(core[i]) == n && memcmp(func, core[i], n) == 0)
			return 0;
	}
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		if (strlen(generic[i]) == n && memcmp(func, generic[i], n) == 0)
			return 1;
	}
	for (i = 0; i < sizeof(generic_prefix) / sizeof(generic_prefix[0]);
	    i++) {
		k = strlen(generic_prefix[i]);
		if (n >= k && memcmp(func, generic_prefix[i], k) == 0)
			return 1;
	}
	return 2;
}

/* The best rule matching any of n names; -1 if none, else the rule and *frame. */
static int
best_rule(const struct reasons *rs, const char *const *funcs, int n,
    int *frame)
{
	const struct reason_rule *r, *b = NULL;
	int i, k, best = -1, bf = 0;

	for (i = 0; rs != NULL && i < rs->n; i++) {
		r = &rs->r[i];
		if (b != NULL && (r->priority < b->priority ||
		    (r->priority == b->priority && !r->user && b->user)))
			continue;
		/* Frames inner to the best one only, on a full tie. */
		for (k = 0; k < n; k++) {
			if (b != NULL && r->priority == b->priority &&
			    r->user == b->user && k >= bf)
				break;
			if (rule_matches(rs->pool + r->pattern, r->plen,
			    r->prefix, r->dotted, funcs[k])) {
				b = r;
				best = i;
				bf = k;
				break;
			}
		}
	}
	*frame = bf;
	return best;
}

void
reasons_match(const struct reasons *rs, const struct stack *st,
    const char *wchan, struct reason_match *out)
{
	const char *funcs[STACK_MAX_FRAMES];
	int n = 0, k, rank, pick = -1, pick_rank = -1, i, frame;

	if (st != NULL)
		n = st->n < STACK_MAX_FRAMES ? st->n : STACK_MAX_FRAMES;
	out->category = WAIT_OTHER;
	out->frame = -1;
	out->matched = false;

	if (n <= 0) {
		/* wchan is one function name, so the table applies to it. */
		if (wchan == NULL || wchan[0] == '\0' ||
		    strcmp(wchan, "0") == 0) {
			out->reason = no_stack_reason;
			return;
		}
		if ((i = best_rule(rs, &wchan, 1, &frame)) >= 0) {
			out->category = (enum wait_category)rs->r[i].category;
			out->reason = reasons_text(rs, i);
			out->matched = true;
		} else
			out->reason = wchan;
		return;
	}

	for (k = 0; k < n; k++)
		funcs[k] = st->f[k].func;
	if ((i = best_rule(rs, funcs, n, &frame)) >= 0) {
		out->category = (enum wait_category)rs->r[i].category;
		out->reason = reasons_text(rs, i);
		out->frame = frame;
		out->matched = true;
		return;
	}
	for (k = 0; k < n && pick_rank < 2; k++) {
		rank = plumbing_rank(funcs[k]);
		if (rank > pick_rank) {
			pick = k;
			pick_rank = rank;
		}
	}
	out->frame = pick;
	out->reason = funcs[pick];
}

int
reasons_load_installed(struct reasons *out, char *why, size_t size)
{
	char sys[4096], user[4096];

	paths_data("wait-reasons", sys, sizeof(sys));
	paths_config("wait-reasons", user, sizeof(user));
	return reasons_load(out, sys, user, why, size);
}
