/*
 * buddyinfo_parse: every fixture with numbers read from the files, then
 * hand-made and damaged input. Totals (blocks and pages over all rows) were
 * computed from the fixtures with awk, independently of the parser.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/buddyinfo.h"
#include "fixture.h"
#include "tap.h"

#define BUDDY_DIR "proc/buddyinfo"

struct expect {
	const char *file;
	int n_zones;
	int n_orders;
	int first_node;
	const char *first_zone;
	uint64_t first_count;		/* zones[0].free[0] */
	int last_node;
	const char *last_zone;
	uint64_t last_first;		/* last row, order 0 */
	uint64_t last_count;		/* last row, last order */
	uint64_t blocks;		/* sum of all counts */
	uint64_t pages;			/* sum of count << order */
};

static const struct expect expects[] = {
	{ "android-arm32-3.x-normal-highmem-nodma.txt", 2, 11,
	  0, "Normal", 3847, 0, "HighMem", 1894, 0, 10330, 28799 },
	{ "blog-centos7-3.10-x86_64-6digit.txt", 3, 11,
	  0, "DMA", 0, 0, "Normal", 127559, 0, 467992, 1435285 },
	{ "blog-centos7.5-3.10.0-862-x86_64-2node-6digit.txt", 4, 11,
	  0, "DMA", 1, 1, "Normal", 11705, 10898, 978936, 29658458 },
	{ "jc-x86_64-5.8-ubuntu.txt", 3, 11,
	  0, "DMA", 0, 0, "Normal", 0, 0, 1124, 660254 },
	{ "lkml-fb-3.10-x86_64-2node.txt", 4, 11,
	  0, "DMA", 0, 1, "Normal", 5956, 0, 48605, 324612 },
	{ "lkml-fb-4.0-x86_64-2node-6digit-count.txt", 4, 11,
	  0, "DMA", 1, 1, "Normal", 190988, 0, 461272, 618161 },
	{ "node_exporter-x86_64-trailing-space.txt", 3, 11,
	  0, "DMA", 1, 0, "Normal", 4381, 0, 10721, 50291 },
	{ "pcp-collectl-debian-3.2-686pae-highmem.txt", 3, 11,
	  0, "DMA", 1, 0, "HighMem", 3, 358, 1578, 440465 },
	{ "pcp-collectl-fc15-2.6.43.txt", 3, 11,
	  0, "DMA", 0, 0, "Normal", 11964, 0, 24466, 128129 },
	{ "pcp-collectl-fedora43-7.0.12-aarch64.txt", 2, 11,
	  0, "DMA", 6804, 0, "Normal", 3129, 0, 57459, 1806671 },
	{ "pcp-collectl-rhel6-2.6.32-8node-numa.txt", 10, 11,
	  0, "DMA", 1, 7, "Normal", 13107, 19593, 1108802, 137800740 },
	{ "pcp-x86_64-4.x-nr_alloc_batch-era.txt", 3, 11,
	  0, "DMA", 3, 0, "Normal", 188, 1, 2895, 725051 },
	{ "procfs-x86_64-5.11-3zones.txt", 3, 11,
	  0, "DMA", 1, 0, "Normal", 4381, 0, 10721, 50291 },
};

static struct buddyinfo bi;

static int
parse_str(const char *s, struct parse_error *err)
{
	return buddyinfo_parse(s, strlen(s), &bi, err);
}

static const struct expect *
find_expect(const char *base)
{
	size_t i;

	for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		if (strcmp(expects[i].file, base) == 0)
			return &expects[i];
	}
	return NULL;
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e = find_expect(base);
	const struct buddyinfo_zone *first, *last;
	struct parse_error err;
	uint64_t blocks = 0, pages = 0;
	size_t len;
	char *buf;
	int r, i, o;

	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	buf = fixture_load(rel, &len);
	r = buddyinfo_parse(buf, len, &bi, &err);
	if (!tap_ok(r == 0, "%s: parses", base)) {
		printf("#   line %d: %s\n", err.line, err.msg);
		free(buf);
		return;
	}
	tap_eq_int(bi.n_zones, e->n_zones, "%s: zone rows", base);
	tap_eq_int(bi.n_orders, e->n_orders, "%s: orders", base);
	first = &bi.zones[0];
	last = &bi.zones[bi.n_zones - 1];
	tap_eq_int(first->node, e->first_node, "%s: first node", base);
	tap_eq_str(first->zone, e->first_zone, "%s: first zone", base);
	tap_eq_u64(first->free[0], e->first_count, "%s: first count", base);
	tap_eq_int(last->node, e->last_node, "%s: last node", base);
	tap_eq_str(last->zone, e->last_zone, "%s: last zone", base);
	tap_eq_u64(last->free[0], e->last_first, "%s: last row order 0", base);
	tap_eq_u64(last->free[bi.n_orders - 1], e->last_count,
	    "%s: last row last order", base);
	for (i = 0; i < bi.n_zones; i++) {
		for (o = 0; o < bi.n_orders; o++) {
			blocks += bi.zones[i].free[o];
			pages += bi.zones[i].free[o] << o;
		}
	}
	tap_eq_u64(blocks, e->blocks, "%s: total free blocks", base);
	tap_eq_u64(pages, e->pages, "%s: total free pages", base);
	free(buf);
}

