/* meminfo_parse on every /proc/meminfo sample, on edge cases and on damage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "parse/meminfo.h"
#include "tap.h"

#define nitems(a) (sizeof(a) / sizeof((a)[0]))

struct want_key {
	const char *name;
	uint64_t value;
	bool kb;
};

/* What each sample holds, read off the file by hand. */
struct want {
	const char *file;
	int n, skipped;
	struct want_key first, last;
	struct want_key k[6];		/* more keys, up to a NULL name */
	const char *absent[3];		/* keys this kernel does not print */
};

static const struct want wants[] = {
	{ "gopsutil-issue1002-legacy-2.4-header-highmem.txt", 39, 3,
	  { "MemTotal", 254472, true }, { "VmallocChunk", 0, true },
	  { { "MemShared", 0, true }, { "MemAvailable", 210156, true },
	    { "Active(anon)", 17956, true }, { "HighTotal", 131072, true },
	    { "LowTotal", 123400, true }, { "Committed_AS", 24968, true } },
	  { "Mem", "Swap", "total" } },
	{ "javafixture-i386-nonPAE-2.6.3x-DirectMap4M.txt", 46, 0,
	  { "MemTotal", 3096820, true }, { "DirectMap4M", 835584, true },
	  { { "HighTotal", 2234736, true }, { "Inactive(file)", 887436, true },
	    { "HugePages_Total", 0, false }, { "HugePages_Surp", 0, false },
	    { "Hugepagesize", 4096, true }, { "DirectMap4k", 73720, true } },
	  { "MemAvailable", "DirectMap2M", NULL } },
	{ "jc-x86_64-5.8.txt", 51, 0,
	  { "MemTotal", 3997272, true }, { "DirectMap1G", 2097152, true },
	  { { "MemAvailable", 3386876, true }, { "KReclaimable", 188216, true },
	    { "VmallocTotal", 34359738367ULL, true }, { "Percpu", 107520, true },
	    { "HugePages_Free", 0, false }, { "Hugetlb", 0, true } },
	  { "HighTotal", "Zswap", NULL } },
	{ "lkml-2005-2.6.13-x86_64-4node-HighTotal-on-64bit.txt", 23, 0,
	  { "MemTotal", 8124172, true }, { "VmallocChunk", 34359721635ULL, true },
	  { { "HighTotal", 0, true }, { "LowTotal", 8124172, true },
	    { "Buffers", 7825944, true }, { "SwapTotal", 15631160, true },
	    { "Dirty", 3145604, true }, { "Committed_AS", 85112, true } },
	  { "AnonPages", "HugePages_Total", "MemAvailable" } },
	{ "lkml-2009-2.6.27ish-x86_64-DirectMap-no-kB-underflow.txt", 33, 0,
	  { "MemTotal", 509108, true }, { "DirectMap1G", 0, false },
	  { { "DirectMap2M", 18446744073709551613ULL, false },
	    { "DirectMap4k", 2032, false }, { "HugePages_Total", 0, false },
	    { "Hugepagesize", 2048, true }, { "VmallocChunk", 34359736619ULL, true },
	    { "SReclaimable", 5420, true } },
	  { "MemAvailable", "Active(anon)", "Unevictable" } },
	{ "lkml-2011-2.6.39-i386-highmem-thp-DirectMap4M.txt", 40, 0,
	  { "MemTotal", 1271456, true }, { "DirectMap4M", 884736, true },
	  { { "AnonHugePages", 110592, true }, { "HighTotal", 384968, true },
	    { "LowFree", 103512, true }, { "Inactive(anon)", 347324, true },
	    { "VmallocTotal", 122880, true }, { "DirectMap4k", 24568, true } },
	  { "HugePages_Total", "MemAvailable", "DirectMap2M" } },
	{ "lkml-2012-chromeos-3.4-i386-pae-highmem-DirectMap2M.txt", 39, 0,
	  { "MemTotal", 2002292, true }, { "DirectMap2M", 1927168, true },
	  { { "SwapFree", 47968, true }, { "SwapCached", 149448, true },
	    { "Committed_AS", 4371740, true }, { "HighTotal", 74504, true },
	    { "HighFree", 0, true }, { "Active(anon)", 682680, true } },
	  { "HugePages_Total", "AnonHugePages", "DirectMap4M" } },
	{ "node_exporter-x86_64-3.x.txt", 42, 0,
	  { "MemTotal", 3742148, true }, { "DirectMap2M", 3698688, true },
	  { { "Active(anon)", 2020004, true }, { "Shmem", 593840, true },
	    { "VmallocChunk", 34359338876ULL, true }, { "Committed_AS", 7835436, true },
	    { "HugePages_Rsvd", 0, false }, { "HardwareCorrupted", 0, true } },
	  { "MemAvailable", "DirectMap1G", NULL } },
	{ "pcp-001-x86_64-4.4ish.txt", 46, 0,
	  { "MemTotal", 16022140, true }, { "DirectMap1G", 6291456, true },
	  { { "MemAvailable", 12881060, true }, { "Slab", 1339256, true },
	    { "Active(file)", 3968232, true }, { "CmaTotal", 0, true },
	    { "HugePages_Total", 0, false }, { "DirectMap2M", 9703424, true } },
	  { "KReclaimable", NULL, NULL } },
	{ "pcp-002-x86_64-2node.txt", 44, 0,
	  { "MemTotal", 131831052, true }, { "DirectMap1G", 124780544, true },
	  { { "MemAvailable", 118425544, true }, { "AnonHugePages", 10280960, true },
	    { "Inactive(file)", 16928976, true }, { "Mlocked", 149708, true },
	    { "VmallocChunk", 34290880168ULL, true }, { "HugePages_Surp", 0, false } },
	  { "CmaTotal", NULL, NULL } },
	{ "pcp-007-x86_64-5.14ish.txt", 53, 0,
	  { "MemTotal", 8141728, true }, { "DirectMap1G", 6291456, true },
	  { { "MemAvailable", 7202848, true }, { "KReclaimable", 133744, true },
	    { "Percpu", 5280, true }, { "Inactive(file)", 2550420, true },
	    { "HugePages_Total", 0, false }, { "Hugetlb", 0, true } },
	  { "Zswap", "HighTotal", NULL } },
	{ "pcp-collectl-debian-3.2-686pae-highmem.txt", 43, 0,
	  { "MemTotal", 4148768, true }, { "Hugepagesize", 2048, true },
	  { { "HighTotal", 3281256, true }, { "LowTotal", 867512, true },
	    { "VmallocTotal", 122880, true }, { "Slab", 416480, true },
	    { "HugePages_Total", 0, false }, { "Mlocked", 3316, true } },
	  { "DirectMap4k", "MemAvailable", NULL } },
	{ "pcp-collectl-fedora43-7.0.12-aarch64-cma.txt", 54, 0,
	  { "MemTotal", 16318912, true }, { "Hugetlb", 0, true },
	  { { "CmaTotal", 65536, true }, { "CmaFree", 55556, true },
	    { "SecPageTables", 0, true }, { "Balloon", 0, true },
	    { "VmallocTotal", 135288315904ULL, true }, { "SwapCached", 613228, true } },
	  { "DirectMap4k", "HighTotal", NULL } },
	{ "procfs-x86_64-zswap.txt", 45, 0,
	  { "MemTotal", 15666184, true }, { "DirectMap2M", 16039936, true },
	  { { "Zswap", 22414, true }, { "Zswapped", 10502, true },
	    { "Slab", 1807264, true }, { "VmallocChunk", 34359637840ULL, true },
	    { "AnonHugePages", 12288, true }, { "HugePages_Free", 0, false } },
	  { "MemAvailable", NULL, NULL } },
};

