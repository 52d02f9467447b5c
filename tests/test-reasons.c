/*
 * The wait-reason table and matcher: the real data/wait-reasons against
 * every stack fixture and some made-up stacks, the tie rules, patterns,
 * the fallback without a match, and malformed tables.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "model/reasons.h"
#include "model/taskgroups.h"
#include "parse/stack.h"
#include "tap.h"

/* The source tree's data directory; "data" when run from the top. */
#ifndef DATADIR_SRC
#define DATADIR_SRC "data"
#endif

#define TABLE DATADIR_SRC "/wait-reasons"
#define STACK_DIR "proc/stack"

struct expect {
	const char *file;
	enum wait_category category;
	const char *reason;	/* a part of the reason */
	int frame;		/* the frame that matched */
};

static const struct expect expects[] = {
	{ "android-4.4-arm64-sagit-kptr_restrict-zero-addresses.txt",
	  WAIT_OTHER, "Unix socket", 1 },
	{ "blog-2019-x86_64-nfs-mount-unresolved-raw-addresses-PARTIAL.txt",
	  WAIT_OTHER, "mounting a file system", 0 },
	{ "blog-arm64-4.19-android-futex-bracket0-with-terminator.txt",
	  WAIT_LOCK, "futex", 1 },
	{ "blog-centos7-3.10-x86_64-io_schedule-truncate-kaslr-addrs.txt",
	  WAIT_PAGE_IO, "waiting on a page", 1 },
	{ "blog-xen-2.6.32-kswapd0-shrink_zone-get_request_wait.txt",
	  WAIT_RECLAIM, "kswapd reclaiming", 12 },
	{ "blog-xen-2.6.32-xenwatch-shrink_zone-direct-reclaim-module.txt",
	  WAIT_RECLAIM, "direct reclaim", 7 },
	{ "dstat-sles11-3.0-balance_dirty_pages-TRIMMED.txt",
	  WAIT_WRITEBACK, "too many dirty pages", 0 },
	{ "dstat-sles11-3.0-log_wait_commit-jbd-TRIMMED.txt",
	  WAIT_JOURNAL, "ext3 journal to commit", 0 },
	{ "dstat-sles11-3.0-sleep_on_page-fdatasync-TRIMMED.txt",
	  WAIT_WRITEBACK, "reach the disk", 2 },
	{ "dstat-sles11-3.0-vxfs-unresolved-stack-garbage-entry-TRIMMED.txt",
	  WAIT_PAGE_IO, "VxFS", 0 },
	{ "lkml-2011-2.6.39-i386-congestion_wait-compaction-thp-32bit-terminator.txt",
	  WAIT_COMPACTION, "direct compaction", 3 },
	{ "lkml-2012-3.8rc-x86_64-kptr_restrict-zero-addresses.txt",
	  WAIT_OTHER, "drain its page lists", 2 },
	{ "lkml-2012-centos6-2.6.32-x86_64-exit-with-terminator.txt",
	  WAIT_OTHER, "exiting: freeing its memory", 2 },
	{ "lkml-2016-ubuntu-4.4-x86_64-futex-with-terminator.txt",
	  WAIT_LOCK, "futex", 0 },
	{ "lkml-2018-4.x-x86_64-kswapd-shrink_slab-io_schedule-with-terminator.txt",
	  WAIT_RECLAIM, "kswapd reclaiming", 5 },
	{ "lkml-2019-4.x-x86_64-balance_dirty_pages-bracket0-with-terminator.txt",
	  WAIT_WRITEBACK, "too many dirty pages", 0 },
	{ "lkml-2019-4.x-x86_64-rwsem-mprotect-bracket0-with-terminator.txt",
	  WAIT_LOCK, "rw semaphore (often mmap_lock", 0 },
	{ "lkml-2019-arm64-4.x-real-addresses-self-read.txt",
	  WAIT_OTHER, "kernel stack in /proc", 1 },
	{ "lkml-2020-5.x-x86_64-i915-shrink_page_list-__alloc_pages_slowpath-PARTIAL.txt",
	  WAIT_RECLAIM, "direct reclaim: freeing memory to allocate", 12 },
	{ "lkml-2021-5.15-x86_64-xfs-balance_dirty_pages-module.txt",
	  WAIT_WRITEBACK, "too many dirty pages", 0 },
	{ "lkml-2022-5.x-x86_64-direct-reclaim-__alloc_pages_slowpath-shrink_slab.txt",
	  WAIT_RECLAIM, "direct reclaim: freeing memory to allocate", 10 },
	{ "lkml-2023-6.3-x86_64-ext4-balance_dirty_pages_ratelimited_flags.txt",
	  WAIT_WRITEBACK, "too many dirty pages", 0 },
	{ "lkml-2023-6.5rc2-x86_64-folio_wait_writeback-ftruncate.txt",
	  WAIT_WRITEBACK, "page's writeback", 1 },
	{ "lkml-2023-6.5rc2-x86_64-jbd2_log_wait_commit-fsync.txt",
	  WAIT_JOURNAL, "waiting for the ext4 journal to commit", 0 },
	{ "lkml-2023-6.5rc2-x86_64-kjournald2-commit-transaction.txt",
	  WAIT_JOURNAL, "committing the journal", 0 },
	{ "lkml-2023-6.5rc2-x86_64-kworker-flush-blk_mq_get_tag.txt",
	  WAIT_BLOCK, "request tag (device queue full)", 0 },
	{ "lkml-2023-6.5rc2-x86_64-md_super_wait-module-suffix.txt",
	  WAIT_BLOCK, "md: ", 0 },
	/* This kernel's, read while an mke2fs, a mount of the new file system
	 * on a loop device, dd and sync under that dirty load, and a build of
	 * pagetop with -j4 ran (issue 12, item 19; SOURCES.md). */
	{ "live-6.18-x86_64-ar-filemap_read-folio_wait_bit_common.txt",
	  WAIT_PAGE_IO, "reading a file: waiting for a page", 1 },
	{ "live-6.18-x86_64-ext4lazyinit-init_inode_table-zeroout.txt",
	  WAIT_BLOCK, "ext4 lazy init: zeroing inode tables", 2 },
	{ "live-6.18-x86_64-ext4lazyinit-thread-idle.txt",
	  WAIT_BLOCK, "ext4 lazy init: zeroing inode tables", 0 },
	{ "live-6.18-x86_64-kworker-ext4-rsv-conversion-map_blocks.txt",
	  WAIT_WRITEBACK, "marking extents written after their I/O", 1 },
	{ "live-6.18-x86_64-kworker-flush-add_transaction_credits.txt",
	  WAIT_JOURNAL, "transaction full", 0 },
	{ "live-6.18-x86_64-kworker-loop0-ext4_wait_block_bitmap.txt",
	  WAIT_BLOCK, "loop device: I/O to its backing file", 17 },
	{ "live-6.18-x86_64-kworker-loop0-fsync_buffers_list.txt",
	  WAIT_BLOCK, "loop device: I/O to its backing file", 4 },
	{ "live-6.18-x86_64-kworker-virtballoon_free_page_report.txt",
	  WAIT_OTHER, "virtio balloon", 0 },
	{ "live-6.18-x86_64-make-vfork-kernel_clone.txt",
	  WAIT_VFORK, "vfork child", 0 },
	{ "live-6.18-x86_64-mke2fs-folio_wait_bit.txt",
	  WAIT_WRITEBACK, "reach the disk", 2 },
	{ "live-6.18-x86_64-sync-jbd2_log_wait_commit.txt",
	  WAIT_JOURNAL, "waiting for the ext4 journal to commit", 0 },
	{ "live-6.18-x86_64-sync-wb_wait_for_completion.txt",
	  WAIT_WRITEBACK, "flusher to write back (sync)", 0 },
};

