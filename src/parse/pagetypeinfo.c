/*
 * /proc/pagetypeinfo, printed for each node with memory (mm/vmstat.c):
 *
 *	Page block order: 9
 *	Pages per block:  512
 *
 *	Free pages count per migrate type at order       0      1 ...
 *	Node    0, zone      DMA, type    Unmovable      0      0 ...
 *	...
 *
 *	Number of blocks type     Unmovable      Movable ...
 *	Node 0, zone      DMA            1            7 ...
 *
 * then "Number of mixed blocks" in the block layout on page_owner kernels.
 * The group repeats for every node with no blank line in between; mail
 * copies lack the first two lines. Since 5.4 a free count that reached the
 * cap is printed ">100000". Migratetype names and their order change with
 * the kernel version and vendor, so they are taken from the file.
 *
 * A cut or damaged file should be rejected rather than half read, so: each
 * row has exactly as many values as its header has columns; repeated
 * headers agree with the first; no row appears twice; every free table is
 * followed by a block table, whose header names every migratetype, and
 * every zone of the free table lists them all. Free rows alone cannot show
 * that no type is missing; the kernel always prints both tables. A file cut
 * at a line boundary inside a block table thus parses to fewer block rows,
 * and a cut anywhere else (a short last row, half a name, a free table on
 * its own) is -EINVAL. The one cut that cannot be seen is inside the last
 * number of the last line: without its '\n' that is also what a copy that
 * lost its final newline looks like.
 */

#include "parse/pagetypeinfo.h"

#include <errno.h>
#include <string.h>

/* At most this much of a bad token is quoted in a message. */
#define SHOWN_MAX 24

enum pti_table {
	PTI_NONE,		/* no table header yet in this group */
	PTI_FREE,
	PTI_BLOCKS,
	PTI_MIXED,
};

/* The columns of a block or mixed header, as indices into types[]. */
struct pti_columns {
	int n;			/* -1: no such header yet */
	int type[MAX_MTYPES];
	int line;
};

/* A zone of the free table, to check it lists every migratetype. */
struct pti_zone {
	int first;		/* its first row in free[] */
	int rows;
	int line;
};

struct pti_state {
	struct pagetypeinfo *out;
	struct parse_error *err;
	int line;
	enum pti_table table;
	struct pti_columns cols;	/* of the table being read */
	struct pti_columns first_blocks;
	struct pti_columns first_mixed;
	/* The line of a free header still waiting for its block table. */
	int open_free;
	int n_zones;
	struct pti_zone zones[MAX_ZONES];
};

static int
shown(struct span w)
{
	return (int)(w.len < SHOWN_MAX ? w.len : SHOWN_MAX);
}

/* True if line starts with key followed by a blank or the end. */
static bool
pti_key(struct span line, const char *key, struct span *rest)
{
	size_t n = strlen(key);

	if (!span_starts(line, key))
		return false;
	if (line.len > n && line.s[n] != ' ' && line.s[n] != '\t')
		return false;
	rest->s = line.s + n;
	rest->len = line.len - n;
	return true;
}

/* The index of migratetype w, appended when new; -1 when it cannot be. */
static int
pti_intern(struct pti_state *st, struct span w)
{
	struct pagetypeinfo *pti = st->out;
	int i;

	for (i = 0; i < pti->n_types; i++) {
		if (span_eq(w, pti->types[i]))
			return i;
	}
	if (w.len >= NAME_LEN) {
		parse_fail(st->err, st->line,
		    "migratetype \"%.*s\" is longer than %d characters",
		    shown(w), w.s, NAME_LEN - 1);
		return -1;
	}
	if (span_has_control(w)) {
		parse_fail(st->err, st->line,
		    "control character in a migratetype name");
		return -1;
	}
	if (pti->n_types == MAX_MTYPES) {
		parse_fail(st->err, st->line, "more than %d migratetypes",
		    MAX_MTYPES);
		return -1;
	}
	span_copy(w, pti->types[pti->n_types], NAME_LEN);
	return pti->n_types++;
}

