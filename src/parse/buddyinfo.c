/*
 * /proc/buddyinfo: one line per populated zone of each node with memory,
 *
 *	Node 0, zone   Normal   4381   1093    185 ...
 *
 * printed as "Node %d, zone %8s " then "%6lu " per order. A count of six
 * or more digits leaves a single space after the zone name, so the line is
 * split on blanks, never at fixed columns. The number of orders is taken
 * from the file (9 to 17 depending on the build), the trailing space may
 * have been lost in copies, and node ids may be sparse or in any order.
 *
 * A cut last line is caught when it has fewer counts than the first row
 * (-EINVAL). A cut inside the last number, or inside a file's only row,
 * looks like a whole shorter file and cannot be caught here: the reader
 * must notice a read that filled its buffer.
 */

#include "parse/buddyinfo.h"

#include <errno.h>
#include <string.h>

/* At most this much of a bad token is quoted in a message. */
#define SHOWN_MAX 24

static int
shown(struct span w)
{
	return (int)(w.len < SHOWN_MAX ? w.len : SHOWN_MAX);
}

/* One "Node N, zone NAME c0 c1 ..." line into z; *n_counts is set. */
static int
buddyinfo_row(struct span rest, int line, struct buddyinfo_zone *z,
    int *n_counts, struct parse_error *err)
{
	struct span w = { "", 0 };
	int n = 0, r;

	if (!span_next_word(&rest, &w) || !span_eq(w, "Node"))
		return parse_fail(err, line,
		    "expected \"Node N, zone NAME\", got \"%.*s\"", shown(w),
		    w.s);
	if (!span_next_word(&rest, &w))
		return parse_fail(err, line, "no node id");
	if (!span_chop(&w, ','))
		return parse_fail(err, line, "no comma after node id \"%.*s\"",
		    shown(w), w.s);
	if (span_to_int(w, &z->node) != 0 || z->node < 0)
		return parse_fail(err, line, "bad node id \"%.*s\"", shown(w),
		    w.s);
	if (!span_next_word(&rest, &w) || !span_eq(w, "zone"))
		return parse_fail(err, line,
		    "expected \"zone\" after the node id");
	if (!span_next_word(&rest, &w))
		return parse_fail(err, line, "no zone name");
	if (span_has_control(w))
		return parse_fail(err, line,
		    "control character in the zone name");
	if (!span_copy(w, z->zone, sizeof(z->zone)))
		return parse_fail(err, line,
		    "zone name \"%.*s\" is longer than %d characters", shown(w),
		    w.s, NAME_LEN - 1);

	while (span_next_word(&rest, &w)) {
		if (n == MAX_ORDERS)
			return parse_fail(err, line, "more than %d counts",
			    MAX_ORDERS);
		r = span_to_u64(w, &z->free[n]);
		if (r == -ERANGE)
			return parse_fail(err, line,
			    "count %d (%.*s) does not fit 64 bits", n, shown(w),
			    w.s);
		if (r != 0)
			return parse_fail(err, line,
			    "count %d: \"%.*s\" is not a number", n, shown(w),
			    w.s);
		n++;
	}
	if (n == 0)
		return parse_fail(err, line, "no counts after the zone name");
	*n_counts = n;
	return 0;
}

int
buddyinfo_parse(const char *buf, size_t len, struct buddyinfo *out,
    struct parse_error *err)
{
	struct text_cursor c;
	struct span line;
	struct buddyinfo_zone *z;
	int i, n = 0;

	memset(out, 0, sizeof(*out));
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (len == 0)
		return parse_fail(err, 0, "empty");

	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		if (span_trim(line).len == 0)
			continue;
		if (out->n_zones == MAX_ZONES)
			return parse_fail(err, c.line, "more than %d zone rows",
			    MAX_ZONES);
		z = &out->zones[out->n_zones];
		if (buddyinfo_row(line, c.line, z, &n, err) != 0)
			return -EINVAL;

		/* Fragmentation figures compare orders across zones. */
		if (out->n_zones == 0)
			out->n_orders = n;
		else if (n != out->n_orders)
			return parse_fail(err, c.line,
			    "expected %d counts, got %d", out->n_orders, n);

		/* A zone listed twice would make lookups ambiguous. */
		for (i = 0; i < out->n_zones; i++) {
			if (out->zones[i].node == z->node &&
			    strcmp(out->zones[i].zone, z->zone) == 0)
				return parse_fail(err, c.line,
				    "node %d zone %s listed twice", z->node,
				    z->zone);
		}
		out->n_zones++;
	}
	if (out->n_zones == 0)
		return parse_fail(err, 0, "no zone rows");
	return 0;
}