#define N_EXPECTS ((int)(sizeof(expects) / sizeof(expects[0])))

static struct reasons sys;	/* the real table */
static struct reasons rs;	/* scratch */
static struct stack st;

/* A stack from a NULL-terminated list of names. */
static void
make_stack(struct stack *s, const char *const *funcs)
{
	s->n = 0;
	for (; *funcs != NULL && s->n < STACK_MAX_FRAMES; funcs++, s->n++) {
		snprintf(s->f[s->n].func, sizeof(s->f[s->n].func), "%s", *funcs);
		s->f[s->n].module[0] = '\0';
	}
}

static int
parse_rules(struct reasons *out, const char *text, bool user,
    struct parse_error *err)
{
	return reasons_parse(text, strlen(text), user, out, err);
}

static bool
has(const char *s, const char *part)
{
	return s != NULL && strstr(s, part) != NULL;
}

static void
test_load(void)
{
	char why[512];
	int r, i, j, dups = 0, users = 0, used[WAIT_COUNT] = { 0 }, unused = 0;
	int longest = 0;

	r = reasons_load(&sys, TABLE, NULL, why, sizeof(why));
	if (!tap_ok(r == 0, "%s loads", TABLE)) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	tap_ok(sys.n >= 150, "the table has %d rules", sys.n);
	for (i = 0; i < sys.n; i++) {
		used[sys.r[i].category]++;
		if ((int)strlen(reasons_text(&sys, i)) > longest)
			longest = (int)strlen(reasons_text(&sys, i));
		for (j = i + 1; j < sys.n; j++)
			dups += strcmp(reasons_pattern(&sys, i), reasons_pattern(&sys, j)) == 0;
		users += sys.r[i].user;
	}
	tap_eq_int(dups, 0, "no pattern is listed twice");
	tap_eq_int(users, 0, "no system rule is marked as the user's");
	for (i = 0; i < WAIT_COUNT; i++) {
		if (used[i] == 0)
			unused++;
	}
	tap_eq_int(unused, 0, "every category has rules");
	tap_ok(longest <= 64, "reasons fit a narrow column (longest %d)", longest);
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e = NULL;
	struct reason_match m;
	size_t len;
	char *buf;
	int i;

	for (i = 0; i < N_EXPECTS; i++) {
		if (strcmp(expects[i].file, base) == 0)
			e = &expects[i];
	}
	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	buf = fixture_load(rel, &len);
	tap_eq_int(stack_parse(buf, len, &st, NULL), 0, "%s: parses", base);
	free(buf);
	reasons_match(&sys, &st, NULL, &m);
	tap_ok(m.matched, "%s: a rule matches", base);
	tap_eq_str(wait_category_name(m.category), wait_category_name(e->category),
	    "%s: category", base);
	if (!tap_ok(has(m.reason, e->reason), "%s: reason has \"%s\"", base,
	    e->reason))
		printf("#   got \"%s\"\n", m.reason);
	tap_eq_int(m.frame, e->frame, "%s: matched frame (%s)", base,
	    m.frame >= 0 ? st.f[m.frame].func : "none");
}

