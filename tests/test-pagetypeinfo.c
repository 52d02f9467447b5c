/*
 * pagetypeinfo_parse: every fixture with numbers read from the files, the
 * sum over migratetypes against buddyinfo from the same capture, then
 * hand-made and damaged input. Totals were computed from the fixtures with
 * awk, independently of the parser.
 *
 * The ROW-FRAGMENT fixture is two free rows quoted from a mail, with no
 * "Free pages count per migrate type at order" header: that header gives the
 * number of orders, so rows without it are not a pagetypeinfo file and the
 * parser rejects them on line 1. The rows themselves are tested below with
 * the header put back in front.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/buddyinfo.h"
#include "fixture.h"
#include "parse/pagetypeinfo.h"
#include "tap.h"

#define PTI_DIR "proc/pagetypeinfo"
#define BI_DIR "proc/buddyinfo"
#define LIVE "roots/live-6.18-x86_64"
#define FRAGMENT "lkml-2019-5.4-cap-100000-ROW-FRAGMENT.txt"

/* The header of an 11-order free table, as the kernel prints it. */
#define FREE_HEADER_11 "Free pages count per migrate type at order " \
	"      0      1      2      3      4      5      6      7      8      9     10 \n"
/* A block table for the fragment's zone, which the kernel always prints. */
#define BLOCKS_6_NORMAL "\nNumber of blocks type       Movable \n" \
	"Node 6, zone   Normal        30000 \n"

struct expect {
	const char *file;
	int pageblock_order;
	uint64_t pages_per_block;
	int n_orders;
	const char *types;		/* space separated, in file order */
	int n_free;
	int n_blocks;
	int last_node;
	/* One free count and one block count read from the file. */
	int f_node;
	const char *f_zone;
	const char *f_type;
	int f_order;
	uint32_t f_value;
	int b_node;
	const char *b_zone;
	const char *b_type;
	uint64_t b_value;
	uint64_t free_sum;		/* all free counts */
	uint64_t block_sum;		/* all block counts */
};

#define OLD5 "Unmovable Reclaimable Movable Reserve Isolate"
#define OLD6 "Unmovable Reclaimable Movable Reserve CMA Isolate"
#define NEW5 "Unmovable Movable Reclaimable HighAtomic Isolate"
#define NEW6 "Unmovable Movable Reclaimable HighAtomic CMA Isolate"

static const struct expect expects[] = {
	{ "android-arm32-3.x-highmem-cma-reserve-pbo10.txt",
	  10, 1024, 11, OLD6, 12, 2, 0,
	  0, "Normal", "CMA", 0, 899, 0, "HighMem", "Movable", 311, 9746, 499 },
	{ "blog-centos7-3.10-x86_64-32G-reserve-cma-6digit.txt",
	  9, 512, 11, OLD6, 18, 3, 0,
	  0, "Normal", "Movable", 1, 160315, 0, "Normal", "Unmovable", 10261,
	  466402, 16384 },
	{ "blog-centos7.5-3.10.0-862-x86_64-2node-reserve-cma-isolate.txt",
	  9, 512, 11, OLD6, 24, 4, 1,
	  1, "Normal", "Movable", 10, 10898, 1, "Normal", "Movable", 30157,
	  977356, 65408 },
	{ "javafixture-i386-nonPAE-2.6.3x-highmem-pbo10.txt",
	  10, 1024, 11, OLD5, 15, 3, 0,
	  0, "HighMem", "Movable", 10, 87, 0, "HighMem", "Movable", 536,
	  566, 768 },
	{ "jc-x86_64-5.8-highatomic-isolate.txt",
	  9, 512, 11, NEW5, 15, 3, 0,
	  0, "DMA32", "Movable", 10, 629, 0, "DMA32", "Movable", 1472,
	  1008, 2048 },
	{ "kernel-doc-proc.rst-example-x86_64-reserve.txt",
	  9, 512, 11, OLD5, 10, 2, 0,
	  0, "DMA32", "Movable", 10, 452, 0, "DMA32", "Movable", 967,
	  1477, 1024 },
	{ "lkml-2.6.25rc8mm1-x86-32-highmem-NULL-name-bug.txt",
	  -1, 0, 11, "Unmovable Reclaimable Movable Reserve <NULL>", 15, 3, 0,
	  0, "HighMem", "Movable", 0, 236, 0, "Normal", "Reclaimable", 40,
	  470, 510 },
	{ "lkml-2.6.25rc8mm1-x86-32-highmem-isolate-fixed.txt",
	  -1, 0, 11, OLD5, 15, 3, 0,
	  0, "Normal", "Movable", 10, 196, 0, "Normal", "Movable", 207,
	  460, 510 },
	{ "lkml-2015-euler-rfc-MIRROR-type-2node-nonmainline.txt",
	  9, 512, 11, "Unmovable Reclaimable Movable Mirror Reserve Isolate",
	  24, 4, 1,
	  0, "Normal", "Mirror", 10, 973, 1, "Normal", "Mirror", 4096,
	  12709, 24576 },
	{ "lkml-2019-arm32-4.14-13orders-pbo12-dma-highmem-cma-RECONSTRUCTED.txt",
	  12, 4096, 13, NEW6, 12, 2, 0,
	  0, "HighMem", "CMA", 12, 13, 0, "HighMem", "CMA", 57, 2906, 120 },
	{ "lkml-2019-x86_64-5.x-highatomic-cma-isolate.txt",
	  9, 512, 11, NEW6, 18, 3, 0,
	  0, "Normal", "Unmovable", 0, 7744, 0, "Normal", "Movable", 1469,
	  47645, 4095 },
	{ "lkml-fb-3.10-x86_64-2node-reserve-isolate.txt",
	  9, 512, 11, OLD5, 20, 4, 1,
	  1, "Normal", "Unmovable", 0, 5746, 1, "Normal", "Movable", 31465,
	  22243, 65536 },
	{ "lkml-fb-4.0-x86_64-2node-reserve-cma-isolate.txt",
	  9, 512, 11, OLD6, 24, 4, 1,
	  0, "Normal", "Unmovable", 0, 115050, 1, "Normal", "Movable", 25345,
	  345382, 65536 },
};

