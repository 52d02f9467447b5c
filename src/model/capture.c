#include "model/capture.h"
#include "parse/kmsg.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

/* The GFP bits of kernels since 4.4 (include/linux/gfp_types.h). */
#define GFP_DMA		0x01u
#define GFP_HIGHMEM	0x02u
#define GFP_DMA32	0x04u
#define GFP_MOVABLE	0x08u
#define GFP_RECLAIMABLE	0x10u

static bool
capture_has_word(const char *line, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(line + i, word, n) == 0)
			return true;
	return false;
}

enum capture_mtype
capture_gfp_mtype(uint32_t gfp, const char *line, size_t len)
{
	const char *open = line ? memchr(line, '(', len) : NULL;

	/* The names say it on every kernel; the bits moved in 4.4. */
	if (open) {
		size_t n = len - (size_t)(open - line);
		const char *close = memchr(open, ')', n);

		if (close)
			n = (size_t)(close - open);
		if (capture_has_word(open, n, "MOVABLE"))
			return CAPTURE_MT_MOVABLE;
		if (capture_has_word(open, n, "RECLAIMABLE"))
			return CAPTURE_MT_RECLAIMABLE;
		if (capture_has_word(open, n, "GFP"))
			return CAPTURE_MT_UNMOVABLE;
	}
	if (gfp == 0)
		return CAPTURE_MT_UNKNOWN;
	if (gfp & GFP_MOVABLE)
		return CAPTURE_MT_MOVABLE;
	if (gfp & GFP_RECLAIMABLE)
		return CAPTURE_MT_RECLAIMABLE;
	return CAPTURE_MT_UNMOVABLE;
}

const char *
capture_mtype_name(enum capture_mtype mt)
{
	static const char *const names[CAPTURE_MT_COUNT] = {
		"unknown", "Unmovable", "Movable", "Reclaimable",
	};

	return (unsigned)mt < CAPTURE_MT_COUNT ? names[mt] : "unknown";
}

const char *
capture_trigger_name(enum capture_trigger t)
{
	static const char *const names[CAPTURE_TRIGGER_COUNT] = {
		"kernel log", "direct-reclaim stall", "compaction failures",
	};

	return (unsigned)t < CAPTURE_TRIGGER_COUNT ? names[t] : "unknown";
}

int
capture_type_index(const struct capture *c)
{
	const char *name = capture_mtype_name(c->mtype);

	if (c->mtype == CAPTURE_MT_UNKNOWN)
		return -1;
	for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++)
		if (strcmp(c->types[t], name) == 0)
			return t;
	return -1;
}

/* The zones in the order the kernel falls back through them. */
static int
capture_zone_rank(const char *zone)
{
	static const char *const order[] = {
		"DMA", "DMA32", "Normal", "HighMem", "Movable",
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (strcmp(zone, order[i]) == 0)
			return (int)i;
	return -1;
}

bool
capture_zone_eligible(const struct capture *c, const struct capture_zone *z)
{
	int rank = capture_zone_rank(z->zone), top = 2;

	/* Without a mode (a stall, a sysrq OOM) every zone counts. */
	if (rank < 0 || c->gfp == 0)
		return true;
	if (c->gfp & GFP_DMA)
		top = 0;
	else if (c->gfp & GFP_DMA32)
		top = 1;
	else if ((c->gfp & (GFP_HIGHMEM | GFP_MOVABLE)) == (GFP_HIGHMEM | GFP_MOVABLE))
		top = 4;
	else if (c->gfp & GFP_HIGHMEM)
		top = 3;
	return rank <= top;
}

uint64_t
capture_free_at_or_above(const struct capture *c, const struct capture_zone *z,
			 int t, int order)
{
	uint64_t n = 0;

	if (t < 0 || t >= c->n_types || t >= MAX_MTYPES || !(z->has & CZ_PTI))
		return 0;
	for (int o = order < 0 ? 0 : order; o < c->n_orders && o < MAX_ORDERS; o++)
		n += z->free[t][o];
	return n;
}

#define ADD(...) do { \
	if (len < size) \
		len += (size_t)snprintf(dst + len, size - len, __VA_ARGS__); \
} while (0)

/* ", " between names in a list. */
static void
capture_add_zone(char *dst, size_t size, size_t *lenp, int *n, const struct capture_zone *z,
		 int nodes)
{
	size_t len = *lenp;

	if (nodes > 1)
		ADD("%s%s (node %d)", (*n)++ ? ", " : "", z->zone, z->node);
	else
		ADD("%s%s", (*n)++ ? ", " : "", z->zone);
	*lenp = len;
}