static void
test_fixtures(void)
{
	char **list, **p;
	int n = 0;

	list = fixture_list(STACK_DIR);
	for (p = list; *p != NULL; p++, n++)
		check_fixture(*p);
	fixture_list_free(list);
	tap_eq_int(n, N_EXPECTS, "every expectation has its fixture");
}

/* Made-up stacks of the kinds the table is for. */
static void
test_made_up(void)
{
	static const char *const fsync[] = {
		"jbd2_log_wait_commit", "ext4_sync_file", "vfs_fsync_range",
		"__x64_sys_fsync", "do_syscall_64",
		"entry_SYSCALL_64_after_hwframe", NULL
	};
	static const char *const fsync_flush[] = {
		"io_schedule", "wait_for_completion_io", "submit_bio_wait",
		"blkdev_issue_flush", "jbd2_log_wait_commit",
		"ext4_sync_file", "__x64_sys_fsync", NULL
	};
	static const char *const vfork[] = {
		"wait_for_vfork_done", "kernel_clone", "__do_sys_vfork",
		"do_syscall_64", "entry_SYSCALL_64_after_hwframe", NULL
	};
	static const char *const vfork_inlined[] = {
		"__switch_to", "__schedule", "schedule", "schedule_timeout",
		"wait_for_completion_killable", "kernel_clone",
		"__do_sys_vfork", "do_syscall_64", NULL
	};
	static const char *const vfork_old[] = {
		"wait_for_completion_killable", "do_fork", "sys_vfork",
		"stub_vfork", NULL
	};
	static const char *const reclaim_over_journal[] = {
		"jbd2_log_wait_commit", "ext4_evict_inode", "evict",
		"prune_icache_sb", "super_cache_scan", "do_shrink_slab",
		"shrink_slab.constprop.0", "shrink_node", "do_try_to_free_pages",
		"try_to_free_pages", "__alloc_pages_slowpath.constprop.0",
		"__alloc_pages", NULL
	};
	static const char *const memcg_high[] = {
		"folio_wait_bit_common", "shrink_folio_list", "shrink_lruvec",
		"shrink_node", "do_try_to_free_pages",
		"try_to_free_mem_cgroup_pages", "reclaim_high.constprop.0",
		"mem_cgroup_handle_over_high", "exit_to_user_mode_loop", NULL
	};
	static const char *const memcg_max[] = {
		"shrink_folio_list", "shrink_lruvec", "shrink_node",
		"do_try_to_free_pages", "try_to_free_mem_cgroup_pages",
		"try_charge_memcg", "__mem_cgroup_charge", "do_anonymous_page",
		NULL
	};
	static const char *const xfs_fsync[] = {
		"xlog_wait_on_iclog", "xlog_cil_force_seq", "xfs_log_force_seq",
		"xfs_file_fsync", "__x64_sys_fsync", NULL
	};
	static const char *const nfs_read[] = {
		"rpc_wait_bit_killable", "__wait_on_bit",
		"out_of_line_wait_on_bit", "__rpc_execute", "rpc_run_task",
		"nfs4_call_sync_sequence", "_nfs4_proc_getattr",
		"__nfs_revalidate_inode", "nfs_file_read", "vfs_read", NULL
	};
	static const char *const fuse_read[] = {
		"request_wait_answer", "fuse_simple_request", "fuse_do_getattr",
		"vfs_statx", NULL
	};
	static const char *const mmap_fault[] = {
		"rwsem_down_read_slowpath", "down_read", "lock_mm_and_find_vma",
		"do_user_addr_fault", "exc_page_fault", NULL
	};
	struct reason_match m;

	make_stack(&st, fsync);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "journal", "vim fsync: journal");
	tap_eq_str(m.reason, "waiting for the ext4 journal to commit",
	    "vim fsync: reason");
	tap_eq_int(m.frame, 0, "vim fsync: frame 0");

	make_stack(&st, fsync_flush);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "journal",
	    "journal wins over io_schedule, completions and bio waits");

	make_stack(&st, vfork);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "vfork", "vfork parent: vfork");
	tap_eq_str(m.reason, "parent waiting for its vfork child to exec or exit",
	    "vfork parent: reason");
	make_stack(&st, vfork_inlined);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "vfork",
	    "vfork, wait_for_vfork_done inlined: vfork");
	tap_eq_int(m.frame, 5, "vfork, inlined: kernel_clone matched");
	make_stack(&st, vfork_old);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "vfork", "vfork, do_fork era");

	make_stack(&st, reclaim_over_journal);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "reclaim",
	    "direct reclaim waiting on the journal: reclaim");
	tap_eq_int(m.frame, 9, "direct reclaim: try_to_free_pages matched");

	make_stack(&st, memcg_high);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(m.reason, "throttled: cgroup above memory.high",
	    "memory.high: throttled, over the reclaim under it");
	make_stack(&st, memcg_max);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(m.reason, "cgroup reclaim: cgroup at its memory limit",
	    "memory.max: cgroup reclaim");

	make_stack(&st, xfs_fsync);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "journal", "xfs fsync: journal");
	tap_ok(has(m.reason, "XFS log"), "xfs fsync: %s", m.reason);

	make_stack(&st, nfs_read);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "nfs", "nfs read: nfs");
	tap_eq_int(m.frame, 0, "nfs read: rpc_wait_bit_killable matched");

	make_stack(&st, fuse_read);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "fuse", "fuse stat: fuse");

	make_stack(&st, mmap_fault);
	reasons_match(&sys, &st, NULL, &m);
	tap_eq_str(wait_category_name(m.category), "lock", "mmap_lock fault: lock");
	tap_ok(has(m.reason, "mmap_lock"), "mmap_lock fault: %s", m.reason);
}

