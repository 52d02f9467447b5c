/* Reclaim counters under today's names, on vmstat files of every era. */
#include <stdlib.h>
#include <string.h>

#include "model/counters.h"
#include "fixture.h"
#include "tap.h"

static void
load(const char *rel, struct counters *c)
{
	static struct vmstat vm;
	size_t len;
	char *buf = fixture_load(rel, &len);

	if (vmstat_parse(buf, len, &vm, NULL) < 0)
		printf("Bail out! %s does not parse\n", rel);
	counters_from_vmstat(&vm, c);
	free(buf);
}

/* Through a map, reused from file to file (so rebuilt when the names
 * change), every era gives what the plain search gives. */
static void
mapped_same(void)
{
	static struct vmstat vm;
	static struct counters_map m;
	char **list = fixture_list("proc/vmstat");
	int n = 0, same = 0;

	counters_map_init(&m);
	for (char **f = list; *f; f++) {
		struct counters a, b;
		size_t len;
		char *buf = fixture_load(*f, &len);

		if (vmstat_parse(buf, len, &vm, NULL) == 0) {
			counters_from_vmstat(&vm, &a);
			counters_from_vmstat_mapped(&vm, &m, &b);
			n++;
			same += memcmp(&a, &b, sizeof(a)) == 0;
			/* The same names again, other values: the map holds. */
			for (int i = 0; i < vm.n; i++)
				vm.e[i].value += (uint64_t)i * 7;
			counters_from_vmstat(&vm, &a);
			counters_from_vmstat_mapped(&vm, &m, &b);
			same += memcmp(&a, &b, sizeof(a)) == 0;
		}
		free(buf);
	}
	fixture_list_free(list);
	tap_ok(n > 10 && same == 2 * n, "mapped counters equal the plain ones on %d vmstat files, "
	       "each read twice (%d of %d)", n, same, 2 * n);
}

#define CHECK(c, ctr, want, file) tap_eq_u64((c)->v[ctr], want, "%s: %s", file, counter_name(ctr))

int
main(void)
{
	struct counters c;

	/* 4.13: node-wide names, allocstall per zone. */
	load("proc/vmstat/pcp-005-x86_64-4.13ish-nonzero-reclaim.txt", &c);
	CHECK(&c, CTR_PGSCAN_KSWAPD, 6328636, "4.13");
	CHECK(&c, CTR_PGSCAN_DIRECT, 39699, "4.13");
	CHECK(&c, CTR_PGSTEAL_KSWAPD, 5435316, "4.13");
	CHECK(&c, CTR_PGSTEAL_DIRECT, 26263, "4.13");
	CHECK(&c, CTR_ALLOCSTALL, 125, "4.13 (sum of allocstall_*)");
	CHECK(&c, CTR_PGALLOC, 4ull + 260674493 + 3474106902ull, "4.13 (sum of pgalloc_*)");
	CHECK(&c, CTR_WORKINGSET_REFAULT, 1029558, "4.13");
	tap_ok(counter_valid(&c, CTR_PGSCAN_DIRECT_THROTTLE) && c.v[CTR_PGSCAN_DIRECT_THROTTLE] == 0,
	       "4.13: pgscan_direct_throttle is its own counter, not part of pgscan_direct");

	/* 2.6.20: per-zone scan, pgsteal_<zone> is kswapd + direct, kswapd_steal. */
	load("proc/vmstat/lkml-2007-2.6.20-uml-i386-pgsteal_zone-kswapd_steal.txt", &c);
	CHECK(&c, CTR_PGSCAN_KSWAPD, 47104, "2.6.20 (per zone)");
	CHECK(&c, CTR_PGSCAN_DIRECT, 36544, "2.6.20 (per zone)");
	CHECK(&c, CTR_PGSTEAL_KSWAPD, 25083, "2.6.20 (kswapd_steal)");
	CHECK(&c, CTR_PGSTEAL_DIRECT, 46892 - 25083, "2.6.20 (pgsteal_<zone> - kswapd_steal)");
	CHECK(&c, CTR_ALLOCSTALL, 423, "2.6.20");
	tap_ok(!counter_valid(&c, CTR_COMPACT_STALL), "2.6.20: no compaction counters");

	/* 3.x with per-zone pgsteal_kswapd_<zone>. */
	load("proc/vmstat/node_exporter-3.x-perzone-pgscan-allocstall.txt", &c);
	CHECK(&c, CTR_PGSTEAL_KSWAPD, 78783 + 254128, "3.x (per zone)");
	CHECK(&c, CTR_PGSTEAL_DIRECT, 44 + 6484, "3.x (per zone)");
	CHECK(&c, CTR_PGSCAN_KSWAPD, 107656 + 358784, "3.x (per zone)");
	CHECK(&c, CTR_PGSCAN_DIRECT, 67 + 6796, "3.x (per zone, throttle excluded)");
	CHECK(&c, CTR_ALLOCSTALL, 83165, "3.x (single allocstall)");

	/* 3.4 with HighMem: the _high suffix. */
	load("proc/vmstat/lkml-2012-chromeos-3.4-i386-highmem-pgsteal_kswapd_high.txt", &c);
	CHECK(&c, CTR_PGSTEAL_DIRECT, 7688 + 652670 + 6242, "3.4 highmem");
	CHECK(&c, CTR_PGSCAN_DIRECT, 185240ull + 23961886 + 584047, "3.4 highmem");
	CHECK(&c, CTR_PGSCAN_KSWAPD, 268 + 105036 + 8395, "3.4 highmem");

	/* 7.0: refaults split anon/file, allocstall_device. */
	load("proc/vmstat/pcp-collectl-fedora43-7.0.12-aarch64-PARTIAL.txt", &c);
	CHECK(&c, CTR_WORKINGSET_REFAULT, 629535 + 274711, "7.0 (anon + file)");
	CHECK(&c, CTR_ALLOCSTALL, 1549 + 4982, "7.0 (with allocstall_device)");

	tap_eq_str(counter_name(CTR_COMPACT_STALL), "compact_stall", "names are the kernel's");
	mapped_same();
	return tap_done();
}