static int
capture_nodes(const struct capture *c)
{
	int max = 0;

	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
		if (c->zones[i].node > max)
			max = c->zones[i].node;
	return max + 1;
}

/* The zones that had free blocks of the request's type, and their
 * watermarks: the kernel checks the zone's free pages after taking the
 * request against min plus the reserve, so blocks can be there and the
 * allocation still fail. */
static void
capture_verdict_had(const struct capture *c, int rt, int order, char *dst, size_t size,
		    size_t len)
{
	int n = 0, nodes = capture_nodes(c);

	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++) {
		const struct capture_zone *z = &c->zones[i];
		uint64_t have = capture_free_at_or_above(c, z, rt, order);

		if (!have || !capture_zone_eligible(c, z))
			continue;
		ADD("%s", n ? "; " : "");
		capture_add_zone(dst, size, &len, &n, z, nodes);
		ADD(" had %llu free %s block%s of order >= %d", (unsigned long long)have,
		    c->types[rt], have == 1 ? "" : "s", order);
		if ((z->has & CZ_ZI) && z->free_pages <= z->min)
			ADD(" but its free pages (%llu) were at or under the min watermark (%llu)",
			    (unsigned long long)z->free_pages, (unsigned long long)z->min);
		else if (z->has & CZ_ZI)
			ADD(" and %llu free pages over min %llu: the blocks came back after the "
			    "failure, or the request could not use this zone",
			    (unsigned long long)z->free_pages, (unsigned long long)z->min);
	}
}

char *
capture_verdict(const struct capture *c, char *dst, size_t size)
{
	int order = c->order < 0 ? 0 : c->order, rt = capture_type_index(c);
	int n = 0, nodes = capture_nodes(c), best_t = -1, top = -1;
	uint64_t mine = 0, best = 0;
	size_t len = 0;

	if (size == 0)
		return dst;
	dst[0] = '\0';
	if (!(c->read & CAPTURE_HAS_PTI) || c->n_zones == 0) {
		ADD("no verdict: pagetypeinfo could not be read at the event");
		return dst;
	}
	if (rt < 0) {
		ADD("no verdict: the request's migratetype is not known");
		return dst;
	}
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
		if (capture_zone_eligible(c, &c->zones[i]))
			mine += capture_free_at_or_above(c, &c->zones[i], rt, order);
	if (mine) {
		capture_verdict_had(c, rt, order, dst, size, len);
		return dst;
	}
	ADD("no free %s block of order >= %d in ", c->types[rt], order);
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
		if (capture_zone_eligible(c, &c->zones[i]))
			capture_add_zone(dst, size, &len, &n, &c->zones[i], nodes);
	if (n == 0)
		ADD("any zone it could use");
	/* The other type with most blocks at or above the order. */
	for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++) {
		uint64_t have = 0;

		if (t == rt)
			continue;
		for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++)
			if (capture_zone_eligible(c, &c->zones[i]))
				have += capture_free_at_or_above(c, &c->zones[i], t, order);
		if (have > best) {
			best = have;
			best_t = t;
		}
	}
	if (best_t >= 0) {
		ADD("; %s had %llu at order >= %d but the request was %s", c->types[best_t],
		    (unsigned long long)best, order, c->types[rt]);
		return dst;
	}
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++) {
		const struct capture_zone *z = &c->zones[i];

		if (!capture_zone_eligible(c, z))
			continue;
		for (int t = 0; t < c->n_types && t < MAX_MTYPES; t++)
			for (int o = 0; o < c->n_orders && o < MAX_ORDERS; o++)
				if (z->free[t][o] && o > top)
					top = o;
	}
	if (top >= 0)
		ADD("; no type had any: the largest free block was of order %d", top);
	else
		ADD("; no free block at all");
	return dst;
}

char *
capture_report_line(const struct capture *c, char *dst, size_t size)
{
	char verdict[512];
	size_t len = 0;

	if (size == 0)
		return dst;
	dst[0] = '\0';
	ADD("order %d, mode %#x (%s)", c->order, (unsigned)c->gfp,
	    capture_mtype_name(c->mtype));
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++) {
		const struct capture_zone *z = &c->zones[i];

		if (!(z->has & CZ_ZI) || !capture_zone_eligible(c, z))
			continue;
		ADD(", %s free %llu min %llu low %llu high %llu", z->zone,
		    (unsigned long long)z->free_pages, (unsigned long long)z->min,
		    (unsigned long long)z->low, (unsigned long long)z->high);
	}
	ADD(": %s", capture_verdict(c, verdict, sizeof(verdict)));
	return dst;
}