static void
test_user_precedence(void)
{
	static const char *const fsync[] = {
		"jbd2_log_wait_commit", "ext4_sync_file", NULL
	};
	struct reasons *u = malloc(sizeof(*u));
	struct reason_match m;
	struct parse_error err;
	char path[] = "/tmp/pagetop-test-reasons-XXXXXX";
	char why[512];
	int fd, base;
	FILE *f;

	make_stack(&st, fsync);

	*u = sys;
	tap_eq_int(parse_rules(u, "85 other jbd2_log_wait_commit my own words\n",
	    true, &err), 0, "user rule parses");
	tap_ok(u->r[u->n - 1].user, "user rule is marked as the user's");
	reasons_match(u, &st, NULL, &m);
	tap_eq_str(m.reason, "my own words", "user rule wins an equal priority");
	tap_eq_str(wait_category_name(m.category), "other",
	    "user rule's category too");

	*u = sys;
	parse_rules(u, "84 other jbd2_log_wait_commit my own words\n", true, &err);
	reasons_match(u, &st, NULL, &m);
	tap_eq_str(m.reason, "waiting for the ext4 journal to commit",
	    "a lower user priority loses");

	*u = sys;
	parse_rules(u, "99 other ext4_sync_file outer but higher\n", true, &err);
	reasons_match(u, &st, NULL, &m);
	tap_eq_str(m.reason, "outer but higher", "a higher priority wins on an outer frame");
	tap_eq_int(m.frame, 1, "outer frame reported");

	/* The same through reasons_load and a file. */
	fd = mkstemp(path);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		tap_ok(0, "temporary file");
		free(u);
		return;
	}
	fputs("# mine\n\n85 writeback jbd2_log_wait_commit stuck behind my disk\n", f);
	fclose(f);
	base = sys.n;
	tap_eq_int(reasons_load(u, TABLE, path, why, sizeof(why)), 0,
	    "system and user files load");
	tap_eq_int(u->n, base + 1, "user rules come after the system's");
	reasons_match(u, &st, NULL, &m);
	tap_eq_str(m.reason, "stuck behind my disk", "user file wins the tie");
	tap_eq_str(wait_category_name(m.category), "writeback", "user file's category");

	f = fopen(path, "w");
	fputs("85 writeback foo fine\n86 jounral bar typo here\n", f);
	fclose(f);
	tap_eq_int(reasons_load(u, TABLE, path, why, sizeof(why)), -EINVAL,
	    "malformed user file: -EINVAL");
	tap_ok(strncmp(why, path, strlen(path)) == 0 &&
	    has(why, ": line 2: unknown category \"jounral\""),
	    "malformed user file: %s", why);
	tap_eq_int(u->n, base + 1, "malformed user file: rules before it kept");
	unlink(path);

	tap_eq_int(reasons_load(u, TABLE, path, why, sizeof(why)), 0,
	    "missing user file is fine");
	tap_eq_int(u->n, base, "missing user file: system rules only");
	tap_eq_int(reasons_load(u, TABLE, "/nonexistent/dir/wait-reasons", why,
	    sizeof(why)), 0, "user file in a missing directory is fine");

	tap_eq_int(reasons_load(u, "/nonexistent/wait-reasons", NULL, why,
	    sizeof(why)), -ENOENT, "missing system file: -ENOENT");
	tap_ok(has(why, "/nonexistent/wait-reasons: "), "missing system file: %s",
	    why);
	free(u);
}