static struct pagetypeinfo pti;

static int
parse_str(const char *s, struct parse_error *err)
{
	return pagetypeinfo_parse(s, strlen(s), &pti, err);
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

static const struct pagetypeinfo_free *
find_free(const struct pagetypeinfo *p, int node, const char *zone,
    const char *type)
{
	int i, t = pagetypeinfo_type(p, type);

	for (i = 0; i < p->n_free; i++) {
		if (p->free[i].node == node && p->free[i].type == t &&
		    strcmp(p->free[i].zone, zone) == 0)
			return &p->free[i];
	}
	return NULL;
}

static const struct pagetypeinfo_blocks *
find_blocks(const struct pagetypeinfo_blocks *rows, int n, int node,
    const char *zone)
{
	int i;

	for (i = 0; i < n; i++) {
		if (rows[i].node == node && strcmp(rows[i].zone, zone) == 0)
			return &rows[i];
	}
	return NULL;
}

/* The type names joined with spaces, to compare with one string. */
static const char *
joined_types(const struct pagetypeinfo *p)
{
	static char s[MAX_MTYPES * NAME_LEN + MAX_MTYPES];
	int i;

	s[0] = '\0';
	for (i = 0; i < p->n_types; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, p->types[i]);
	}
	return s;
}

static char *
load(const char *base, size_t *len)
{
	char rel[256];

	snprintf(rel, sizeof(rel), PTI_DIR "/%s", base);
	return fixture_load(rel, len);
}

static int
load_parse(const char *base, struct pagetypeinfo *p)
{
	struct parse_error err;
	size_t len;
	char *buf;
	int r;

	buf = load(base, &len);
	r = pagetypeinfo_parse(buf, len, p, &err);
	free(buf);
	if (!tap_ok(r == 0, "%s: loads", base))
		printf("#   line %d: %s\n", err.line, err.msg);
	return r;
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e = find_expect(base);
	const struct pagetypeinfo_free *f;
	const struct pagetypeinfo_blocks *b;
	uint64_t free_sum = 0, block_sum = 0;
	uint32_t capped = 0;
	int i, o;

	if (strcmp(base, FRAGMENT) == 0)
		return;		/* rows without a header: test_fragment() */
	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	if (load_parse(base, &pti) != 0)
		return;

	tap_eq_int(pti.pageblock_order, e->pageblock_order,
	    "%s: page block order", base);
	tap_eq_u64(pti.pages_per_block, e->pages_per_block,
	    "%s: pages per block", base);
	tap_eq_int(pti.n_orders, e->n_orders, "%s: orders", base);
	tap_eq_str(joined_types(&pti), e->types, "%s: migratetypes", base);
	tap_eq_int(pti.n_free, e->n_free, "%s: free rows", base);
	tap_eq_int(pti.n_blocks, e->n_blocks, "%s: block rows", base);
	tap_eq_int(pti.n_mixed, 0, "%s: no mixed table", base);

	/* Rows keep the file's order: zone by zone, types in order. */
	tap_eq_int(pti.free[0].node, 0, "%s: first free row node 0", base);
	tap_eq_int(pti.free[0].type, 0, "%s: first free row first type", base);
	tap_eq_int(pti.free[pti.n_free - 1].node, e->last_node,
	    "%s: last free row node", base);
	tap_eq_int(pti.free[pti.n_free - 1].type, pti.n_types - 1,
	    "%s: last free row last type", base);
	tap_eq_int(pti.blocks[pti.n_blocks - 1].node, e->last_node,
	    "%s: last block row node", base);

	f = find_free(&pti, e->f_node, e->f_zone, e->f_type);
	if (tap_ok(f != NULL, "%s: node %d %s %s free row", base, e->f_node,
	    e->f_zone, e->f_type))
		tap_eq_u64(f->free[e->f_order], e->f_value,
		    "%s: node %d %s %s order %d", base, e->f_node, e->f_zone,
		    e->f_type, e->f_order);
	b = find_blocks(pti.blocks, pti.n_blocks, e->b_node, e->b_zone);
	if (tap_ok(b != NULL, "%s: node %d %s block row", base, e->b_node,
	    e->b_zone))
		tap_eq_u64(b->count[pagetypeinfo_type(&pti, e->b_type)],
		    e->b_value, "%s: node %d %s %s blocks", base, e->b_node,
		    e->b_zone, e->b_type);

	for (i = 0; i < pti.n_free; i++) {
		for (o = 0; o < pti.n_orders; o++)
			free_sum += pti.free[i].free[o];
		capped |= pti.free[i].capped;
	}
	for (i = 0; i < pti.n_blocks; i++) {
		for (o = 0; o < pti.n_types; o++)
			block_sum += pti.blocks[i].count[o];
	}
	tap_eq_u64(free_sum, e->free_sum, "%s: sum of free counts", base);
	tap_eq_u64(block_sum, e->block_sum, "%s: sum of block counts", base);
	tap_eq_u64(capped, 0, "%s: nothing capped", base);
}

