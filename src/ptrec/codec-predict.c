/*
 * The prediction rules of the recording codec (codec-predict.h). A rule
 * says: the change of TARGET is about the sum of its terms' changes, each
 * times its coefficient. A rule whose target is missing is left out, and
 * so is a term whose counter is missing or is the target of this rule or
 * of a later one (a decoder has not made that one final yet); the first
 * counter of a name counts. Measured on recordings under memory pressure,
 * these rules take meminfo from about 70 bytes a sample to about 10 and
 * vmstat down by about 20.
 */
#include "ptrec/codec-predict.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct rule {
	const char *target;
	struct {
		char src;		/* as in struct predict_term */
		int coef;
		const char *name;
	} t[PREDICT_TERMS];
};

/* vmstat from vmstat and zoneinfo. On one node, a zone counter is its
 * node's; a steal or scan is counted once by who reclaimed and once by
 * what; the free pages are those of the zones. */
static const struct rule vm_rules[] = {
	{ "nr_free_pages", { { 'z', 1, "free" } } },
	{ "nr_zone_inactive_anon", { { 'v', 1, "nr_inactive_anon" } } },
	{ "nr_zone_active_anon", { { 'v', 1, "nr_active_anon" } } },
	{ "nr_zone_inactive_file", { { 'v', 1, "nr_inactive_file" } } },
	{ "nr_zone_active_file", { { 'v', 1, "nr_active_file" } } },
	{ "nr_zone_unevictable", { { 'v', 1, "nr_unevictable" } } },
	{ "nr_zone_write_pending", { { 'v', 1, "nr_dirty" },
	    { 'v', 1, "nr_writeback" } } },
	{ "numa_local", { { 'v', 1, "numa_hit" } } },
	{ "nr_file_pages", { { 'v', 1, "nr_active_file" },
	    { 'v', 1, "nr_inactive_file" }, { 'v', 1, "nr_isolated_file" },
	    { 'v', 1, "nr_shmem" }, { 'v', 1, "nr_swapcached" } } },
	{ "nr_anon_pages", { { 'v', 1, "nr_active_anon" },
	    { 'v', 1, "nr_inactive_anon" }, { 'v', -1, "nr_shmem" } } },
	{ "nr_dirty_threshold", { { 'v', 2, "nr_dirty_background_threshold" } } },
	{ "pgsteal_file", { { 'v', 1, "pgsteal_kswapd" },
	    { 'v', 1, "pgsteal_direct" }, { 'v', 1, "pgsteal_khugepaged" },
	    { 'v', -1, "pgsteal_anon" } } },
	{ "pgscan_file", { { 'v', 1, "pgscan_kswapd" },
	    { 'v', 1, "pgscan_direct" }, { 'v', 1, "pgscan_khugepaged" },
	    { 'v', -1, "pgscan_anon" } } },
	{ "unevictable_pgs_rescued", { { 'v', 1, "unevictable_pgs_munlocked" } } },
	{ "unevictable_pgs_mlocked", { { 'v', 1, "unevictable_pgs_culled" } } },
};

/* meminfo from vmstat (in kB) and from meminfo, as fs/proc/meminfo.c
 * computes it. The sums come after what they add up. */
