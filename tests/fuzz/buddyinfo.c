/*
 * buddyinfo_parse on any bytes. What parses has its counts within the
 * caps and names that are strings, reads the same with a '\n' after it,
 * and prints (src/sample-proc.c, the kernel's format) to text that parses
 * to the same struct. What does not parse says which line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse/buddyinfo.h"
#include "fuzz.h"
#include "model/sample.h"

static struct sample s;
static struct buddyinfo again;

static void
check(const struct buddyinfo *bi)
{
	if (bi->n_orders < 1 || bi->n_orders > MAX_ORDERS || bi->n_zones < 1 ||
	    bi->n_zones > MAX_ZONES)
		fuzz_fail("buddyinfo: %d orders, %d zones", bi->n_orders, bi->n_zones);
	for (int z = 0; z < bi->n_zones; z++) {
		fuzz_check_name("buddyinfo zone", bi->zones[z].zone, NAME_LEN);
		if (bi->zones[z].node < 0)
			fuzz_fail("buddyinfo: node %d", bi->zones[z].node);
	}
}

/* Which zone differs, or -1. */
static int
differs(const struct buddyinfo *a, const struct buddyinfo *b)
{
	if (a->n_orders != b->n_orders || a->n_zones != b->n_zones)
		return 0;
	for (int z = 0; z < a->n_zones; z++)
		if (a->zones[z].node != b->zones[z].node ||
		    strcmp(a->zones[z].zone, b->zones[z].zone) != 0 ||
		    memcmp(a->zones[z].free, b->zones[z].free,
			   sizeof(uint64_t) * (size_t)a->n_orders) != 0)
			return z;
	return -1;
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err;
	char *text;
	size_t n;
	int r = buddyinfo_parse((const char *)data, len, &s.buddy, &err), r2, z;

	text = fuzz_with_newline(data, len);
	r2 = buddyinfo_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("buddyinfo: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("buddyinfo: returned %d", r);
		fuzz_check_error("buddyinfo", &err, data, len);
		return;
	}
	check(&s.buddy);
	if ((z = differs(&s.buddy, &again)) >= 0)
		fuzz_fail("buddyinfo: row %d differs with a '\\n' after", z);

	/* A name the printer escapes does not parse back as it was. */
	for (z = 0; z < s.buddy.n_zones; z++)
		if (!fuzz_plain(s.buddy.zones[z].zone))
			return;
	text = fuzz_print_proc(&s, SRC_BUDDYINFO, &n);
	if (buddyinfo_parse(text, n, &again, &err) != 0)
		fuzz_fail("buddyinfo: printed, line %d does not parse back: %s\n%s", err.line,
			  err.msg, text);
	if ((z = differs(&s.buddy, &again)) >= 0)
		fuzz_fail("buddyinfo: printed, row %d parses back different:\n%s", z, text);
	free(text);
}

FUZZ_TARGET(buddyinfo, run,
	    "tests/fixtures/proc/buddyinfo",
	    "tests/fixtures/proc/extfrag/live-6.18-x86_64-buddyinfo.txt",
	    "tests/fixtures/roots/live-6.18-x86_64/buddyinfo")