static void
test_details(void)
{
	static struct pagetypeinfo p;
	const struct pagetypeinfo_free *f;
	const struct pagetypeinfo_blocks *b;
	size_t len;
	char *buf;
	int i, n1, r;

	if (load_parse("lkml-2015-euler-rfc-MIRROR-type-2node-nonmainline.txt",
	    &p) == 0) {
		tap_eq_int(pagetypeinfo_type(&p, "Mirror"), 3, "euler: Mirror is type 3");
		f = find_free(&p, 1, "Normal", "Mirror");
		tap_ok(f != NULL && f->free[10] == 2003, "euler: node 1 Mirror order 10");
		f = find_free(&p, 0, "Normal", "Mirror");
		tap_ok(f != NULL && f->free[0] == 148, "euler: node 0 Mirror order 0");
		b = find_blocks(p.blocks, p.n_blocks, 0, "Normal");
		tap_ok(b != NULL && b->count[3] == 2048, "euler: node 0 Mirror blocks");
		tap_ok(b != NULL && b->count[2] == 8702, "euler: node 0 Movable blocks");
		tap_eq_int(p.blocks[3].node, 1, "euler: node 1 block row");
	}

	if (load_parse("lkml-2.6.25rc8mm1-x86-32-highmem-NULL-name-bug.txt",
	    &p) == 0) {
		tap_eq_int(pagetypeinfo_type(&p, "<NULL>"), 4, "NULL: <NULL> is type 4");
		tap_eq_int(pagetypeinfo_type(&p, "Isolate"), -1, "NULL: no Isolate");
		/* The Reserve column is 8 wide in the mail: split on blanks. */
		b = find_blocks(p.blocks, p.n_blocks, 0, "DMA");
		tap_ok(b != NULL && b->count[3] == 1 && b->count[4] == 0 &&
		    b->count[2] == 2, "NULL: DMA blocks Movable 2 Reserve 1 <NULL> 0");
		f = find_free(&p, 0, "Normal", "Movable");
		tap_ok(f != NULL && f->free[10] == 60, "NULL: Normal Movable order 10");
	}

	if (load_parse("jc-x86_64-5.8-highatomic-isolate.txt", &p) == 0) {
		tap_eq_int(pagetypeinfo_type(&p, "Movable"), 1,
		    "jc: Movable second since 4.4");
		tap_eq_int(pagetypeinfo_type(&p, "HighAtomic"), 3, "jc: HighAtomic");
		tap_eq_int(pagetypeinfo_type(&p, "CMA"), -1, "jc: no CMA");
		b = find_blocks(p.blocks, p.n_blocks, 0, "Normal");
		tap_ok(b != NULL && b->count[0] == 120 && b->count[1] == 345 &&
		    b->count[2] == 47, "jc: Normal blocks 120 345 47");
	}

	if (load_parse("lkml-2019-arm32-4.14-13orders-pbo12-dma-highmem-cma-RECONSTRUCTED.txt",
	    &p) == 0) {
		f = find_free(&p, 0, "DMA", "Movable");
		tap_ok(f != NULL && f->free[11] == 3 && f->free[12] == 9,
		    "arm32: DMA Movable orders 11 and 12");
		f = find_free(&p, 0, "HighMem", "CMA");
		tap_ok(f != NULL && f->free[0] == 261 && f->free[1] == 915,
		    "arm32: HighMem CMA orders 0 and 1");
		tap_ok(find_free(&p, 0, "Normal", "Movable") == NULL,
		    "arm32: no Normal zone");
	}

	if (load_parse("blog-centos7.5-3.10.0-862-x86_64-2node-reserve-cma-isolate.txt",
	    &p) == 0) {
		for (i = n1 = 0; i < p.n_free; i++)
			n1 += p.free[i].node == 1;
		tap_eq_int(n1, 6, "centos7.5: six node 1 free rows");
		f = find_free(&p, 0, "Normal", "Movable");
		tap_ok(f != NULL && f->free[0] == 186666 && f->free[1] == 165228,
		    "centos7.5: 6 digit counts");
		f = find_free(&p, 1, "Normal", "Reclaimable");
		tap_ok(f != NULL && f->free[1] == 34049, "centos7.5: node 1 Reclaimable");
	}

	if (load_parse("lkml-fb-3.10-x86_64-2node-reserve-isolate.txt", &p) == 0) {
		for (i = n1 = 0; i < p.n_free; i++)
			n1 += p.free[i].node == 1;
		tap_eq_int(n1, 5, "fb-3.10: five node 1 free rows");
		b = find_blocks(p.blocks, p.n_blocks, 0, "Normal");
		tap_ok(b != NULL && b->count[0] == 1105 && b->count[1] == 497 &&
		    b->count[2] == 30140, "fb-3.10: node 0 Normal blocks");
	}

	if (load_parse("javafixture-i386-nonPAE-2.6.3x-highmem-pbo10.txt",
	    &p) == 0) {
		f = find_free(&p, 0, "Normal", "Unmovable");
		tap_ok(f != NULL && f->free[0] == 208, "java: Normal Unmovable order 0");
		tap_eq_str(p.free[14].zone, "HighMem", "java: last zone HighMem");
	}

	/* A 6.18 capture kept as a proc root for the sampler's tests. */
	buf = fixture_load(LIVE "/pagetypeinfo", &len);
	r = pagetypeinfo_parse(buf, len, &p, NULL);
	free(buf);
	if (tap_ok(r == 0, "live 6.18: loads")) {
		tap_eq_str(joined_types(&p), NEW5, "live 6.18: migratetypes");
		tap_eq_int(p.n_free, 15, "live 6.18: free rows");
		f = find_free(&p, 0, "Normal", "Reclaimable");
		tap_ok(f != NULL && f->free[0] == 216, "live 6.18: Normal Reclaimable order 0");
		f = find_free(&p, 0, "DMA32", "Movable");
		tap_ok(f != NULL && f->free[10] == 752, "live 6.18: DMA32 Movable order 10");
		b = find_blocks(p.blocks, p.n_blocks, 0, "Normal");
		tap_ok(b != NULL && b->count[1] == 564, "live 6.18: Normal Movable blocks");
	}

	if (load_parse("android-arm32-3.x-highmem-cma-reserve-pbo10.txt",
	    &p) == 0) {
		f = find_free(&p, 0, "HighMem", "Reserve");
		tap_ok(f != NULL && f->free[0] == 45, "android: HighMem Reserve order 0");
		tap_eq_str(p.free[0].zone, "Normal", "android: no DMA zone");
	}
}

