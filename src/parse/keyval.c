/*
 * The one line loop of the "name value" parsers (meminfo.c, vmstat.c):
 * blank lines are passed over silently, every other line is the file's
 * line parser's to take or refuse, and the first refusal is what a file
 * with nothing taken reports, at its line number.
 */
#include "parse/keyval.h"

int
keyval_parse(const char *buf, size_t len, keyval_line_fn *line_fn, void *out, int *skipped,
	     struct parse_error *err, const char *none)
{
	struct text_cursor c;
	struct span line;
	const char *why, *first_why = NULL;
	int first_line = 0, taken = 0;

	*skipped = 0;
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		if (span_trim(line).len == 0)
			continue;
		if ((why = line_fn(line, out)) == NULL) {
			taken++;
			continue;
		}
		(*skipped)++;
		if (first_why == NULL) {
			first_why = why;
			first_line = c.line;
		}
	}
	if (taken == 0) {
		if (first_why != NULL)
			return parse_fail(err, first_line, "%s: %s", none, first_why);
		return parse_fail(err, 0, "%s", none);
	}
	return 0;
}