static void
load(const char *base)
{
	char rel[256];
	size_t len;
	char *buf;
	int r;

	snprintf(rel, sizeof(rel), BUDDY_DIR "/%s", base);
	buf = fixture_load(rel, &len);
	r = buddyinfo_parse(buf, len, &bi, NULL);
	free(buf);
	tap_eq_int(r, 0, "%s: loads", base);
}

/* Figures from particular files, beyond the table. */
static void
test_details(void)
{
	struct buddyinfo a;
	int i;
	static const int rhel6_nodes[] = { 0, 0, 0, 1, 2, 3, 4, 5, 6, 7 };

	/* "Normal 127559 175569": one space between the name and a count. */
	load("blog-centos7-3.10-x86_64-6digit.txt");
	tap_eq_u64(bi.zones[2].free[1], 175569, "centos7: Normal order 1");
	tap_eq_u64(bi.zones[2].free[2], 74035, "centos7: Normal order 2");
	tap_eq_str(bi.zones[1].zone, "DMA32", "centos7: second zone");
	tap_eq_u64(bi.zones[1].free[0], 15436, "centos7: DMA32 order 0");

	load("lkml-fb-4.0-x86_64-2node-6digit-count.txt");
	tap_eq_u64(bi.zones[2].free[0], 130376, "fb-4.0: node 0 Normal order 0");
	tap_eq_u64(bi.zones[2].free[1], 36589, "fb-4.0: node 0 Normal order 1");
	tap_eq_u64(bi.zones[3].free[1], 77269, "fb-4.0: node 1 Normal order 1");
	tap_eq_int(bi.zones[3].node, 1, "fb-4.0: row 4 is node 1");

	load("blog-centos7.5-3.10.0-862-x86_64-2node-6digit.txt");
	tap_eq_u64(bi.zones[2].free[0], 195748, "centos7.5: node 0 Normal order 0");
	tap_eq_u64(bi.zones[2].free[10], 7328, "centos7.5: node 0 Normal order 10");
	tap_eq_u64(bi.zones[1].free[10], 133, "centos7.5: DMA32 order 10");

	load("pcp-collectl-rhel6-2.6.32-8node-numa.txt");
	for (i = 0; i < 10; i++)
		tap_eq_int(bi.zones[i].node, rhel6_nodes[i], "rhel6: row %d node", i);
	tap_eq_u64(bi.zones[4].free[10], 18936, "rhel6: node 2 Normal order 10");
	tap_eq_u64(bi.zones[1].free[10], 25, "rhel6: DMA32 order 10");

	load("android-arm32-3.x-normal-highmem-nodma.txt");
	tap_eq_str(bi.zones[0].zone, "Normal", "android: no DMA zone first");
	tap_eq_u64(bi.zones[0].free[6], 50, "android: Normal order 6");
	tap_eq_u64(bi.zones[1].free[4], 20, "android: HighMem order 4");

	load("pcp-collectl-fedora43-7.0.12-aarch64.txt");
	tap_eq_u64(bi.zones[1].free[4], 13673, "fedora43: Normal order 4");
	tap_eq_u64(bi.zones[0].free[10], 272, "fedora43: DMA order 10");

	load("jc-x86_64-5.8-ubuntu.txt");
	tap_eq_u64(bi.zones[1].free[10], 629, "jc: DMA32 order 10");
	tap_eq_u64(bi.zones[2].free[1], 22, "jc: Normal order 1");

	/* Same numbers with and without the trailing space. */
	load("procfs-x86_64-5.11-3zones.txt");
	a = bi;
	load("node_exporter-x86_64-trailing-space.txt");
	tap_ok(memcmp(&a, &bi, sizeof(a)) == 0,
	    "trailing space: procfs and node_exporter copies parse the same");
}

