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

size_t
text_utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c, min;
	size_t len;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
		min = 0x80;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;	/* a continuation byte, 0xc0, 0xc1 or 0xf5 and up */
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

size_t
text_escape(char *dst, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i = 0;

	if (size == 0)
		return 0;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		char esc[6];
		const char *put = esc;
		size_t n, step = 1;
		uint32_t cp;

		if (c >= 0x20 && c < 0x7f) {
			put = s + i;
			n = 1;
		} else if (c >= 0x80 && (step = text_utf8_next(s + i, len - i, &cp)) > 0 &&
			   cp >= 0xa0) {
			put = s + i;
			n = step;
		} else if (step > 0 && c >= 0x80) {
			/* A C1 control written as UTF-8. */
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[cp >> 4];
			esc[5] = hex[cp & 0xf];
			n = 6;
		} else {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 0xf];
			n = 4;
			step = 1;
		}
		if (o + n >= size)
			break;
		memcpy(dst + o, put, n);
		o += n;
		i += step;
	}
	dst[o] = '\0';
	return o;
}

const char *
text_esc(char *dst, size_t size, const char *s)
{
	text_escape(dst, size, s, strlen(s));
	return dst;
}
