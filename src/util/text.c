#include "util/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
text_cursor_init(struct text_cursor *c, const char *buf, size_t len)
{
	c->p = buf;
	c->end = buf + len;
	c->line = 0;
}

bool
text_next_line(struct text_cursor *c, struct span *line)
{
	const char *nl;

	if (c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	line->s = c->p;
	line->len = (size_t)((nl ? nl : c->end) - c->p);
	c->p = nl ? nl + 1 : c->end;
	c->line++;
	return true;
}

static bool
is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

bool
span_next_word(struct span *rest, struct span *word)
{
	size_t i = 0, start;

	while (i < rest->len && is_blank(rest->s[i]))
		i++;
	if (i == rest->len) {
		rest->s += rest->len;
		rest->len = 0;
		return false;
	}
	start = i;
	while (i < rest->len && !is_blank(rest->s[i]))
		i++;
	word->s = rest->s + start;
	word->len = i - start;
	rest->s += i;
	rest->len -= i;
	return true;
}

struct span
span_trim(struct span s)
{
	while (s.len > 0 && is_blank(s.s[0])) {
		s.s++;
		s.len--;
	}
	while (s.len > 0 && is_blank(s.s[s.len - 1]))
		s.len--;
	return s;
}

bool
span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && memcmp(s.s, lit, n) == 0;
}

bool
span_starts(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len >= n && memcmp(s.s, lit, n) == 0;
}

bool
span_chop(struct span *s, char c)
{
	if (s->len == 0 || s->s[s->len - 1] != c)
		return false;
	s->len--;
	return true;
}

bool
span_has_control(struct span s)
{
	for (size_t i = 0; i < s.len; i++)
		if ((unsigned char)s.s[i] < 0x20 || s.s[i] == 0x7f)
			return true;
	return false;
}

bool
span_copy(struct span s, char *dst, size_t size)
{
	size_t n = s.len < size - 1 ? s.len : size - 1;

	memcpy(dst, s.s, n);
	dst[n] = '\0';
	return n == s.len;
}

int
span_to_u64(struct span s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (s.len == 0)
		return -EINVAL;
	for (i = 0; i < s.len; i++) {
		unsigned d = (unsigned char)s.s[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int
span_to_int(struct span s, int *out)
{
	uint64_t v;
	bool neg = s.len > 0 && s.s[0] == '-';
	int r;

	if (neg) {
		s.s++;
		s.len--;
	}
	if ((r = span_to_u64(s, &v)) < 0)
		return r;
	if (v > (uint64_t)INT32_MAX + neg)
		return -ERANGE;
	*out = neg ? (int)-(int64_t)v : (int)v;
	return 0;
}

int
span_to_centi(struct span s, uint32_t *out)
{
	const char *dot = memchr(s.s, '.', s.len);
	struct span whole, frac;
	uint64_t w, f;

	if (!dot)
		return -EINVAL;
	whole = (struct span){ s.s, (size_t)(dot - s.s) };
	frac = (struct span){ dot + 1, s.len - whole.len - 1 };
	if (frac.len != 2 || span_to_u64(whole, &w) < 0 || span_to_u64(frac, &f) < 0 ||
	    w > 10000)
		return -EINVAL;
	*out = (uint32_t)(w * 100 + f);
	return 0;
}

int
parse_fail(struct parse_error *err, int line, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

size_t
text_wrap(const char *s, size_t room, size_t *next, bool *split)
{
	size_t len = strlen(s), cut, end;

	if (split)
		*split = false;
	if (len <= room) {
		*next = len;
		return len;
	}
	for (cut = room; cut > 0 && s[cut] != ' '; cut--)
		;
	if (cut == 0) {
		if (split)
			*split = true;
		for (cut = room; cut > 1 && ((unsigned char)s[cut] & 0xc0) == 0x80; cut--)
			;
	}
	for (end = cut; end > 0 && s[end - 1] == ' '; end--)
		;
	while (s[cut] == ' ')
		cut++;
	*next = cut;
	return end;
}