static void
test_parse(void)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;	/* a part of the message */
	} bad[] = {
		{ "x1 journal foo a reason\n", 1, "not an integer" },
		{ "# c\n1.5 journal foo a reason\n", 2, "not an integer" },
		{ "10 jornal foo a reason\n", 1, "unknown category" },
		{ "10 journal foo\n", 1, "no reason" },
		{ "10 journal foo   \t \n", 1, "no reason" },
		{ "10 journal\n", 1, "no pattern" },
		{ "10\n", 1, "no category" },
		{ "10 a-category-name-too-long foo bar\n", 1, "unknown category" },
		{ "10 journal f*o a reason\n", 1, "only at the end" },
		{ "10 journal * a reason\n", 1, "matches everything" },
		{ "10 journal "
		  "a_pattern_of_sixty_four_characters_is_one_more_than_fits_xxxxxxx"
		  " r\n", 1, "longer than 63" },
		{ "10 journal foo "
		  "a reason of eighty characters is one more than the field holds, "
		  "so it is refused\n", 1, "longer than 79" },
	};
	struct parse_error err;
	size_t i;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rs.n = 0;
		r = parse_rules(&rs, bad[i].text, false, &err);
		tap_eq_int(r, -EINVAL, "bad table %zu: -EINVAL", i);
		tap_eq_int(err.line, bad[i].line, "bad table %zu: line %d", i,
		    bad[i].line);
		if (!tap_ok(has(err.msg, bad[i].msg), "bad table %zu: \"%s\"", i,
		    bad[i].msg))
			printf("#   got \"%s\"\n", err.msg);
	}

	rs.n = 0;
	r = parse_rules(&rs, "  # indented comment\n\n"
	    "-5\tother\tfoo_*\t  spaced   out reason  \r\n"
	    "63 page-io "
	    "a_pattern_of_sixty_three_characters_fits_exactly_in_the_field_x"
	    " fits\n", false, &err);
	tap_eq_int(r, 0, "comments, tabs, CRLF, negative priority");
	tap_eq_int(rs.n, 2, "two rules");
	tap_eq_int(rs.r[0].priority, -5, "negative priority");
	tap_eq_str(reasons_pattern(&rs, 0), "foo_*", "prefix pattern kept with its '*'");
	tap_eq_str(reasons_text(&rs, 0), "spaced   out reason",
	    "reason trimmed, inner blanks kept");
	tap_eq_str(wait_category_name(rs.r[1].category), "page-io", "page-io");
	tap_eq_int((int)strlen(reasons_pattern(&rs, 1)), 63, "63-character pattern");

	rs.n = 0;
	tap_eq_int(parse_rules(&rs, "1 other a b\n2 other c d\nnonsense\n", false,
	    &err), -EINVAL, "bad third line");
	tap_eq_int(rs.n, 2, "bad third line: two rules kept");
	tap_eq_int(reasons_parse("", 0, false, &rs, &err), 0, "empty table");
	tap_eq_int(reasons_parse(NULL, 0, false, &rs, &err), 0, "NULL, 0");

	/* REASONS_MAX_RULES fit, one more does not. */
	rs.n = 0;
	for (i = 0; i < REASONS_MAX_RULES; i++)
		parse_rules(&rs, "1 other f r\n", false, NULL);
	tap_eq_int(rs.n, REASONS_MAX_RULES, "REASONS_MAX_RULES rules");
	tap_eq_int(parse_rules(&rs, "# fine\n1 other f r\n", false, &err), -EINVAL,
	    "one rule more: -EINVAL");
	tap_ok(err.line == 2 && has(err.msg, "more than 512"), "one rule more: %s",
	    err.msg);

	/* Every rule at its longest, each reason its own: the pool holds
	 * them all, and what each rule reads is its own line's. */
	rs.n = 0;
	for (i = 0; i < REASONS_MAX_RULES; i++) {
		char line[256];

		snprintf(line, sizeof(line), "%zu other %0*zu* %0*zu\n", i,
		    REASON_PATTERN_LEN - 2, i, REASON_TEXT_LEN - 1, i * 7);
		if (parse_rules(&rs, line, false, &err) != 0)
			break;
	}
	tap_eq_int(rs.n, REASONS_MAX_RULES, "REASONS_MAX_RULES rules at their longest");
	tap_eq_int((int)rs.pool_used, REASONS_POOL, "... fill the pool exactly");
	for (i = 0; i < (size_t)rs.n; i++) {
		char pat[REASON_PATTERN_LEN], why[REASON_TEXT_LEN];

		snprintf(pat, sizeof(pat), "%0*zu*", REASON_PATTERN_LEN - 2, i);
		snprintf(why, sizeof(why), "%0*zu", REASON_TEXT_LEN - 1, i * 7);
		if (strcmp(reasons_pattern(&rs, (int)i), pat) != 0 ||
		    strcmp(reasons_text(&rs, (int)i), why) != 0 ||
		    rs.r[i].plen != REASON_PATTERN_LEN - 2 || !rs.r[i].prefix)
			break;
	}
	tap_eq_int((int)i, rs.n, "... and each reads back its own texts");

	/* A reason given again is kept once; a pattern is its own. */
	rs.n = 0;
	parse_rules(&rs, "5 lock a_one same words\n6 lock b_two same words\n"
	    "7 lock c_three other words\n", false, &err);
	tap_ok(rs.n == 3 && rs.r[0].reason == rs.r[1].reason &&
	    rs.r[2].reason != rs.r[0].reason, "a repeated reason is shared");
	tap_eq_str(reasons_pattern(&rs, 1), "b_two", "... the patterns are not");
	tap_eq_int((int)rs.pool_used, (int)(sizeof("a_one") + sizeof("same words") +
	    sizeof("b_two") + sizeof("c_three") + sizeof("other words")),
	    "... and the pool holds each text once");
	tap_ok(sys.pool_used < (uint32_t)sys.n * 48, "the real table's texts: %u bytes for %d rules",
	    (unsigned)sys.pool_used, sys.n);
}

