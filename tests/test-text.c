/* The bounded scanning helpers every parser stands on. */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "util/text.h"

static struct span
S(const char *s)
{
	return (struct span){ s, strlen(s) };
}

int
main(void)
{
	struct text_cursor c;
	struct span line, rest, w;
	uint64_t v;
	uint32_t centi;
	int i;
	const char buf[] = "a b\n\nlast";

	text_cursor_init(&c, buf, sizeof(buf) - 1);
	tap_ok(text_next_line(&c, &line) && span_eq(line, "a b") && c.line == 1, "first line");
	tap_ok(text_next_line(&c, &line) && line.len == 0 && c.line == 2, "empty line");
	tap_ok(text_next_line(&c, &line) && span_eq(line, "last"), "last line without newline");
	tap_ok(!text_next_line(&c, &line), "end of buffer");

	/* The cursor must stop at len even when the bytes after it look like more lines. */
	text_cursor_init(&c, "x\ny\n", 2);
	tap_ok(text_next_line(&c, &line) && span_eq(line, "x") && !text_next_line(&c, &line),
	       "never reads past len");

	rest = S("  Node 0,\tzone   Normal  ");
	tap_ok(span_next_word(&rest, &w) && span_eq(w, "Node"), "word 1");
	tap_ok(span_next_word(&rest, &w) && span_eq(w, "0,"), "word 2");
	tap_ok(span_next_word(&rest, &w) && span_eq(w, "zone"), "tab separates words");
	tap_ok(span_next_word(&rest, &w) && span_eq(w, "Normal"), "word 4");
	tap_ok(!span_next_word(&rest, &w), "no word in trailing blanks");

	tap_ok(span_to_u64(S("18446744073709551615"), &v) == 0 && v == UINT64_MAX, "UINT64_MAX");
	tap_eq_int(span_to_u64(S("18446744073709551616"), &v), -ERANGE, "UINT64_MAX + 1 overflows");
	tap_eq_int(span_to_u64(S("12a"), &v), -EINVAL, "trailing letter");
	tap_eq_int(span_to_u64(S(""), &v), -EINVAL, "empty number");
	tap_eq_int(span_to_u64(S("-1"), &v), -EINVAL, "sign is not a digit");
	tap_ok(span_to_int(S("-2147483648"), &i) == 0 && i == INT32_MIN, "INT32_MIN");
	tap_eq_int(span_to_int(S("2147483648"), &i), -ERANGE, "INT32_MAX + 1");
	tap_ok(span_to_centi(S("70.24"), &centi) == 0 && centi == 7024, "70.24 is 7024 hundredths");
	tap_ok(span_to_centi(S("100.00"), &centi) == 0 && centi == 10000, "100.00");
	tap_eq_int(span_to_centi(S("1.2"), &centi), -EINVAL, "one decimal is not PSI's format");
	tap_eq_int(span_to_centi(S("12"), &centi), -EINVAL, "no decimals");

	{
		char small[4];
		struct span s = S("Normal,");

		tap_ok(span_chop(&s, ',') && span_eq(s, "Normal"), "chop a trailing comma");
		tap_ok(!span_copy(s, small, sizeof(small)) && strcmp(small, "Nor") == 0,
		       "copy truncates and says so");
	}
	{
		struct parse_error err;

		tap_eq_int(parse_fail(&err, 7, "bad %s", "thing"), -EINVAL, "parse_fail returns -EINVAL");
		tap_ok(err.line == 7 && strcmp(err.msg, "bad thing") == 0, "parse_fail fills the error");
		tap_eq_int(parse_fail(NULL, 1, "x"), -EINVAL, "parse_fail takes a NULL error");
	}
	{
		/* Word wrap: what the report and the Fragmentation screen break lines with. */
		const char *t = "free blocks  per migratetype";
		size_t n, next;
		bool split;

		n = text_wrap(t, 40, &next, &split);
		tap_ok(n == strlen(t) && next == n && !split, "wrap: text that fits is one line");
		n = text_wrap(t, strlen(t), &next, &split);
		tap_ok(n == strlen(t) && next == n, "wrap: text exactly the width fits");
		n = text_wrap(t, 15, &next, &split);
		tap_ok(n == 11 && next == 13 && !split,
		       "wrap: breaks at the last blank that fits, blanks dropped at both sides");
		n = text_wrap(t, 11, &next, &split);
		tap_ok(n == 11 && next == 13 && !split, "wrap: a blank just past the width breaks there");
		n = text_wrap(t, 10, &next, &split);
		tap_ok(n == 4 && next == 5, "wrap: a word one column too long goes to the next line");
		n = text_wrap("migratetype", 4, &next, &split);
		tap_ok(n == 4 && next == 4 && split, "wrap: a word longer than the line is cut");
		n = text_wrap("ab\xc3\xa9" "cd", 3, &next, &split);
		tap_ok(n == 2 && next == 2 && split, "wrap: a cut word keeps its UTF-8 characters whole");
		n = text_wrap("", 5, &next, NULL);
		tap_ok(n == 0 && next == 0, "wrap: nothing");
		n = text_wrap("x", 0, &next, &split);
		tap_ok(n == 0 && next == 0 && split, "wrap: no room shows nothing");
	}
	return tap_done();
}