/* A free table ends with its block table, never with the next group. */
static int
pti_check_closed(struct pti_state *st)
{
	if (st->open_free != 0)
		return parse_fail(st->err, st->open_free, "free table with no "
		    "\"Number of blocks type\" table after it");
	return 0;
}

/* Pages per block is always 1 << pageblock_order; a mismatch is damage. */
static int
pti_check_block_size(struct pti_state *st)
{
	struct pagetypeinfo *pti = st->out;

	if (pti->pageblock_order < 0 || pti->pages_per_block == 0)
		return 0;
	if (pti->pages_per_block != (uint64_t)1 << pti->pageblock_order)
		return parse_fail(st->err, st->line,
		    "%llu pages per block do not match page block order %d",
		    (unsigned long long)pti->pages_per_block,
		    pti->pageblock_order);
	return 0;
}

static int
pti_block_order(struct pti_state *st, struct span rest)
{
	struct pagetypeinfo *pti = st->out;
	struct span w;
	int order;

	if (!span_next_word(&rest, &w) || span_to_int(w, &order) != 0 ||
	    order < 0 || order > 63 || span_next_word(&rest, &w))
		return parse_fail(st->err, st->line, "bad page block order");
	if (pti->pageblock_order != -1 && pti->pageblock_order != order)
		return parse_fail(st->err, st->line,
		    "page block order %d, was %d for the first node", order,
		    pti->pageblock_order);
	pti->pageblock_order = order;
	st->table = PTI_NONE;	/* the start of the next node's group */
	if (pti_check_closed(st) != 0)
		return -EINVAL;
	return pti_check_block_size(st);
}

static int
pti_pages_per_block(struct pti_state *st, struct span rest)
{
	struct pagetypeinfo *pti = st->out;
	struct span w;
	uint64_t pages;

	if (!span_next_word(&rest, &w) || span_to_u64(w, &pages) != 0 ||
	    pages == 0 || span_next_word(&rest, &w))
		return parse_fail(st->err, st->line, "bad pages per block");
	if (pti->pages_per_block != 0 && pti->pages_per_block != pages)
		return parse_fail(st->err, st->line,
		    "%llu pages per block, was %llu for the first node",
		    (unsigned long long)pages,
		    (unsigned long long)pti->pages_per_block);
	pti->pages_per_block = pages;
	return pti_check_block_size(st);
}

/* "Free pages count per migrate type at order 0 1 ... N-1". */
static int
pti_free_header(struct pti_state *st, struct span rest)
{
	struct pagetypeinfo *pti = st->out;
	struct span w;
	uint64_t v;
	int n = 0;

	while (span_next_word(&rest, &w)) {
		if (n == MAX_ORDERS)
			return parse_fail(st->err, st->line,
			    "more than %d orders", MAX_ORDERS);
		if (span_to_u64(w, &v) != 0 || v != (uint64_t)n)
			return parse_fail(st->err, st->line,
			    "order column %d is \"%.*s\"", n, shown(w), w.s);
		n++;
	}
	if (n == 0)
		return parse_fail(st->err, st->line, "no order columns");
	if (pti->n_orders != 0 && pti->n_orders != n)
		return parse_fail(st->err, st->line,
		    "%d orders, was %d for the first node", n, pti->n_orders);
	if (pti_check_closed(st) != 0)
		return -EINVAL;
	pti->n_orders = n;
	st->table = PTI_FREE;
	st->open_free = st->line;
	return 0;
}