static void
test_patterns(void)
{
	static const char *const s1[] = {
		"my_lock_slowpath.constprop.0", "outer", NULL
	};
	static const char *const s2[] = { "my_loc", "my_lock", NULL };
	static const char *const s3[] = {
		"shrink_slab.constprop.0", "vfs_kern_mount.part.26", NULL
	};
	static const char *const s4[] = {
		"foobar", "vfs_kern_mount.part.27", "foo.cold", NULL
	};
	static const char *const s5[] = { "inner", "outer", NULL };
	struct reason_match m;

	rs.n = 0;
	parse_rules(&rs,
	    "10 lock my_lock_* prefix rule\n"
	    "10 reclaim shrink_slab plain name\n"
	    "5 other vfs_kern_mount.part.26 dotted pattern\n"
	    "1 other foo foo exactly\n", false, NULL);

	make_stack(&st, s1);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(m.matched && has(m.reason, "prefix rule"),
	    "prefix matches a suffixed name");
	make_stack(&st, s2);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(!m.matched, "prefix \"my_lock_\" matches neither my_loc nor my_lock");

	make_stack(&st, s3);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(m.matched && has(m.reason, "plain name") && m.frame == 0,
	    "shrink_slab matches shrink_slab.constprop.0");
	st.n = 0;
	make_stack(&st, s3 + 1);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(m.matched && has(m.reason, "dotted"),
	    "dotted pattern matches the whole name");

	make_stack(&st, s4);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(m.matched && has(m.reason, "foo exactly") && m.frame == 2,
	    "foo: not foobar, not .part.27, but foo.cold");

	/* Ties: innermost frame, then the earlier rule. */
	rs.n = 0;
	parse_rules(&rs, "10 other outer outer rule\n10 other inner inner rule\n"
	    "10 lock inner second inner rule\n", false, NULL);
	make_stack(&st, s5);
	reasons_match(&rs, &st, NULL, &m);
	tap_eq_str(m.reason, "inner rule", "equal priority: innermost frame, earlier rule");
	tap_eq_int(m.frame, 0, "equal priority: frame 0");
	parse_rules(&rs, "10 fuse outer user's outer\n", true, NULL);
	reasons_match(&rs, &st, NULL, &m);
	tap_eq_str(m.reason, "user's outer", "equal priority: a user rule beats an inner frame");
}

