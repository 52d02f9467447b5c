#include "output/json.h"

#include <math.h>
#include <string.h>

#include "util/fmt-num.h"
#include "util/text.h"

void
json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->counters = NULL;
}

/* Whether byte c goes out as it is: printable ASCII but '"' and '\\'. */
static inline bool
json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* JSON's own escapes: controls (C0, DEL and the C1 controls U+0080 to
 * U+009F) as \u00XX, and a byte that is not valid UTF-8 as U+FFFD, so the
 * document is valid UTF-8 whatever a name holds. Runs of plain bytes go
 * out whole: this is most of every line export writes. */
static void
json_escaped(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, len;

	for (len = 0; json_plain((unsigned char)s[len]); len++)
		;
	if (!s[len]) {
		putc_unlocked('"', f);
		fwrite_unlocked(s, 1, len, f);
		putc_unlocked('"', f);
		return;
	}
	len += strlen(s + len);
	putc_unlocked('"', f);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i, n;
		uint32_t cp;

		while (run < len && json_plain((unsigned char)s[run]))
			run++;
		if (run > i) {
			fwrite_unlocked(s + i, 1, run - i, f);
			i = run;
			continue;
		}
		if (c < 0x80) {
			putc_unlocked('\\', f);
			if (c == '"' || c == '\\') {
				putc_unlocked(c, f);
			} else if (c == '\n') {
				putc_unlocked('n', f);
			} else if (c == '\t') {
				putc_unlocked('t', f);
			} else {
				fwrite_unlocked("u00", 1, 3, f);
				putc_unlocked(hex[c >> 4], f);
				putc_unlocked(hex[c & 15], f);
			}
			i++;
		} else if ((n = text_utf8_next(s + i, len - i, &cp)) == 0) {
			fwrite_unlocked("\\ufffd", 1, 6, f);
			i++;
		} else if (cp < 0xa0) {
			fwrite_unlocked("\\u00", 1, 4, f);
			putc_unlocked(hex[cp >> 4], f);
			putc_unlocked(hex[cp & 15], f);
			i += n;
		} else {
			fwrite_unlocked(s + i, 1, n, f);
			i += n;
		}
	}
	putc_unlocked('"', f);
}

static void
json_key(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		putc_unlocked(',', j->f);
	j->need_comma[j->depth] = true;
	if (key) {
		json_escaped(j->f, key);
		putc_unlocked(':', j->f);
	}
}

static void
json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	putc_unlocked(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_close(struct json *j, char c)
{
	putc_unlocked(c, j->f);
	if (j->depth > 0)
		j->depth--;
	if (j->depth == 0)
		j->need_comma[0] = false;
}

void
json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void
json_object_end(struct json *j)
{
	json_close(j, '}');
}

void
json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void
json_array_end(struct json *j)
{
	json_close(j, ']');
}

void
json_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_escaped(j->f, s);
}

void
json_u64(struct json *j, const char *key, uint64_t v)
{
	char buf[FMT_NUM_MAX];

	json_key(j, key);
	fwrite_unlocked(buf, 1, (size_t)fmt_num_u64(v, buf), j->f);
}

void
json_int(struct json *j, const char *key, long long v)
{
	char buf[FMT_NUM_MAX];

	json_key(j, key);
	fwrite_unlocked(buf, 1, (size_t)fmt_num_i64(v, buf), j->f);
}

void
json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	if (v)
		fwrite_unlocked("true", 1, 4, j->f);
	else
		fwrite_unlocked("false", 1, 5, j->f);
}

void
json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fwrite_unlocked("null", 1, 4, j->f);
}

void
json_fixed(struct json *j, const char *key, long long v, int scale)
{
	int digits = scale >= 1000 ? 3 : scale >= 100 ? 2 : 1, n = 0, k;
	unsigned long long a = (unsigned long long)(v < 0 ? -v : v);
	char buf[2 * FMT_NUM_MAX + 2], frac[FMT_NUM_MAX];

	json_key(j, key);
	/* As "%s%llu.%0*llu" of sign, a / scale, digits and a % scale. */
	if (v < 0)
		buf[n++] = '-';
	n += fmt_num_u64(a / (unsigned)scale, buf + n);
	buf[n++] = '.';
	for (k = fmt_num_u64(a % (unsigned)scale, frac); k < digits; digits--)
		buf[n++] = '0';
	memcpy(buf + n, frac, (size_t)k);
	fwrite_unlocked(buf, 1, (size_t)(n + k), j->f);
}

void
json_double(struct json *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}