static const struct rule mem_rules[] = {
	{ "MemFree", { { 'p', 1, "nr_free_pages" } } },
	{ "Active(anon)", { { 'p', 1, "nr_active_anon" } } },
	{ "Inactive(anon)", { { 'p', 1, "nr_inactive_anon" } } },
	{ "Active(file)", { { 'p', 1, "nr_active_file" } } },
	{ "Inactive(file)", { { 'p', 1, "nr_inactive_file" } } },
	{ "Unevictable", { { 'p', 1, "nr_unevictable" } } },
	{ "Mlocked", { { 'p', 1, "nr_mlock" } } },
	{ "SwapCached", { { 'p', 1, "nr_swapcached" } } },
	{ "Dirty", { { 'p', 1, "nr_dirty" } } },
	{ "Writeback", { { 'p', 1, "nr_writeback" } } },
	{ "AnonPages", { { 'p', 1, "nr_anon_pages" } } },
	{ "Mapped", { { 'p', 1, "nr_mapped" } } },
	{ "Shmem", { { 'p', 1, "nr_shmem" } } },
	{ "SReclaimable", { { 'p', 1, "nr_slab_reclaimable" } } },
	{ "SUnreclaim", { { 'p', 1, "nr_slab_unreclaimable" } } },
	{ "KernelStack", { { 'v', 1, "nr_kernel_stack" } } },
	{ "PageTables", { { 'p', 1, "nr_page_table_pages" } } },
	{ "SecPageTables", { { 'p', 1, "nr_sec_page_table_pages" } } },
	{ "Bounce", { { 'p', 1, "nr_bounce" } } },
	{ "WritebackTmp", { { 'p', 1, "nr_writeback_temp" } } },
	{ "KReclaimable", { { 'm', 1, "SReclaimable" },
	    { 'p', 1, "nr_kernel_misc_reclaimable" } } },
	{ "Slab", { { 'm', 1, "SReclaimable" }, { 'm', 1, "SUnreclaim" } } },
	{ "Active", { { 'm', 1, "Active(anon)" }, { 'm', 1, "Active(file)" } } },
	{ "Inactive", { { 'm', 1, "Inactive(anon)" },
	    { 'm', 1, "Inactive(file)" } } },
	{ "Cached", { { 'p', 1, "nr_file_pages" }, { 'm', -1, "Buffers" },
	    { 'p', -1, "nr_swapcached" } } },
	{ "MemAvailable", { { 'm', 1, "MemFree" }, { 'm', 1, "Active(file)" },
	    { 'm', 1, "Inactive(file)" }, { 'm', 1, "KReclaimable" } } },
};

_Static_assert(sizeof(vm_rules) / sizeof(vm_rules[0]) <= PREDICT_RULES &&
    sizeof(mem_rules) / sizeof(mem_rules[0]) <= PREDICT_RULES,
    "PREDICT_RULES holds every table");

/*
 * Names to indexes: a hash table on the stack, so that a decoder looking
 * up some 80 names among 190 costs about a microsecond, not a scan each.
 * The hash reads the length and five of the bytes: cheap, and where two
 * names share it the probe goes on.
 */
#define NAMES_SLOTS	1024		/* a power of two above MAX_VMSTAT */

struct names {
	const char *base;	/* the first entry's name */
	size_t stride;		/* bytes from one entry to the next */
	size_t len;		/* of a name's array */
	short slot[NAMES_SLOTS];	/* index + 1, or 0 */
};

static unsigned
names_hash(const char *s, size_t len)
{
	size_t n = strnlen(s, len);
	unsigned h = (unsigned)n * 0x9E3779B1u;

	if (n > 0)
		h += (unsigned char)s[0] * 31u + (unsigned char)s[n / 2] * 961u +
		    (unsigned char)s[n - 1] * 29791u;
	if (n > 2)
		h += (unsigned char)s[1] * 923521u +
		    (unsigned char)s[n - 2] * 28629151u;
	h ^= h >> 15;
	return (h * 0x2C1B3C6Du >> 7) & (NAMES_SLOTS - 1);
}

static const char *
names_at(const struct names *nm, int i)
{
	return nm->base + (size_t)i * nm->stride;
}

static void
names_init(struct names *nm, const char *base, size_t stride, size_t len,
	   int n)
{
	unsigned h;
	int i;

	nm->base = base;
	nm->stride = stride;
	nm->len = len;
	memset(nm->slot, 0, sizeof(nm->slot));
	for (i = 0; i < n && i < NAMES_SLOTS / 2; i++) {
		for (h = names_hash(names_at(nm, i), len); nm->slot[h] != 0;
		     h = (h + 1) & (NAMES_SLOTS - 1))
			if (strncmp(names_at(nm, nm->slot[h] - 1),
				    names_at(nm, i), len) == 0)
				break;	/* the first of a name counts */
		if (nm->slot[h] == 0)
			nm->slot[h] = (short)(i + 1);
	}
}

/* The index of name, or -1. */
static int
names_find(const struct names *nm, const char *name)
{
	unsigned h;

	if (nm == NULL)
		return -1;
	for (h = names_hash(name, nm->len); nm->slot[h] != 0;
	     h = (h + 1) & (NAMES_SLOTS - 1))
		if (strncmp(names_at(nm, nm->slot[h] - 1), name, nm->len) == 0)
			return nm->slot[h] - 1;
	return -1;
}