static void
test_fallback(void)
{
	static const char *const driver[] = {
		"__switch_to", "__schedule", "schedule", "schedule_timeout",
		"my_driver_wait", "kthread", "ret_from_fork", NULL
	};
	static const char *const raw[] = {
		"0xffffffffc0001234", "schedule", "my_func.isra.0", "kthread", NULL
	};
	static const char *const generic[] = {
		"__schedule", "schedule", "msleep", "kthread", NULL
	};
	static const char *const core[] = { "__schedule", "schedule", NULL };
	static const char *const completion[] = {
		"schedule_timeout", "wait_for_completion", "mydrv_reset",
		"mydrv_ioctl", NULL
	};
	struct reason_match m;

	rs.n = 0;
	make_stack(&st, driver);
	reasons_match(&rs, &st, NULL, &m);
	tap_ok(!m.matched, "no rules: no match");
	tap_eq_str(wait_category_name(m.category), "other", "no match: other");
	tap_eq_str(m.reason, "my_driver_wait", "no match: first meaningful frame");
	tap_eq_int(m.frame, 4, "no match: its index");

	make_stack(&st, raw);
	reasons_match(&rs, &st, NULL, &m);
	tap_eq_str(m.reason, "my_func.isra.0", "unnamed frames are skipped");
	make_stack(&st, generic);
	reasons_match(&rs, &st, NULL, &m);
	tap_eq_str(m.reason, "msleep", "only plumbing: the first generic wait");
	make_stack(&st, core);
	reasons_match(&rs, &st, NULL, &m);
	tap_eq_int(m.frame, 0, "only the scheduler: frame 0");

	/* With the real table too: completions are plumbing, not a reason. */
	make_stack(&st, completion);
	reasons_match(&sys, &st, NULL, &m);
	tap_ok(!m.matched && strcmp(m.reason, "mydrv_reset") == 0,
	    "real table: an unknown driver wait shows its function (%s)", m.reason);
	reasons_match(NULL, &st, NULL, &m);
	tap_eq_str(m.reason, "mydrv_reset", "NULL table: fallback");
}

static void
test_wchan(void)
{
	struct reason_match m;

	st.n = 0;
	reasons_match(&sys, &st, "jbd2_log_wait_commit", &m);
	tap_ok(m.matched && m.category == WAIT_JOURNAL && m.frame == -1,
	    "no stack, wchan in the table: journal, no frame");
	reasons_match(&sys, &st, "io_schedule", &m);
	tap_eq_str(wait_category_name(m.category), "page-io", "wchan io_schedule: page-io");
	reasons_match(&sys, &st, "my_wait", &m);
	tap_ok(!m.matched && m.category == WAIT_OTHER && m.frame == -1,
	    "wchan not in the table: other");
	tap_eq_str(m.reason, "my_wait", "wchan not in the table: shown as it is");
	reasons_match(&sys, &st, "0", &m);
	tap_ok(!m.matched && has(m.reason, "unknown") && has(m.reason, "root"),
	    "wchan \"0\": %s", m.reason);
	reasons_match(&sys, &st, "", &m);
	tap_ok(has(m.reason, "unknown"), "wchan \"\": unknown");
	reasons_match(&sys, &st, NULL, &m);
	tap_ok(has(m.reason, "unknown"), "wchan NULL: unknown");
	reasons_match(&sys, NULL, NULL, &m);
	tap_ok(has(m.reason, "unknown") && m.frame == -1, "no stack at all: unknown");
}

static void
test_categories(void)
{
	int i, ok = 0;

	for (i = 0; i < WAIT_COUNT; i++)
		ok += wait_category_parse(wait_category_name(i)) == i;
	tap_eq_int(ok, WAIT_COUNT, "category names round-trip");
	tap_eq_str(wait_category_name(WAIT_PAGE_IO), "page-io", "page-io");
	tap_eq_str(wait_category_name(WAIT_VFORK), "vfork", "vfork");
	tap_eq_int(wait_category_parse("Journal"), -1, "names are lower case");
	tap_eq_int(wait_category_parse("bogus"), -1, "unknown name: -1");
	tap_eq_int(wait_category_parse(NULL), -1, "NULL: -1");
	tap_eq_str(wait_category_name(WAIT_COUNT), "unknown", "out of range");
}


