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

/* text_escape of a literal (NULs included), as a C string. */
static const char *
esc(const char *s, size_t len)
{
	static char out[256];

	text_escape(out, sizeof(out), s, len);
	return out;
}
#define ESC(lit)	esc(lit, sizeof(lit) - 1)

static void
test_escape(void)
{
	char small[8], buf[TEXT_ESCAPED_SIZE(256)], all[256];
	bool safe = true, every = true;
	size_t n;

	tap_eq_str(ESC("kworker/0:1 Normal DMA32"), "kworker/0:1 Normal DMA32",
		   "escape: printable ASCII stays");
	tap_eq_str(ESC("a\\x1b"), "a\\x1b", "escape: a backslash stays, as in the kernel log's escapes");
	/* The comm an unprivileged user can give a task. */
	tap_eq_str(ESC("\033[2J\033]0;PWN\a"), "\\x1b[2J\\x1b]0;PWN\\x07",
		   "escape: ESC and BEL (clear screen, set title)");
	tap_eq_str(ESC("\t\n\r"), "\\x09\\x0a\\x0d", "escape: tab, newline, CR");
	tap_eq_str(ESC("a\0b"), "a\\x00b", "escape: a NUL within len");
	tap_eq_str(ESC("\x01\x1f"), "\\x01\\x1f", "escape: C0 ends");
	tap_eq_str(ESC("\x7f"), "\\x7f", "escape: DEL");
	tap_eq_str(ESC("\x80\x9b\x9f"), "\\x80\\x9b\\x9f", "escape: raw C1 bytes");
	tap_eq_str(ESC("\xc2\x80\xc2\x9b\xc2\x9f"), "\\u0080\\u009b\\u009f",
		   "escape: C1 controls in UTF-8 (xterm's CSI among them)");
	tap_eq_str(ESC("\xc2\xa0\xc3\xa9\xe2\x80\x93\xe2\x89\xa5\xf0\x9f\x98\x80"),
		   "\xc2\xa0\xc3\xa9\xe2\x80\x93\xe2\x89\xa5\xf0\x9f\x98\x80",
		   "escape: valid UTF-8 past U+009F stays (no-break space, e acute, en dash, emoji)");
	tap_eq_str(ESC("\xc0\xaf\xc1\xbf"), "\\xc0\\xaf\\xc1\\xbf",
		   "escape: overlong two-byte forms, byte by byte");
	tap_eq_str(ESC("\xe0\x80\xaf"), "\\xe0\\x80\\xaf", "escape: an overlong three-byte form");
	tap_eq_str(ESC("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf",
		   "escape: an overlong four-byte form");
	tap_eq_str(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80", "escape: a UTF-16 surrogate");
	tap_eq_str(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80", "escape: past U+10FFFF");
	tap_eq_str(ESC("\xf5\xff\xfe"), "\\xf5\\xff\\xfe", "escape: bytes never in UTF-8");
	tap_eq_str(ESC("\xe2\x80"), "\\xe2\\x80", "escape: a character cut short at the end");
	tap_eq_str(ESC("\xe2\x80x"), "\\xe2\\x80x", "escape: a character cut short by ASCII");
	tap_eq_str(ESC("\xc2"), "\\xc2", "escape: a lone lead byte");
	tap_eq_str(ESC("\xbf"), "\\xbf", "escape: a lone continuation byte");
	tap_eq_str(esc("\xc2\x9b", 1), "\\xc2", "escape: reads no byte past len");

	/* Cut short: never half an escape, never half a character. */
	n = text_escape(small, 7, "ab\033cd", 5);
	tap_ok(n == 6 && strcmp(small, "ab\\x1b") == 0, "escape: cut after a whole escape (%s)", small);
	n = text_escape(small, 6, "ab\033cd", 5);
	tap_ok(n == 2 && strcmp(small, "ab") == 0, "escape: an escape that does not fit is left out");
	n = text_escape(small, 4, "a\xe2\x80\x93", 4);
	tap_ok(n == 1 && strcmp(small, "a") == 0, "escape: a character that does not fit is left out");
	n = text_escape(small, 1, "abc", 3);
	tap_ok(n == 0 && small[0] == '\0', "escape: room for the NUL alone");
	tap_eq_str(text_esc(small, sizeof(small), "x\ty"), "x\\x09y", "escape: text_esc of a C string");

	/* Every byte value, alone: what comes out is printable ASCII or
	 * valid UTF-8 past U+009F, and never a control. */
	for (int c = 0; c < 256; c++) {
		char one = (char)c;
		const char *o = esc(&one, 1);

		for (const char *p = o; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				safe = false;
		if ((c >= 0x20 && c < 0x7f) ? !(o[0] == c && o[1] == '\0') :
		    strlen(o) < 2)
			every = false;
	}
	tap_ok(safe, "escape: every byte alone comes out as printable ASCII");
	tap_ok(every, "escape: every byte alone is kept or escaped visibly");
	/* All 256 bytes in a row, the worst case fits TEXT_ESCAPED_SIZE. */
	for (int c = 0; c < 256; c++)
		all[c] = (char)(c ^ 0x80);
	n = text_escape(buf, sizeof(buf), all, sizeof(all));
	tap_ok(n < sizeof(buf) && n == strlen(buf) && strstr(buf, "\\x00") && strstr(buf, "\\xff"),
	       "escape: all bytes in a row fit TEXT_ESCAPED_SIZE");
	memset(all, 0x9b, sizeof(all));
	n = text_escape(buf, sizeof(buf), all, sizeof(all));
	tap_ok(n == 4 * sizeof(all), "escape: the worst case is 4 bytes a byte");
}

static void
test_utf8(void)
{
	uint32_t cp = 0;

	tap_ok(text_utf8_next("A", 1, &cp) == 1 && cp == 'A', "utf8: ASCII");
	tap_ok(text_utf8_next("\xc2\x80", 2, &cp) == 2 && cp == 0x80, "utf8: U+0080");
	tap_ok(text_utf8_next("\xdf\xbf", 2, &cp) == 2 && cp == 0x7ff, "utf8: U+07FF");
	tap_ok(text_utf8_next("\xe0\xa0\x80", 3, &cp) == 3 && cp == 0x800, "utf8: U+0800");
	tap_ok(text_utf8_next("\xef\xbf\xbd", 3, &cp) == 3 && cp == 0xfffd, "utf8: U+FFFD");
	tap_ok(text_utf8_next("\xf0\x90\x80\x80", 4, &cp) == 4 && cp == 0x10000, "utf8: U+10000");
	tap_ok(text_utf8_next("\xf4\x8f\xbf\xbf", 4, &cp) == 4 && cp == 0x10ffff, "utf8: U+10FFFF");
	tap_ok(text_utf8_next("\xc2\x80", 1, &cp) == 0, "utf8: cut short by n");
	tap_ok(text_utf8_next("\xed\xbf\xbf", 3, &cp) == 0, "utf8: a low surrogate");
	tap_ok(text_utf8_next("\xc1\xbf", 2, &cp) == 0, "utf8: overlong");
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
	test_escape();
	test_utf8();
	return tap_done();
}
