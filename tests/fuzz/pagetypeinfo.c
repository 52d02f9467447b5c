/*
 * pagetypeinfo_parse on any bytes. What parses keeps its counts within
 * the caps, its rows' types among its names and capped bits among its
 * orders, reads the same with a '\n' after it, and prints (the kernel's
 * format, src/sample-proc.c) to text that parses back with every row and
 * prints again byte for byte. What does not parse says which line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/pagetypeinfo.h"
#include "model/sample.h"

static struct sample s, again;

static void
check_rows(const struct pagetypeinfo_blocks *rows, int n)
{
	for (int r = 0; r < n; r++) {
		fuzz_check_name("pagetypeinfo block zone", rows[r].zone, NAME_LEN);
		if (rows[r].node < 0)
			fuzz_fail("pagetypeinfo: block row node %d", rows[r].node);
	}
}

static void
check(const struct pagetypeinfo *p)
{
	if (p->n_orders < 0 || p->n_orders > MAX_ORDERS || p->n_types < 0 ||
	    p->n_types > MAX_MTYPES || p->n_free < 0 || p->n_free > MAX_ZONES * MAX_MTYPES ||
	    p->n_blocks < 0 || p->n_blocks > MAX_ZONES || p->n_mixed < 0 ||
	    p->n_mixed > MAX_ZONES)
		fuzz_fail("pagetypeinfo: %d orders, %d types, %d/%d/%d rows", p->n_orders,
			  p->n_types, p->n_free, p->n_blocks, p->n_mixed);
	if (p->n_free + p->n_blocks + p->n_mixed == 0)
		fuzz_fail("pagetypeinfo: accepted with no row");
	if (p->pageblock_order < -1 || p->pageblock_order > 63)
		fuzz_fail("pagetypeinfo: page block order %d", p->pageblock_order);
	for (int t = 0; t < p->n_types; t++)
		fuzz_check_name("pagetypeinfo type", p->types[t], NAME_LEN);
	for (int r = 0; r < p->n_free; r++) {
		const struct pagetypeinfo_free *f = &p->free[r];

		fuzz_check_name("pagetypeinfo free zone", f->zone, NAME_LEN);
		if (f->node < 0 || f->type < 0 || f->type >= p->n_types ||
		    (p->n_orders < 32 && f->capped >> p->n_orders != 0))
			fuzz_fail("pagetypeinfo: free row %d: node %d type %d capped %#x", r,
				  f->node, f->type, f->capped);
	}
	check_rows(p->blocks, p->n_blocks);
	check_rows(p->mixed, p->n_mixed);
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err;
	char *text, *text2;
	size_t n, n2;
	int r = pagetypeinfo_parse((const char *)data, len, &s.pti, &err), r2;

	text = fuzz_with_newline(data, len);
	r2 = pagetypeinfo_parse(text, len + 1, &again.pti, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("pagetypeinfo: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("pagetypeinfo: returned %d", r);
		fuzz_check_error("pagetypeinfo", &err, data, len);
		return;
	}
	check(&s.pti);

	/* A name the printer escapes does not parse back as it was. */
	for (int i = 0; i < s.pti.n_types; i++)
		if (!fuzz_plain(s.pti.types[i]))
			return;
	for (int i = 0; i < s.pti.n_free; i++)
		if (!fuzz_plain(s.pti.free[i].zone))
			return;
	for (int i = 0; i < s.pti.n_blocks; i++)
		if (!fuzz_plain(s.pti.blocks[i].zone))
			return;
	for (int i = 0; i < s.pti.n_mixed; i++)
		if (!fuzz_plain(s.pti.mixed[i].zone))
			return;
	/* The printer groups rows by node, so the order may change once;
	 * then it is a fixed point. */
	text = fuzz_print_proc(&s, SRC_PAGETYPEINFO, &n);
	if (pagetypeinfo_parse(text, n, &again.pti, &err) != 0)
		fuzz_fail("pagetypeinfo: printed, line %d does not parse back: %s\n%s", err.line,
			  err.msg, text);
	if (again.pti.n_free != s.pti.n_free || again.pti.n_blocks != s.pti.n_blocks ||
	    again.pti.n_mixed != s.pti.n_mixed || again.pti.n_types != s.pti.n_types ||
	    again.pti.n_orders != s.pti.n_orders ||
	    again.pti.pageblock_order != s.pti.pageblock_order ||
	    again.pti.pages_per_block != s.pti.pages_per_block)
		fuzz_fail("pagetypeinfo: printed, parses back with %d/%d/%d rows, not %d/%d/%d:\n%s",
			  again.pti.n_free, again.pti.n_blocks, again.pti.n_mixed, s.pti.n_free,
			  s.pti.n_blocks, s.pti.n_mixed, text);
	text2 = fuzz_print_proc(&again, SRC_PAGETYPEINFO, &n2);
	if (n2 != n || memcmp(text, text2, n) != 0)
		fuzz_fail("pagetypeinfo: printed twice, differs:\n%s\n--\n%s", text, text2);
	free(text);
	free(text2);
}

FUZZ_TARGET(pagetypeinfo, run,
	    "tests/fixtures/proc/pagetypeinfo",
	    "tests/fixtures/roots/live-6.18-x86_64/pagetypeinfo")