static struct meminfo mi;

static const struct want *
find_want(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < nitems(wants); i++) {
		if (strcmp(wants[i].file, base) == 0)
			return &wants[i];
	}
	return NULL;
}

static const struct meminfo_entry *
entry(const struct meminfo *m, const char *name)
{
	for (int i = 0; i < m->n; i++) {
		if (strcmp(m->e[i].name, name) == 0)
			return &m->e[i];
	}
	return NULL;
}

static void
check_key(const char *path, const struct want_key *k)
{
	const struct meminfo_entry *e = entry(&mi, k->name);
	uint64_t v = 12345;

	tap_ok(meminfo_get(&mi, k->name, &v), "%s: has %s", path, k->name);
	tap_eq_u64(v, k->value, "%s: %s", path, k->name);
	tap_ok(e && e->kb == k->kb, "%s: %s %s kB", path, k->name,
	    k->kb ? "with" : "without");
}

static void
check_fixture(const char *path)
{
	const struct want *w = find_want(path);
	struct parse_error err = { 0 };
	char *buf;
	size_t len;
	uint64_t v;
	int r;

	if (!tap_ok(w != NULL, "%s: expectations listed", path))
		return;
	buf = fixture_load(path, &len);
	r = meminfo_parse(buf, len, &mi, &err);
	tap_eq_int(r, 0, "%s: parses (%d: %s)", path, err.line, err.msg);
	tap_eq_int(mi.n, w->n, "%s: key count", path);
	tap_eq_int(mi.skipped, w->skipped, "%s: lines skipped", path);
	tap_eq_str(mi.e[0].name, w->first.name, "%s: first key", path);
	tap_eq_str(mi.e[mi.n - 1].name, w->last.name, "%s: last key", path);
	check_key(path, &w->first);
	check_key(path, &w->last);
	for (size_t i = 0; i < nitems(w->k) && w->k[i].name; i++)
		check_key(path, &w->k[i]);
	for (size_t i = 0; i < nitems(w->absent) && w->absent[i]; i++)
		tap_ok(!meminfo_get(&mi, w->absent[i], &v), "%s: no %s", path,
		    w->absent[i]);
	free(buf);
}

