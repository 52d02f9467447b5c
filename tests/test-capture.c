/*
 * Captures at the event (model/capture.h): the request's migratetype from
 * its GFP mode, the verdict in plain words, and the CAPTURE field (32):
 * every figure comes back equal from the codec; damaged fields are refused
 * or read within the struct's bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture.h"
#include "model/sample.h"
#include "ptrec/codec.h"
#include "tap.h"

#define CAP	(1u << 20)

static uint8_t buf[CAP];

static struct sample *
new_sample(void)
{
	struct sample *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (int i = 0; i < SRC_COUNT; i++) {
		s->status[i].err = 2;	/* ENOENT: no chunks needed */
		snprintf(s->status[i].msg, sizeof(s->status[i].msg), "off");
	}
	return s;
}

/* The live-6.18-x86_64 fixture's pagetypeinfo, Normal and DMA32. */
static void
fixture(struct capture *c, int order, uint32_t gfp, enum capture_mtype mt)
{
	static const uint32_t normal[3][11] = {
		{ 0, 10, 85, 170, 93, 46, 21, 7, 9, 1, 0 },
		{ 1, 1, 1, 0, 1, 0, 1, 0, 0, 17, 203 },
		{ 216, 1, 0, 16, 8, 7, 4, 3, 1, 0, 0 },
	};
	static const uint32_t dma32_movable[11] = { 1, 1, 4, 2, 5, 4, 3, 3, 4, 2, 752 };

	memset(c, 0, sizeof(*c));
	c->order = order;
	c->gfp = gfp;
	c->mtype = mt;
	c->read = CAPTURE_HAS_PTI | CAPTURE_HAS_ZI;
	c->n_orders = 11;
	c->n_types = 3;
	strcpy(c->types[0], "Unmovable");
	strcpy(c->types[1], "Movable");
	strcpy(c->types[2], "Reclaimable");
	c->n_zones = 2;
	strcpy(c->zones[0].zone, "DMA32");
	c->zones[0].has = CZ_PTI | CZ_ZI;
	memcpy(c->zones[0].free[1], dma32_movable, sizeof(dma32_movable));
	c->zones[0].free_pages = 772915;
	c->zones[0].min = 11824;
	strcpy(c->zones[1].zone, "Normal");
	c->zones[1].has = CZ_PTI | CZ_ZI;
	for (int t = 0; t < 3; t++)
		memcpy(c->zones[1].free[t], normal[t], sizeof(normal[t]));
	c->zones[1].free_pages = 4000;
	c->zones[1].min = 5012;
}

static void
fill(struct capture *c, uint64_t v)
{
	fixture(c, 5, 0xcc0, CAPTURE_MT_UNMOVABLE);
	c->trigger = CAPTURE_KMSG;
	c->seq = v++;
	c->kind = 1;
	snprintf(c->comm, sizeof(c->comm), "iwl\x1b[0m");
	c->stall_ns = v++;
	c->wall = 1764477190.125;
	c->mono = 1234.5;
	c->reads = (uint32_t)v++;
	c->skipped = (uint32_t)v++;
	c->read = CAPTURE_HAS_ALL;
	c->pageblock_order = 9;
	c->n_zones = CAPTURE_ZONES;
	c->n_types = MAX_MTYPES;
	c->n_orders = MAX_ORDERS;
	memset(c->types, 0, sizeof(c->types));
	for (int t = 0; t < MAX_MTYPES; t++)
		snprintf(c->types[t], sizeof(c->types[t]), "type%d", t);
	for (int i = 0; i < CAPTURE_ZONES; i++) {
		struct capture_zone *z = &c->zones[i];

		memset(z, 0, sizeof(*z));
		z->node = i / 4;
		snprintf(z->zone, sizeof(z->zone), "zone%d", i);
		z->has = CZ_ALL;
		for (int t = 0; t < MAX_MTYPES; t++) {
			for (int o = 0; o < MAX_ORDERS; o++)
				z->free[t][o] = (uint32_t)v++;
			z->capped[t] = (uint32_t)(v++ & 0xfffff);
		}
		for (int o = 0; o < MAX_ORDERS; o++)
			z->buddy[o] = v++ << 30;
		z->free_pages = v++;
		z->min = v++;
		z->low = v++;
		z->high = v++;
		z->boost = v++;
		z->promo = v++;
		z->n_protection = CAPTURE_PROTECTION;
		for (int k = 0; k < CAPTURE_PROTECTION; k++)
			z->protection[k] = v++;
		z->unusable = (int)(v++ % 1001);
		z->extfrag = -1000;
		z->dbg_unusable = 405;
		z->dbg_extfrag = -(int)(v++ % 1001);
	}
}