/*
 * The free table split by migratetype sums to the buddyinfo row of the same
 * zone. In the proc/ pairs only DMA (and jc's Normal) agree: the two files
 * of each capture were read at different moments and busy zones moved in
 * between. The live root was read back to back and agrees in every zone.
 */
static void
test_sum(const char *pti_rel, const char *bi_rel, int node, const char *zone)
{
	static struct pagetypeinfo p;
	static struct buddyinfo bi;
	const struct buddyinfo_zone *bz = NULL;
	uint64_t sum;
	size_t len;
	char *buf;
	int i, o, r, same = 1;

	buf = fixture_load(pti_rel, &len);
	r = pagetypeinfo_parse(buf, len, &p, NULL);
	free(buf);
	if (!tap_ok(r == 0, "%s: loads", pti_rel))
		return;
	buf = fixture_load(bi_rel, &len);
	tap_eq_int(buddyinfo_parse(buf, len, &bi, NULL), 0, "%s: loads", bi_rel);
	free(buf);
	for (i = 0; i < bi.n_zones; i++) {
		if (bi.zones[i].node == node && strcmp(bi.zones[i].zone, zone) == 0)
			bz = &bi.zones[i];
	}
	if (!tap_ok(bz != NULL, "%s: has node %d %s", bi_rel, node, zone))
		return;
	tap_eq_int(p.n_orders, bi.n_orders, "%s: as many orders as buddyinfo",
	    pti_rel);
	for (o = 0; o < p.n_orders; o++) {
		sum = 0;
		for (i = 0; i < p.n_free; i++) {
			if (p.free[i].node == node &&
			    strcmp(p.free[i].zone, zone) == 0)
				sum += p.free[i].free[o];
		}
		if (sum != bz->free[o]) {
			printf("#   order %d: types sum to %llu, buddyinfo %llu\n",
			    o, (unsigned long long)sum,
			    (unsigned long long)bz->free[o]);
			same = 0;
		}
	}
	tap_ok(same, "%s: node %d %s sums to buddyinfo", pti_rel, node, zone);
}

static void
test_fragment(void)
{
	struct parse_error err;
	const char *row1, *row2;
	char buf[1024];
	size_t len;
	char *frag;
	int r;

	frag = load(FRAGMENT, &len);
	r = pagetypeinfo_parse(frag, len, &pti, &err);
	tap_eq_int(r, -EINVAL, "fragment: rows without the free header: -EINVAL");
	tap_eq_int(err.line, 1, "fragment: refused on line 1");
	tap_ok(strstr(err.msg, "header") != NULL, "fragment: says why (%s)", err.msg);

	row1 = frag;
	row2 = strchr(frag, '\n') + 1;

	/* Row 1 is the capped row of 5.4+. */
	snprintf(buf, sizeof(buf), "%s%.*s%s", FREE_HEADER_11,
	    (int)(row2 - row1), row1, BLOCKS_6_NORMAL);
	r = parse_str(buf, &err);
	tap_eq_int(r, 0, "capped row with its header");
	tap_eq_int(pti.n_free, 1, "capped: one row");
	tap_eq_int(pti.free[0].node, 6, "capped: node 6");
	tap_eq_str(pti.free[0].zone, "Normal", "capped: zone");
	tap_eq_str(pti.types[pti.free[0].type], "Movable", "capped: type");
	tap_eq_u64(pti.free[0].free[0], PTI_CAP, "capped: order 0 is the cap");
	tap_eq_u64(pti.free[0].free[3], 100000, "capped: order 3 is the cap");
	tap_eq_u64(pti.free[0].free[4], 41019, "capped: order 4 counted");
	tap_eq_u64(pti.free[0].free[10], 648, "capped: order 10 counted");
	tap_eq_u64(pti.free[0].capped, 0xf, "capped: bits 0-3 set, no others");
	tap_eq_int(pti.pageblock_order, -1, "capped: no page block order");
	tap_eq_u64(pti.pages_per_block, 0, "capped: no pages per block");

	/* Row 2 is the same zone before the cap. */
	snprintf(buf, sizeof(buf), "%s%s%s", FREE_HEADER_11, row2,
	    BLOCKS_6_NORMAL);
	r = parse_str(buf, &err);
	tap_eq_int(r, 0, "uncapped row with its header");
	tap_eq_u64(pti.free[0].free[0], 399568, "uncapped: order 0");
	tap_eq_u64(pti.free[0].free[3], 102119, "uncapped: order 3");
	tap_eq_u64(pti.free[0].capped, 0, "uncapped: no bits");

	/* Both rows are node 6 Normal Movable: one zone listed twice. */
	snprintf(buf, sizeof(buf), "%s%s%s", FREE_HEADER_11, frag,
	    BLOCKS_6_NORMAL);
	tap_eq_int(parse_str(buf, &err), -EINVAL, "both rows: -EINVAL");
	tap_eq_int(err.line, 3, "both rows: the second is refused");
	free(frag);
}

/* A whole small file: one node, DMA, two types, three orders. */
#define SMALL_HEAD \
	"Page block order: 9\n" \
	"Pages per block:  512\n" \
	"\n" \
	"Free pages count per migrate type at order       0      1      2 \n"
