#include "source/capture.h"
#include "model/capture.h"
#include "model/frag.h"
#include "parse/extfrag.h"
#include "util/clock.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CF_BUDDY, CF_PTI, CF_ZI, CF_COUNT };
enum { DF_UNUSABLE, DF_EXTFRAG, DF_COUNT };

struct capture_source {
	struct procfs *fs;		/* the sampler's */
	struct procfs_file files[CF_COUNT];
	struct procfs dbg;		/* debugfs extfrag/ */
	bool dbg_open;
	struct procfs_file dfiles[DF_COUNT];
	/* What the files parse into: too big for the stack. */
	struct buddyinfo buddy;
	struct pagetypeinfo pti;
	struct zoneinfo zi;
	struct extfrag ef[DF_COUNT];
	double last;			/* mono of the last capture */
	uint32_t reads, skipped;
	/* The probes' cumulative figures of the tick before. */
	uint64_t epoch;
	uint64_t compact_fail;
	uint64_t compact_try[PROBE_ORDERS];
	uint64_t stall_orders[PROBE_ORDERS];
};

struct capture_source *
capture_source_open(struct procfs *fs)
{
	struct capture_source *cs = calloc(1, sizeof(*cs));
	static const char *const rel[CF_COUNT] = { "buddyinfo", "pagetypeinfo", "zoneinfo" };
	static const char *const drel[DF_COUNT] = { "unusable_index", "extfrag_index" };
	char root[PROCFS_PATH_MAX];

	if (!cs)
		return NULL;
	cs->fs = fs;
	for (int i = 0; i < CF_COUNT; i++) {
		cs->files[i].rel = rel[i];
		cs->files[i].fd = -1;
	}
	for (int i = 0; i < DF_COUNT; i++) {
		cs->dfiles[i].rel = drel[i];
		cs->dfiles[i].fd = -1;
	}
	/* debugfs belongs to the machine; a test root brings its own. */
	if (fs->is_procfs)
		snprintf(root, sizeof(root), "/sys/kernel/debug/extfrag");
	else
		procfs_path(fs, "debug/extfrag", root, sizeof(root));
	cs->dbg_open = procfs_init(&cs->dbg, root) == 0;
	return cs;
}

void
capture_source_close(struct capture_source *cs)
{
	if (!cs)
		return;
	for (int i = 0; i < CF_COUNT; i++)
		procfs_close_file(&cs->files[i]);
	for (int i = 0; i < DF_COUNT; i++)
		procfs_close_file(&cs->dfiles[i]);
	if (cs->dbg_open)
		procfs_free(&cs->dbg);
	free(cs);
}

/* Whether a kernel-log event asks for a capture; allocation failures first. */
static int
capture_event_rank(enum kmsg_kind k)
{
	switch (k) {
	case KMSG_ALLOC_FAILURE:
		return 3;
	case KMSG_ALLOC_STALL:
	case KMSG_OOM_INVOKED:
	case KMSG_OOM_KILL:
		return 2;
	case KMSG_HUNG_TASK:
		return 1;
	default:
		return 0;
	}
}

static uint64_t
capture_compact_failed(const struct probes *p)
{
	return p->compact_result[COMPACT_R_COMPLETE] + p->compact_result[COMPACT_R_PARTIAL_SKIPPED] +
	    p->compact_result[COMPACT_R_CONTENDED] + p->compact_result[COMPACT_R_NO_SUITABLE_PAGE];
}

/* The highest order whose count grew since the tick before, or -1. */
static int
capture_grown_order(const uint64_t *now, uint64_t *prev)
{
	int top = -1;

	for (int o = 0; o < PROBE_ORDERS; o++) {
		if (now[o] > prev[o])
			top = o;
		prev[o] = now[o];
	}
	return top;
}

/* What the probes say this tick: a trigger, or -1. Keeps their figures
 * for the next tick either way. */
static int
capture_probe_trigger(struct capture_source *cs, const struct probes *p, int *order,
		      uint64_t *what)
{
	uint64_t fail = capture_compact_failed(p), nfail;
	bool fresh = cs->epoch != p->epoch;
	int so = capture_grown_order(p->stall[STALL_DIRECT].order_count, cs->stall_orders);
	int co = capture_grown_order(p->compact_try, cs->compact_try);

	nfail = fresh || fail < cs->compact_fail ? 0 : fail - cs->compact_fail;
	cs->compact_fail = fail;
	cs->epoch = p->epoch;
	if (p->state != PROBES_ON || fresh)
		return -1;
	if (p->stall[STALL_DIRECT].tick_max_ns >= CAPTURE_STALL_NS) {
		*order = so;
		*what = p->stall[STALL_DIRECT].tick_max_ns;
		return CAPTURE_STALL;
	}
	if (nfail >= CAPTURE_COMPACT_FAILS) {
		*order = co;
		*what = nfail;
		return CAPTURE_COMPACT;
	}
	return -1;
}

