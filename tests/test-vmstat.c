/* vmstat_parse on every /proc/vmstat sample, on edge cases and on damage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tap.h"
#include "parse/vmstat.h"

#define nitems(a) (sizeof(a) / sizeof((a)[0]))

struct want_counter {
	const char *name;
	uint64_t value;
};

/* What each sample holds, read off the file by hand. */
struct want {
	const char *file;
	int n;
	struct want_counter first, last;
	struct want_counter c[6];	/* more counters, up to a NULL name */
	const char *absent[3];		/* names this kernel does not print */
};

static const struct want wants[] = {
	{ "blog-centos7.5-3.10.0-862-x86_64-2node-perzone-numa-balancing.txt", 117,
	  { "nr_free_pages", 29655945 }, { "balloon_migrate", 0 },
	  { { "numa_hit", 117570377080ULL }, { "numa_pte_updates", 10414340982ULL },
	    { "pgscan_kswapd_normal", 20758866 }, { "pgsteal_direct_normal", 5791306 },
	    { "allocstall", 1873 }, { "compact_stall", 355 } },
	  { "pgscan_kswapd", "allocstall_normal", "oom_kill" } },
	{ "jc-x86_64-5.8-allocstall_zone-pgscan_anon.txt", 147,
	  { "nr_free_pages", 615337 }, { "nr_unstable", 0 },
	  { { "numa_hit", 1910597 }, { "nr_zone_inactive_anon", 39 },
	    { "nr_inactive_file", 104036 }, { "allocstall_movable", 0 },
	    { "thp_split_pmd", 1 }, { "pgmajfault", 1713 } },
	  { "allocstall", "pgscan_kswapd_normal", "workingset_refault_anon" } },
	{ "lkml-2005-2.6.13-x86_64-4node-nr_slab-zone-order-high-normal-dma.txt", 38,
	  { "nr_dirty", 787282 }, { "nr_bounce", 0 },
	  { { "nr_writeback", 44317 }, { "nr_slab", 53030 },
	    { "pgsteal_normal", 148759 }, { "kswapd_steal", 148759 },
	    { "pgscan_kswapd_dma", 1089 }, { "pgscan_kswapd_normal", 153813 } },
	  { "nr_free_pages", "numa_hit", "pgalloc_dma32" } },
	{ "lkml-2007-2.6.20-uml-i386-pgsteal_zone-kswapd_steal.txt", 37,
	  { "nr_anon_pages", 668 }, { "pgrotated", 0 },
	  { { "nr_slab_unreclaimable", 494 }, { "pgsteal_normal", 46892 },
	    { "pgscan_kswapd_normal", 47104 }, { "pgscan_direct_normal", 36544 },
	    { "kswapd_steal", 25083 }, { "allocstall", 423 } },
	  { "nr_free_pages", "pgsteal_kswapd_normal", NULL } },
	{ "lkml-2009-2.6.27ish-x86_64-nr_active-nr_inactive-prelru-split.txt", 59,
	  { "nr_free_pages", 68035 }, { "htlb_buddy_alloc_fail", 0 },
	  { { "nr_inactive", 1479 }, { "nr_active", 8137 }, { "numa_hit", 18985527 },
	    { "pgscan_kswapd_dma32", 180546 }, { "kswapd_steal", 183628 },
	    { "allocstall", 3 } },
	  { "nr_inactive_anon", "compact_stall", "thp_fault_alloc" } },
	{ "lkml-2012-chromeos-3.4-i386-highmem-pgsteal_kswapd_high.txt", 79,
	  { "nr_free_pages", 3776 }, { "unevictable_pgs_mlockfreed", 0 },
	  { { "pgalloc_high", 34659 }, { "pgsteal_kswapd_high", 2443 },
	    { "pgsteal_direct_normal", 652670 }, { "pgscan_direct_normal", 23961886 },
	    { "kswapd_skip_congestion_wait", 639 }, { "allocstall", 14514 } },
	  { "kswapd_steal", "pgsteal_normal", "compact_stall" } },
	{ "node_exporter-3.x-perzone-pgscan-allocstall.txt", 120,
	  { "nr_free_pages", 977769 }, { "oom_kill", 0 },
	  { { "nr_overhead", 4956 }, { "numa_hit", 2601972389ULL },
	    { "pgscan_kswapd_normal", 358784 }, { "pgsteal_kswapd_dma32", 78783 },
	    { "allocstall", 83165 }, { "compact_stall", 210959 } },
	  { "pgscan_kswapd", "allocstall_dma32", NULL } },
	{ "pcp-001-x86_64-4.4ish-perzone-pgscan.txt", 123,
	  { "nr_free_pages", 1159538 }, { "pgdemote_khugepaged", 0 },
	  { { "nr_alloc_batch", 952 }, { "numa_hit", 326893040 },
	    { "nr_active_file", 992120 }, { "pgscan_kswapd_dma32", 0 },
	    { "allocstall", 0 }, { "pgmajfault", 9578 } },
	  { "pgscan_kswapd", "allocstall_normal", NULL } },
	{ "pcp-002-x86_64-2node-4.4ish-perzone.txt", 119,
	  { "nr_free_pages", 21821632 }, { "pgdemote_khugepaged", 0 },
	  { { "nr_alloc_batch", 5089 }, { "numa_hit", 622686531 },
	    { "nr_active_anon", 2789571 }, { "numa_pte_updates", 3569108086ULL },
	    { "thp_split", 6484 }, { "pgmajfault", 1209 } },
	  { "pgscan_kswapd", "allocstall_normal", NULL } },
	{ "pcp-004-x86_64-4.8to4.12-allocstall_zone.txt", 130,
	  { "nr_free_pages", 816140 }, { "pgdemote_khugepaged", 0 },
	  { { "numa_hit", 761863 }, { "nr_slab_unreclaimable", 15224 },
	    { "nr_active_anon", 68583 }, { "allocstall_normal", 0 },
	    { "pgscan_kswapd", 0 }, { "pgmajfault", 2055 } },
	  { "allocstall", "pgscan_kswapd_normal", "oom_kill" } },
	{ "pcp-005-x86_64-4.13ish-nonzero-reclaim.txt", 133,
	  { "nr_free_pages", 624193 }, { "pgdemote_khugepaged", 0 },
	  { { "pgscan_kswapd", 6328636 }, { "pgscan_direct", 39699 },
	    { "pgsteal_kswapd", 5435316 }, { "pgsteal_direct", 26263 },
	    { "allocstall_movable", 125 }, { "numa_hit", 3710892851ULL } },
	  { "allocstall", "pgscan_kswapd_normal", NULL } },
	{ "pcp-006-x86_64-4.18ish-oom_kill.txt", 138,
	  { "nr_free_pages", 631224 }, { "pgdemote_khugepaged", 0 },
	  { { "numa_hit", 365775994 }, { "nr_active_file", 67285 },
	    { "nr_slab_unreclaimable", 81299 }, { "thp_split_pmd", 371 },
	    { "swap_ra", 0 }, { "pgmajfault", 1085 } },
	  { "allocstall", "workingset_refault_anon", NULL } },
	{ "pcp-007-x86_64-2node-5.14ish-workingset_anon_file.txt", 164,
	  { "nr_free_pages", 1052928 }, { "pgdemote_khugepaged", 0 },
	  { { "numa_hit", 4905365 }, { "nr_inactive_file", 637605 },
	    { "numa_pte_updates", 76853 }, { "direct_map_level2_splits", 83 },
	    { "nr_unstable", 0 }, { "pgmajfault", 940 } },
	  { "allocstall", "workingset_refault", NULL } },
	{ "pcp-collectl-fedora43-7.0.12-aarch64-PARTIAL.txt", 41,
	  { "workingset_nodes", 2494 }, { "pglazyfreed", 0 },
	  { { "workingset_refault_anon", 629535 }, { "workingset_refault_file", 274711 },
	    { "pgpromote_candidate_nrl", 0 }, { "allocstall_normal", 1549 },
	    { "allocstall_movable", 4982 }, { "pgmajfault", 633359 } },
	  { "nr_free_pages", "allocstall", NULL } },
};