#define SMALL_FREE \
	"Node    0, zone      DMA, type    Unmovable      1      2      3 \n" \
	"Node    0, zone      DMA, type      Movable      4      5      6 \n"
#define SMALL_BLOCKS \
	"\n" \
	"Number of blocks type     Unmovable      Movable \n" \
	"Node 0, zone      DMA            7            8 \n"
#define SMALL SMALL_HEAD SMALL_FREE SMALL_BLOCKS
#define NODE1 \
	"Page block order: 9\n" \
	"Pages per block:  512\n" \
	"\n" \
	"Free pages count per migrate type at order       0      1      2 \n" \
	"Node    1, zone   Normal, type    Unmovable     11     12     13 \n" \
	"Node    1, zone   Normal, type      Movable     14     15     16 \n" \
	"\n" \
	"Number of blocks type     Unmovable      Movable \n" \
	"Node 1, zone   Normal           17           18 \n"

static void
test_inline(void)
{
	struct parse_error err;
	char big[8192];
	size_t n;
	int i, r;

	r = parse_str(SMALL, &err);
	tap_eq_int(r, 0, "small file");
	tap_eq_int(pti.n_orders, 3, "small: 3 orders from the header");
	tap_eq_str(joined_types(&pti), "Unmovable Movable", "small: types");
	tap_eq_u64(pti.free[1].free[2], 6, "small: Movable order 2");
	tap_eq_u64(pti.blocks[0].count[1], 8, "small: Movable blocks");
	tap_eq_int(pti.n_mixed, 0, "small: no mixed table");

	r = parse_str(SMALL NODE1, &err);
	tap_eq_int(r, 0, "two nodes, no blank line between groups");
	tap_eq_int(pti.n_free, 4, "two nodes: four free rows");
	tap_eq_int(pti.n_blocks, 2, "two nodes: two block rows");
	tap_eq_int(pti.free[3].node, 1, "two nodes: node 1 free row");
	tap_eq_u64(pti.free[3].free[2], 16, "two nodes: node 1 Movable order 2");
	tap_eq_u64(pti.blocks[1].count[0], 17, "two nodes: node 1 Unmovable blocks");

	r = parse_str(SMALL
	    "\n"
	    "Number of mixed blocks    Unmovable      Movable \n"
	    "Node 0, zone      DMA            0            1 \n", &err);
	tap_eq_int(r, 0, "mixed table");
	tap_eq_int(pti.n_mixed, 1, "mixed: one row");
	tap_eq_u64(pti.mixed[0].count[1], 1, "mixed: Movable");
	tap_eq_u64(pti.blocks[0].count[1], 8, "mixed: block table untouched");

	/* Block columns map by name, whatever their order. */
	r = parse_str(SMALL_HEAD SMALL_FREE
	    "Number of blocks type       Movable    Unmovable\n"
	    "Node 0, zone      DMA            8            7\n", &err);
	tap_eq_int(r, 0, "block columns in another order");
	tap_eq_u64(pti.blocks[0].count[0], 7, "by name: Unmovable");
	tap_eq_u64(pti.blocks[0].count[1], 8, "by name: Movable");

	/* Types keep the order they first appear in, header or rows. */
	r = parse_str("Number of blocks type     Movable    Unmovable\n"
	    "Node 0, zone DMA 8 7\n"
	    "Free pages count per migrate type at order 0 1\n"
	    "Node 0, zone DMA, type Unmovable 1 2\n"
	    "Node 0, zone DMA, type Movable 3 4\n"
	    "Number of blocks type     Movable    Unmovable\n", &err);
	tap_eq_int(r, 0, "types first named by a block header");
	tap_eq_str(joined_types(&pti), "Movable Unmovable", "first appearance order");
	tap_eq_int(pti.free[0].type, 1, "Unmovable row is type 1");
	r = parse_str("Number of blocks type B A\nNode 0, zone DMA 1 2\n", &err);
	tap_eq_int(r, 0, "block table alone");
	tap_eq_int(pti.n_orders, 0, "block table alone: no orders");
	tap_eq_str(joined_types(&pti), "B A", "block table alone: types");
	tap_eq_u64(pti.blocks[0].count[1], 2, "block table alone: A");

	/* Nothing to read. */
	tap_eq_int(pagetypeinfo_parse("", 0, &pti, &err), -EINVAL, "empty: -EINVAL");
	tap_eq_str(err.msg, "empty", "empty: says so");
	tap_eq_int(pagetypeinfo_parse(NULL, 0, &pti, NULL), -EINVAL,
	    "empty: NULL buffer and NULL err");
	tap_eq_int(parse_str("\n \n", &err), -EINVAL, "blank lines: -EINVAL");
	tap_eq_int(parse_str(SMALL_HEAD, &err), -EINVAL, "headers only: -EINVAL");

	/* Repeats must agree with the first node. */
	tap_eq_int(parse_str(SMALL "Page block order: 10\n", &err), -EINVAL,
	    "second node with another page block order");
	tap_eq_int(err.line, 10, "other page block order: line 10");
	tap_eq_int(parse_str(SMALL "Pages per block:  1024\n", &err), -EINVAL,
	    "second node with other pages per block");
	tap_eq_int(parse_str(SMALL
	    "Free pages count per migrate type at order 0 1 2 3\n", &err),
	    -EINVAL, "second node with 4 orders");
	tap_eq_int(parse_str(SMALL
	    "Number of blocks type Movable Unmovable\n", &err), -EINVAL,
	    "second block header in another order");
	tap_eq_int(parse_str(SMALL
	    "Free pages count per migrate type at order 0 1 2\n"
	    "Node 1, zone Normal, type Unmovable 1 2 3\n"
	    "Node 1, zone Normal, type Movable 1 2 3\n"
	    "Node 1, zone Normal, type Mirror 1 2 3\n", &err), -EINVAL,
	    "a type only on the second node");
	tap_ok(strstr(err.msg, "2 of 3") != NULL, "new type: names what is missing (%s)",
	    err.msg);
	tap_eq_int(parse_str("Page block order: 9\nPages per block:  1000\n", &err),
	    -EINVAL, "pages per block is not 1 << order");

	/* Counts. */
	tap_eq_int(parse_str(FREE_HEADER_11 "Node 0, zone DMA, type Movable "
	    "0 1 2 3 4 5 6 7 8 9 123456789012345678901\n", &err), -EINVAL,
	    "21 digit free count: -EINVAL");
	tap_eq_int(err.line, 2, "21 digits: line 2");
	tap_eq_int(parse_str("Free pages count per migrate type at order 0 1\n"
	    "Node 0, zone DMA, type Movable 4294967296 1\n", &err), -EINVAL,
	    "free count of 2^32: -EINVAL");
	r = parse_str("Free pages count per migrate type at order 0 1\n"
	    "Node 0, zone DMA, type Movable 4294967295 >7\n"
	    "Number of blocks type Movable\n", &err);
	tap_eq_int(r, 0, "free count of 2^32 - 1");
	tap_eq_u64(pti.free[0].free[0], UINT32_MAX, "2^32 - 1 kept");
	tap_eq_u64(pti.free[0].capped, 2, "\">7\" is a lower bound too");
	tap_eq_int(parse_str("Free pages count per migrate type at order 0 1\n"
	    "Node 0, zone DMA, type Movable > 1\n", &err), -EINVAL,
	    "a lone \">\"");
	tap_eq_int(parse_str("Number of blocks type A\n"
	    "Node 0, zone DMA 123456789012345678901\n", &err), -EINVAL,
	    "21 digit block count: -EINVAL");
	r = parse_str("Number of blocks type A\n"
	    "Node 0, zone DMA 18446744073709551615\n", &err);
	tap_eq_int(r, 0, "block count of UINT64_MAX");
	tap_eq_u64(pti.blocks[0].count[0], UINT64_MAX, "UINT64_MAX blocks kept");
	tap_eq_int(parse_str("Number of blocks type A\nNode 0, zone DMA >1\n", &err),
	    -EINVAL, "block counts are never capped");

	/* 25 order columns: more than MAX_ORDERS, refused rather than cut. */
	n = (size_t)snprintf(big, sizeof(big),
	    "Free pages count per migrate type at order");
	for (i = 0; i < 25; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, " %d", i);
	tap_eq_int(parse_str(big, &err), -EINVAL, "25 orders: -EINVAL");
	tap_ok(strstr(err.msg, "more than 20") != NULL, "25 orders: says so (%s)",
	    err.msg);
	tap_eq_int(parse_str("Free pages count per migrate type at order 0 1 3\n",
	    &err), -EINVAL, "order columns not 0, 1, 2");
	tap_eq_int(parse_str("Free pages count per migrate type at order\n", &err),
	    -EINVAL, "no order columns");

	/* Rows of the wrong length. */
	r = parse_str(SMALL_HEAD
	    "Node    0, zone      DMA, type    Unmovable      1      2 \n", &err);
	tap_eq_int(r, -EINVAL, "short free row: -EINVAL");
	tap_eq_int(err.line, 5, "short free row: line 5");
	tap_eq_str(err.msg, "expected 3 counts, got 2", "short free row: message");
	tap_eq_int(parse_str(SMALL_HEAD
	    "Node    0, zone      DMA, type    Unmovable      1      2 3 4\n", &err),
	    -EINVAL, "long free row: -EINVAL");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE
	    "Number of blocks type     Unmovable      Movable \n"
	    "Node 0, zone      DMA            7 \n", &err), -EINVAL,
	    "short block row: -EINVAL");
	tap_eq_str(err.msg, "expected 2 counts, got 1", "short block row: message");

	/*
	 * Cuts: at a line boundary inside a block table, fewer block rows;
	 * anywhere else -EINVAL. Free rows alone cannot show that no type is
	 * missing, so a free table needs its block table.
	 */
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE "\n"
	    "Number of blocks type     Unmovable      Movable \n", &err), 0,
	    "cut after the block header: accepted");
	tap_eq_int(pti.n_blocks, 0, "cut after the block header: no block rows");
	tap_eq_int(pti.n_free, 2, "cut after the block header: free rows kept");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE, &err), -EINVAL,
	    "cut before the block table: -EINVAL");
	tap_eq_int(err.line, 4, "cut before the block table: names the free header");
	tap_eq_int(parse_str(SMALL_HEAD
	    "Node    0, zone      DMA, type    Unmovable      1      2      3 \n",
	    &err), -EINVAL, "cut after the first free row: -EINVAL");
	tap_eq_int(parse_str(SMALL_HEAD
	    "Node    0, zone      DMA, type    Unmovable      1      2      3 \n"
	    SMALL_BLOCKS, &err), -EINVAL, "a zone missing a type: -EINVAL");
	tap_eq_str(err.msg, "node 0 zone DMA lists 1 of 2 migratetypes",
	    "a zone missing a type: message");
	tap_eq_int(err.line, 5, "a zone missing a type: its first row");
	tap_eq_int(parse_str(SMALL NODE1, &err), 0, "two whole nodes");
	tap_eq_int(parse_str(SMALL "Page block order: 9\n"
	    "Pages per block:  512\n"
	    "Free pages count per migrate type at order 0 1 2\n"
	    "Node 1, zone Normal, type Unmovable 1 2 3\n"
	    "Node 1, zone Normal, type Movable 1 2 3\n", &err), -EINVAL,
	    "second node cut before its block table: -EINVAL");
	tap_eq_int(err.line, 12, "second node cut: names its free header");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE
	    "Number of blocks type     Unmovable      Mov", &err), -EINVAL,
	    "cut inside the block header: -EINVAL");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE
	    "Number of blocks type     Unmovable", &err), -EINVAL,
	    "block header cut after a name: -EINVAL");
	tap_eq_int(parse_str(SMALL_HEAD "Node    0, zone      DM", &err), -EINVAL,
	    "cut inside a zone name: -EINVAL");

	/* Lines in the wrong place or of the wrong shape. */
	tap_eq_int(parse_str(SMALL "hello world\n", &err), -EINVAL, "garbage line");
	tap_eq_int(err.line, 10, "garbage line: line 10");
	tap_eq_int(parse_str(" Page block order: 9\n", &err), -EINVAL,
	    "keys match at the start of a line only");
	tap_eq_int(parse_str("Page block order: x\n", &err), -EINVAL,
	    "page block order not a number");
	tap_eq_int(parse_str("Page block order: 9 9\n", &err), -EINVAL,
	    "two page block orders");
	tap_eq_int(parse_str("Pages per block:  0\n", &err), -EINVAL,
	    "zero pages per block");
	tap_eq_int(parse_str(SMALL_HEAD
	    "Node    0, zone      DMA, kind    Unmovable      1      2      3\n",
	    &err), -EINVAL, "\"type\" missing");
	tap_eq_int(parse_str(SMALL_HEAD "Node    0, zone      DMA, type\n", &err),
	    -EINVAL, "no type name");
	tap_eq_int(parse_str(SMALL
	    "Node    0, zone   Normal, type    Unmovable      1      2      3\n",
	    &err), -EINVAL, "free row inside the block table");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE
	    "Node 0, zone      DMA            7            8\n", &err), -EINVAL,
	    "block row inside the free table");
	tap_eq_int(parse_str(SMALL_HEAD SMALL_FREE
	    "Node    0, zone      DMA, type    Unmovable      1      2      3\n",
	    &err), -EINVAL, "free row listed twice");
	tap_eq_int(err.line, 7, "free row twice: line 7");
	tap_eq_int(parse_str(SMALL
	    "Node 0, zone      DMA            7            8\n", &err), -EINVAL,
	    "block row listed twice");
	tap_eq_int(parse_str("Number of blocks type A A\n", &err), -EINVAL,
	    "a type named twice in a header");
	tap_eq_int(parse_str("Number of blocks type\n", &err), -EINVAL,
	    "block header with no names");
	tap_eq_int(parse_str("Number of blocks type A\nNode x, zone DMA 1\n", &err),
	    -EINVAL, "bad node id");
	tap_eq_int(parse_str("Number of blocks type A\nNode 0 zone DMA 1\n", &err),
	    -EINVAL, "no comma after the node id");
	tap_eq_int(parse_str("Number of blocks type A\nNode 0, zone , 1\n", &err),
	    -EINVAL, "empty zone name");
	tap_eq_int(parse_str("Number of blocks type SixteenCharsTyp\n", &err),
	    -EINVAL, "type name of 16 characters");
	tap_eq_int(parse_str("Number of blocks type A\n"
	    "Node 0, zone SixteenCharsZone 1\n", &err), -EINVAL,
	    "zone name of 16 characters");

	/* Caps. */
	tap_eq_int(parse_str("Number of blocks type "
	    "A B C D E F G H I J K L\nNode 0, zone DMA 1 2 3 4 5 6 7 8 9 10 11 12\n",
	    &err), 0, "MAX_MTYPES types");
	tap_eq_u64(pti.blocks[0].count[MAX_MTYPES - 1], 12, "MAX_MTYPES: last count");
	tap_eq_int(parse_str("Number of blocks type A B C D E F G H I J K L M\n",
	    &err), -EINVAL, "MAX_MTYPES + 1 types: -EINVAL");
	tap_ok(strstr(err.msg, "more than 12") != NULL, "13 types: says so (%s)",
	    err.msg);

	n = (size_t)snprintf(big, sizeof(big),
	    "Free pages count per migrate type at order 0\n");
	for (i = 0; i < MAX_ZONES; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
		    "Node %d, zone Normal, type Movable 1\n", i);
	r = pagetypeinfo_parse(big, n, &pti, &err);
	tap_eq_int(r, -EINVAL, "MAX_ZONES zones and no block table");
	snprintf(big + n, sizeof(big) - n, "Number of blocks type Movable\n");
	r = pagetypeinfo_parse(big, strlen(big), &pti, &err);
	tap_eq_int(r, 0, "MAX_ZONES zones");
	tap_eq_int(pti.n_free, MAX_ZONES, "MAX_ZONES zones kept");
	n += (size_t)snprintf(big + n, sizeof(big) - n,
	    "Node 99, zone Normal, type Movable 1\n");
	tap_eq_int(pagetypeinfo_parse(big, n, &pti, &err), -EINVAL,
	    "MAX_ZONES + 1 zones: -EINVAL");
	tap_eq_int(err.line, MAX_ZONES + 2, "MAX_ZONES + 1 zones: line");

	n = (size_t)snprintf(big, sizeof(big), "Number of blocks type A\n");
	for (i = 0; i <= MAX_ZONES; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
		    "Node %d, zone Normal 1\n", i);
	tap_eq_int(pagetypeinfo_parse(big, n, &pti, &err), -EINVAL,
	    "MAX_ZONES + 1 block rows: -EINVAL");

	/* pagetypeinfo_type(). */
	parse_str(SMALL, NULL);
	tap_eq_int(pagetypeinfo_type(&pti, "Movable"), 1, "type: Movable");
	tap_eq_int(pagetypeinfo_type(&pti, "movable"), -1, "type: case matters");
	tap_eq_int(pagetypeinfo_type(&pti, "Mov"), -1, "type: no prefix match");
	tap_eq_int(pagetypeinfo_type(&pti, NULL), -1, "type: NULL");
}

