#include "model/counters.h"

#include <string.h>

/*
 * Each canonical counter is the sum of its base name and the base name with
 * a zone suffix: a kernel has only one of the two families (per zone up to
 * 4.7, node-wide since 4.8), so summing both never counts twice. The rule is
 * the one Mel Gorman's mmtests uses; fixtures/proc/FORMATS.md has the history.
 */
struct counter_def {
	const char *name;
	const char *also;	/* an older name for the same thing, or NULL */
};

static const struct counter_def counter_defs[CTR_COUNT] = {
	[CTR_PGSCAN_KSWAPD] = { "pgscan_kswapd", NULL },
	[CTR_PGSCAN_DIRECT] = { "pgscan_direct", NULL },
	[CTR_PGSTEAL_KSWAPD] = { "pgsteal_kswapd", "kswapd_steal" },
	[CTR_PGSTEAL_DIRECT] = { "pgsteal_direct", NULL },
	[CTR_PGSCAN_DIRECT_THROTTLE] = { "pgscan_direct_throttle", NULL },
	[CTR_PGREFILL] = { "pgrefill", NULL },
	[CTR_ALLOCSTALL] = { "allocstall", NULL },
	[CTR_COMPACT_STALL] = { "compact_stall", NULL },
	[CTR_COMPACT_FAIL] = { "compact_fail", NULL },
	[CTR_COMPACT_SUCCESS] = { "compact_success", NULL },
	[CTR_COMPACT_MIGRATE_SCANNED] = { "compact_migrate_scanned", NULL },
	[CTR_COMPACT_FREE_SCANNED] = { "compact_free_scanned", NULL },
	[CTR_COMPACT_DAEMON_WAKE] = { "compact_daemon_wake", NULL },
	[CTR_PGMIGRATE_SUCCESS] = { "pgmigrate_success", NULL },
	[CTR_PGMIGRATE_FAIL] = { "pgmigrate_fail", NULL },
	[CTR_PGFAULT] = { "pgfault", NULL },
	[CTR_PGMAJFAULT] = { "pgmajfault", NULL },
	[CTR_WORKINGSET_REFAULT] = { "workingset_refault", NULL },
	[CTR_WORKINGSET_ACTIVATE] = { "workingset_activate", NULL },
	[CTR_THP_FAULT_ALLOC] = { "thp_fault_alloc", NULL },
	[CTR_THP_FAULT_FALLBACK] = { "thp_fault_fallback", NULL },
	[CTR_THP_COLLAPSE_ALLOC_FAILED] = { "thp_collapse_alloc_failed", NULL },
	[CTR_PSWPIN] = { "pswpin", NULL },
	[CTR_PSWPOUT] = { "pswpout", NULL },
	[CTR_PGPGIN] = { "pgpgin", NULL },
	[CTR_PGPGOUT] = { "pgpgout", NULL },
	[CTR_PGALLOC] = { "pgalloc", NULL },
	[CTR_PGFREE] = { "pgfree", NULL },
	[CTR_OOM_KILL] = { "oom_kill", NULL },
	[CTR_KSWAPD_LOW_WMARK_HIT_QUICKLY] = { "kswapd_low_wmark_hit_quickly", NULL },
	[CTR_KSWAPD_HIGH_WMARK_HIT_QUICKLY] = { "kswapd_high_wmark_hit_quickly", NULL },
};

/* Suffixes of TEXTS_FOR_ZONES(); "_anon"/"_file" split workingset_* (5.9). */
static const char *const zone_suffixes[] = {
	"_dma", "_dma32", "_normal", "_high", "_movable", "_device", NULL
};
static const char *const lru_suffixes[] = { "_anon", "_file", NULL };

const char *
counter_name(enum counter c)
{
	return c < CTR_COUNT ? counter_defs[c].name : "?";
}

static bool
in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Does the vmstat name belong to canonical counter c? */
static bool
counter_matches(enum counter c, const char *name)
{
	const struct counter_def *d = &counter_defs[c];
	size_t n = strlen(d->name);

	if (d->also && strcmp(name, d->also) == 0)
		return true;
	if (strncmp(name, d->name, n) != 0)
		return false;
	if (name[n] == '\0')
		return true;
	if (c == CTR_WORKINGSET_REFAULT || c == CTR_WORKINGSET_ACTIVATE)
		return in_list(name + n, lru_suffixes);
	return in_list(name + n, zone_suffixes);
}