/* "Number of blocks type" or "Number of mixed blocks" and type names. */
static int
pti_types_header(struct pti_state *st, struct span rest, enum pti_table table)
{
	struct pti_columns *first, *cols = &st->cols;
	struct span w;
	int i, t;

	first = table == PTI_BLOCKS ? &st->first_blocks : &st->first_mixed;
	cols->n = 0;
	cols->line = st->line;
	while (span_next_word(&rest, &w)) {
		if (cols->n == MAX_MTYPES)
			return parse_fail(st->err, st->line,
			    "more than %d migratetypes", MAX_MTYPES);
		if ((t = pti_intern(st, w)) < 0)
			return -EINVAL;
		for (i = 0; i < cols->n; i++) {
			if (cols->type[i] == t)
				return parse_fail(st->err, st->line,
				    "migratetype %s named twice",
				    st->out->types[t]);
		}
		cols->type[cols->n++] = t;
	}
	if (cols->n == 0)
		return parse_fail(st->err, st->line, "no migratetype names");

	if (first->n == -1)
		*first = *cols;
	else if (first->n != cols->n ||
	    memcmp(first->type, cols->type, sizeof(int) * cols->n) != 0)
		return parse_fail(st->err, st->line,
		    "migratetypes differ from the table on line %d",
		    first->line);
	st->table = table;
	if (table == PTI_BLOCKS)
		st->open_free = 0;
	return 0;
}

/* The counts of one free row: n_orders values, each maybe ">100000". */
static int
pti_free_counts(struct pti_state *st, struct span rest,
    struct pagetypeinfo_free *row)
{
	struct span w;
	uint64_t v;
	bool capped;
	int n = 0, r;

	while (span_next_word(&rest, &w)) {
		if (n < st->out->n_orders) {
			capped = w.len > 0 && w.s[0] == '>';
			if (capped) {
				w.s++;
				w.len--;
			}
			r = span_to_u64(w, &v);
			if (r == -ERANGE || (r == 0 && v > UINT32_MAX))
				return parse_fail(st->err, st->line,
				    "count %d (%.*s) is too large", n, shown(w),
				    w.s);
			if (r != 0)
				return parse_fail(st->err, st->line,
				    "count %d: \"%.*s\" is not a number", n,
				    shown(w), w.s);
			row->free[n] = (uint32_t)v;
			if (capped)
				row->capped |= (uint32_t)1 << n;
		}
		n++;
	}
	if (n != st->out->n_orders)
		return parse_fail(st->err, st->line,
		    "expected %d counts, got %d", st->out->n_orders, n);
	return 0;
}

/* Rest of "Node N, zone NAME, type TYPE c0 c1 ...". */
static int
pti_free_row(struct pti_state *st, int node, struct span zone,
    struct span rest)
{
	struct pagetypeinfo *pti = st->out;
	struct pagetypeinfo_free *row, *f;
	struct span w;
	int i, k, t;

	if (st->table != PTI_FREE && st->table != PTI_NONE)
		return parse_fail(st->err, st->line,
		    "free-list row inside a block table");
	if (st->table != PTI_FREE)
		return parse_fail(st->err, st->line, "free-list row with no "
		    "\"Free pages count per migrate type\" header before it");
	if (!span_next_word(&rest, &w) || !span_eq(w, "type"))
		return parse_fail(st->err, st->line,
		    "expected \"type\" after the zone name");
	if (!span_next_word(&rest, &w))
		return parse_fail(st->err, st->line, "no migratetype name");
	if ((t = pti_intern(st, w)) < 0)
		return -EINVAL;

	for (k = 0; k < st->n_zones; k++) {
		f = &pti->free[st->zones[k].first];
		if (f->node == node && span_eq(zone, f->zone))
			break;
	}
	if (k < st->n_zones) {
		for (i = 0; i < pti->n_free; i++) {
			f = &pti->free[i];
			if (f->node == node && f->type == t &&
			    span_eq(zone, f->zone))
				return parse_fail(st->err, st->line,
				    "node %d zone %s type %s listed twice",
				    node, f->zone, pti->types[t]);
		}
	} else if (st->n_zones == MAX_ZONES) {
		return parse_fail(st->err, st->line, "more than %d zones",
		    MAX_ZONES);
	}
	if (pti->n_free == (int)(sizeof(pti->free) / sizeof(pti->free[0])))
		return parse_fail(st->err, st->line,
		    "more than %d free-list rows", pti->n_free);

