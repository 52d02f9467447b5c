/*
 * meminfo_parse on any bytes. What parses keeps its count within the cap
 * and its keys strings, reads the same with a '\n' after it, and prints
 * ("Key:   value kB", src/sample-proc.c) to text that parses to the same
 * keys, values and units. An input with no key says which line was wrong.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/meminfo.h"
#include "model/sample.h"

static struct sample s;
static struct meminfo again;

static int
differs(const struct meminfo *a, const struct meminfo *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 || a->e[i].value != b->e[i].value ||
		    a->e[i].kb != b->e[i].kb)
			return i;
	return -1;
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	char *text;
	size_t n;
	int r = meminfo_parse((const char *)data, len, &s.mem, &err), r2, i;

	text = fuzz_with_newline(data, len);
	r2 = meminfo_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("meminfo: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("meminfo: returned %d", r);
		fuzz_check_error("meminfo", &err, data, len);
		return;
	}
	if (s.mem.n < 1 || s.mem.n > MAX_MEMINFO || s.mem.skipped < 0 ||
	    s.mem.n + s.mem.skipped > fuzz_lines(data, len))
		fuzz_fail("meminfo: %d keys, %d skipped, of %d lines", s.mem.n, s.mem.skipped,
			  fuzz_lines(data, len));
	for (i = 0; i < s.mem.n; i++) {
		fuzz_check_name("meminfo key", s.mem.e[i].name, MEMINFO_NAME_LEN);
		if (s.mem.e[i].name[0] == '\0')
			fuzz_fail("meminfo: key %d is empty", i);
	}
	if ((i = differs(&s.mem, &again)) >= 0 || again.skipped != s.mem.skipped)
		fuzz_fail("meminfo: key %d differs with a '\\n' after", i);

	text = fuzz_print_proc(&s, SRC_MEMINFO, &n);
	if (meminfo_parse(text, n, &again, &err) != 0 || again.skipped != 0)
		fuzz_fail("meminfo: printed, does not parse back whole: line %d: %s", err.line,
			  err.msg);
	if ((i = differs(&s.mem, &again)) >= 0)
		fuzz_fail("meminfo: printed, key %d parses back different", i);
	free(text);
}

FUZZ_TARGET(meminfo, run,
	    "tests/fixtures/proc/meminfo",
	    "tests/fixtures/roots/live-6.18-x86_64/meminfo")
