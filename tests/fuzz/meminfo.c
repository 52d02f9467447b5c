/*
 * meminfo_parse on any bytes, through the body the "name value" targets
 * share (fuzz-keyval.h): its keys are never empty, and print back
 * ("Key:   value kB") with the same values and units.
 */
#include <string.h>

#include "fuzz-keyval.h"
#include "parse/meminfo.h"

static int
parse(const char *buf, size_t len, struct sample *s, struct parse_error *err)
{
	return meminfo_parse(buf, len, &s->mem, err);
}

static int
count(const struct sample *s, int *skipped)
{
	*skipped = s->mem.skipped;
	return s->mem.n;
}

static int
differs(const struct sample *sa, const struct sample *sb)
{
	const struct meminfo *a = &sa->mem, *b = &sb->mem;

	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 || a->e[i].value != b->e[i].value ||
		    a->e[i].kb != b->e[i].kb)
			return i;
	return -1;
}

static void
check(const struct sample *s, int i)
{
	fuzz_check_name("meminfo key", s->mem.e[i].name, MEMINFO_NAME_LEN);
	if (s->mem.e[i].name[0] == '\0')
		fuzz_fail("meminfo: key %d is empty", i);
}

static const struct keyval_fuzz meminfo_fuzz = {
	"meminfo", "key", SRC_MEMINFO, MAX_MEMINFO, parse, count, differs, check,
};

static void
run(const uint8_t *data, size_t len)
{
	keyval_fuzz_run(&meminfo_fuzz, data, len);
}

FUZZ_TARGET(meminfo, run,
	    "tests/fixtures/proc/meminfo",
	    "tests/fixtures/roots/live-6.18-x86_64/meminfo")
