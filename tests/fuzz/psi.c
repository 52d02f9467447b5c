/*
 * psi_parse on any bytes (a /proc/pressure file). What parses has a line,
 * averages as the kernel can print them, reads the same with a '\n' after
 * it, and prints (src/sample-proc.c) to text that parses to the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse/psi.h"
#include "model/sample.h"

static struct sample s;
static struct psi again;

static bool
same_line(const struct psi_line *a, const struct psi_line *b)
{
	return a->present == b->present &&
	       (!a->present || (a->avg10 == b->avg10 && a->avg60 == b->avg60 &&
				a->avg300 == b->avg300 && a->total == b->total));
}

static bool
same(const struct psi *a, const struct psi *b)
{
	return same_line(&a->some, &b->some) && same_line(&a->full, &b->full);
}

static void
check_line(const char *what, const struct psi_line *l)
{
	/* "%lu.%02lu" of a percentage: the parser takes up to 10000.99. */
	if (l->present && (l->avg10 > 1000099 || l->avg60 > 1000099 || l->avg300 > 1000099))
		fuzz_fail("psi: %s averages %u %u %u", what, l->avg10, l->avg60, l->avg300);
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	struct psi *p = &s.psi[PSI_MEMORY];
	char *text;
	size_t n;
	int r = psi_parse((const char *)data, len, p, &err), r2;

	text = fuzz_with_newline(data, len);
	r2 = psi_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("psi: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("psi: returned %d", r);
		fuzz_check_error("psi", &err, data, len);
		return;
	}
	if (!p->some.present && !p->full.present)
		fuzz_fail("psi: accepted with neither line");
	check_line("some", &p->some);
	check_line("full", &p->full);
	if (!same(p, &again))
		fuzz_fail("psi: differs with a '\\n' after");

	text = fuzz_print_proc(&s, SRC_PSI_MEMORY, &n);
	if (psi_parse(text, n, &again, &err) != 0)
		fuzz_fail("psi: printed, does not parse back: line %d: %s\n%s", err.line, err.msg,
			  text);
	if (!same(p, &again))
		fuzz_fail("psi: printed, parses back different:\n%s", text);
	free(text);
}

FUZZ_TARGET(psi, run,
	    "tests/fixtures/proc/pressure",
	    "tests/fixtures/roots/live-6.18-x86_64/pressure")
