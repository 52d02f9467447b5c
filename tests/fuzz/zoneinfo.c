/*
 * zoneinfo_parse on any bytes. What parses keeps its zones within the cap,
 * sets only the fields it has (and no value without its bit), reads the
 * same with a '\n' after it, and, written back in the kernel's layout
 * (there is no printer for zoneinfo: the lines are made here), parses to
 * the same zones. What does not parse says which line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/zoneinfo.h"

static struct zoneinfo zi, again;

static const char *const keys[ZI_NFIELDS] = {
	[ZI_FREE] = "pages free", [ZI_MIN] = "min", [ZI_LOW] = "low", [ZI_HIGH] = "high",
	[ZI_BOOST] = "boost", [ZI_SPANNED] = "spanned", [ZI_PRESENT] = "present",
	[ZI_MANAGED] = "managed", [ZI_CMA] = "cma",
};

static int
differs(const struct zoneinfo *a, const struct zoneinfo *b)
{
	if (a->n_zones != b->n_zones)
		return 0;
	for (int z = 0; z < a->n_zones; z++)
		if (a->zones[z].node != b->zones[z].node ||
		    strcmp(a->zones[z].zone, b->zones[z].zone) != 0 ||
		    a->zones[z].has != b->zones[z].has ||
		    memcmp(a->zones[z].v, b->zones[z].v, sizeof(a->zones[z].v)) != 0)
			return z;
	return -1;
}

/* As mm/vmstat.c prints it, less what the parser passes over. */
static char *
render(const struct zoneinfo *p, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	for (int z = 0; z < p->n_zones; z++) {
		const struct zoneinfo_zone *zz = &p->zones[z];

		fprintf(f, "Node %d, zone %8s\n  per-node stats\n      nr_inactive_anon 7\n",
			zz->node, zz->zone);
		for (int k = 0; k < ZI_NFIELDS; k++)
			if (zz->has & (1u << k))
				fprintf(f, k == ZI_FREE ? "  %s     %" PRIu64 "\n" : "        %-8s %" PRIu64 "\n",
					keys[k], zz->v[k]);
		fprintf(f, "        protection: (0, 1, 2)\n  pagesets\n    cpu: 0\n"
			   "              high:  0\n");
	}
	fclose(f);
	return out;
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	char *text;
	size_t n;
	int r = zoneinfo_parse((const char *)data, len, &zi, &err), r2, z;

	text = fuzz_with_newline(data, len);
	r2 = zoneinfo_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("zoneinfo: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("zoneinfo: returned %d", r);
		fuzz_check_error("zoneinfo", &err, data, len);
		return;
	}
	if (zi.n_zones < 1 || zi.n_zones > MAX_ZONES)
		fuzz_fail("zoneinfo: %d zones", zi.n_zones);
	for (z = 0; z < zi.n_zones; z++) {
		fuzz_check_name("zoneinfo zone", zi.zones[z].zone, NAME_LEN);
		if (zi.zones[z].node < 0 || zi.zones[z].has >> ZI_NFIELDS != 0)
			fuzz_fail("zoneinfo: zone %d: node %d, fields %#x", z, zi.zones[z].node,
				  zi.zones[z].has);
		for (int k = 0; k < ZI_NFIELDS; k++)
			if (!(zi.zones[z].has & (1u << k)) && zi.zones[z].v[k] != 0)
				fuzz_fail("zoneinfo: zone %d: field %d set but not had", z, k);
	}
	if ((z = differs(&zi, &again)) >= 0)
		fuzz_fail("zoneinfo: zone %d differs with a '\\n' after", z);

	text = render(&zi, &n);
	if (zoneinfo_parse(text, n, &again, &err) != 0)
		fuzz_fail("zoneinfo: written back, line %d does not parse: %s\n%s", err.line,
			  err.msg, text);
	if ((z = differs(&zi, &again)) >= 0)
		fuzz_fail("zoneinfo: written back, zone %d parses different:\n%s", z, text);
	free(text);
}

FUZZ_TARGET(zoneinfo, run,
	    "tests/fixtures/proc/zoneinfo",
	    "tests/fixtures/roots/live-6.18-x86_64/zoneinfo")