/* The resolved rules as predict_apply's ops (codec-predict.h). */
static void
predict_compile(struct predict *p)
{
	const struct predict_term *t;
	struct predict_op *o = NULL;
	int i, k, n = 0;

	for (i = 0; i < p->n; i++) {
		for (k = 0; k < p->r[i].n; k++) {
			t = &p->r[i].t[k];
			if (n == PREDICT_OPS) {
				p->n_ops = -1;
				return;
			}
			o = &p->op[n++];
			o->src = t->src == 'm' ? 1 : t->src == 'z' ? 2 : 0;
			o->kb = t->src == 'p';
			o->coef = (int16_t)t->coef;
			o->off = t->src == 'z' ? 0 : t->src == 'm' ?
			    (uint32_t)((size_t)t->at * sizeof(struct meminfo_entry)) :
			    (uint32_t)((size_t)t->at * sizeof(struct vmstat_entry));
			o->end = k + 1 == p->r[i].n ? (uint32_t)p->r[i].target + 1 : 0;
		}
	}
	p->n_ops = n;
}

/* Rules of table t (n of them) for targets in tn; terms from vn (vmstat)
 * and mn (meminfo), either NULL when absent. */
static void
predict_resolve(struct predict *p, const struct rule *t, int n,
		const struct names *tn, const struct names *vn,
		const struct names *mn, bool zones)
{
	struct predict_rule *r;
	const struct names *src;
	int i, k, j, at, target[PREDICT_RULES];

	p->n = 0;
	for (i = 0; i < n; i++)
		target[i] = names_find(tn, t[i].target);
	for (i = 0; i < n; i++) {
		if (target[i] < 0)
			continue;
		r = &p->r[p->n++];
		r->target = target[i];
		r->n = 0;
		for (k = 0; k < PREDICT_TERMS && t[i].t[k].name != NULL; k++) {
			src = t[i].t[k].src == 'm' ? mn :
			    t[i].t[k].src == 'z' ? NULL : vn;
			if (t[i].t[k].src == 'z')
				at = zones ? 0 : -1;
			else
				at = names_find(src, t[i].t[k].name);
			if (at < 0)
				continue;
			/* Not final yet when a decoder applies rule i. */
			for (j = i; src == tn && j < n; j++)
				if (target[j] == at)
					break;
			if (src == tn && j < n)
				continue;
			r->t[r->n].src = t[i].t[k].src;
			r->t[r->n].coef = t[i].t[k].coef;
			r->t[r->n].at = at;
			r->n++;
		}
	}
	predict_compile(p);
}

/*
 * The rules resolved for the names they were resolved for, per thread: a
 * day's deltas all carry their keyframe's names, and resolving them anew
 * (a 2 KB table and a hundred lookups) was a quarter of decoding. The
 * names are kept whole, bytes after the NUL too: a delta copies them so
 * from the sample before, and a fixed-size compare is a few instructions.
 * Names alike but for those bytes only cost a resolve.
 */
struct names_kept {
	int n;			/* -1: none kept */
	char name[MAX_VMSTAT][VMSTAT_NAME_LEN];
};

_Static_assert(MEMINFO_NAME_LEN <= VMSTAT_NAME_LEN && MAX_MEMINFO <= MAX_VMSTAT,
    "a kept list holds meminfo's names too");

static bool
names_same(const struct names_kept *k, const char *base, size_t stride,
	   size_t len, int n)
{
	int i;

	if (k->n != n)
		return false;
	if (len == VMSTAT_NAME_LEN) {
		for (i = 0; i < n; i++)
			if (memcmp(k->name[i], base + (size_t)i * stride, VMSTAT_NAME_LEN) != 0)
				return false;
	} else {
		for (i = 0; i < n; i++)
			if (memcmp(k->name[i], base + (size_t)i * stride, MEMINFO_NAME_LEN) != 0)
				return false;
	}
	return true;
}

static void
names_keep(struct names_kept *k, const char *base, size_t stride, size_t len,
	   int n)
{
	int i;

	for (i = 0; i < n; i++)
		memcpy(k->name[i], base + (size_t)i * stride, len);
	k->n = n;
}

/* The rules last resolved, per thread. 80 KB: a static TLS block that
 * size is copied into every thread as it starts, whether it codes or
 * not, so a thread allocates its own at its first call, and frees it as
 * it ends. Without one (out of memory) they are resolved at each call
 * into the caller's spare: no room of its own in TLS either, whose
 * every byte each thread gets zeroed as it starts. */
