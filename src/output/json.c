#include "output/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt-num.h"
#include "util/text.h"

void
json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->memo = NULL;
	j->flushes = 0;
	j->len = 0;
}

void
json_flush(struct json *j)
{
	if (j->len) {
		fwrite(j->buf, 1, j->len, j->f);
		j->flushes++;
	}
	j->len = 0;
}

/* A document goes out whole once it is complete: nothing else writes to
 * the stream in the middle of one. */
static void
json_done(struct json *j)
{
	if (j->depth == 0)
		json_flush(j);
}

/* Room for n bytes (n at most JSON_BUF_SIZE) at the end of the buffer. */
static char *
json_room(struct json *j, size_t n)
{
	if (j->len + n > JSON_BUF_SIZE)
		json_flush(j);
	return j->buf + j->len;
}

static void
json_put(struct json *j, const char *s, size_t n)
{
	if (n > JSON_BUF_SIZE) {
		json_flush(j);
		fwrite(s, 1, n, j->f);
		return;
	}
	memcpy(json_room(j, n), s, n);
	j->len += n;
}

static void
json_putc(struct json *j, char c)
{
	*json_room(j, 1) = c;
	j->len++;
}

/* Bytes that go out as they are: printable ASCII but '"' and '\\'. */
static const unsigned char json_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* One byte or UTF-8 sequence that is not plain, at s (len bytes left):
 * how many bytes it took. */
static size_t
json_escape_one(struct json *j, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = (unsigned char)*s;
	char *p = json_room(j, 6);
	uint32_t cp;
	size_t n = 1;

	if (c < 0x80) {
		*p++ = '\\';
		if (c == '"' || c == '\\') {
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = 't';
		} else {
			memcpy(p, "u00", 3);
			p[3] = hex[c >> 4];
			p[4] = hex[c & 15];
			p += 5;
		}
	} else if ((n = text_utf8_next(s, len, &cp)) == 0) {
		memcpy(p, "\\ufffd", 6);
		p += 6;
		n = 1;
	} else if (cp < 0xa0) {
		memcpy(p, "\\u00", 4);
		p[4] = hex[cp >> 4];
		p[5] = hex[cp & 15];
		p += 6;
	} else {
		json_put(j, s, n);
		return n;
	}
	j->len = (size_t)(p - j->buf);
	return n;
}

/* Whether the n bytes at p are all plain (none NUL): eight at a time, a
 * word holding none below 0x20, none of 0x7f and up, no '"' and no '\\'.
 * The caller has filled the bytes after them to the next multiple of 8
 * with plain ones (json_copied). A borrow or carry between bytes comes
 * only from a byte that is already not plain. */
static bool
json_all_plain(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;

	for (size_t i = 0; i < n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		if (((x - ones * 0x20) | (x + ones) | x | ((x ^ (ones * '"')) - ones) |
		     ((x ^ (ones * '\\')) - ones)) & high)
			return false;
	}
	return true;
}

/* Copies the n bytes of s to p, and plain bytes after them to the next
 * multiple of 8 (p has room): whether they were all plain. */
static bool
json_copied(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	memset(p + n, 'x', 8);
	return json_all_plain(p, n);
}

/* JSON's own escapes: controls (C0, DEL and the C1 controls U+0080 to
 * U+009F) as \u00XX, and a byte that is not valid UTF-8 as U+FFFD, so the
 * document is valid UTF-8 whatever a name holds. Plain bytes are copied
 * as they are checked, 64 at a time: they are most of what export writes. */
static void
json_escaped(struct json *j, const char *s)
{
	size_t n = strlen(s);

	/* Most strings are plain: copied whole, then checked where they lie. */
	if (n + 10 <= JSON_BUF_SIZE) {
		char *p = json_room(j, n + 10);

		p[0] = '"';
		if (json_copied(p + 1, s, n)) {
			p[n + 1] = '"';
			j->len += n + 2;
			return;
		}
	}
	json_putc(j, '"');
	for (;;) {
		char *p = json_room(j, 64);
		size_t k = 0;

		while (k < 64 && json_plain[(unsigned char)s[k]]) {
			p[k] = s[k];
			k++;
		}
		j->len += k;
		s += k;
		if (k == 64)
			continue;
		if (!*s)
			break;
		s += json_escape_one(j, s, strlen(s));
	}
	json_putc(j, '"');
}

