#include "parse/zoneinfo.h"

#include <string.h>

/*
 * /proc/zoneinfo is a "Node N, zone NAME" record per zone followed by
 * indented lines. The fields kept here are "pages free N" and the
 * watermark/size lines "key N" (no colon). Everything else is passed over:
 * per-node and per-zone stats ("nr_free_pages"), pagesets, and the 2.6 hot/cold pagesets whose "high:" and "low:" lines
 * would shadow the watermarks if keys were not matched exactly. "promo"
 * and "protection: (...)" are kept apart, for captures.
 */

/* "protection: (0, 3019, 4299)": the first list only. */
static int
zoneinfo_parse_protection(struct span rest, int line, struct zoneinfo_zone *z,
			  struct parse_error *err)
{
	struct span word;

	if (z->n_protection > 0)
		return 0;
	rest = span_trim(rest);
	if (rest.len < 2 || rest.s[0] != '(' || !span_chop(&rest, ')'))
		return parse_fail(err, line, "zone %s: bad \"protection\" list", z->zone);
	rest.s++;
	rest.len--;
	while (span_next_word(&rest, &word)) {
		uint64_t v;

		span_chop(&word, ',');
		if (span_to_u64(word, &v) != 0 || z->n_protection >= ZI_PROTECTION_MAX)
			return parse_fail(err, line, "zone %s: bad \"protection\" list",
			    z->zone);
		z->protection[z->n_protection++] = v;
	}
	return 0;
}

static const char *const zoneinfo_keys[ZI_NFIELDS] = {
	[ZI_FREE] = "pages free",	/* two words; matched apart */
	[ZI_MIN] = "min",
	[ZI_LOW] = "low",
	[ZI_HIGH] = "high",
	[ZI_BOOST] = "boost",
	[ZI_SPANNED] = "spanned",
	[ZI_PRESENT] = "present",
	[ZI_MANAGED] = "managed",
	[ZI_CMA] = "cma",
};

/* "Node N, zone NAME" */
static int
zoneinfo_parse_header(struct span rest, int line, struct zoneinfo_zone *z,
		      struct parse_error *err)
{
	struct span word, name;

	if (!span_next_word(&rest, &word) || !span_eq(word, "Node") ||
	    !span_next_word(&rest, &word) || !span_chop(&word, ',') ||
	    span_to_int(word, &z->node) != 0 || z->node < 0)
		return parse_fail(err, line, "bad node number in \"Node N, zone X\"");
	if (!span_next_word(&rest, &word) || !span_eq(word, "zone") ||
	    !span_next_word(&rest, &name))
		return parse_fail(err, line, "no zone name in \"Node N, zone X\"");
	if (span_has_control(name))
		return parse_fail(err, line, "control character in the zone name");
	if (!span_copy(name, z->zone, sizeof(z->zone)))
		return parse_fail(err, line, "zone name longer than %d characters",
		    NAME_LEN - 1);
	return 0;
}

static int
zoneinfo_parse_field(struct span rest, int line, struct zoneinfo_zone *z,
		     struct parse_error *err)
{
	struct span key, value;
	int f;

	if (!span_next_word(&rest, &key))
		return 0;
	if (span_eq(key, "pages")) {
		/* "pages free N"; nothing else follows "pages" today */
		if (!span_next_word(&rest, &key) || !span_eq(key, "free"))
			return 0;
		f = ZI_FREE;
	} else if (span_eq(key, "protection:")) {
		return zoneinfo_parse_protection(rest, line, z, err);
	} else if (span_eq(key, "promo")) {
		if (z->has_promo)
			return 0;
		if (!span_next_word(&rest, &value) || span_to_u64(value, &z->promo) != 0)
			return parse_fail(err, line, "zone %s: bad \"promo\" value", z->zone);
		z->has_promo = true;
		return 0;
	} else {
		for (f = ZI_FREE + 1; f < ZI_NFIELDS; f++) {
			if (span_eq(key, zoneinfo_keys[f]))
				break;
		}
		if (f == ZI_NFIELDS)
			return 0;
	}
	/* The watermark block comes first in every layout: keep the first. */
	if (z->has & (1u << f))
		return 0;
	if (!span_next_word(&rest, &value) || span_to_u64(value, &z->v[f]) != 0)
		return parse_fail(err, line, "zone %s: bad \"%s\" value", z->zone,
		    zoneinfo_keys[f]);
	z->has |= 1u << f;
	return 0;
}

int
zoneinfo_parse(const char *buf, size_t len, struct zoneinfo *out,
	       struct parse_error *err)
{
	struct text_cursor c;
	struct span line;
	struct zoneinfo_zone *z = NULL;
	int r;

	out->n_zones = 0;
	text_cursor_init(&c, buf, len);
	while (text_next_line(&c, &line)) {
		if (span_starts(line, "Node ")) {
			if (out->n_zones >= MAX_ZONES)
				return parse_fail(err, c.line,
				    "more than %d zones", MAX_ZONES);
			z = &out->zones[out->n_zones];
			memset(z, 0, sizeof(*z));
			if ((r = zoneinfo_parse_header(line, c.line, z, err)) != 0)
				return r;
			out->n_zones++;
		} else if (z != NULL) {
			if ((r = zoneinfo_parse_field(line, c.line, z, err)) != 0)
				return r;
		}
	}
	if (out->n_zones == 0)
		return parse_fail(err, 0, "no \"Node N, zone X\" record");
	return 0;
}