static void
test_gfp(void)
{
	const char *l1 = "x: page allocation failure: order:2, mode:0x40dc0(GFP_KERNEL|__GFP_COMP)";
	const char *l2 = "x: page allocation failure: order:0, mode:0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP)";
	const char *l3 = "x: page allocation failure: order:1, mode:0x20";

	tap_eq_int(capture_gfp_mtype(0x40dc0, l1, strlen(l1)), CAPTURE_MT_UNMOVABLE,
	    "GFP_KERNEL: Unmovable");
	tap_eq_int(capture_gfp_mtype(0x140dca, l2, strlen(l2)), CAPTURE_MT_MOVABLE,
	    "GFP_HIGHUSER_MOVABLE: Movable, by name");
	tap_eq_int(capture_gfp_mtype(0x20, l3, strlen(l3)), CAPTURE_MT_UNMOVABLE,
	    "a bare 0x20 (GFP_ATOMIC of 2.6): Unmovable");
	tap_eq_int(capture_gfp_mtype(0x10, NULL, 0), CAPTURE_MT_RECLAIMABLE,
	    "bit 0x10 alone: Reclaimable");
	tap_eq_int(capture_gfp_mtype(0, NULL, 0), CAPTURE_MT_UNKNOWN, "no mode: unknown");
}

static void
test_verdict(void)
{
	struct capture *c = calloc(1, sizeof(*c));
	char v[512];

	fixture(c, 10, 0xcc0, CAPTURE_MT_UNMOVABLE);
	tap_eq_str(capture_verdict(c, v, sizeof(v)),
	    "no free Unmovable block of order >= 10 in DMA32, Normal; Movable had 955 at "
	    "order >= 10 but the request was Unmovable", "order 10 Unmovable: the other type named");
	fixture(c, 5, 0xcc0, CAPTURE_MT_UNMOVABLE);
	tap_eq_str(capture_verdict(c, v, sizeof(v)),
	    "Normal had 84 free Unmovable blocks of order >= 5 but its free pages (4000) were "
	    "at or under the min watermark (5012)", "blocks there, under min: the watermark said");
	fixture(c, 5, 0xcc4, CAPTURE_MT_UNMOVABLE);
	tap_eq_str(capture_verdict(c, v, sizeof(v)),
	    "no free Unmovable block of order >= 5 in DMA32; Movable had 768 at order >= 5 but "
	    "the request was Unmovable", "__GFP_DMA32: Normal is not looked at");
	memset(c->zones[0].free, 0, sizeof(c->zones[0].free));
	c->zones[0].free[1][2] = 3;
	tap_eq_str(capture_verdict(c, v, sizeof(v)),
	    "no free Unmovable block of order >= 5 in DMA32; no type had any: the largest free "
	    "block was of order 2", "nothing at the order in any type");
	c->read = 0;
	tap_eq_str(capture_verdict(c, v, sizeof(v)),
	    "no verdict: pagetypeinfo could not be read at the event", "no pagetypeinfo: said");
	free(c);
}

int
main(void)
{
	struct sample *a = new_sample(), *d = new_sample();
	struct parse_error err = { 0 };
	ssize_t n, none;
	int bad = 0;

	test_gfp();
	test_verdict();
	none = codec_encode(a, NULL, buf, CAP);
	fill(&a->capture, 7);
	a->n_capture = 1;
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(n > none, "a capture adds a field (%zd bytes against %zd)", n, none);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, d, NULL, &err) == 0,
	    "and decodes: %s", err.msg);
	tap_eq_int(d->n_capture, 1, "the sample has its capture");
	tap_ok(memcmp(&a->capture, &d->capture, sizeof(a->capture)) == 0,
	    "every figure comes back equal");
	for (size_t k = 0; k < sizeof(a->capture); k++)
		if (((uint8_t *)&a->capture)[k] != ((uint8_t *)&d->capture)[k]) {
			printf("# first difference at byte %zu of %zu\n", k, sizeof(a->capture));
			break;
		}
	n = codec_encode(a, a, buf, CAP);
	memset(&d->capture, 0, sizeof(d->capture));
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, a, d, NULL, &err) == 0 &&
	    memcmp(&a->capture, &d->capture, sizeof(a->capture)) == 0,
	    "and in a delta sample: %s", err.msg);
	a->n_capture = 0;
	tap_eq_int((int)codec_encode(a, NULL, buf, CAP), (int)none,
	    "none: not a byte more than a sample without one");
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(codec_decode(buf, (size_t)n, NULL, d, NULL, &err) == 0 && d->n_capture == 0,
	    "a sample without one decodes with none");

	/* Every cut, and every byte damaged, is refused or reads within the
	 * struct (ASan watches the bounds). */
	a->n_capture = 1;
	n = codec_encode(a, NULL, buf, CAP);
	for (ssize_t cut = none; cut < n; cut++)
		if (codec_decode(buf, (size_t)cut, NULL, d, NULL, &err) == 0 &&
		    (d->capture.n_zones > CAPTURE_ZONES || d->capture.n_types > MAX_MTYPES))
			bad++;
	tap_eq_int(bad, 0, "a field cut anywhere never holds more than the struct");
	for (ssize_t at = none - 8 > 0 ? none - 8 : 0; at < n && at < none + 400; at++) {
		uint8_t was = buf[at];

		buf[at] = 0x7f;
		if (codec_decode(buf, (size_t)n, NULL, d, NULL, &err) == 0 &&
		    (d->capture.n_zones > CAPTURE_ZONES || d->capture.n_types > MAX_MTYPES ||
		     d->capture.n_orders > MAX_ORDERS || d->capture.order >= MAX_ORDERS))
			bad++;
		buf[at] = was;
	}
	tap_eq_int(bad, 0, "a damaged byte never gives counts past the struct's bounds");
	free(a);
	free(d);
	return tap_done();
}
