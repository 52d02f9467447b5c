/*
 * vmstat_parse on any bytes. What parses keeps its counts within the cap
 * and its names identifiers, reads the same with a '\n' after it, and
 * prints ("name value" lines, src/sample-proc.c) to text that parses to
 * the same counters. An input with no counter says which line was wrong.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model/sample.h"
#include "parse/vmstat.h"

static struct sample s;
static struct vmstat again;

static int
differs(const struct vmstat *a, const struct vmstat *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 || a->e[i].value != b->e[i].value)
			return i;
	return -1;
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	char *text;
	size_t n;
	int r = vmstat_parse((const char *)data, len, &s.vm, &err), r2, i;

	text = fuzz_with_newline(data, len);
	r2 = vmstat_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("vmstat: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("vmstat: returned %d", r);
		fuzz_check_error("vmstat", &err, data, len);
		return;
	}
	if (s.vm.n < 1 || s.vm.n > MAX_VMSTAT || s.vm.skipped < 0 ||
	    s.vm.n + s.vm.skipped > fuzz_lines(data, len))
		fuzz_fail("vmstat: %d counters, %d skipped, of %d lines", s.vm.n, s.vm.skipped,
			  fuzz_lines(data, len));
	for (i = 0; i < s.vm.n; i++) {
		fuzz_check_name("vmstat name", s.vm.e[i].name, VMSTAT_NAME_LEN);
		if (s.vm.e[i].name[0] == '\0' ||
		    s.vm.e[i].name[strspn(s.vm.e[i].name,
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] != '\0')
			fuzz_fail("vmstat: counter %d named \"%s\"", i, s.vm.e[i].name);
	}
	if ((i = differs(&s.vm, &again)) >= 0 || again.skipped != s.vm.skipped)
		fuzz_fail("vmstat: counter %d differs with a '\\n' after", i);

	text = fuzz_print_proc(&s, SRC_VMSTAT, &n);
	if (vmstat_parse(text, n, &again, &err) != 0 || again.skipped != 0)
		fuzz_fail("vmstat: printed, does not parse back whole: line %d: %s", err.line,
			  err.msg);
	if ((i = differs(&s.vm, &again)) >= 0)
		fuzz_fail("vmstat: printed, counter %d parses back different", i);
	free(text);
}

FUZZ_TARGET(vmstat, run,
	    "tests/fixtures/proc/vmstat",
	    "tests/fixtures/roots/live-6.18-x86_64/vmstat")