static struct vmstat vm;

static const struct want *
find_want(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < nitems(wants); i++) {
		if (strcmp(wants[i].file, base) == 0)
			return &wants[i];
	}
	return NULL;
}

static int
index_of(const struct vmstat *v, const char *name)
{
	for (int i = 0; i < v->n; i++) {
		if (strcmp(v->e[i].name, name) == 0)
			return i;
	}
	return -1;
}

static void
check_fixture(const char *path)
{
	const struct want *w = find_want(path);
	struct parse_error err = { 0 };
	char *buf;
	size_t len;
	uint64_t v;
	int r;

	if (!tap_ok(w != NULL, "%s: expectations listed", path))
		return;
	buf = fixture_load(path, &len);
	r = vmstat_parse(buf, len, &vm, &err);
	tap_eq_int(r, 0, "%s: parses (%d: %s)", path, err.line, err.msg);
	tap_eq_int(vm.n, w->n, "%s: counter count", path);
	tap_eq_int(vm.skipped, 0, "%s: nothing skipped", path);
	tap_eq_str(vm.e[0].name, w->first.name, "%s: first name", path);
	tap_eq_u64(vm.e[0].value, w->first.value, "%s: first value", path);
	tap_eq_str(vm.e[vm.n - 1].name, w->last.name, "%s: last name", path);
	tap_eq_u64(vm.e[vm.n - 1].value, w->last.value, "%s: last value", path);
	for (size_t i = 0; i < nitems(w->c) && w->c[i].name; i++) {
		v = 12345;
		tap_ok(vmstat_get(&vm, w->c[i].name, &v), "%s: has %s", path,
		    w->c[i].name);
		tap_eq_u64(v, w->c[i].value, "%s: %s", path, w->c[i].name);
	}
	for (size_t i = 0; i < nitems(w->absent) && w->absent[i]; i++)
		tap_ok(!vmstat_get(&vm, w->absent[i], &v), "%s: no %s", path,
		    w->absent[i]);
	free(buf);
}