static void
test_fixtures(void)
{
	char **list = fixture_list("proc/meminfo");
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_int(n, nitems(wants), "every expected meminfo sample is present");
	fixture_list_free(list);
}

static int
parse_str(const char *text, struct parse_error *err)
{
	return meminfo_parse(text, strlen(text), &mi, err);
}

/* The 2.4 table has key syntax too; only its value part gives it away. */
static void
test_legacy_header(void)
{
	static const char text[] =
	    "        total:    used:    free:  shared: buffers:  cached:\n"
	    "Mem:  260579328 136073216 124506112        0  4915200 94064640\n"
	    "Swap:        0        0        0\n";
	struct parse_error err = { 0 };
	char *buf;
	size_t len;

	tap_eq_int(parse_str(text, &err), -EINVAL, "2.4 table alone rejected");
	tap_eq_int(mi.skipped, 3, "2.4 table alone: three lines skipped");
	tap_eq_int(err.line, 1, "2.4 table alone: names line 1 (%s)", err.msg);

	buf = fixture_load("proc/meminfo/gopsutil-issue1002-legacy-2.4-header-highmem.txt",
	    &len);
	tap_eq_int(meminfo_parse(buf, len, &mi, NULL), 0, "gopsutil: parses");
	tap_eq_str(mi.e[0].name, "MemTotal", "gopsutil: table lines are not keys");
	tap_ok(entry(&mi, "Mem") == NULL && entry(&mi, "Swap") == NULL,
	    "gopsutil: no Mem or Swap key");
	free(buf);
}

static void
test_forms(void)
{
	static const char text[] =
	    "MemTotal:       16022140 kB\n"		/* kept */
	    "HugePages_Total:       0\n"		/* kept, no unit */
	    "Tight:5\n"				/* kept */
	    "Active(anon):    7 kB\r\n"		/* kept, CRLF */
	    "DirectMap2M:  18446744073709551613\n"	/* kept */
	    "\n"					/* not counted */
	    "Mem:  1 2 3\n"
	    "Big:    5 MB\n"
	    "Lower:  5 kb\n"
	    "Extra:  5 kB more\n"
	    "Empty:\n"
	    "NoNumber: kB\n"
	    "Hex: 0x10 kB\n"
	    "Neg: -1 kB\n"
	    "  Indented: 5 kB\n"
	    "Spaced : 5 kB\n"
	    "Bad-Key: 5 kB\n"
	    "no colon here 5\n"
	    ": 5 kB\n"
	    "Wide: 123456789012345678901 kB\n"
	    "Over: 18446744073709551616\n"
	    "Last: 9 kB";				/* kept, no newline */
	const struct meminfo_entry *e;

	tap_eq_int(parse_str(text, NULL), 0, "forms: parses");
	tap_eq_int(mi.n, 6, "forms: six keys kept");
	tap_eq_int(mi.skipped, 15, "forms: fifteen lines skipped, blank one not");
	e = entry(&mi, "HugePages_Total");
	tap_ok(e && e->value == 0 && !e->kb, "forms: HugePages_Total without kB");
	e = entry(&mi, "Tight");
	tap_ok(e && e->value == 5 && !e->kb, "forms: no blank after the colon");
	e = entry(&mi, "Active(anon)");
	tap_ok(e && e->value == 7 && e->kb, "forms: parens in key, CRLF line");
	e = entry(&mi, "DirectMap2M");
	tap_ok(e && e->value == 18446744073709551613ULL && !e->kb,
	    "forms: underflowed DirectMap2M without kB");
	e = entry(&mi, "Last");
	tap_ok(e && e->value == 9 && e->kb, "forms: unterminated last line");
	tap_ok(entry(&mi, "Mem") == NULL && entry(&mi, "Extra") == NULL &&
	    entry(&mi, "Wide") == NULL && entry(&mi, "Over") == NULL,
	    "forms: malformed keys not stored");
}

