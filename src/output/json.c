#include "output/json.h"

#include <math.h>
#include <string.h>

#include "util/text.h"

void
json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

/* JSON's own escapes: controls (C0, DEL and the C1 controls U+0080 to
 * U+009F) as \u00XX, and a byte that is not valid UTF-8 as U+FFFD, so the
 * document is valid UTF-8 whatever a name holds. */
static void
json_escaped(FILE *f, const char *s)
{
	size_t len = strlen(s);

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		size_t n;

		if (c < 0x80) {
			if (c == '"' || c == '\\')
				fprintf(f, "\\%c", c);
			else if (c == '\n')
				fputs("\\n", f);
			else if (c == '\t')
				fputs("\\t", f);
			else if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
			i++;
		} else if ((n = text_utf8_next(s + i, len - i, &cp)) == 0) {
			fputs("\\ufffd", f);
			i++;
		} else if (cp < 0xa0) {
			fprintf(f, "\\u%04x", (unsigned)cp);
			i += n;
		} else {
			fwrite(s + i, 1, n, f);
			i += n;
		}
	}
	fputc('"', f);
}

static void
json_key(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	if (key) {
		json_escaped(j->f, key);
		fputc(':', j->f);
	}
}

static void
json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_close(struct json *j, char c)
{
	fputc(c, j->f);
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
	json_key(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void
json_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	fprintf(j->f, "%lld", v);
}

void
json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void
json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

void
json_fixed(struct json *j, const char *key, long long v, int scale)
{
	int digits = scale >= 1000 ? 3 : scale >= 100 ? 2 : 1;
	unsigned long long a = (unsigned long long)(v < 0 ? -v : v);

	json_key(j, key);
	fprintf(j->f, "%s%llu.%0*llu", v < 0 ? "-" : "", a / (unsigned)scale, digits,
		a % (unsigned)scale);
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
