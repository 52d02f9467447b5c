#include "counters.h"

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

void
counters_from_vmstat(const struct vmstat *vm, struct counters *out)
{
	uint64_t old_steal = 0;		/* pgsteal_<zone>: kswapd + direct, <= 3.3 */
	bool have_old_steal = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < vm->n; i++) {
		const char *name = vm->e[i].name;

		if (strncmp(name, "pgsteal_", 8) == 0 && in_list(name + 7, zone_suffixes)) {
			old_steal += vm->e[i].value;
			have_old_steal = true;
			continue;
		}
		for (int c = 0; c < CTR_COUNT; c++) {
			if (counter_matches(c, name)) {
				out->v[c] += vm->e[i].value;
				out->valid |= (uint64_t)1 << c;
				break;
			}
		}
	}
	/* Before 3.4 direct steal is the per-zone total less kswapd's share. */
	if (have_old_steal && !counter_valid(out, CTR_PGSTEAL_DIRECT)) {
		uint64_t k = out->v[CTR_PGSTEAL_KSWAPD];

		out->v[CTR_PGSTEAL_DIRECT] = old_steal > k ? old_steal - k : 0;
		out->valid |= (uint64_t)1 << CTR_PGSTEAL_DIRECT;
	}
}