static void
test_key_length(void)
{
	char text[256], key[MEMINFO_NAME_LEN + 1];
	int n;

	memset(key, 'K', MEMINFO_NAME_LEN - 1);
	key[MEMINFO_NAME_LEN - 1] = '\0';
	n = snprintf(text, sizeof(text), "%s: 1 kB\n%sX: 2 kB\n", key, key);
	tap_eq_int(meminfo_parse(text, (size_t)n, &mi, NULL), 0, "key length: parses");
	tap_eq_int(mi.n, 1, "key length: %d characters fit", MEMINFO_NAME_LEN - 1);
	tap_eq_int(mi.skipped, 1, "key length: %d characters skipped",
	    MEMINFO_NAME_LEN);
	tap_eq_str(mi.e[0].name, key, "key length: stored whole");
}

static void
test_too_many(void)
{
	size_t cap = (MAX_MEMINFO + 10) * 32, len = 0;
	char *text = malloc(cap);

	for (int i = 0; i < MAX_MEMINFO + 10; i++)
		len += (size_t)snprintf(text + len, cap - len, "Key%d: %d kB\n", i, i);
	tap_eq_int(meminfo_parse(text, len, &mi, NULL), 0, "too many: parses");
	tap_eq_int(mi.n, MAX_MEMINFO, "too many: capped at MAX_MEMINFO");
	tap_eq_int(mi.skipped, 10, "too many: the rest counted as skipped");
	tap_eq_str(mi.e[MAX_MEMINFO - 1].name, "Key127", "too many: file order kept");
	free(text);
}

static void
test_rejects(void)
{
	struct parse_error err;

	memset(&err, 0, sizeof(err));
	tap_eq_int(parse_str("", &err), -EINVAL, "empty buffer rejected");
	tap_ok(err.msg[0] != '\0', "empty buffer: message \"%s\"", err.msg);
	tap_eq_int(parse_str("", NULL), -EINVAL, "empty buffer rejected, err NULL");
	memset(&err, 0, sizeof(err));
	tap_eq_int(parse_str("\n\x01\x02\x03\nlorem ipsum: dolor\n", &err), -EINVAL,
	    "garbage rejected");
	tap_eq_int(err.line, 2, "garbage: names line 2 (%s)", err.msg);
	tap_eq_int(parse_str("MemTotal: 123456789012345678901 kB\n", NULL), -EINVAL,
	    "a lone 21-digit value rejected");
}

static int
parse_cb(const char *buf, size_t len, void *ctx)
{
	struct parse_error err;

	(void)ctx;
	return meminfo_parse(buf, len, &mi, &err);
}

static void
test_damage(void)
{
	static const char *const files[] = {
		"proc/meminfo/lkml-2009-2.6.27ish-x86_64-DirectMap-no-kB-underflow.txt",
		"proc/meminfo/gopsutil-issue1002-legacy-2.4-header-highmem.txt",
	};
	char *buf;
	size_t len, ok;

	for (size_t i = 0; i < nitems(files); i++) {
		buf = fixture_load(files[i], &len);
		ok = fixture_damage(buf, len, parse_cb, NULL);
		tap_ok(ok > len / 2, "damage: %s: %zu damaged copies parse", files[i],
		    ok);
		free(buf);
	}
}

int
main(void)
{
	test_fixtures();
	test_legacy_header();
	test_forms();
	test_key_length();
	test_too_many();
	test_rejects();
	test_damage();
	return tap_done();
}