/* A whole file cut where node 1 begins: node 0 alone, consistent. */
static void
test_cut_fixture(void)
{
	const char *base = "lkml-fb-3.10-x86_64-2node-reserve-isolate.txt";
	struct parse_error err;
	const char *second;
	size_t len;
	char *buf;

	buf = load(base, &len);
	second = strstr(strstr(buf, "Page block order") + 1, "Page block order");
	tap_eq_int(pagetypeinfo_parse(buf, (size_t)(second - buf), &pti, &err), 0,
	    "fb-3.10 cut before node 1: accepted");
	tap_eq_int(pti.n_free, 15, "cut before node 1: node 0 free rows");
	tap_eq_int(pti.n_blocks, 3, "cut before node 1: node 0 block rows");
	/* Half of node 1's first free row. */
	second = strstr(second, "Node    1");
	tap_eq_int(pagetypeinfo_parse(buf, (size_t)(second - buf) + 40, &pti,
	    &err), -EINVAL, "fb-3.10 cut inside a row: -EINVAL");
	free(buf);
}

struct damage_ctx {
	int bad;		/* accepted results that break the contract */
};

static int
parse_damaged(const char *buf, size_t len, void *arg)
{
	static struct pagetypeinfo out;
	struct damage_ctx *ctx = arg;
	struct parse_error err;
	int r, i;

	r = pagetypeinfo_parse(buf, len, &out, &err);
	if (r != 0) {
		if (r != -EINVAL || err.msg[0] == '\0')
			ctx->bad++;
		return r;
	}
	if (out.n_types < 1 || out.n_types > MAX_MTYPES)
		ctx->bad++;
	if (out.n_free > 0 && (out.n_orders < 1 || out.n_orders > MAX_ORDERS ||
	    out.n_free % out.n_types != 0))
		ctx->bad++;
	if (out.pageblock_order >= 0 && out.pages_per_block != 0 &&
	    out.pages_per_block != (uint64_t)1 << out.pageblock_order)
		ctx->bad++;
	for (i = 0; i < out.n_types; i++) {
		if (out.types[i][0] == '\0' || strlen(out.types[i]) >= NAME_LEN)
			ctx->bad++;
	}
	for (i = 0; i < out.n_free; i++) {
		if (out.free[i].type < 0 || out.free[i].type >= out.n_types ||
		    out.free[i].node < 0 ||
		    (out.free[i].capped >> out.n_orders) != 0)
			ctx->bad++;
	}
	return r;
}

