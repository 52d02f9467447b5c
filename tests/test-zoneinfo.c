/* zoneinfo_parse on every /proc/zoneinfo sample, on edge cases and on damage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tap.h"
#include "parse/zoneinfo.h"

#define nitems(a) (sizeof(a) / sizeof((a)[0]))

#define BIT(f)		(1u << (f))
/* Fields each layout prints: before 3.8, 3.8 on, 5.12 on. */
#define ZF_OLD		(BIT(ZI_FREE) | BIT(ZI_MIN) | BIT(ZI_LOW) | BIT(ZI_HIGH) | \
			    BIT(ZI_SPANNED) | BIT(ZI_PRESENT))
#define ZF_MANAGED	(ZF_OLD | BIT(ZI_MANAGED))
#define ZF_CMA		(ZF_MANAGED | BIT(ZI_CMA))

struct want_zone {
	int node;
	const char *zone;
	uint32_t has;
	uint64_t free, min, low, high, spanned, present, managed;
};

/* Every record of each sample, in file order, read off the file by hand. */
struct want {
	const char *file;
	struct want_zone z[10];		/* up to a NULL zone name */
};

static const struct want wants[] = {
	{ "jc-x86_64-5.8-2node-synthetic-dup.txt", {
	    { 0, "DMA", ZF_MANAGED, 3832, 68, 85, 102, 4095, 3997, 3976 },
	    { 0, "DMA32", ZF_MANAGED, 606010, 12729, 15911, 19093, 1044480, 782288, 758708 },
	    { 0, "Normal", ZF_MANAGED, 5113, 4097, 5121, 6145, 262144, 262144, 236634 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "DMA", ZF_MANAGED, 3832, 68, 85, 102, 4095, 3997, 3976 },
	    { 1, "DMA32", ZF_MANAGED, 606010, 12729, 15911, 19093, 1044480, 782288, 758708 },
	    { 1, "Normal", ZF_MANAGED, 5113, 4097, 5121, 6145, 262144, 262144, 236634 },
	    { 1, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "jc-x86_64-5.8.txt", {
	    { 0, "DMA", ZF_MANAGED, 3832, 68, 85, 102, 4095, 3997, 3976 },
	    { 0, "DMA32", ZF_MANAGED, 606010, 12729, 15911, 19093, 1044480, 782288, 758708 },
	    { 0, "Normal", ZF_MANAGED, 5113, 4097, 5121, 6145, 262144, 262144, 236634 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "lkml-2005-2.6.13-x86_64-4node-reverse-node-order-percpu-numa.txt", {
	    { 3, "Normal", ZF_OLD, 899, 726, 907, 1089, 524287, 524287, 0 },
	    { 2, "Normal", ZF_OLD, 1036, 726, 907, 1089, 524287, 524287, 0 },
	    { 1, "Normal", ZF_OLD, 859, 703, 878, 1054, 507903, 507760, 0 },
	    { 0, "DMA", ZF_OLD, 2045, 5, 6, 7, 4096, 3994, 0 },
	    { 0, "Normal", ZF_OLD, 1052, 721, 901, 1081, 520191, 520191, 0 },
	} },
	{ "lkml-2005-2.6.14-i386-highmem-pcp-hotcold-tscanned-PATCHED.txt", {
	    { 0, "DMA", ZF_OLD, 1370, 17, 21, 25, 4096, 4096, 0 },
	    { 0, "Normal", ZF_OLD, 11121, 939, 1173, 1408, 225280, 225280, 0 },
	    { 0, "HighMem", ZF_OLD, 30, 32, 40, 48, 30342, 30342, 0 },
	} },
	{ "lkml-2009-2.6.27ish-x86_64-scanned-a-i-prev_priority.txt", {
	    { 0, "DMA", ZF_OLD, 2524, 12, 15, 18, 4096, 2180, 0 },
	    { 0, "DMA32", ZF_OLD, 65515, 700, 875, 1050, 126960, 125224, 0 },
	} },
	{ "node_exporter-x86_64-5.x-foll_pin.txt", {
	    { 0, "DMA", ZF_MANAGED, 2949, 8, 11, 14, 4095, 3997, 3973 },
	    { 0, "DMA32", ZF_MANAGED, 528427, 1078, 1600, 2122, 1044480, 546847, 530339 },
	    { 0, "Normal", ZF_MANAGED, 4539739, 15809, 23461, 31113, 7806976, 7806976, 7654794 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "pcp-001-x86_64-4.4ish-oldformat.txt", {
	    { 0, "DMA", ZF_MANAGED, 3963, 3, 3, 4, 4095, 3996, 3975 },
	    { 0, "DMA32", ZF_MANAGED, 71215, 404, 505, 606, 1044480, 431002, 406974 },
	    { 0, "Normal", ZF_MANAGED, 1087382, 3580, 4475, 5370, 3663360, 3663360, 3594586 },
	} },
	{ "pcp-002-x86_64-2node-oldformat-scanned.txt", {
	    { 0, "DMA", ZF_MANAGED, 3830, 2, 2, 3, 4095, 3997, 3974 },
	    { 0, "DMA32", ZF_MANAGED, 173419, 306, 382, 459, 1044480, 512447, 449237 },
	    { 0, "Normal", ZF_MANAGED, 10550477, 10930, 13662, 16395, 16252928, 16252928, 15990165 },
	    { 1, "Normal", ZF_MANAGED, 11093906, 11288, 14110, 16932, 16777216, 16777216, 16514387 },
	} },
	{ "pcp-004-x86_64-4.8ish-pernode-stats.txt", {
	    { 0, "DMA", ZF_MANAGED, 3975, 67, 83, 99, 4095, 3998, 3977 },
	    { 0, "DMA32", ZF_MANAGED, 757514, 12709, 15886, 19063, 1044480, 782303, 757733 },
	    { 0, "Normal", ZF_MANAGED, 54620, 4119, 5148, 6177, 262144, 262144, 243535 },
	} },
	{ "pcp-005-x86_64-movable-device.txt", {
	    { 0, "DMA", ZF_MANAGED, 3971, 16, 20, 24, 4095, 3996, 3975 },
	    { 0, "DMA32", ZF_MANAGED, 125353, 1725, 2156, 2587, 1044480, 431002, 414610 },
	    { 0, "Normal", ZF_MANAGED, 494869, 15153, 18941, 22729, 3663360, 3663360, 3594150 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "pcp-006-x86_64.txt", {
	    { 0, "DMA", ZF_MANAGED, 3975, 69, 86, 103, 4095, 3998, 3977 },
	    { 0, "DMA32", ZF_MANAGED, 621829, 12513, 15641, 18769, 1044480, 782297, 718717 },
	    { 0, "Normal", ZF_MANAGED, 5420, 4312, 5390, 6468, 262144, 262144, 245205 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "pcp-007-x86_64-2node-5.14ish.txt", {
	    { 0, "DMA", ZF_CMA, 3580, 42, 52, 62, 4095, 3998, 3840 },
	    { 0, "DMA32", ZF_CMA, 38067, 5509, 6886, 8263, 1044480, 520155, 503771 },
	    { 0, "Normal", ZF_CMA, 248733, 5646, 7057, 8468, 524288, 524288, 507637 },
	    { 0, "Movable", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "DMA", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "DMA32", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "Normal", ZF_CMA, 762548, 11328, 14160, 16992, 1048576, 1048576, 1020184 },
	    { 1, "Movable", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	    { 1, "Device", ZF_CMA, 0, 0, 0, 0, 0, 0, 0 },
	} },
	{ "procfs-x86_64-5.x-movable-device.txt", {
	    { 0, "DMA", ZF_MANAGED, 3952, 33, 41, 49, 4095, 3975, 3956 },
	    { 0, "DMA32", ZF_MANAGED, 204252, 19510, 21059, 22608, 1044480, 759231, 742806 },
	    { 0, "Normal", ZF_MANAGED, 18553, 11176, 13842, 16508, 1308160, 1308160, 1268711 },
	    { 0, "Movable", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	    { 0, "Device", ZF_MANAGED, 0, 0, 0, 0, 0, 0, 0 },
	} },
};

static struct zoneinfo zi;

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

static void
check_zone(const char *path, int i, const struct zoneinfo_zone *z,
	   const struct want_zone *w)
{
	tap_eq_int(z->node, w->node, "%s [%d]: node", path, i);
	tap_eq_str(z->zone, w->zone, "%s [%d]: zone name", path, i);
	tap_eq_int(z->has, w->has, "%s [%d] %s: fields found", path, i, w->zone);
	tap_eq_u64(z->v[ZI_FREE], w->free, "%s [%d] %s: pages free", path, i, w->zone);
	tap_eq_u64(z->v[ZI_MIN], w->min, "%s [%d] %s: min", path, i, w->zone);
	tap_eq_u64(z->v[ZI_LOW], w->low, "%s [%d] %s: low", path, i, w->zone);
	tap_eq_u64(z->v[ZI_HIGH], w->high, "%s [%d] %s: high", path, i, w->zone);
	tap_eq_u64(z->v[ZI_SPANNED], w->spanned, "%s [%d] %s: spanned", path, i,
	    w->zone);
	tap_eq_u64(z->v[ZI_PRESENT], w->present, "%s [%d] %s: present", path, i,
	    w->zone);
	tap_eq_u64(z->v[ZI_MANAGED], w->managed, "%s [%d] %s: managed", path, i,
	    w->zone);
	tap_eq_u64(z->v[ZI_BOOST], 0, "%s [%d] %s: no boost", path, i, w->zone);
	tap_eq_u64(z->v[ZI_CMA], 0, "%s [%d] %s: cma 0 or absent", path, i, w->zone);
}

static void
check_fixture(const char *path)
{
	const struct want *w = find_want(path);
	struct parse_error err = { 0 };
	char *buf;
	size_t len;
	int r, n = 0;

	if (!tap_ok(w != NULL, "%s: expectations listed", path))
		return;
	while (n < (int)nitems(w->z) && w->z[n].zone)
		n++;
	buf = fixture_load(path, &len);
	r = zoneinfo_parse(buf, len, &zi, &err);
	tap_eq_int(r, 0, "%s: parses (%d: %s)", path, err.line, err.msg);
	tap_eq_int(zi.n_zones, n, "%s: zone count", path);
	for (int i = 0; i < n && i < zi.n_zones; i++)
		check_zone(path, i, &zi.zones[i], &w->z[i]);
	free(buf);
}

static void
test_fixtures(void)
{
	char **list = fixture_list("proc/zoneinfo");
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_int(n, nitems(wants), "every expected zoneinfo sample is present");
	fixture_list_free(list);
}

/* 2.6.13 printed the nodes from the highest down; file order is kept. */
static void
test_reverse_nodes(void)
{
	static const int nodes[] = { 3, 2, 1, 0, 0 };
	char *buf;
	size_t len;

	buf = fixture_load("proc/zoneinfo/"
	    "lkml-2005-2.6.13-x86_64-4node-reverse-node-order-percpu-numa.txt", &len);
	tap_eq_int(zoneinfo_parse(buf, len, &zi, NULL), 0, "2005: parses");
	tap_eq_int(zi.n_zones, 5, "2005: five zones");
	for (int i = 0; i < 5 && i < zi.n_zones; i++)
		tap_eq_int(zi.zones[i].node, nodes[i], "2005: record %d is node %d", i,
		    nodes[i]);
	/* hot/cold pagesets print "high:  186" and "low:   62" in every zone */
	tap_eq_u64(zi.zones[0].v[ZI_HIGH], 1089, "2005: pageset high: left alone");
	tap_eq_u64(zi.zones[0].v[ZI_LOW], 907, "2005: pageset low: left alone");
	free(buf);
}

static int
parse_str(const char *text, struct parse_error *err)
{
	return zoneinfo_parse(text, strlen(text), &zi, err);
}

/* Lines that look like fields but are not; only exact keys count. */
static void
test_lookalikes(void)
{
	static const char text[] =
	    "min 1\n"				/* before any record */
	    "Node 0, zone   Normal\n"
	    "  per-node stats\n"
	    "      nr_free_pages 11\n"
	    "      nr_inactive_anon 12\n"
	    "  free 13\n"
	    "  pages scanned 14\n"
	    "        scanned  0 (a: 27 i: 24)\n"
	    "        protection: (0, 2877, 7826)\n"
	    "    cpu: 0 pcp: 0\n"
	    "              count: 2\n"
	    "              low:   62\n"
	    "              high:  186\n"
	    "              batch: 31\n"
	    "              high_min: 5\n"
	    "              high_max: 6\n"
	    "            numa_hit:       10186\n"
	    "  minimum 15\n"
	    "  all_unreclaimable: 0\n"
	    "  start_pfn:         1572864\n";

	tap_eq_int(parse_str(text, NULL), 0, "lookalikes: parses");
	tap_eq_int(zi.n_zones, 1, "lookalikes: one zone");
	tap_eq_int(zi.zones[0].has, 0, "lookalikes: no field taken");
	tap_eq_u64(zi.zones[0].v[ZI_FREE], 0, "lookalikes: free untouched");
	tap_eq_u64(zi.zones[0].v[ZI_HIGH], 0, "lookalikes: high untouched");
}

static void
test_new_fields(void)
{
	static const char text[] =
	    "Node 1, zone   Normal\n"
	    "  pages free     812345\n"
	    "        boost    12\n"
	    "        min      100\n"
	    "        low      125\n"
	    "        high     150\n"
	    "        promo    175\n"
	    "        spanned  1048576\n"
	    "        present  1048576\n"
	    "        managed  1020184\n"
	    "        cma      256\n"
	    "        protection: (0, 0, 0, 0, 0)\n"
	    "  pagesets\n"
	    "    cpu: 0\n"
	    "              count:    2816\n"
	    "              high:     3540\n"
	    "              batch:    63\n"
	    "        high     1\n"		/* a stray later line */
	    "Node 1, zone  Movable\n"
	    "  pages free     0\n"
	    "        min      0\r\n";
	const struct zoneinfo_zone *z = &zi.zones[0];

	tap_eq_int(parse_str(text, NULL), 0, "6.x: parses");
	tap_eq_int(zi.n_zones, 2, "6.x: two zones");
	tap_eq_int(z->node, 1, "6.x: node 1");
	tap_eq_int(z->has, (1u << ZI_NFIELDS) - 1, "6.x: every field found");
	tap_eq_u64(z->v[ZI_FREE], 812345, "6.x: pages free");
	tap_eq_u64(z->v[ZI_BOOST], 12, "6.x: boost");
	tap_eq_u64(z->v[ZI_MIN], 100, "6.x: min");
	tap_eq_u64(z->v[ZI_LOW], 125, "6.x: low");
	tap_eq_u64(z->v[ZI_HIGH], 150, "6.x: high is the watermark, not a later line");
	tap_eq_u64(z->v[ZI_MANAGED], 1020184, "6.x: managed");
	tap_eq_u64(z->v[ZI_CMA], 256, "6.x: cma");
	tap_eq_str(zi.zones[1].zone, "Movable", "6.x: second zone");
	tap_eq_int(zi.zones[1].has, BIT(ZI_FREE) | BIT(ZI_MIN),
	    "6.x: second zone has free and min only");
}

static void
test_zone_cap(void)
{
	size_t cap = (MAX_ZONES + 1) * 64, len = 0;
	char *text = malloc(cap);
	struct parse_error err = { 0 };

	for (int i = 0; i < MAX_ZONES; i++)
		len += (size_t)snprintf(text + len, cap - len,
		    "Node %d, zone   Normal\n  pages free     %d\n", i, i);
	tap_eq_int(zoneinfo_parse(text, len, &zi, NULL), 0, "cap: %d zones fit",
	    MAX_ZONES);
	tap_eq_int(zi.n_zones, MAX_ZONES, "cap: all kept");
	tap_eq_u64(zi.zones[MAX_ZONES - 1].v[ZI_FREE], MAX_ZONES - 1,
	    "cap: last zone read");
	len += (size_t)snprintf(text + len, cap - len, "Node 99, zone   Normal\n");
	tap_eq_int(zoneinfo_parse(text, len, &zi, &err), -EINVAL, "cap: %d rejected",
	    MAX_ZONES + 1);
	tap_eq_int(err.line, 2 * MAX_ZONES + 1, "cap: names the extra record (%s)",
	    err.msg);
	free(text);
}

static void
test_rejects(void)
{
	static const struct {
		const char *text;
		int line;
		const char *what;
	} bad[] = {
		{ "", 0, "empty buffer" },
		{ "\x7f" "ELF\x02\x01\x01\n\xff\xfe pages free 1\n", 0, "garbage" },
		{ "  pages free 1\n        min 2\n", 0, "fields without a record" },
		{ "Node x, zone   Normal\n", 1, "node not a number" },
		{ "Node -1, zone   Normal\n", 1, "negative node" },
		{ "Node 0 zone   Normal\n", 1, "no comma after the node" },
		{ "Node 0, zone\n", 1, "no zone name" },
		{ "Node 0, Normal\n", 1, "no \"zone\" word" },
		{ "Node 0, zone ThisNameIsTooLong\n", 1, "zone name too long" },
		{ "Node 0, zone DMA\n  pages free  abc\n", 2, "pages free not a number" },
		{ "Node 0, zone DMA\n  pages free\n", 2, "pages free without value" },
		{ "Node 0, zone DMA\n  pages free 1\n        min\n", 3, "min without value" },
		{ "Node 0, zone DMA\n        low -5\n", 2, "negative low" },
		{ "Node 0, zone DMA\n        high 123456789012345678901\n", 2,
		  "21-digit high" },
		{ "Node 0, zone DMA\n        managed 18446744073709551616\n", 2,
		  "managed past UINT64_MAX" },
		{ "Node 0, zone DMA\n  pages free 1\nNode 0, zone DMA32\n"
		  "        spanned 1x\n", 4, "bad field in the second record" },
	};
	struct parse_error err;

	for (size_t i = 0; i < nitems(bad); i++) {
		memset(&err, 0, sizeof(err));
		tap_eq_int(parse_str(bad[i].text, &err), -EINVAL, "rejects %s",
		    bad[i].what);
		tap_eq_int(err.line, bad[i].line, "rejects %s: line (%s)", bad[i].what,
		    err.msg);
		tap_ok(err.msg[0] != '\0', "rejects %s: says why", bad[i].what);
	}
	tap_eq_int(parse_str("Node 0, zone DMA\n        min x\n", NULL), -EINVAL,
	    "rejects with err NULL");
	tap_eq_int(parse_str("Node 0, zone DMA\n        spanned "
	    "18446744073709551615\n", NULL), 0, "UINT64_MAX accepted");
	tap_eq_u64(zi.zones[0].v[ZI_SPANNED], UINT64_MAX, "UINT64_MAX kept");
}

static int
parse_cb(const char *buf, size_t len, void *ctx)
{
	struct parse_error err;

	(void)ctx;
	return zoneinfo_parse(buf, len, &zi, &err);
}

static void
test_damage(void)
{
	static const char *const files[] = {
		"proc/zoneinfo/procfs-x86_64-5.x-movable-device.txt",
		"proc/zoneinfo/lkml-2005-2.6.14-i386-highmem-pcp-hotcold-tscanned-PATCHED.txt",
	};
	char *buf;
	size_t len, ok;

	for (size_t i = 0; i < nitems(files); i++) {
		buf = fixture_load(files[i], &len);
		ok = fixture_damage(buf, len, parse_cb, NULL);
		tap_ok(ok > len / 2, "damage: %s: %zu damaged copies parse", files[i],
		    ok);
		free(buf);
	}
}

int
main(void)
{
	test_fixtures();
	test_reverse_nodes();
	test_lookalikes();
	test_new_fields();
	test_zone_cap();
	test_rejects();
	test_damage();
	return tap_done();
}
