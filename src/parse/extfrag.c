#include "parse/extfrag.h"

#include <stdbool.h>
#include <string.h>

/* "-1.000", "0.405": the kernel prints three decimals (mm/vmstat.c). */
static int
extfrag_value(struct span w, int *out)
{
	bool neg = w.len > 0 && w.s[0] == '-';
	int v = 0, frac = 0;
	size_t i = neg ? 1 : 0, dot;

	for (dot = i; dot < w.len && w.s[dot] != '.'; dot++) {
		if (w.s[dot] < '0' || w.s[dot] > '9' || dot - i > 6)
			return -1;
		v = v * 10 + (w.s[dot] - '0');
	}
	if (dot == i || dot + 4 != w.len)
		return -1;
	for (size_t k = dot + 1; k < w.len; k++) {
		if (w.s[k] < '0' || w.s[k] > '9')
			return -1;
		frac = frac * 10 + (w.s[k] - '0');
	}
	*out = (neg ? -1 : 1) * (v * 1000 + frac);
	return 0;
}

int
extfrag_parse(const char *buf, size_t len, struct extfrag *out, struct parse_error *err)
{
	struct text_cursor c;
	struct span line, word, name;

	out->n_zones = 0;
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		struct extfrag_zone *z;

		if (span_trim(line).len == 0)
			continue;
		if (out->n_zones >= MAX_ZONES)
			return parse_fail(err, c.line, "more than %d zones", MAX_ZONES);
		z = &out->zones[out->n_zones];
		memset(z, 0, sizeof(*z));
		if (!span_next_word(&line, &word) || !span_eq(word, "Node") ||
		    !span_next_word(&line, &word) || !span_chop(&word, ',') ||
		    span_to_int(word, &z->node) != 0 || z->node < 0 ||
		    !span_next_word(&line, &word) || !span_eq(word, "zone") ||
		    !span_next_word(&line, &name) || span_has_control(name) ||
		    !span_copy(name, z->zone, sizeof(z->zone)))
			return parse_fail(err, c.line, "not \"Node N, zone X\" and figures");
		while (span_next_word(&line, &word)) {
			if (z->n_orders >= MAX_ORDERS)
				return parse_fail(err, c.line, "more than %d orders", MAX_ORDERS);
			if (extfrag_value(word, &z->milli[z->n_orders]) < 0)
				return parse_fail(err, c.line, "a figure that is not N.NNN");
			z->n_orders++;
		}
		out->n_zones++;
	}
	return 0;
}