/* The counter a vmstat name adds to; COUNTER_OLD_STEAL for the <= 3.3
 * pgsteal_<zone> (kswapd + direct, split in counters_finish); -1 none. */
#define COUNTER_OLD_STEAL	CTR_COUNT

static int
counter_of(const char *name)
{
	if (strncmp(name, "pgsteal_", 8) == 0 && in_list(name + 7, zone_suffixes))
		return COUNTER_OLD_STEAL;
	for (int c = 0; c < CTR_COUNT; c++)
		if (counter_matches(c, name))
			return c;
	return -1;
}

static void
counters_add(struct counters *out, int c, uint64_t value, uint64_t *old_steal,
	     bool *have_old_steal)
{
	if (c == COUNTER_OLD_STEAL) {
		*old_steal += value;
		*have_old_steal = true;
	} else {
		out->v[c] += value;
		out->valid |= (uint64_t)1 << c;
	}
}

/* Before 3.4 direct steal is the per-zone total less kswapd's share. */
static void
counters_finish(struct counters *out, uint64_t old_steal, bool have_old_steal)
{
	if (have_old_steal && !counter_valid(out, CTR_PGSTEAL_DIRECT)) {
		uint64_t k = out->v[CTR_PGSTEAL_KSWAPD];

		out->v[CTR_PGSTEAL_DIRECT] = old_steal > k ? old_steal - k : 0;
		out->valid |= (uint64_t)1 << CTR_PGSTEAL_DIRECT;
	}
}

void
counters_from_vmstat(const struct vmstat *vm, struct counters *out)
{
	uint64_t old_steal = 0;
	bool have_old_steal = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < vm->n; i++) {
		int c = counter_of(vm->e[i].name);

		if (c >= 0)
			counters_add(out, c, vm->e[i].value, &old_steal, &have_old_steal);
	}
	counters_finish(out, old_steal, have_old_steal);
}

void
counters_map_init(struct counters_map *m)
{
	m->n = -1;
	m->n_hits = 0;
}

/* Are vm's names those m was built for? */
static bool
counters_map_fits(const struct counters_map *m, const struct vmstat *vm)
{
	if (m->n != vm->n)
		return false;
	/* The same bytes first (a few instructions, inline); a recording's
	 * names come so, zero-padded (ptrec/codec-counters.c). */
	for (int i = 0; i < vm->n; i++)
		if (memcmp(m->names[i], vm->e[i].name, VMSTAT_NAME_LEN) != 0 &&
		    strcmp(m->names[i], vm->e[i].name) != 0)
			return false;
	return true;
}

void
counters_from_vmstat_mapped(const struct vmstat *vm, struct counters_map *m,
			    struct counters *out)
{
	if (!counters_map_fits(m, vm)) {
		m->n = vm->n;
		m->n_hits = 0;
		for (int i = 0; i < vm->n; i++) {
			int c = counter_of(vm->e[i].name);

			memcpy(m->names[i], vm->e[i].name, VMSTAT_NAME_LEN);
			m->names[i][VMSTAT_NAME_LEN - 1] = '\0';
			if (c >= 0) {
				m->hit_index[m->n_hits] = (uint16_t)i;
				m->hit_counter[m->n_hits++] = (uint8_t)c;
			}
		}
	}
	counters_from_vmstat_same(vm, m, out);
}

void
counters_from_vmstat_same(const struct vmstat *vm, struct counters_map *m,
			  struct counters *out)
{
	uint64_t old_steal = 0;
	bool have_old_steal = false;

	if (m->n != vm->n) {
		counters_from_vmstat_mapped(vm, m, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < m->n_hits; k++)
		counters_add(out, m->hit_counter[k], vm->e[m->hit_index[k]].value, &old_steal,
			     &have_old_steal);
	counters_finish(out, old_steal, have_old_steal);
}