static void
test_inline(void)
{
	struct parse_error err;
	char big[4096];
	size_t n;
	int i, r;

	tap_eq_int(buddyinfo_parse("", 0, &bi, &err), -EINVAL, "empty: -EINVAL");
	tap_eq_str(err.msg, "empty", "empty: says so");
	tap_eq_int(buddyinfo_parse(NULL, 0, &bi, NULL), -EINVAL,
	    "empty: NULL buffer and NULL err");
	tap_eq_int(parse_str("\n  \n\t\n", &err), -EINVAL, "blank lines only: -EINVAL");
	tap_eq_str(err.msg, "no zone rows", "blank lines only: says so");

	r = parse_str("\nNode 0, zone DMA 1 2 3\n\n   \nNode 0, zone Normal 4 5 6\n\n",
	    &err);
	tap_eq_int(r, 0, "blank lines are skipped");
	tap_eq_int(bi.n_zones, 2, "blank lines: two rows");
	tap_eq_int(bi.n_orders, 3, "three orders taken from the file");
	tap_eq_u64(bi.zones[1].free[2], 6, "blank lines: last count");

	r = parse_str("Node 0, zone DMA 1 2 3 \r\nNode 0, zone Normal 4 5 6\r\n", &err);
	tap_eq_int(r, 0, "CRLF line ends");
	tap_eq_u64(bi.zones[1].free[2], 6, "CRLF: last count");

	r = parse_str("Node 6, zone Normal 1 2\nNode 2, zone Normal 3 4\n"
	    "Node 0, zone DMA 5 6\n", &err);
	tap_eq_int(r, 0, "sparse nodes in reverse order");
	tap_eq_int(bi.zones[0].node, 6, "sparse: first node 6");
	tap_eq_int(bi.zones[1].node, 2, "sparse: then node 2");
	tap_eq_int(bi.zones[2].node, 0, "sparse: then node 0");

	r = parse_str("Node 0, zone   Normal 130376 1234567 98765432101 0\n", &err);
	tap_eq_int(r, 0, "7 and 11 digit counts");
	tap_eq_u64(bi.zones[0].free[1], 1234567, "7 digit count");
	tap_eq_u64(bi.zones[0].free[2], 98765432101ULL, "11 digit count");

	r = parse_str("Node 0, zone Normal 18446744073709551615 1\n", &err);
	tap_eq_int(r, 0, "UINT64_MAX is a count");
	tap_eq_u64(bi.zones[0].free[0], UINT64_MAX, "UINT64_MAX kept");

	r = parse_str("Node 0, zone DMA 1 2\nNode 0, zone Normal 18446744073709551616 1\n",
	    &err);
	tap_eq_int(r, -EINVAL, "UINT64_MAX + 1: -EINVAL");
	tap_eq_int(err.line, 2, "UINT64_MAX + 1: line 2");

	r = parse_str("Node 0, zone Normal 1 123456789012345678901\n", &err);
	tap_eq_int(r, -EINVAL, "21 digits: -EINVAL");
	tap_ok(strstr(err.msg, "64 bits") != NULL, "21 digits: says it does not fit (%s)",
	    err.msg);

	/* 25 columns: more than MAX_ORDERS, refused rather than cut. */
	n = (size_t)snprintf(big, sizeof(big), "Node 0, zone Normal");
	for (i = 0; i < 25; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, " %d", i);
	tap_eq_int(parse_str(big, &err), -EINVAL, "25 orders: -EINVAL");
	tap_ok(strstr(err.msg, "more than 20") != NULL, "25 orders: says so (%s)",
	    err.msg);

	n = (size_t)snprintf(big, sizeof(big), "Node 0, zone Normal");
	for (i = 0; i < MAX_ORDERS; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, " %d", i);
	tap_eq_int(parse_str(big, &err), 0, "MAX_ORDERS orders: accepted");
	tap_eq_u64(bi.zones[0].free[MAX_ORDERS - 1], MAX_ORDERS - 1,
	    "MAX_ORDERS orders: last count");

	r = parse_str("Node 0, zone DMA 0 1 2 3 4 5 6 7 8 9 10\n"
	    "Node 0, zone Normal 0 1 2 3 4 5 6\n", &err);
	tap_eq_int(r, -EINVAL, "short row: -EINVAL");
	tap_eq_int(err.line, 2, "short row: line 2");
	tap_eq_str(err.msg, "expected 11 counts, got 7", "short row: message");

	tap_eq_int(parse_str("Node 0, zone DMA 1 2\nhello world\n", &err),
	    -EINVAL, "garbage line: -EINVAL");
	tap_eq_int(err.line, 2, "garbage line: line 2");
	tap_eq_int(parse_str("Nodes 0, zone DMA 1 2\n", &err), -EINVAL,
	    "\"Nodes\" is not \"Node\"");
	tap_eq_int(parse_str("Node x, zone DMA 1 2\n", &err), -EINVAL,
	    "bad node id");
	tap_eq_int(parse_str("Node -1, zone DMA 1 2\n", &err), -EINVAL,
	    "negative node id");
	tap_eq_int(parse_str("Node 0 zone DMA 1 2\n", &err), -EINVAL,
	    "no comma after the node id");
	tap_eq_int(parse_str("Node 0, area DMA 1 2\n", &err), -EINVAL,
	    "\"zone\" missing");
	tap_eq_int(parse_str("Node 0, zone\n", &err), -EINVAL, "no zone name");
	tap_eq_int(parse_str("Node 0, zone DMA\n", &err), -EINVAL, "no counts");
	tap_eq_int(parse_str("Node 0, zone DMA 1 2x 3\n", &err), -EINVAL,
	    "count with a letter");
	tap_eq_int(parse_str("Node 0, zone DMA 1 -2 3\n", &err), -EINVAL,
	    "negative count");
	tap_eq_int(parse_str("Node 0, zone ThisNameIsTooLong 1\n", &err), -EINVAL,
	    "zone name of 17 characters");
	tap_eq_int(parse_str("Node 0, zone FifteenCharsZon 1\n", &err), 0,
	    "zone name of 15 characters");
	tap_eq_str(bi.zones[0].zone, "FifteenCharsZon", "15 characters kept");
	tap_eq_int(parse_str("Node 0, zone DMA 1\nNode 0, zone DMA 2\n", &err),
	    -EINVAL, "zone listed twice");
	tap_eq_int(parse_str("Node 0, zone DMA 1\nNode 1, zone DMA 2\n", &err), 0,
	    "same zone on two nodes");

	/* MAX_ZONES rows fit, one more is refused. */
	n = 0;
	for (i = 0; i < MAX_ZONES; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
		    "Node %d, zone Normal 1 2\n", i);
	tap_eq_int(buddyinfo_parse(big, n, &bi, &err), 0, "MAX_ZONES rows");
	tap_eq_int(bi.n_zones, MAX_ZONES, "MAX_ZONES rows kept");
	n += (size_t)snprintf(big + n, sizeof(big) - n, "Node 99, zone Normal 1 2\n");
	tap_eq_int(buddyinfo_parse(big, n, &bi, &err), -EINVAL,
	    "MAX_ZONES + 1 rows: -EINVAL");
	tap_eq_int(err.line, MAX_ZONES + 1, "MAX_ZONES + 1 rows: line");

	/* len is honoured: the digits after it are never read. */
	strcpy(big, "Node 0, zone DMA 1 23");
	tap_eq_int(buddyinfo_parse(big, strlen(big) - 1, &bi, &err), 0,
	    "buffer cut before the last digit");
	tap_eq_u64(bi.zones[0].free[1], 2, "cut: only the bytes before len");
}