struct kept {
	struct names_kept vn;		/* predict_vmstat's */
	bool zones;
	struct predict vp;
	struct names_kept mn, mvn;	/* predict_meminfo's: meminfo, vmstat */
	bool with_v;
	struct predict mp;
};

static _Thread_local struct kept *kept_mine;
static pthread_key_t kept_key;
static bool kept_key_ok;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void
kept_key_init(void)
{
	kept_key_ok = pthread_key_create(&kept_key, free) == 0;
}

static struct kept *
kept_get(void)
{
	struct kept *k = kept_mine;

	if (k)
		return k;
	pthread_once(&kept_once, kept_key_init);
	if (!kept_key_ok || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->vn.n = k->mn.n = k->mvn.n = -1;
	if (pthread_setspecific(kept_key, k) != 0) {
		free(k);
		return NULL;
	}
	return kept_mine = k;
}

const struct predict *
predict_vmstat(const struct vmstat *v, const struct predict_src *src, struct predict *spare)
{
	struct kept *k = kept_get();
	struct names vn;

	if (k && k->zones == (src->z != NULL) &&
	    names_same(&k->vn, v->e[0].name, sizeof(v->e[0]), VMSTAT_NAME_LEN, v->n))
		return &k->vp;
	names_init(&vn, v->e[0].name, sizeof(v->e[0]), VMSTAT_NAME_LEN, v->n);
	if (!k) {
		if (spare)
			predict_resolve(spare, vm_rules,
					(int)(sizeof(vm_rules) / sizeof(vm_rules[0])), &vn, &vn, NULL,
					src->z != NULL);
		return spare;
	}
	predict_resolve(&k->vp, vm_rules, (int)(sizeof(vm_rules) / sizeof(vm_rules[0])),
			&vn, &vn, NULL, src->z != NULL);
	names_keep(&k->vn, v->e[0].name, sizeof(v->e[0]), VMSTAT_NAME_LEN, v->n);
	k->zones = src->z != NULL;
	return &k->vp;
}

const struct predict *
predict_meminfo(const struct meminfo *m, const struct predict_src *src, struct predict *spare)
{
	const struct vmstat *v = src->v;
	struct kept *k = kept_get();
	struct names mn, vn;

	if (k && k->with_v == (v != NULL) &&
	    names_same(&k->mn, m->e[0].name, sizeof(m->e[0]), MEMINFO_NAME_LEN, m->n) &&
	    (v == NULL || names_same(&k->mvn, v->e[0].name, sizeof(v->e[0]),
				     VMSTAT_NAME_LEN, v->n)))
		return &k->mp;
	names_init(&mn, m->e[0].name, sizeof(m->e[0]), MEMINFO_NAME_LEN, m->n);
	if (v != NULL)
		names_init(&vn, v->e[0].name, sizeof(v->e[0]), VMSTAT_NAME_LEN, v->n);
	if (!k) {
		if (spare)
			predict_resolve(spare, mem_rules,
					(int)(sizeof(mem_rules) / sizeof(mem_rules[0])), &mn,
					v != NULL ? &vn : NULL, &mn, false);
		return spare;
	}
	predict_resolve(&k->mp, mem_rules, (int)(sizeof(mem_rules) / sizeof(mem_rules[0])),
			&mn, v != NULL ? &vn : NULL, &mn, false);
	names_keep(&k->mn, m->e[0].name, sizeof(m->e[0]), MEMINFO_NAME_LEN, m->n);
	if (v != NULL)
		names_keep(&k->mvn, v->e[0].name, sizeof(v->e[0]), VMSTAT_NAME_LEN, v->n);
	else
		k->mvn.n = -1;
	k->with_v = v != NULL;
	return &k->mp;
}

/* The change of the free pages of all zones zoneinfo lists. */
static uint64_t
zones_free(const struct zoneinfo *z, const struct zoneinfo *pz)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < z->n_zones; i++)
		if (z->zones[i].has & (1u << ZI_FREE))
			sum += z->zones[i].v[ZI_FREE] - pz->zones[i].v[ZI_FREE];
	return sum;
}

uint64_t
predict_change(const struct predict *p, int i, const struct predict_src *src)
{
	const struct predict_rule *r = &p->r[i];
	const struct predict_term *t;
	uint64_t sum = 0, d;
	int k;

	for (k = 0; k < r->n; k++) {
		t = &r->t[k];
		if (t->src == 'z')
			d = zones_free(src->z, src->pz);
		else if (t->src == 'm')
			d = src->m->e[t->at].value - src->pm->e[t->at].value;
		else
			d = src->v->e[t->at].value - src->pv->e[t->at].value;
		if (t->src == 'p')
			d *= src->page_kb;
		sum += d * (uint64_t)(int64_t)t->coef;
	}
	return sum;
}

