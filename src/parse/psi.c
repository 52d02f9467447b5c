#include "parse/psi.h"

#include <string.h>

/*
 * Each line is "some|full avg10=A avg60=B avg300=C total=T" with the averages
 * printed as "%lu.%02lu" and the total in microseconds. Keys are matched by
 * name, not by position, so a key added later is passed over.
 */

enum {
	PSI_AVG10 = 1 << 0,
	PSI_AVG60 = 1 << 1,
	PSI_AVG300 = 1 << 2,
	PSI_TOTAL = 1 << 3,
	PSI_ALL = PSI_AVG10 | PSI_AVG60 | PSI_AVG300 | PSI_TOTAL
};

static int
psi_parse_line(struct span rest, int line, const char *kind,
	       struct psi_line *pl, struct parse_error *err)
{
	struct span word, key, value;
	const char *eq;
	unsigned seen = 0, bit;
	uint32_t *avg;

	if (pl->present)
		return parse_fail(err, line, "second \"%s\" line", kind);
	while (span_next_word(&rest, &word)) {
		if ((eq = memchr(word.s, '=', word.len)) == NULL)
			return parse_fail(err, line, "\"%s\" line: %.*s: no '='",
			    kind, (int)word.len, word.s);
		key = (struct span){ word.s, (size_t)(eq - word.s) };
		value = (struct span){ eq + 1, word.len - key.len - 1 };

		if (span_eq(key, "total")) {
			bit = PSI_TOTAL;
			avg = NULL;
		} else if (span_eq(key, "avg10")) {
			bit = PSI_AVG10;
			avg = &pl->avg10;
		} else if (span_eq(key, "avg60")) {
			bit = PSI_AVG60;
			avg = &pl->avg60;
		} else if (span_eq(key, "avg300")) {
			bit = PSI_AVG300;
			avg = &pl->avg300;
		} else
			continue;	/* a key from a later kernel */

		if (seen & bit)
			return parse_fail(err, line, "\"%s\" line: %.*s twice",
			    kind, (int)key.len, key.s);
		seen |= bit;
		if (avg == NULL ? span_to_u64(value, &pl->total) != 0 :
		    span_to_centi(value, avg) != 0)
			return parse_fail(err, line, "\"%s\" line: bad %.*s",
			    kind, (int)word.len, word.s);
	}
	if (seen != PSI_ALL)
		return parse_fail(err, line,
		    "\"%s\" line: missing avg10, avg60, avg300 or total", kind);
	pl->present = true;
	return 0;
}

int
psi_parse(const char *buf, size_t len, struct psi *out, struct parse_error *err)
{
	struct text_cursor c;
	struct span line, rest, kind;
	struct psi_line *pl;
	const char *name;
	int r;

	memset(out, 0, sizeof(*out));
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		rest = line;
		if (line.len == 0 || line.s[0] == ' ' || line.s[0] == '\t' ||
		    !span_next_word(&rest, &kind))
			continue;
		if (span_eq(kind, "some")) {
			pl = &out->some;
			name = "some";
		} else if (span_eq(kind, "full")) {
			pl = &out->full;
			name = "full";
		} else
			continue;	/* a line a later kernel may add */
		if ((r = psi_parse_line(rest, c.line, name, pl, err)) != 0)
			return r;
	}
	if (!out->some.present && !out->full.present)
		return parse_fail(err, 0, "neither a \"some\" nor a \"full\" line");
	return 0;
}