static void
json_key(struct json *j, const char *key)
{
	size_t n = key ? strlen(key) : 0;

	/* A plain key goes in whole with its comma, quotes and colon. */
	if (key && n + 10 <= JSON_BUF_SIZE) {
		char *p = json_room(j, n + 10);
		size_t k = j->need_comma[j->depth];

		p[0] = ',';
		p[k] = '"';
		if (json_copied(p + k + 1, key, n)) {
			memcpy(p + k + 1 + n, "\":", 2);
			j->len += k + n + 3;
			j->need_comma[j->depth] = true;
			return;
		}
	}
	if (j->need_comma[j->depth])
		json_putc(j, ',');
	j->need_comma[j->depth] = true;
	if (key) {
		json_escaped(j, key);
		json_putc(j, ':');
	}
}

static void
json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	json_putc(j, c);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_close(struct json *j, char c)
{
	json_putc(j, c);
	if (j->depth > 0)
		j->depth--;
	if (j->depth == 0)
		j->need_comma[0] = false;
	json_done(j);
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
	json_escaped(j, s);
	json_done(j);
}

void
json_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	j->len += (size_t)fmt_num_u64(v, json_room(j, FMT_NUM_MAX));
	json_done(j);
}

void
json_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	j->len += (size_t)fmt_num_i64(v, json_room(j, FMT_NUM_MAX));
	json_done(j);
}

void
json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	if (v)
		json_put(j, "true", 4);
	else
		json_put(j, "false", 5);
	json_done(j);
}

void
json_null(struct json *j, const char *key)
{
	json_key(j, key);
	json_put(j, "null", 4);
	json_done(j);
}

void
json_fixed(struct json *j, const char *key, long long v, int scale)
{
	int digits = 0, n = 0, k;
	unsigned long long a = (unsigned long long)(v < 0 ? -v : v);
	char frac[FMT_NUM_MAX], *p;

	/* As many digits as scale has zeros: 10^6 (the delays' seconds) has
	 * 6, so that 1000 is 0.001000, not 0.1000. */
	long long t = 1;

	for (; t < scale && digits < 18; t *= 10)
		digits++;
	json_key(j, key);
	if (t == scale && digits > 0) {
		j->len += (size_t)fmt_num_fixed(v, digits, false, json_room(j, FMT_NUM_MAX));
		json_done(j);
		return;
	}
	if (digits == 0)
		digits = 1;
	/* As "%s%llu.%0*llu" of sign, a / scale, digits and a % scale. */
	p = json_room(j, 2 * FMT_NUM_MAX + 2);
	if (v < 0)
		p[n++] = '-';
	n += fmt_num_u64(a / (unsigned)scale, p + n);
	p[n++] = '.';
	for (k = fmt_num_u64(a % (unsigned)scale, frac); k < digits; digits--)
		p[n++] = '0';
	memcpy(p + n, frac, (size_t)k);
	j->len += (size_t)(n + k);
	json_done(j);
}

void
json_double(struct json *j, const char *key, double v, int decimals)
{
	char buf[512];
	int n;

	json_key(j, key);
	if ((n = fmt_num_double(v, decimals, json_room(j, FMT_NUM_MAX))) > 0)
		j->len += (size_t)n;
	else if (isfinite(v) && (n = snprintf(buf, sizeof(buf), "%.*f", decimals, v)) > 0 &&
	    (size_t)n < sizeof(buf))
		json_put(j, buf, (size_t)n);
	else if (isfinite(v)) {
		/* Beyond the buffer (1e300 with decimals): as it was, straight out. */
		json_flush(j);
		fprintf(j->f, "%.*f", decimals, v);
	} else
		json_put(j, "null", 4);
	json_done(j);
}

int
json_members_init(struct json_members *mm, int cap, size_t key_size)
{
	memset(mm, 0, sizeof(*mm));
	/* A member at its longest: a comma, a name escaped 6 bytes for
	 * one, quotes, colon and a number. */
	mm->size = (size_t)cap * (6 * key_size + 5 + FMT_NUM_MAX);
	mm->text = malloc(mm->size);
	mm->at = malloc(((size_t)cap + 1) * sizeof(*mm->at));
	mm->held = malloc((size_t)cap * (key_size + 8));
	mm->key_len = malloc((size_t)cap * sizeof(*mm->key_len));
	if (!mm->text || !mm->at || !mm->held || !mm->key_len) {
		json_members_free(mm);
		return -ENOMEM;
	}
	mm->cap = cap;
	mm->key_size = key_size;
	return 0;
}

