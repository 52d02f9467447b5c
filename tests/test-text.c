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
	return tap_done();
}
