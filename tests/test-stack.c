/*
 * stack_parse and stack_signature: every fixture, with frame counts and
 * names read from the files with awk (independently of the parser), then
 * hand-made, oversized and damaged input.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "parse/stack.h"
#include "tap.h"

#define STACK_DIR "proc/stack"

struct expect {
	const char *file;
	int n;			/* frames, end marker dropped */
	bool end_marker;	/* the file ends with the ULONG_MAX line */
	const char *first;
	const char *last;
	int mod_frame;		/* first frame with a module, -1 none */
	const char *module;
	int pick;		/* one more frame to check, -1 none */
	const char *pick_func;	/* raw addresses and suffixes are kept */
};

static const struct expect expects[] = {
	{ "android-4.4-arm64-sagit-kptr_restrict-zero-addresses.txt",
	  9, true, "__switch_to", "el0_svc_naked", -1, "",
	  1, "unix_stream_read_generic" },
	{ "blog-2019-x86_64-nfs-mount-unresolved-raw-addresses-PARTIAL.txt",
	  9, true, "mount_fs", "entry_SYSCALL_64_after_hwframe", -1, "",
	  5, "0xffffffffc085d868" },
	{ "blog-arm64-4.19-android-futex-bracket0-with-terminator.txt",
	  8, true, "__switch_to", "el0_svc", -1, "",
	  4, "__arm64_sys_futex" },
	{ "blog-centos7-3.10-x86_64-io_schedule-truncate-kaslr-addrs.txt",
	  12, true, "io_schedule", "entry_SYSCALL_64_fastpath", -1, "",
	  1, "wait_on_page_bit" },
	{ "blog-xen-2.6.32-kswapd0-shrink_zone-get_request_wait.txt",
	  15, true, "get_request_wait", "child_rip", -1, "",
	  12, "kswapd" },
	{ "blog-xen-2.6.32-xenwatch-shrink_zone-direct-reclaim-module.txt",
	  30, true, "sync_page", "child_rip", 13, "xen_netback",
	  15, "netback_probe" },
	{ "dstat-sles11-3.0-balance_dirty_pages-TRIMMED.txt",
	  8, false, "balance_dirty_pages", "sys_write", -1, "",
	  -1, NULL },
	{ "dstat-sles11-3.0-log_wait_commit-jbd-TRIMMED.txt",
	  7, false, "log_wait_commit", "sys_write", 0, "jbd",
	  1, "ext3_sync_file" },
	{ "dstat-sles11-3.0-sleep_on_page-fdatasync-TRIMMED.txt",
	  8, false, "sleep_on_page", "system_call_fastpath", 4, "ext3",
	  2, "filemap_fdatawait_range" },
	{ "dstat-sles11-3.0-vxfs-unresolved-stack-garbage-entry-TRIMMED.txt",
	  12, false, "vx_bc_biowait", "sys_getdents64", 0, "vxfs",
	  1, "0xffff8817ea3a0bc0" },
	{ "lkml-2011-2.6.39-i386-congestion_wait-compaction-thp-32bit-terminator.txt",
	  10, true, "congestion_wait", "error_code", -1, "",
	  3, "try_to_compact_pages" },
	{ "lkml-2012-3.8rc-x86_64-kptr_restrict-zero-addresses.txt",
	  5, true, "flush_work", "tracesys", -1, "",
	  2, "lru_add_drain_all" },
	{ "lkml-2012-centos6-2.6.32-x86_64-exit-with-terminator.txt",
	  10, true, "__cond_resched", "int_signal", -1, "",
	  5, "do_exit" },
	{ "lkml-2016-ubuntu-4.4-x86_64-futex-with-terminator.txt",
	  5, true, "futex_wait_queue_me", "entry_SYSCALL_64_fastpath", -1, "",
	  3, "SyS_futex" },
	{ "lkml-2018-4.x-x86_64-kswapd-shrink_slab-io_schedule-with-terminator.txt",
	  8, true, "io_schedule", "ret_from_fork", -1, "",
	  3, "shrink_slab" },
	{ "lkml-2019-4.x-x86_64-balance_dirty_pages-bracket0-with-terminator.txt",
	  8, true, "balance_dirty_pages", "page_fault", -1, "",
	  2, "fault_dirty_shared_page.isra.96" },
	{ "lkml-2019-4.x-x86_64-rwsem-mprotect-bracket0-with-terminator.txt",
	  5, true, "call_rwsem_down_write_failed_killable",
	  "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "do_mprotect_pkey" },
	{ "lkml-2019-arm64-4.x-real-addresses-self-read.txt",
	  8, true, "save_stack_trace_tsk", "__sys_trace_return", -1, "",
	  1, "proc_pid_stack" },
	{ "lkml-2020-5.x-x86_64-i915-shrink_page_list-__alloc_pages_slowpath-PARTIAL.txt",
	  23, false, "__i915_active_wait", "ppgtt_bind_vma", 0, "i915",
	  16, "___slab_alloc.isra.0.constprop.0" },
	{ "lkml-2021-5.15-x86_64-xfs-balance_dirty_pages-module.txt",
	  9, false, "balance_dirty_pages", "entry_SYSCALL_64_after_hwframe",
	  3, "xfs", 2, "iomap_file_buffered_write" },
	{ "lkml-2022-5.x-x86_64-direct-reclaim-__alloc_pages_slowpath-shrink_slab.txt",
	  22, false, "fsnotify_destroy_mark", "entry_SYSCALL_64_after_hwframe",
	  -1, "", 7, "shrink_slab.constprop.0" },
	{ "lkml-2023-6.3-x86_64-ext4-balance_dirty_pages_ratelimited_flags.txt",
	  9, false, "balance_dirty_pages", "entry_SYSCALL_64_after_hwframe",
	  3, "ext4", 1, "balance_dirty_pages_ratelimited_flags" },
	{ "lkml-2023-6.5rc2-x86_64-folio_wait_writeback-ftruncate.txt",
	  11, false, "folio_wait_bit_common", "entry_SYSCALL_64_after_hwframe",
	  -1, "", 1, "folio_wait_writeback" },
	{ "lkml-2023-6.5rc2-x86_64-jbd2_log_wait_commit-fsync.txt",
	  5, false, "jbd2_log_wait_commit", "entry_SYSCALL_64_after_hwframe",
	  -1, "", 1, "ext4_sync_file" },
	{ "lkml-2023-6.5rc2-x86_64-kjournald2-commit-transaction.txt",
	  5, false, "jbd2_journal_commit_transaction", "ret_from_fork_asm",
	  -1, "", 1, "kjournald2" },
	{ "lkml-2023-6.5rc2-x86_64-kworker-flush-blk_mq_get_tag.txt",
	  19, false, "blk_mq_get_tag", "ret_from_fork_asm", -1, "",
	  10, "writeback_sb_inodes" },
	{ "lkml-2023-6.5rc2-x86_64-md_super_wait-module-suffix.txt",
	  8, false, "md_super_wait", "ret_from_fork_asm", 3, "raid1",
	  4, "md_thread" },
	/* This kernel's (issue 12, item 19): "[<0>]" lines, no end marker. */
	{ "live-6.18-x86_64-ar-filemap_read-folio_wait_bit_common.txt",
	  7, false, "folio_wait_bit_common", "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "filemap_get_pages" },
	{ "live-6.18-x86_64-ext4lazyinit-init_inode_table-zeroout.txt",
	  7, false, "submit_bio_wait", "ret_from_fork_asm", -1, "",
	  1, "blkdev_issue_zeroout" },
	{ "live-6.18-x86_64-ext4lazyinit-thread-idle.txt",
	  4, false, "ext4_lazyinit_thread", "ret_from_fork_asm", -1, "",
	  1, "kthread" },
	{ "live-6.18-x86_64-kworker-ext4-rsv-conversion-map_blocks.txt",
	  10, false, "ext4_map_blocks", "ret_from_fork_asm", -1, "",
	  1, "ext4_convert_unwritten_extents" },
	{ "live-6.18-x86_64-kworker-flush-add_transaction_credits.txt",
	  15, false, "add_transaction_credits", "ret_from_fork_asm", -1, "",
	  1, "start_this_handle" },
	{ "live-6.18-x86_64-kworker-loop0-ext4_wait_block_bitmap.txt",
	  23, false, "ext4_wait_block_bitmap", "ret_from_fork_asm", -1, "",
	  1, "ext4_mb_init_cache" },
	{ "live-6.18-x86_64-kworker-loop0-fsync_buffers_list.txt",
	  10, false, "fsync_buffers_list", "ret_from_fork_asm", -1, "",
	  1, "generic_buffers_fsync_noflush" },
	{ "live-6.18-x86_64-kworker-virtballoon_free_page_report.txt",
	  8, false, "virtballoon_free_page_report", "ret_from_fork_asm", -1, "",
	  1, "page_reporting_cycle" },
	{ "live-6.18-x86_64-make-vfork-kernel_clone.txt",
	  4, false, "kernel_clone", "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "__do_sys_clone3" },
	{ "live-6.18-x86_64-mke2fs-folio_wait_bit.txt",
	  9, false, "folio_wait_bit", "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "folio_wait_writeback" },
	{ "live-6.18-x86_64-sync-jbd2_log_wait_commit.txt",
	  7, false, "jbd2_log_wait_commit", "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "ext4_sync_fs" },
	{ "live-6.18-x86_64-sync-wb_wait_for_completion.txt",
	  7, false, "wb_wait_for_completion", "entry_SYSCALL_64_after_hwframe", -1, "",
	  1, "sync_inodes_sb" },
};

#define N_EXPECTS ((int)(sizeof(expects) / sizeof(expects[0])))

static struct stack st;
static unsigned long sigs[N_EXPECTS];

static int
parse_str(const char *s, struct parse_error *err)
{
	return stack_parse(s, strlen(s), &st, err);
}

static const struct expect *
find_expect(const char *base, int *idx)
{
	int i;

	for (i = 0; i < N_EXPECTS; i++) {
		if (strcmp(expects[i].file, base) == 0) {
			*idx = i;
			return &expects[i];
		}
	}
	return NULL;
}

/* Lines with text in them, counted without the parser. */
static int
count_lines(const char *buf, size_t len)
{
	size_t i;
	int n = 0;
	bool text = false;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			n += text;
			text = false;
		} else if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r')
			text = true;
	}
	return n + text;
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e;
	struct parse_error err;
	size_t len;
	char *buf;
	int r, k, idx = 0, with_module = -1, ends = 0;

	e = find_expect(base, &idx);
	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	buf = fixture_load(rel, &len);
	r = stack_parse(buf, len, &st, &err);
	if (!tap_ok(r == 0, "%s: parses", base)) {
		printf("#   line %d: %s\n", err.line, err.msg);
		free(buf);
		return;
	}
	tap_eq_int(st.n, e->n, "%s: frames", base);
	tap_eq_int(st.n, count_lines(buf, len) - e->end_marker,
	    "%s: one frame a line, %s", base,
	    e->end_marker ? "end marker dropped" : "no end marker");
	tap_eq_str(st.f[0].func, e->first, "%s: first frame", base);
	tap_eq_str(st.f[st.n - 1].func, e->last, "%s: last frame", base);
	if (e->pick >= 0)
		tap_eq_str(st.f[e->pick].func, e->pick_func, "%s: frame %d",
		    base, e->pick);
	for (k = 0; k < st.n; k++) {
		if (with_module < 0 && st.f[k].module[0] != '\0')
			with_module = k;
		if (strcmp(st.f[k].func, "0xffffffffffffffff") == 0 ||
		    strcmp(st.f[k].func, "0xffffffff") == 0 ||
		    st.f[k].func[0] == '\0' || strchr(st.f[k].func, '+'))
			ends++;
	}
	tap_eq_int(ends, 0, "%s: no end marker, empty name or offset left",
	    base);
	tap_eq_int(with_module, e->mod_frame, "%s: first frame with a module",
	    base);
	if (e->mod_frame >= 0)
		tap_eq_str(st.f[e->mod_frame].module, e->module, "%s: module",
		    base);
	sigs[idx] = stack_signature(&st);
	{
		static struct stack back;
		char packed[4096];
		size_t n = stack_pack(&st, packed, sizeof(packed));

		stack_unpack(packed, n, &back);
		tap_ok(n > 0 && back.n == st.n &&
		       memcmp(back.f, st.f, (size_t)st.n * sizeof(st.f[0])) == 0 &&
		       stack_signature(&back) == sigs[idx],
		       "%s: packed in %zu bytes and back, the same", base, n);
	}
	free(buf);
}

static void
test_fixtures(void)
{
	char **list, **p;
	int n = 0, i, j, same = 0;

	list = fixture_list(STACK_DIR);
	for (p = list; *p != NULL; p++, n++)
		check_fixture(*p);
	fixture_list_free(list);
	tap_eq_int(n, N_EXPECTS, "every expectation has its fixture");

	for (i = 0; i < N_EXPECTS; i++) {
		for (j = i + 1; j < N_EXPECTS; j++)
			same += sigs[i] == sigs[j];
	}
	tap_eq_int(same, 0, "every fixture has its own signature");
}

/* Details of single fixtures beyond the table. */
static void
test_details(void)
{
	size_t len;
	char *buf;
	int k, mods = 0;

	buf = fixture_load(STACK_DIR
	    "/blog-xen-2.6.32-xenwatch-shrink_zone-direct-reclaim-module.txt",
	    &len);
	stack_parse(buf, len, &st, NULL);
	for (k = 0; k < st.n; k++)
		mods += strcmp(st.f[k].module, "xen_netback") == 0;
	tap_eq_int(mods, 3, "xenwatch: three [xen_netback] frames");
	tap_eq_str(st.f[12].module, "", "xenwatch: core kernel frame has no module");
	free(buf);

	buf = fixture_load(STACK_DIR
	    "/dstat-sles11-3.0-vxfs-unresolved-stack-garbage-entry-TRIMMED.txt",
	    &len);
	stack_parse(buf, len, &st, NULL);
	tap_eq_str(st.f[6].func, "filldir64", "vxfs: stale filldir64+0x0 kept");
	tap_eq_str(st.f[1].module, "", "vxfs: raw frame has no module");
	free(buf);

	buf = fixture_load(STACK_DIR
	    "/lkml-2020-5.x-x86_64-i915-shrink_page_list-__alloc_pages_slowpath-PARTIAL.txt",
	    &len);
	stack_parse(buf, len, &st, NULL);
	tap_eq_str(st.f[22].module, "i915", "i915: last frame's module");
	tap_eq_str(st.f[13].func, "__alloc_pages_slowpath.constprop.0",
	    "i915: .constprop.0 kept");
	free(buf);
}

static void
test_forms(void)
{
	struct parse_error err;

	tap_eq_int(stack_parse("", 0, &st, &err), 0, "empty buffer: 0");
	tap_eq_int(st.n, 0, "empty buffer: no frames (a running task)");
	tap_eq_int(stack_parse(NULL, 0, &st, NULL), 0, "NULL, 0: no frames");
	tap_eq_int(parse_str("\n\n", &err), 0, "blank lines: 0");
	tap_eq_int(st.n, 0, "blank lines: no frames");

	tap_eq_int(parse_str("[<ffffffffffffffff>] 0xffffffffffffffff\n", &err),
	    0, "end marker alone");
	tap_eq_int(st.n, 0, "end marker alone: no frames");
	tap_eq_int(parse_str("[<0>] a+0x1/0x2\n[<0>] 0xffffffffffffffff\n", &err),
	    0, "[<0>] end marker");
	tap_eq_int(st.n, 1, "[<0>] end marker dropped");
	tap_eq_int(parse_str("[<0000000000000000>] a+0x1/0x2\n"
	    "[<0000000000000000>] 0xffffffffffffffff\n", &err), 0,
	    "hidden-address end marker");
	tap_eq_int(st.n, 1, "hidden-address end marker dropped");
	tap_eq_int(parse_str("[<c108ad00>] a+0x5a/0xae\n[<ffffffff>] 0xffffffff\n",
	    &err), 0, "32-bit end marker");
	tap_eq_int(st.n, 1, "32-bit end marker dropped");
	tap_eq_int(parse_str("[<0>] 0xfffffffffffffffe\n", &err), 0,
	    "ULONG_MAX - 1 is not the end marker");
	tap_eq_str(st.f[0].func, "0xfffffffffffffffe", "ULONG_MAX - 1 kept as a frame");

	tap_eq_int(parse_str("  [<0>] a+0x1/0x2\n\t[<0>] b+0x3/0x4 [m]  \n",
	    &err), 0, "indented lines");
	tap_eq_str(st.f[1].func, "b", "indented: second frame");
	tap_eq_str(st.f[1].module, "m", "indented: module, trailing blanks");
	tap_eq_int(parse_str("[<0>] a+0x1/0x2\r\n[<0>] b+0x3/0x4 [m]\r\n", &err),
	    0, "CRLF line ends");
	tap_eq_str(st.f[1].module, "m", "CRLF: module");
	tap_eq_int(parse_str("[<0>] a+0x1/0x2\n[<0>] b+0x3/0x4", &err), 0,
	    "no newline at the end");
	tap_eq_int(st.n, 2, "no newline: both frames");
	tap_eq_int(parse_str("[<0>] ext4_sync_file+0x1/0x2 [ext4 0123456789abcdef]\n",
	    &err), 0, "module with a build id");
	tap_eq_str(st.f[0].module, "ext4", "build id: module is the first word");
	tap_eq_int(parse_str("[<0>] foo.cold+0x1/0x2\n[<0>] bar.part.0+0x1/0x2\n",
	    &err), 0, "suffixes");
	tap_eq_str(st.f[0].func, "foo.cold", ".cold kept");
	tap_eq_str(st.f[1].func, "bar.part.0", ".part.0 kept");
	tap_eq_int(parse_str("[<0>] A+0xAB/0xCD\n", &err), 0, "upper-case hex");

	/* Names and modules longer than the fields are cut, not refused. */
	tap_eq_int(parse_str("[<0>] _RNvMs_NtCs1234567890abcdef_6kernel3foo3barNtB4_"
	    "LongRustTypeName3baz+0x1/0x2 [a_module_name_that_is_longer_than_the_kernels_fifty_five_limit]\n",
	    &err), 0, "long names");
	tap_eq_int((int)strlen(st.f[0].func), STACK_FUNC_LEN - 1,
	    "long function name cut to the field");
	tap_eq_int((int)strlen(st.f[0].module), STACK_MODULE_LEN - 1,
	    "long module name cut to the field");
}

static void
test_rejects(void)
{
	static const struct {
		const char *text;
		const char *what;
	} bad[] = {
		{ "hello\n", "not a frame" },
		{ "/proc/4350/stack : [<0>] a+0x1/0x2\n", "prefixed by a shell loop" },
		{ "[<0>]\n", "no symbol" },
		{ "[<>] a+0x1/0x2\n", "empty address" },
		{ "[<xyz>] a+0x1/0x2\n", "address not hex" },
		{ "[<00000000000000000>] a+0x1/0x2\n", "17-digit address" },
		{ "[<0> a+0x1/0x2\n", "no \"]\"" },
		{ "[<0>] a\n", "name without offset" },
		{ "[<0>] a+0x1\n", "line cut after the offset" },
		{ "[<0>] a+0x1/0x\n", "line cut inside the length" },
		{ "[<0>] a+0x1/0x2x\n", "junk after the length" },
		{ "[<0>] +0x1/0x2\n", "no name" },
		{ "[<0>] a+1/0x2\n", "decimal offset" },
		{ "[<0>] a+0x1/0x2 [mod\n", "module not closed" },
		{ "[<0>] a+0x1/0x2 []\n", "empty module" },
		{ "[<0>] a+0x1/0x2 [m] [n]\n", "two modules" },
		{ "[<0>] a+0x1/0x2 junk\n", "junk after the symbol" },
		{ "[<0>] 0x\n", "bare 0x" },
		{ "[<0>] 0xfoo\n", "raw address not hex" },
	};
	struct parse_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tap_eq_int(parse_str(bad[i].text, &err), -EINVAL, "%s: -EINVAL",
		    bad[i].what);
		tap_ok(err.line == 1 && err.msg[0] != '\0', "%s: line 1: %s",
		    bad[i].what, err.msg);
		tap_eq_int(st.n, 0, "%s: no half stack", bad[i].what);
	}
	tap_eq_int(parse_str("[<0>] a+0x1/0x2\n\n[<0>] b+0x1\n", &err), -EINVAL,
	    "bad third line");
	tap_eq_int(err.line, 3, "bad third line: line 3");
	tap_eq_int(stack_parse("[<0>] a+0x1/0x2", 14, &st, &err), -EINVAL,
	    "len honoured: a cut length is refused");
	tap_eq_int(stack_parse("[<0>] a+0x1/0x2 [m]", 15, &st, &err), 0,
	    "len honoured: the module after len is never read");
	tap_eq_str(st.f[0].module, "", "len honoured: no module");
}

static void
test_too_many(void)
{
	static char big[16384];
	size_t n = 0;
	int i;

	for (i = 0; i < STACK_MAX_FRAMES; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
		    "[<0>] f%d+0x%x/0x100\n", i, i);
	tap_eq_int(stack_parse(big, n, &st, NULL), 0, "64 frames");
	tap_eq_int(st.n, STACK_MAX_FRAMES, "64 frames kept");
	for (i = STACK_MAX_FRAMES; i < 80; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
		    "[<0>] f%d+0x%x/0x100\n", i, i);
	tap_eq_int(stack_parse(big, n, &st, NULL), 0, "80 frames: 0");
	tap_eq_int(st.n, STACK_MAX_FRAMES, "80 frames: the first 64 kept");
	tap_eq_str(st.f[STACK_MAX_FRAMES - 1].func, "f63", "80 frames: 64th is f63");
	n += (size_t)snprintf(big + n, sizeof(big) - n, "garbage after 64\n");
	tap_eq_int(stack_parse(big, n, &st, NULL), 0,
	    "lines after the 64th are not read");
}

static void
test_signature(void)
{
	struct stack a, b;
	unsigned long s;

	parse_str("[<ffffffff81212c0c>] get_request_wait+0xe4/0x156\n"
	    "[<ffffffff810de0ef>] kswapd+0x39e/0x4fb\n"
	    "[<ffffffffffffffff>] 0xffffffffffffffff\n", NULL);
	a = st;
	parse_str("[<0>] get_request_wait+0x12/0x160\n[<0>] kswapd+0x1/0x500\n",
	    NULL);
	b = st;
	tap_eq_int(a.n, 2, "signature: old-format stack parsed");
	tap_ok(stack_signature(&a) == stack_signature(&b),
	    "signature: same names, other addresses and offsets");

	parse_str("[<0>] shrink_slab.constprop.0+0x1/0x2\n[<0>] kswapd+0x1/0x2\n",
	    NULL);
	a = st;
	parse_str("[<0>] shrink_slab.constprop.1+0x1/0x2\n[<0>] kswapd+0x1/0x2\n",
	    NULL);
	tap_ok(stack_signature(&a) == stack_signature(&st),
	    "signature: compiler suffixes ignored");
	parse_str("[<0>] shrink_slab+0x1/0x2\n[<0>] kswapd+0x1/0x2 [m]\n", NULL);
	tap_ok(stack_signature(&a) == stack_signature(&st),
	    "signature: suffix-less name and module ignored");

	parse_str("[<0>] vx_bc_biowait+0x1/0x2\n[<ffff8817ea3a0bc0>] 0xffff8817ea3a0bc0\n",
	    NULL);
	a = st;
	parse_str("[<0>] vx_bc_biowait+0x1/0x2\n[<ffff8817ea3a1000>] 0xffff8817ea3a1000\n",
	    NULL);
	tap_ok(stack_signature(&a) == stack_signature(&st),
	    "signature: unnamed frames hash alike");

	parse_str("[<0>] kswapd+0x1/0x2\n[<0>] get_request_wait+0x1/0x2\n", NULL);
	tap_ok(stack_signature(&b) != stack_signature(&st),
	    "signature: order matters");
	parse_str("[<0>] get_request_wai+0x1/0x2\n[<0>] tkswapd+0x1/0x2\n", NULL);
	tap_ok(stack_signature(&b) != stack_signature(&st),
	    "signature: frame boundaries matter");
	parse_str("[<0>] get_request_wait+0x1/0x2\n", NULL);
	tap_ok(stack_signature(&b) != stack_signature(&st),
	    "signature: a frame fewer differs");

	st.n = 0;
	s = stack_signature(&st);
	tap_ok(s == stack_signature(&st), "signature: empty stack is stable");
}

struct damage_ctx {
	int bad;		/* results that break the contract */
};

static int
parse_damaged(const char *buf, size_t len, void *arg)
{
	struct damage_ctx *ctx = arg;
	struct stack out;
	struct parse_error err;
	int r, k;

	r = stack_parse(buf, len, &out, &err);
	if (r != 0) {
		if (r != -EINVAL || err.msg[0] == '\0' || err.line < 1 ||
		    out.n != 0)
			ctx->bad++;
		return r;
	}
	if (out.n < 0 || out.n > STACK_MAX_FRAMES)
		ctx->bad++;
	for (k = 0; k < out.n; k++) {
		if (memchr(out.f[k].func, '\0', STACK_FUNC_LEN) == NULL ||
		    out.f[k].func[0] == '\0' ||
		    memchr(out.f[k].module, '\0', STACK_MODULE_LEN) == NULL)
			ctx->bad++;
	}
	(void)stack_signature(&out);
	return r;
}

static void
test_damage(void)
{
	char **list, **p;
	struct damage_ctx ctx;
	size_t len, ok, total = 0;
	char *buf;
	int files = 0;

	ctx.bad = 0;
	list = fixture_list(STACK_DIR);
	for (p = list; *p != NULL; p++, files++) {
		buf = fixture_load(*p, &len);
		ok = fixture_damage(buf, len, parse_damaged, &ctx);
		total += ok;
		free(buf);
	}
	fixture_list_free(list);
	tap_eq_int(ctx.bad, 0, "damaged fixtures: every result keeps the contract");
	tap_ok(total > (size_t)files, "damaged fixtures: %zu copies parse", total);
}

/* A buffer too small: 0, not a stack cut anywhere. */
static void
test_pack_small(void)
{
	static struct stack s, back;
	char buf[64];

	s.n = 2;
	strcpy(s.f[0].func, "raid1d");
	strcpy(s.f[0].module, "raid1");
	strcpy(s.f[1].func, "kthread");
	tap_eq_int(stack_pack(&s, buf, sizeof(buf)), 21, "two frames, one with a module: 21 bytes");
	stack_unpack(buf, 21, &back);
	tap_ok(back.n == 2 && strcmp(back.f[0].module, "raid1") == 0 &&
	       back.f[1].module[0] == '\0' && strcmp(back.f[1].func, "kthread") == 0,
	       "... unpacked with the module where it was");
	tap_eq_int(stack_pack(&s, buf, 20), 0, "one byte short: 0");
	s.n = 0;
	tap_eq_int(stack_pack(&s, buf, sizeof(buf)), 0, "no frame: 0 bytes");
	stack_unpack(buf, 0, &back);
	tap_eq_int(back.n, 0, "... and back, no frame");
}

int
main(void)
{
	test_pack_small();
	test_fixtures();
	test_details();
	test_forms();
	test_rejects();
	test_too_many();
	test_signature();
	test_damage();
	return tap_done();
}