/* strncmp(a, b, NAME_LEN) == 0, inline: most names differ at once. */
static bool
zone_name_same(const char *a, const char *b)
{
	int k;

	for (k = 0; k < NAME_LEN; k++) {
		if (a[k] != b[k])
			return false;
		if (a[k] == '\0')
			return true;
	}
	return true;
}

/* predict_apply by the compiled ops: now and then are each source's
 * values as predict_apply lays them out. */
static void
predict_apply_ops(const struct predict *p, const char *const now[3],
		  const char *const then[3], uint64_t page_kb, uint64_t *first,
		  size_t stride)
{
	const struct predict_op *o, *end = p->op + p->n_ops;
	const uint64_t mult[2] = { 1, page_kb };
	uint64_t sum = 0, a, b;
	char *at;

	for (o = p->op; o < end; o++) {
		memcpy(&a, now[o->src] + o->off, sizeof(a));
		memcpy(&b, then[o->src] + o->off, sizeof(b));
		sum += (a - b) * mult[o->kb] * (uint64_t)(int64_t)o->coef;
		if (o->end != 0) {
			at = (char *)first + (size_t)(o->end - 1) * stride;
			memcpy(&a, at, sizeof(a));
			a += sum;
			memcpy(at, &a, sizeof(a));
			sum = 0;
		}
	}
}

void
predict_apply(const struct predict *p, const struct predict_src *src,
	      uint64_t *first, size_t stride)
{
	const struct predict_rule *r;
	const struct predict_term *t;
	/* Each term's source as an array of values: 'v' and 'p' vmstat's,
	 * 'm' meminfo's, 'z' the zones' sum, once (no branch a term). */
	const char *now[3], *then[3];
	size_t step[3];
	uint64_t zf_now = 0, zf_then = 0, sum, a, b, mult;
	int i, k, s;

	now[0] = src->v != NULL ? (const char *)&src->v->e[0].value : NULL;
	then[0] = src->pv != NULL ? (const char *)&src->pv->e[0].value : NULL;
	step[0] = sizeof(src->v->e[0]);
	now[1] = src->m != NULL ? (const char *)&src->m->e[0].value : NULL;
	then[1] = src->pm != NULL ? (const char *)&src->pm->e[0].value : NULL;
	step[1] = sizeof(src->m->e[0]);
	if (src->z != NULL && src->pz != NULL)
		zf_now = zones_free(src->z, src->pz);
	now[2] = (const char *)&zf_now;
	then[2] = (const char *)&zf_then;
	step[2] = 0;
	if (p->n_ops >= 0) {
		predict_apply_ops(p, now, then, src->page_kb, first, stride);
		return;
	}
	for (i = 0; i < p->n; i++) {
		r = &p->r[i];
		sum = 0;
		for (k = 0; k < r->n; k++) {
			t = &r->t[k];
			s = t->src == 'm' ? 1 : t->src == 'z' ? 2 : 0;
			mult = t->src == 'p' ? src->page_kb : 1;
			memcpy(&a, now[s] + (size_t)t->at * step[s], sizeof(a));
			memcpy(&b, then[s] + (size_t)t->at * step[s], sizeof(b));
			sum += (a - b) * mult * (uint64_t)(int64_t)t->coef;
		}
		memcpy(&a, (char *)first + (size_t)r->target * stride, sizeof(a));
		a += sum;
		memcpy((char *)first + (size_t)r->target * stride, &a, sizeof(a));
	}
}

uint64_t
predict_zone_free(const struct zoneinfo_zone *z, const struct buddyinfo *b,
		  const struct buddyinfo *pb)
{
	uint64_t sum = 0;
	int i, o;

	for (i = 0; i < b->n_zones; i++)
		if (b->zones[i].node == z->node &&
		    zone_name_same(b->zones[i].zone, z->zone))
			break;
	if (i == b->n_zones)
		return 0;
	for (o = 0; o < b->n_orders && o < 64; o++)
		sum += (b->zones[i].free[o] - pb->zones[i].free[o]) << o;
	return sum;
}