static struct capture_zone *
capture_zone_of(struct capture *c, int node, const char *zone, bool add)
{
	for (int i = 0; i < c->n_zones; i++)
		if (c->zones[i].node == node && strcmp(c->zones[i].zone, zone) == 0)
			return &c->zones[i];
	if (!add || c->n_zones >= CAPTURE_ZONES)
		return NULL;
	struct capture_zone *z = &c->zones[c->n_zones++];

	memset(z, 0, sizeof(*z));
	z->node = node;
	snprintf(z->zone, sizeof(z->zone), "%s", zone);
	return z;
}

/* One file through the same parsers as the sampler; 0 or -1. */
static int
capture_read_file(struct procfs *fs, struct procfs_file *f, int which, void *out)
{
	struct parse_error perr = { 0, "" };
	ssize_t len = procfs_read(fs, f);

	if (len < 0)
		return -1;
	switch (which) {
	case CF_BUDDY:
		return buddyinfo_parse(fs->buf, (size_t)len, out, &perr) < 0 ? -1 : 0;
	case CF_PTI:
		return pagetypeinfo_parse(fs->buf, (size_t)len, out, &perr) < 0 ? -1 : 0;
	case CF_ZI:
		return zoneinfo_parse(fs->buf, (size_t)len, out, &perr) < 0 ? -1 : 0;
	default:
		return extfrag_parse(fs->buf, (size_t)len, out, &perr) < 0 ? -1 : 0;
	}
}

static void
capture_fill_pti(struct capture *c, const struct pagetypeinfo *pti)
{
	c->pageblock_order = pti->pageblock_order;
	c->n_types = pti->n_types < MAX_MTYPES ? pti->n_types : MAX_MTYPES;
	memcpy(c->types, pti->types, (size_t)c->n_types * sizeof(c->types[0]));
	if (pti->n_orders > c->n_orders)
		c->n_orders = pti->n_orders;
	for (int i = 0; i < pti->n_free; i++) {
		const struct pagetypeinfo_free *r = &pti->free[i];
		struct capture_zone *z = capture_zone_of(c, r->node, r->zone, true);

		if (!z || r->type < 0 || r->type >= c->n_types)
			continue;
		z->has |= CZ_PTI;
		memcpy(z->free[r->type], r->free, sizeof(r->free));
		z->capped[r->type] = r->capped;
	}
}

static void
capture_fill_buddy(struct capture *c, const struct buddyinfo *bi)
{
	int at = c->order < 0 ? 0 : c->order;

	if (bi->n_orders > c->n_orders)
		c->n_orders = bi->n_orders;
	for (int i = 0; i < bi->n_zones; i++) {
		const struct buddyinfo_zone *r = &bi->zones[i];
		struct capture_zone *z = capture_zone_of(c, r->node, r->zone, true);
		struct frag fr;

		if (!z)
			continue;
		z->has |= CZ_BUDDY;
		memcpy(z->buddy, r->free, sizeof(r->free));
		frag_compute(r->free, bi->n_orders, &fr);
		if (at >= bi->n_orders)
			at = bi->n_orders - 1;
		z->unusable = fr.unusable[at];
		z->extfrag = fr.extfrag[at];
	}
}

static void
capture_fill_zi(struct capture *c, const struct zoneinfo *zi, bool add)
{
	for (int i = 0; i < zi->n_zones; i++) {
		const struct zoneinfo_zone *r = &zi->zones[i];
		struct capture_zone *z = capture_zone_of(c, r->node, r->zone, add);

		if (!z)
			continue;
		z->has |= CZ_ZI;
		z->free_pages = r->v[ZI_FREE];
		z->min = r->v[ZI_MIN];
		z->low = r->v[ZI_LOW];
		z->high = r->v[ZI_HIGH];
		if (r->has & (1u << ZI_BOOST)) {
			z->has |= CZ_BOOST;
			z->boost = r->v[ZI_BOOST];
		}
		if (r->has_promo) {
			z->has |= CZ_PROMO;
			z->promo = r->promo;
		}
		z->n_protection = r->n_protection;
		memcpy(z->protection, r->protection, sizeof(z->protection));
	}
}