static void
test_damage(const char *base)
{
	struct damage_ctx ctx = { 0 };
	size_t len, ok;
	char *buf;

	buf = load(base, &len);
	ok = fixture_damage(buf, len, parse_damaged, &ctx);
	tap_eq_int(ctx.bad, 0, "damaged %s: results keep the contract", base);
	tap_ok(ok >= 1, "damaged %s: %zu parses accepted", base, ok);
	free(buf);
}

int
main(void)
{
	char **list, **p;
	int n = 0;

	list = fixture_list(PTI_DIR);
	for (p = list; *p != NULL; p++, n++)
		check_fixture(*p);
	fixture_list_free(list);
	tap_eq_int(n, (int)(sizeof(expects) / sizeof(expects[0])) + 1,
	    "every expectation has its fixture, plus the fragment");

	test_details();
	test_fragment();
	test_sum(PTI_DIR "/lkml-fb-3.10-x86_64-2node-reserve-isolate.txt",
	    BI_DIR "/lkml-fb-3.10-x86_64-2node.txt", 0, "DMA");
	test_sum(PTI_DIR "/lkml-fb-4.0-x86_64-2node-reserve-cma-isolate.txt",
	    BI_DIR "/lkml-fb-4.0-x86_64-2node-6digit-count.txt", 0, "DMA");
	test_sum(PTI_DIR "/jc-x86_64-5.8-highatomic-isolate.txt",
	    BI_DIR "/jc-x86_64-5.8-ubuntu.txt", 0, "DMA");
	test_sum(PTI_DIR "/jc-x86_64-5.8-highatomic-isolate.txt",
	    BI_DIR "/jc-x86_64-5.8-ubuntu.txt", 0, "Normal");
	test_sum(PTI_DIR "/blog-centos7.5-3.10.0-862-x86_64-2node-reserve-cma-isolate.txt",
	    BI_DIR "/blog-centos7.5-3.10.0-862-x86_64-2node-6digit.txt", 0, "DMA");
	test_sum(PTI_DIR "/blog-centos7-3.10-x86_64-32G-reserve-cma-6digit.txt",
	    BI_DIR "/blog-centos7-3.10-x86_64-6digit.txt", 0, "DMA");
	test_sum(LIVE "/pagetypeinfo", LIVE "/buddyinfo", 0, "DMA");
	test_sum(LIVE "/pagetypeinfo", LIVE "/buddyinfo", 0, "DMA32");
	test_sum(LIVE "/pagetypeinfo", LIVE "/buddyinfo", 0, "Normal");
	test_inline();
	test_cut_fixture();
	test_damage("blog-centos7.5-3.10.0-862-x86_64-2node-reserve-cma-isolate.txt");
	test_damage("lkml-2.6.25rc8mm1-x86-32-highmem-NULL-name-bug.txt");
	test_damage("lkml-2019-arm32-4.14-13orders-pbo12-dma-highmem-cma-RECONSTRUCTED.txt");
	return tap_done();
}