char *
capture_title(const struct capture *c, char *dst, size_t size)
{
	char comm[TEXT_ESCAPED_SIZE(sizeof(c->comm))];
	size_t len = 0;

	if (size == 0)
		return dst;
	dst[0] = '\0';
	text_esc(comm, sizeof(comm), c->comm);
	if (c->trigger == CAPTURE_KMSG)
		ADD("kernel log record %llu, %s", (unsigned long long)c->seq,
		    kmsg_kind_name((enum kmsg_kind)c->kind));
	else if (c->trigger == CAPTURE_STALL)
		ADD("a direct-reclaim stall of %llu ms",
		    (unsigned long long)(c->stall_ns / 1000000));
	else
		ADD("%llu failed compactions in one tick", (unsigned long long)c->stall_ns);
	if (comm[0])
		ADD(", %s", comm);
	if (c->order >= 0)
		ADD(": order %d", c->order);
	if (c->gfp)
		ADD(", mode %#x", (unsigned)c->gfp);
	if (c->mtype != CAPTURE_MT_UNKNOWN)
		ADD(" (%s)", capture_mtype_name(c->mtype));
	return dst;
}

static void
capture_add_milli(char *dst, size_t size, size_t *lenp, const char *what, int v)
{
	size_t len = *lenp;

	ADD("%s%s%d.%03d", what, v < 0 ? "-" : "", (v < 0 ? -v : v) / 1000,
	    (v < 0 ? -v : v) % 1000);
	*lenp = len;
}

char *
capture_zone_line(const struct capture *c, int i, char *dst, size_t size)
{
	const struct capture_zone *z = &c->zones[i];
	char zone[TEXT_ESCAPED_SIZE(NAME_LEN)];
	size_t len = 0;

	if (size == 0)
		return dst;
	dst[0] = '\0';
	if (i < 0 || i >= c->n_zones || i >= CAPTURE_ZONES)
		return dst;
	text_esc(zone, sizeof(zone), z->zone);
	ADD("node %d %s:", z->node, zone);
	if (z->has & CZ_ZI) {
		ADD(" free %llu min %llu low %llu high %llu", (unsigned long long)z->free_pages,
		    (unsigned long long)z->min, (unsigned long long)z->low,
		    (unsigned long long)z->high);
		if (z->has & CZ_BOOST)
			ADD(" boost %llu", (unsigned long long)z->boost);
		if (z->has & CZ_PROMO)
			ADD(" promo %llu", (unsigned long long)z->promo);
		for (int k = 0; k < z->n_protection && k < CAPTURE_PROTECTION; k++)
			ADD("%s%llu", k ? ", " : " protection (", (unsigned long long)z->protection[k]);
		if (z->n_protection > 0)
			ADD(")");
	} else
		ADD(" no zoneinfo");
	if (z->has & CZ_BUDDY) {
		ADD("; order %d:", c->order < 0 ? 0 : c->order);
		capture_add_milli(dst, size, &len, " unusable ", z->unusable);
		capture_add_milli(dst, size, &len, " extfrag ", z->extfrag);
	}
	if (z->has & CZ_UNUSABLE)
		capture_add_milli(dst, size, &len, " (debugfs ", z->dbg_unusable);
	if (z->has & CZ_EXTFRAG)
		capture_add_milli(dst, size, &len, (z->has & CZ_UNUSABLE) ? " " : " (debugfs ",
		    z->dbg_extfrag);
	if (z->has & (CZ_UNUSABLE | CZ_EXTFRAG))
		ADD(")");
	return dst;
}

char *
capture_free_line(const struct capture *c, int i, int t, char *dst, size_t size)
{
	const struct capture_zone *z = &c->zones[i];
	char name[TEXT_ESCAPED_SIZE(NAME_LEN)];
	int order = c->order < 0 ? 0 : c->order;
	size_t len = 0;

	if (size == 0)
		return dst;
	dst[0] = '\0';
	if (i < 0 || i >= c->n_zones || i >= CAPTURE_ZONES || t < 0 || t >= c->n_types ||
	    t >= MAX_MTYPES || !(z->has & CZ_PTI))
		return dst;
	text_esc(name, sizeof(name), c->types[t]);
	ADD("%c %-12s", t == capture_type_index(c) ? '*' : ' ', name);
	for (int o = order; o < c->n_orders && o < MAX_ORDERS; o++)
		ADD(" o%d %u%s", o, z->free[t][o], (z->capped[t] >> o) & 1 ? "+" : "");
	ADD(": %llu at order >= %d", (unsigned long long)capture_free_at_or_above(c, z, t, order),
	    order);
	return dst;
}