static void
test_fixtures(void)
{
	char **list = fixture_list("proc/vmstat");
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_int(n, nitems(wants), "every expected vmstat sample is present");
	fixture_list_free(list);
}

/* 2.6.13 printed the per-zone counters high, normal, dma: file order kept. */
static void
test_order_2005(void)
{
	char *buf;
	size_t len;

	buf = fixture_load("proc/vmstat/"
	    "lkml-2005-2.6.13-x86_64-4node-nr_slab-zone-order-high-normal-dma.txt",
	    &len);
	tap_eq_int(vmstat_parse(buf, len, &vm, NULL), 0, "2005: parses");
	tap_ok(index_of(&vm, "pgscan_kswapd_high") >= 0 &&
	    index_of(&vm, "pgscan_kswapd_high") < index_of(&vm, "pgscan_kswapd_normal") &&
	    index_of(&vm, "pgscan_kswapd_normal") < index_of(&vm, "pgscan_kswapd_dma"),
	    "2005: zone suffixes in file order high, normal, dma");
	tap_eq_int(index_of(&vm, "nr_bounce"), vm.n - 1, "2005: nr_bounce last");
	free(buf);
}

static void
test_huge_values(void)
{
	static const char text[] =
	    "big 18446744073709551613\n"
	    "max 18446744073709551615\n"
	    "over 18446744073709551616\n"
	    "wide 123456789012345678901\n"
	    "sign -1\n"
	    "top 9223372036854775808\n";
	uint64_t v = 0;

	tap_eq_int(vmstat_parse(text, sizeof(text) - 1, &vm, NULL), 0, "huge: parses");
	tap_eq_int(vm.n, 3, "huge: three counters kept");
	tap_eq_int(vm.skipped, 3, "huge: overflow, 21 digits and sign skipped");
	tap_ok(vmstat_get(&vm, "big", &v) && v == 18446744073709551613ULL,
	    "huge: underflowed value kept");
	tap_ok(vmstat_get(&vm, "max", &v) && v == UINT64_MAX, "huge: UINT64_MAX kept");
	tap_ok(vmstat_get(&vm, "top", &v) && v == 9223372036854775808ULL,
	    "huge: 2^63 kept");
	tap_ok(!vmstat_get(&vm, "over", &v), "huge: 2^64 not stored");
	tap_ok(!vmstat_get(&vm, "wide", &v), "huge: 21 digits not stored");
}

static void
test_malformed_lines(void)
{
	static const char text[] =
	    "nr_free_pages 10\n"
	    "\n"
	    "justaname\n"
	    "two words 3\n"
	    "pgfault 1 2\n"
	    "   indented 4\n"
	    "bad-name 5\n"
	    "hex 0x10\n"
	    "new_counter_from_7_1 77\r\n"
	    "pgfault 99\n"
	    "last 8";		/* no newline at the end */
	uint64_t v = 0;

	tap_eq_int(vmstat_parse(text, sizeof(text) - 1, &vm, NULL), 0,
	    "malformed: parses");
	tap_eq_int(vm.n, 4, "malformed: four counters kept");
	tap_eq_int(vm.skipped, 6, "malformed: six lines skipped, blank one not");
	tap_eq_str(vm.e[1].name, "new_counter_from_7_1", "malformed: unknown name kept");
	tap_eq_u64(vm.e[1].value, 77, "malformed: CRLF line value");
	tap_ok(vmstat_get(&vm, "pgfault", &v) && v == 99,
	    "malformed: pgfault from the good line");
	tap_ok(vmstat_get(&vm, "last", &v) && v == 8, "malformed: unterminated last line");
	tap_ok(!vmstat_get(&vm, "indented", &v), "malformed: indented line not a counter");
}