static void
capture_fill_dbg(struct capture *c, const struct extfrag *ef, uint32_t bit)
{
	int at = c->order < 0 ? 0 : c->order;

	for (int i = 0; i < ef->n_zones; i++) {
		const struct extfrag_zone *r = &ef->zones[i];
		struct capture_zone *z = capture_zone_of(c, r->node, r->zone, false);

		if (!z || at >= r->n_orders)
			continue;
		z->has |= bit;
		if (bit == CZ_UNUSABLE)
			z->dbg_unusable = r->milli[at];
		else
			z->dbg_extfrag = r->milli[at];
	}
}

/* Read now. pagetypeinfo first: it is what the verdict stands on. */
static void
capture_read(struct capture_source *cs, struct capture *c)
{
	c->wall = clock_seconds(CLOCK_REALTIME);
	c->mono = clock_seconds(CLOCK_MONOTONIC);
	c->pageblock_order = -1;
	if (capture_read_file(cs->fs, &cs->files[CF_PTI], CF_PTI, &cs->pti) == 0) {
		c->read |= CAPTURE_HAS_PTI;
		capture_fill_pti(c, &cs->pti);
	}
	if (capture_read_file(cs->fs, &cs->files[CF_BUDDY], CF_BUDDY, &cs->buddy) == 0) {
		c->read |= CAPTURE_HAS_BUDDY;
		capture_fill_buddy(c, &cs->buddy);
	}
	if (capture_read_file(cs->fs, &cs->files[CF_ZI], CF_ZI, &cs->zi) == 0) {
		c->read |= CAPTURE_HAS_ZI;
		capture_fill_zi(c, &cs->zi, c->n_zones == 0);
	}
	if (c->n_orders > MAX_ORDERS)
		c->n_orders = MAX_ORDERS;
	for (int i = 0; cs->dbg_open && i < DF_COUNT; i++) {
		if (capture_read_file(&cs->dbg, &cs->dfiles[i], CF_COUNT + i, &cs->ef[i]) < 0)
			continue;
		c->read |= i == DF_UNUSABLE ? CAPTURE_HAS_UNUSABLE : CAPTURE_HAS_EXTFRAG;
		capture_fill_dbg(c, &cs->ef[i], i == DF_UNUSABLE ? CZ_UNUSABLE : CZ_EXTFRAG);
	}
}

void
capture_source_run(struct capture_source *cs, struct sample *s)
{
	struct capture *c = &s->capture;
	const struct kmsg_event *ev = NULL;
	int asks = 0, trigger = -1, order = -1;
	uint64_t what = 0;
	double now;

	s->n_capture = 0;
	for (int i = 0; i < s->kmsg.n && i < KMSG_MAX_EVENTS; i++) {
		int rank = capture_event_rank(s->kmsg.ev[i].kind);

		if (rank == 0)
			continue;
		asks++;
		if (!ev || rank > capture_event_rank(ev->kind))
			ev = &s->kmsg.ev[i];
	}
	if (ev)
		trigger = CAPTURE_KMSG;
	/* The probes' figures are kept every tick, whatever asked. */
	if (s->probes.state == PROBES_ON) {
		int pt = capture_probe_trigger(cs, &s->probes, &order, &what);

		if (pt >= 0) {
			asks++;
			if (trigger < 0)
				trigger = pt;
		}
	}
	if (trigger < 0)
		return;
	/* The floor: a storm of failures must not hammer the zone lock. */
	now = clock_seconds(CLOCK_MONOTONIC);
	if (cs->reads > 0 && now - cs->last < CAPTURE_FLOOR_S) {
		cs->skipped += (uint32_t)asks;
		return;
	}
	cs->last = now;
	cs->reads++;
	cs->skipped += (uint32_t)asks - 1;
	memset(c, 0, offsetof(struct capture, zones));
	c->trigger = (enum capture_trigger)trigger;
	c->order = -1;
	if (ev) {
		size_t n = kmsg_event_first_line(ev);

		c->seq = ev->seq;
		c->kind = ev->kind;
		c->order = (ev->has & KF_ORDER) ? ev->order : -1;
		c->gfp = (ev->has & KF_GFP) ? ev->gfp : 0;
		c->mtype = ev->kind == KMSG_ALLOC_FAILURE || ev->kind == KMSG_ALLOC_STALL ||
		    ev->kind == KMSG_OOM_INVOKED ? capture_gfp_mtype(c->gfp, ev->text, n) :
		    CAPTURE_MT_UNKNOWN;
		if (ev->has & KF_COMM)
			snprintf(c->comm, sizeof(c->comm), "%.15s", ev->comm);
	} else {
		c->order = order;
		c->stall_ns = what;
	}
	c->reads = cs->reads;
	c->skipped = cs->skipped;
	capture_read(cs, c);
	s->n_capture = 1;
}