	row = &pti->free[pti->n_free];
	memset(row, 0, sizeof(*row));
	row->node = node;
	span_copy(zone, row->zone, sizeof(row->zone));
	row->type = t;
	if (pti_free_counts(st, rest, row) != 0)
		return -EINVAL;

	if (k == st->n_zones) {
		st->zones[k].first = pti->n_free;
		st->zones[k].rows = 0;
		st->zones[k].line = st->line;
		st->n_zones++;
	}
	st->zones[k].rows++;
	pti->n_free++;
	return 0;
}

/* Rest of "Node N, zone NAME c0 c1 ..." in a block or mixed table. */
static int
pti_block_row(struct pti_state *st, int node, struct span zone,
    struct span rest)
{
	struct pagetypeinfo *pti = st->out;
	struct pagetypeinfo_blocks *rows, *row;
	struct span w;
	uint64_t v;
	int *n_rows, i, n = 0, r;

	if (st->table == PTI_BLOCKS) {
		rows = pti->blocks;
		n_rows = &pti->n_blocks;
	} else if (st->table == PTI_MIXED) {
		rows = pti->mixed;
		n_rows = &pti->n_mixed;
	} else if (st->table == PTI_FREE) {
		return parse_fail(st->err, st->line,
		    "block-count row inside the free table");
	} else {
		return parse_fail(st->err, st->line,
		    "block-count row with no \"Number of blocks type\" header "
		    "before it");
	}

	for (i = 0; i < *n_rows; i++) {
		if (rows[i].node == node && span_eq(zone, rows[i].zone))
			return parse_fail(st->err, st->line,
			    "node %d zone %s listed twice", node, rows[i].zone);
	}
	if (*n_rows == MAX_ZONES)
		return parse_fail(st->err, st->line,
		    "more than %d rows in a block table", MAX_ZONES);

	row = &rows[*n_rows];
	memset(row, 0, sizeof(*row));
	row->node = node;
	span_copy(zone, row->zone, sizeof(row->zone));
	while (span_next_word(&rest, &w)) {
		if (n < st->cols.n) {
			r = span_to_u64(w, &v);
			if (r == -ERANGE)
				return parse_fail(st->err, st->line,
				    "count %d (%.*s) does not fit 64 bits", n,
				    shown(w), w.s);
			if (r != 0)
				return parse_fail(st->err, st->line,
				    "count %d: \"%.*s\" is not a number", n,
				    shown(w), w.s);
			row->count[st->cols.type[n]] = v;
		}
		n++;
	}
	if (n != st->cols.n)
		return parse_fail(st->err, st->line,
		    "expected %d counts, got %d", st->cols.n, n);
	(*n_rows)++;
	return 0;
}

/* The rest of a line starting "Node": a free row or a block row. */
static int
pti_row(struct pti_state *st, struct span rest)
{
	struct span w, zone;
	bool free_row;
	int node;

	if (!span_next_word(&rest, &w))
		return parse_fail(st->err, st->line, "no node id");
	if (!span_chop(&w, ','))
		return parse_fail(st->err, st->line,
		    "no comma after node id \"%.*s\"", shown(w), w.s);
	if (span_to_int(w, &node) != 0 || node < 0)
		return parse_fail(st->err, st->line, "bad node id \"%.*s\"",
		    shown(w), w.s);
	if (!span_next_word(&rest, &w) || !span_eq(w, "zone"))
		return parse_fail(st->err, st->line,
		    "expected \"zone\" after the node id");
	if (!span_next_word(&rest, &zone))
		return parse_fail(st->err, st->line, "no zone name");

	/* Only free rows have a comma after the zone name. */
	free_row = span_chop(&zone, ',');
	if (zone.len == 0)
		return parse_fail(st->err, st->line, "no zone name");
	if (zone.len >= NAME_LEN)
		return parse_fail(st->err, st->line,
		    "zone name \"%.*s\" is longer than %d characters",
		    shown(zone), zone.s, NAME_LEN - 1);
	if (span_has_control(zone))
		return parse_fail(st->err, st->line,
		    "control character in the zone name");
	if (free_row)
		return pti_free_row(st, node, zone, rest);
	return pti_block_row(st, node, zone, rest);
}