static void
test_name_length(void)
{
	char text[256], name[VMSTAT_NAME_LEN + 1];
	int n;

	memset(name, 'a', VMSTAT_NAME_LEN - 1);
	name[VMSTAT_NAME_LEN - 1] = '\0';
	n = snprintf(text, sizeof(text), "%s 1\n%sb 2\n", name, name);
	tap_eq_int(vmstat_parse(text, (size_t)n, &vm, NULL), 0, "name length: parses");
	tap_eq_int(vm.n, 1, "name length: %d characters fit", VMSTAT_NAME_LEN - 1);
	tap_eq_int(vm.skipped, 1, "name length: %d characters skipped", VMSTAT_NAME_LEN);
	tap_eq_int((long long)strlen(vm.e[0].name), VMSTAT_NAME_LEN - 1,
	    "name length: stored whole");
}

static void
test_too_many(void)
{
	size_t cap = (MAX_VMSTAT + 100) * 24, len = 0;
	char *text = malloc(cap);

	for (int i = 0; i < MAX_VMSTAT + 100; i++)
		len += (size_t)snprintf(text + len, cap - len, "counter_%d %d\n", i, i);
	tap_eq_int(vmstat_parse(text, len, &vm, NULL), 0, "too many: parses");
	tap_eq_int(vm.n, MAX_VMSTAT, "too many: capped at MAX_VMSTAT");
	tap_eq_int(vm.skipped, 100, "too many: the rest counted as skipped");
	tap_eq_str(vm.e[MAX_VMSTAT - 1].name, "counter_511", "too many: file order kept");
	free(text);
}

static int
parse_str(const char *text, struct parse_error *err)
{
	return vmstat_parse(text, strlen(text), &vm, err);
}

static void
test_rejects(void)
{
	struct parse_error err;

	memset(&err, 0, sizeof(err));
	tap_eq_int(parse_str("", &err), -EINVAL, "empty buffer rejected");
	tap_ok(err.msg[0] != '\0', "empty buffer: message \"%s\"", err.msg);
	tap_eq_int(parse_str("", NULL), -EINVAL, "empty buffer rejected, err NULL");
	tap_eq_int(parse_str("\n\n  \n", NULL), -EINVAL, "blank lines rejected");

	memset(&err, 0, sizeof(err));
	tap_eq_int(parse_str("\x7f" "ELF\x02\x01\n\x01\x02 x y z\n", &err), -EINVAL,
	    "garbage rejected");
	tap_eq_int(err.line, 1, "garbage: names line 1 (%s)", err.msg);

	memset(&err, 0, sizeof(err));
	tap_eq_int(parse_str("hello\nworld 1 2\n", &err), -EINVAL,
	    "only malformed lines rejected");
	tap_eq_int(vm.skipped, 2, "only malformed: both counted");
	tap_eq_int(err.line, 1, "only malformed: names line 1 (%s)", err.msg);

	tap_eq_int(parse_str("nr_free_pages 123456789012345678901\n", NULL), -EINVAL,
	    "a lone 21-digit value rejected");
}

static int
parse_cb(const char *buf, size_t len, void *ctx)
{
	struct parse_error err;

	(void)ctx;
	return vmstat_parse(buf, len, &vm, &err);
}

static void
test_damage(void)
{
	const char *path = "proc/vmstat/pcp-005-x86_64-4.13ish-nonzero-reclaim.txt";
	char *buf;
	size_t len, ok;

	buf = fixture_load(path, &len);
	ok = fixture_damage(buf, len, parse_cb, NULL);
	tap_ok(ok > len / 2, "damage: %zu of %zu damaged copies still parse", ok,
	    len + 1 + 200);
	free(buf);

	buf = fixture_load("proc/vmstat/lkml-2005-2.6.13-x86_64-4node-nr_slab-"
	    "zone-order-high-normal-dma.txt", &len);
	ok = fixture_damage(buf, len, parse_cb, NULL);
	tap_ok(ok > 0, "damage: 2005 sample survives damage (%zu ok)", ok);
	free(buf);
}

int
main(void)
{
	test_fixtures();
	test_order_2005();
	test_huge_values();
	test_malformed_lines();
	test_name_length();
	test_too_many();
	test_rejects();
	test_damage();
	return tap_done();
}
