/*
 * uptime_parse on any bytes. What parses is a finite, non-negative number
 * of seconds that reads the same with a '\n' after it, and prints
 * ("%.2f", src/sample-proc.c) to text that parses back to within the
 * hundredth it was rounded to.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model/sample.h"
#include "parse/uptime.h"

static struct sample s;

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	double again = 0;
	char *text;
	size_t n;
	int r = uptime_parse((const char *)data, len, &s.uptime, &err), r2;

	text = fuzz_with_newline(data, len);
	r2 = uptime_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("uptime: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("uptime: returned %d", r);
		fuzz_check_error("uptime", &err, data, len);
		return;
	}
	if (!isfinite(s.uptime) || s.uptime < 0)
		fuzz_fail("uptime: %g", s.uptime);
	if (again != s.uptime)
		fuzz_fail("uptime: %.17g, but %.17g with a '\\n' after", s.uptime, again);

	text = fuzz_print_proc(&s, SRC_UPTIME, &n);
	if (uptime_parse(text, n, &again, &err) != 0)
		fuzz_fail("uptime: printed %.*s does not parse back: %s", (int)n, text, err.msg);
	if (fabs(again - s.uptime) > 0.005 + s.uptime * 1e-15)
		fuzz_fail("uptime: %.17g printed as %.*s parses back as %.17g", s.uptime, (int)n,
			  text, again);
	free(text);
}

FUZZ_TARGET(uptime, run, "tests/fixtures/roots/live-6.18-x86_64/uptime")
