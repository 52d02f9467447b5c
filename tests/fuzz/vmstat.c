/*
 * vmstat_parse on any bytes, through the body the "name value" targets
 * share (fuzz-keyval.h): its names are identifiers, and print back ("name
 * value" lines) to the same counters.
 */
#include <string.h>

#include "fuzz-keyval.h"
#include "parse/vmstat.h"

static int
parse(const char *buf, size_t len, struct sample *s, struct parse_error *err)
{
	return vmstat_parse(buf, len, &s->vm, err);
}

static int
count(const struct sample *s, int *skipped)
{
	*skipped = s->vm.skipped;
	return s->vm.n;
}

static int
differs(const struct sample *sa, const struct sample *sb)
{
	const struct vmstat *a = &sa->vm, *b = &sb->vm;

	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 || a->e[i].value != b->e[i].value)
			return i;
	return -1;
}

static void
check(const struct sample *s, int i)
{
	fuzz_check_name("vmstat name", s->vm.e[i].name, VMSTAT_NAME_LEN);
	if (s->vm.e[i].name[0] == '\0' ||
	    s->vm.e[i].name[strspn(s->vm.e[i].name,
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] != '\0')
		fuzz_fail("vmstat: counter %d named \"%s\"", i, s->vm.e[i].name);
}

static const struct keyval_fuzz vmstat_fuzz = {
	"vmstat", "counter", SRC_VMSTAT, MAX_VMSTAT, parse, count, differs, check,
};

static void
run(const uint8_t *data, size_t len)
{
	keyval_fuzz_run(&vmstat_fuzz, data, len);
}

FUZZ_TARGET(vmstat, run,
	    "tests/fixtures/proc/vmstat",
	    "tests/fixtures/roots/live-6.18-x86_64/vmstat")