struct damage_ctx {
	int bad;		/* accepted results that break the contract */
};

static int
parse_damaged(const char *buf, size_t len, void *arg)
{
	struct damage_ctx *ctx = arg;
	struct buddyinfo out;
	struct parse_error err;
	int r, i;

	r = buddyinfo_parse(buf, len, &out, &err);
	if (r != 0) {
		if (r != -EINVAL || err.msg[0] == '\0')
			ctx->bad++;
		return r;
	}
	if (out.n_zones < 1 || out.n_zones > MAX_ZONES || out.n_orders < 1 ||
	    out.n_orders > MAX_ORDERS)
		ctx->bad++;
	for (i = 0; i < out.n_zones; i++) {
		if (out.zones[i].node < 0 ||
		    strlen(out.zones[i].zone) >= NAME_LEN)
			ctx->bad++;
	}
	return r;
}

static void
test_damage(const char *base, int lines)
{
	struct damage_ctx ctx = { 0 };
	char rel[256];
	size_t len, ok;
	char *buf;

	snprintf(rel, sizeof(rel), BUDDY_DIR "/%s", base);
	buf = fixture_load(rel, &len);
	ok = fixture_damage(buf, len, parse_damaged, &ctx);
	tap_eq_int(ctx.bad, 0, "damaged %s: results keep the contract", base);
	/* Each cut at the end of a line is a whole file of fewer rows. */
	tap_ok(ok >= (size_t)lines, "damaged %s: %zu parses accepted", base, ok);
	free(buf);
}

int
main(void)
{
	char **list, **p;
	int n = 0;

	list = fixture_list(BUDDY_DIR);
	for (p = list; *p != NULL; p++, n++)
		check_fixture(*p);
	fixture_list_free(list);
	tap_eq_int(n, (int)(sizeof(expects) / sizeof(expects[0])),
	    "every expectation has its fixture");

	test_details();
	test_inline();
	test_damage("lkml-fb-4.0-x86_64-2node-6digit-count.txt", 4);
	test_damage("procfs-x86_64-5.11-3zones.txt", 3);
	test_damage("pcp-collectl-rhel6-2.6.32-8node-numa.txt", 10);
	return tap_done();
}
