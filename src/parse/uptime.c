#include "parse/uptime.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* Above this a double no longer holds every whole second. */
#define UPTIME_MAX ((uint64_t)1 << 53)

int
uptime_parse(const char *buf, size_t len, double *out, struct parse_error *err)
{
	struct text_cursor c;
	struct span rest, w, whole, frac = { "", 0 };
	const char *dot;
	uint64_t a, b = 0;

	text_cursor_init(&c, buf, len);
	if (!text_next_line(&c, &rest))
		return parse_fail(err, 0, "empty");
	if (!span_next_word(&rest, &w))
		return parse_fail(err, 1, "no seconds since boot");
	whole = w;
	if ((dot = memchr(w.s, '.', w.len))) {
		whole.len = (size_t)(dot - w.s);
		frac = (struct span){ dot + 1, w.len - whole.len - 1 };
	}
	if (span_to_u64(whole, &a) < 0 || (frac.len && span_to_u64(frac, &b) < 0) || frac.len > 9)
		return parse_fail(err, 1, "expected seconds since boot, got '%.*s'",
				  (int)(w.len > 40 ? 40 : w.len), w.s);
	if (a > UPTIME_MAX)
		return parse_fail(err, 1, "%llu seconds since boot is out of range",
				  (unsigned long long)a);
	*out = (double)a;
	for (double scale = 0.1; frac.len; frac.len--, frac.s++, scale /= 10)
		*out += (frac.s[0] - '0') * scale;
	(void)b;
	return 0;
}