/* Each group's category and reason are what the table gives its stack
 * (or wchan) now. */
static int
groups_right(const struct tasks *t, const struct reasons *table, const struct task_groups *gs)
{
	static struct stack sc;
	int bad = 0;

	for (int i = 0; i < t->n_blocked; i++) {
		const struct task_group *g = &gs->g[gs->of_task[i]];
		const struct stack *s = t->b[i].stack >= 0 ? tasks_stack(t, t->b[i].stack, &sc) : NULL;
		static const struct stack empty;
		struct reason_match m;

		reasons_match(table, s ? s : &empty, t->b[i].wchan, &m);
		bad += g->category != m.category || strcmp(g->reason, m.reason) != 0;
	}
	return bad;
}

/* task_groups_build keeps the last stacks' matches from one build to
 * the next: a stack that changed, a stack of another table, a task
 * without a stack whose wchan changed and more stacks than it keeps are
 * all matched again. */
static void
test_groups_memo(void)
{
	static const char *const frames[][4] = {
		{ "jbd2_log_wait_commit", "ext4_sync_file", "do_fsync", NULL },
		{ "folio_wait_bit_common", "filemap_get_pages", "filemap_read", NULL },
		{ "kernel_clone", "__do_sys_vfork", "do_syscall_64", NULL },
		{ "rwsem_down_write_slowpath", "down_write", "do_truncate", NULL },
	};
	static struct tasks t;
	static struct task_groups gs;
	static struct reasons *mine;
	struct parse_error err;
	char name[32];
	int bad = 0, round;

	if (!(mine = malloc(sizeof(*mine)))) {
		tap_ok(0, "memory");
		return;
	}
	*mine = sys;
	parse_rules(mine, "99 other ext4_sync_file my own words\n", true, &err);
	for (round = 0; round < 40; round++) {
		const struct reasons *table = round % 5 == 4 ? mine : &sys;

		tasks_stacks_clear(&t);
		t.n_blocked = 3;
		for (int k = 0; k < 3; k++) {
			const char *f[5] = { frames[(round + k) % 4][0], frames[(round + k) % 4][1],
					     frames[(round + k) % 4][2], NULL, NULL };

			/* From round 10 on, a new stack each round: more than the memo holds. */
			snprintf(name, sizeof(name), "made_up_%d", round);
			if (round >= 10 && k == 1)
				f[3] = name;
			make_stack(&st, f);
			t.b[k].stack = tasks_stack_add(&t, &st);
			snprintf(t.b[k].wchan, sizeof(t.b[k].wchan), "%s", f[0]);
		}
		/* No stack: by wchan, which changes every other round. */
		t.b[2].stack = -1;
		snprintf(t.b[2].wchan, sizeof(t.b[2].wchan), "%s",
			 round % 2 ? "jbd2_log_wait_commit" : "io_schedule");
		task_groups_build(&t, table, 0, &gs);
		bad += groups_right(&t, table, &gs);
	}
	tap_eq_int(bad, 0, "groups: 40 builds in a row, stacks and tables changing, each "
		   "task's category and reason as matching now gives them");
	/* Built into a scratch of its own, the same groups. */
	{
		static struct task_groups own;

		own.scratch = malloc(sizeof(*own.scratch));
		task_groups_build(&t, &sys, 0, &own);
		tap_ok(own.scratch && groups_right(&t, &sys, &own) == 0 && own.n == gs.n,
		       "groups: built through a scratch of the builder's own, the same");
		free(own.scratch);
	}
	/* A copy of the groups alone sorts as the whole struct does. */
	{
		static struct task_groups whole, part;
		bool same;

		whole = gs;
		memset(&part, 0xff, sizeof(part));
		task_groups_copy(&part, &gs);
		task_groups_sort(&whole, GROUPS_BY_COUNT);
		task_groups_sort(&part, GROUPS_BY_COUNT);
		same = part.n == whole.n && part.n_tasks == whole.n_tasks && part.n_memo == 0 &&
		       !part.scratch &&
		       memcmp(part.g, whole.g, (size_t)whole.n * sizeof(whole.g[0])) == 0 &&
		       memcmp(part.of_task, whole.of_task,
			      (size_t)whole.n_tasks * sizeof(whole.of_task[0])) == 0;
		tap_ok(same && gs.n == 3, "groups: copied without the room past them, sorted as a whole "
		       "copy is (3 groups, each task's)");
	}
	free(mine);
}

int
main(void)
{
	test_load();
	test_fixtures();
	test_made_up();
	test_user_precedence();
	test_parse();
	test_patterns();
	test_fallback();
	test_wchan();
	test_categories();
	test_groups_memo();
	return tap_done();
}