void
json_members_free(struct json_members *mm)
{
	free(mm->text);
	free(mm->at);
	free(mm->held);
	free(mm->key_len);
	memset(mm, 0, sizeof(*mm));
}

/* Whether member x is held member h: its w bytes, or with at (the
 * names known alike) its value alone. */
static inline bool
member_same(const unsigned char *x, const unsigned char *h, size_t at, size_t w)
{
	uint64_t a, b;

	if (!at)
		return memcmp(x, h, w) == 0;
	memcpy(&a, x + at, sizeof(a));
	memcpy(&b, h + at, sizeof(b));
	return a == b;
}

bool
json_members_u64(struct json *j, const char *key, struct json_members *mm, const void *e,
		 size_t stride, int n)
{
	const unsigned char *p = e;
	size_t w = mm->key_size + 8, start;
	/* With the names known to be held, the bytes compared and kept are
	 * the value's alone. */
	size_t cmp_at = mm->names_held && n == mm->n ? mm->key_size : 0;
	unsigned long flushes;
	int held = mm->n, i = 0;
	bool same = n == held;

	json_object_begin(j, key);
	/* Written again from here on: held again only if whole. */
	mm->n = 0;
	if (n > mm->cap) {
		for (; i < n; i++) {
			uint64_t v;

			memcpy(&v, p + (size_t)i * stride + mm->key_size, sizeof(v));
			json_u64(j, (const char *)p + (size_t)i * stride, v);
		}
		json_object_end(j);
		return false;
	}
	start = j->len;
	flushes = j->flushes;
	while (i < n) {
		const unsigned char *x = p + (size_t)i * stride;
		unsigned char *h = mm->held + (size_t)i * w;
		uint64_t v;

		if (i < held && member_same(x, h, cmp_at, w)) {
			size_t from = mm->at[i], to = j->len - start;
			int r = i + 1;

			while (r < held && r < n &&
			       member_same(p + (size_t)r * stride, mm->held + (size_t)r * w, cmp_at, w))
				r++;
			json_put(j, mm->text + from, mm->at[r] - from);
			for (; i < r; i++)
				mm->at[i] = mm->at[i] - from + to;
			j->need_comma[j->depth] = true;
			continue;
		}
		memcpy(&v, x + mm->key_size, sizeof(v));
		if (i < held && (cmp_at || memcmp(x, h, mm->key_size) == 0)) {
			/* The same name: its text again, then the value. */
			size_t from = mm->at[i], k = mm->key_len[i];

			mm->at[i] = j->len - start;
			json_put(j, mm->text + from, k);
			j->len += (size_t)fmt_num_u64(v, json_room(j, FMT_NUM_MAX));
			j->need_comma[j->depth] = true;
		} else {
			same = false;
			mm->at[i] = j->len - start;
			json_key(j, (const char *)x);
			mm->key_len[i] = j->len - start - mm->at[i];
			j->len += (size_t)fmt_num_u64(v, json_room(j, FMT_NUM_MAX));
		}
		memcpy(h + cmp_at, x + cmp_at, w - cmp_at);
		i++;
	}
	mm->at[n] = j->len - start;
	/* The text is kept when it is all in the buffer still. */
	if (j->flushes == flushes && mm->at[n] <= mm->size) {
		memcpy(mm->text, j->buf + start, mm->at[n]);
		mm->n = n;
	}
	json_object_end(j);
	return same;
}

bool
json_piece_hit(struct json *j, struct json_piece *pc, const void *in, size_t n)
{
	/* The comma is not the piece's: written here, then none. */
	if (j->need_comma[j->depth])
		json_putc(j, ',');
	if (pc->held && pc->in_len == n && memcmp(pc->in, in, n) == 0) {
		json_put(j, pc->text, pc->len);
		j->need_comma[j->depth] = true;
		return true;
	}
	j->need_comma[j->depth] = false;
	pc->held = false;
	pc->in_len = n <= sizeof(pc->in) ? n : 0;
	if (pc->in_len)
		memcpy(pc->in, in, n);
	pc->start = j->len;
	pc->flushes = j->flushes;
	return false;
}

void
json_piece_end(struct json *j, struct json_piece *pc)
{
	pc->len = j->len - pc->start;
	/* Held when it is all in the buffer still, and fits. */
	if (pc->in_len && j->flushes == pc->flushes && pc->len <= sizeof(pc->text)) {
		memcpy(pc->text, j->buf + pc->start, pc->len);
		pc->held = true;
	}
}
