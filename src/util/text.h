/* Bounded text scanning shared by the /proc parsers: nothing here needs a
 * NUL-terminated buffer or allocates. And the word wrap that the report
 * and the screens share. */
#ifndef PAGETOP_TEXT_H
#define PAGETOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A piece of a buffer; never NUL-terminated. */
struct span {
	const char *s;
	size_t len;
};

/* Walks a buffer line by line, counting lines from 1. */
struct text_cursor {
	const char *p;
	const char *end;
	int line;
};

/* What a parser reports when it rejects its input. */
struct parse_error {
	int line;		/* 1-based; 0 when not about one line */
	char msg[120];
};

void text_cursor_init(struct text_cursor *c, const char *buf, size_t len);
/* The next line without its '\n'; false at the end of the buffer. */
bool text_next_line(struct text_cursor *c, struct span *line);

/* Splits off the next run of non-blank characters (blank: space or tab). */
bool span_next_word(struct span *rest, struct span *word);
struct span span_trim(struct span s);
bool span_eq(struct span s, const char *lit);
bool span_starts(struct span s, const char *lit);
/* Drops a trailing character c if present; true if one was dropped. */
bool span_chop(struct span *s, char c);
/* True if s holds a control character (a NUL among them): never in a name
 * the kernel prints, and a NUL would cut the copy of a name short. */
bool span_has_control(struct span s);
/* Copies s into dst as a C string, truncating; false if it did not fit. */
bool span_copy(struct span s, char *dst, size_t size);

/* Decimal unsigned 64-bit; 0, -EINVAL (not all digits) or -ERANGE. */
int span_to_u64(struct span s, uint64_t *out);
/* Decimal signed int; 0, -EINVAL or -ERANGE. */
int span_to_int(struct span s, int *out);
/* "12.34" as hundredths (1234); exactly what PSI prints. 0 or -EINVAL. */
int span_to_centi(struct span s, uint32_t *out);

/*
 * Word wrap, a line at a time, a byte a column: how much of the C string s
 * goes on a line of room columns. All of s when it fits; else up to the
 * last blank that fits (trailing blanks dropped) or, for a word longer
 * than the line, room bytes backed off to the start of a UTF-8 character,
 * and *split (when not NULL) says so. Returns the bytes to show; *next is
 * where the next line starts, past its blanks (the end of s after the
 * last line). room must be at least 1 for the text to move on.
 */
size_t text_wrap(const char *s, size_t room, size_t *next, bool *split);

/*
 * One UTF-8 character at s, n bytes left: its length (1 to 4) with its code
 * point in *cp, or 0 when s does not start a valid one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut
 * short). n must be at least 1.
 */
size_t text_utf8_next(const char *s, size_t n, uint32_t *cp);

/* Bytes text_escape may write for len bytes of input, its NUL too. */
#define TEXT_ESCAPED_SIZE(len)	(4 * (len) + 1)
/*
 * Text from the machine or a file (a task's name, a zone, a kernel log
 * line, a mark) made safe for a terminal: printable ASCII and valid UTF-8
 * as they are; C0 controls, DEL and bytes that are
 * not valid UTF-8 (a raw C1 0x80-0x9f among them) as "\xNN"; the C1
 * controls U+0080 to U+009F, which xterm obeys as well, as "\u00NN". The
 * len bytes of s (NULs too) into dst, NUL-terminated, cut before an escape
 * or a character that does not fit. Returns the length written. Allocates
 * nothing: the screens call it on every draw. A backslash stays: the
 * kernel log's own escapes ("\x1b", as /dev/kmsg writes it) read the same.
 */
size_t text_escape(char *dst, size_t size, const char *s, size_t len);
/* text_escape of the C string s; returns dst, for a printf argument. */
const char *text_esc(char *dst, size_t size, const char *s);

/* Fills err (when not NULL) and returns -EINVAL, for one-line returns. */
int parse_fail(struct parse_error *err, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
