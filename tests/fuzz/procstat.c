/*
 * procstat_parse on any bytes (a /proc/stat). It returns 0 or -EINVAL
 * with a message about a line of the input; it reads the same with a
 * '\n' after the bytes, and with a line before them (an error then one
 * line further on); what parses, written back as the kernel prints it
 * ("processes %llu\n"), parses to the same number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/procstat.h"

#define BEFORE	"cpu  1 2 3 4\n"

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" }, err2 = { 0, "" };
	uint64_t v = 0, again = 0;
	char *text, line[40];
	int r = procstat_parse((const char *)data, len, &v, &err), r2, n;

	if (r != 0 && r != -EINVAL)
		fuzz_fail("procstat: returned %d", r);
	if (r != 0)
		fuzz_check_error("procstat", &err, data, len);

	text = fuzz_with_newline(data, len);
	r2 = procstat_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r || (r == 0 && again != v))
		fuzz_fail("procstat: %d (%llu), but %d (%llu) with a '\\n' after", r,
			  (unsigned long long)v, r2, (unsigned long long)again);

	if ((text = malloc(sizeof(BEFORE) - 1 + len + 1)) == NULL)
		fuzz_fail("procstat: out of memory");
	memcpy(text, BEFORE, sizeof(BEFORE) - 1);
	if (len > 0)
		memcpy(text + sizeof(BEFORE) - 1, data, len);
	r2 = procstat_parse(text, sizeof(BEFORE) - 1 + len, &again, &err2);
	free(text);
	if (r2 != r || (r == 0 && again != v) ||
	    (r != 0 && err2.line != (err.line ? err.line + 1 : 0)))
		fuzz_fail("procstat: %d (line %d), but %d (line %d) after a line", r, err.line,
			  r2, err2.line);
	if (r != 0)
		return;

	n = snprintf(line, sizeof(line), "processes %llu\n", (unsigned long long)v);
	if (procstat_parse(line, (size_t)n, &again, &err) != 0 || again != v)
		fuzz_fail("procstat: written back as %s does not parse the same", line);
}

FUZZ_TARGET(procstat, run, "tests/fixtures/proc/procstat")