static int
pti_line(struct pti_state *st, struct span line)
{
	struct span rest;

	if (pti_key(line, "Page block order:", &rest))
		return pti_block_order(st, rest);
	if (pti_key(line, "Pages per block:", &rest))
		return pti_pages_per_block(st, rest);
	if (pti_key(line, "Free pages count per migrate type at order", &rest))
		return pti_free_header(st, rest);
	if (pti_key(line, "Number of blocks type", &rest))
		return pti_types_header(st, rest, PTI_BLOCKS);
	if (pti_key(line, "Number of mixed blocks", &rest))
		return pti_types_header(st, rest, PTI_MIXED);
	if (pti_key(line, "Node", &rest))
		return pti_row(st, rest);
	return parse_fail(st->err, st->line, "unexpected line \"%.*s\"",
	    shown(line), line.s);
}

/* Checks that need the whole file: nothing is missing. */
static int
pti_finish(struct pti_state *st)
{
	struct pagetypeinfo *pti = st->out;
	struct pagetypeinfo_free *f;
	struct pti_zone *z;
	int k;

	if (pti->n_free == 0 && pti->n_blocks == 0 && pti->n_mixed == 0)
		return parse_fail(st->err, 0,
		    "no free-list or block-count rows");
	for (k = 0; k < st->n_zones; k++) {
		z = &st->zones[k];
		f = &pti->free[z->first];
		if (z->rows != pti->n_types)
			return parse_fail(st->err, z->line,
			    "node %d zone %s lists %d of %d migratetypes",
			    f->node, f->zone, z->rows, pti->n_types);
	}
	if (pti_check_closed(st) != 0)
		return -EINVAL;
	if (st->first_blocks.n != -1 && st->first_blocks.n != pti->n_types)
		return parse_fail(st->err, st->first_blocks.line,
		    "block table names %d of %d migratetypes",
		    st->first_blocks.n, pti->n_types);
	if (st->first_mixed.n != -1 && st->first_mixed.n != pti->n_types)
		return parse_fail(st->err, st->first_mixed.line,
		    "mixed block table names %d of %d migratetypes",
		    st->first_mixed.n, pti->n_types);
	return 0;
}

/* All but the rows, which are cleared as they are taken: the whole struct
 * is 96 KB, mostly rows for zones and migratetypes this machine does not
 * have, and clearing it kept all of it resident in every pagetop. Nothing
 * reads a row past n_free, n_blocks or n_mixed. */
static void
pti_clear(struct pagetypeinfo *out)
{
	out->pageblock_order = -1;
	out->pages_per_block = 0;
	out->n_orders = 0;
	out->n_types = 0;
	memset(out->types, 0, sizeof(out->types));
	out->n_free = 0;
	out->n_blocks = 0;
	out->n_mixed = 0;
}

int
pagetypeinfo_parse(const char *buf, size_t len, struct pagetypeinfo *out,
    struct parse_error *err)
{
	struct pti_state st;
	struct text_cursor c;
	struct span line;

	pti_clear(out);
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (len == 0)
		return parse_fail(err, 0, "empty");

	memset(&st, 0, sizeof(st));
	st.out = out;
	st.err = err;
	st.table = PTI_NONE;
	st.first_blocks.n = -1;
	st.first_mixed.n = -1;

	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		st.line = c.line;
		if (span_trim(line).len == 0)
			continue;
		if (pti_line(&st, line) != 0)
			return -EINVAL;
	}
	return pti_finish(&st);
}

int
pagetypeinfo_type(const struct pagetypeinfo *pti, const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < pti->n_types; i++) {
		if (strcmp(pti->types[i], name) == 0)
			return i;
	}
	return -1;
}
