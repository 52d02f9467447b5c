/*
 * The metric catalogue: the families and series a set holds, built from
 * one sample's shape (build_*) and the names Prometheus wants made from
 * the kernel's. Reading values out of a sample is metrics-values.c; the
 * text exposition, openmetrics.c.
 */
#include "output/metrics.h"
#include "output/metrics-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/kmsg.h"
#include "util/text.h"

static const struct {
	const char *name;
	unsigned mask;
} metrics_sources[] = {
	{ "buddyinfo", METRICS_SRC_BUDDYINFO },
	{ "pagetypeinfo", METRICS_SRC_PAGETYPEINFO },
	{ "vmstat", SRC_BIT(SRC_VMSTAT) },
	{ "meminfo", SRC_BIT(SRC_MEMINFO) },
	{ "zoneinfo", SRC_BIT(SRC_ZONEINFO) },
	{ "pressure", METRICS_SRC_PRESSURE },
	{ "tasks", SRC_BIT(SRC_TASKS) },
	{ "probes", METRICS_SRC_PROBES },
	{ "capture", METRICS_SRC_CAPTURE },
};

int
metrics_source_parse(const char *list, unsigned *mask)
{
	const char *p = list;

	do {
		size_t len = strcspn(p, ",");
		bool all = len == 3 && strncmp(p, "all", 3) == 0, known = all;

		for (size_t i = 0; i < sizeof(metrics_sources) / sizeof(metrics_sources[0]); i++)
			if (all || (strlen(metrics_sources[i].name) == len &&
				    strncmp(p, metrics_sources[i].name, len) == 0)) {
				*mask |= metrics_sources[i].mask;
				known = true;
			}
		if (!known)
			return -1;
		p += len;
	} while (*p++ == ',');
	return 0;
}

struct metric_set *
metrics_new(void)
{
	return calloc(1, sizeof(struct metric_set));
}

void
metrics_free(struct metric_set *m)
{
	if (!m)
		return;
	free(m->fam);
	free(m->ser);
	free(m->vals);
	free(m->check);
	free(m->check_ok);
	free(m->plan);
	free(m);
}

int
metrics_n_families(const struct metric_set *m)
{
	return m->n_fam;
}

int
metrics_n_series(const struct metric_set *m)
{
	return m->n_ser;
}

const struct metric_family *
metrics_family(const struct metric_set *m, int f)
{
	return &m->fam[f];
}

const struct metric_series *
metrics_series(const struct metric_set *m, int i)
{
	return &m->ser[i];
}

/* ---- building ---- */

static struct metric_family *
fam_add(struct metric_set *m, const char *name, enum metric_type type, const char *unit,
	const char *help)
{
	struct metric_family *f;

	if (m->failed)
		return NULL;
	if (m->n_fam == m->cap_fam) {
		int cap = m->cap_fam ? m->cap_fam * 2 : 256;
		struct metric_family *p = cap > METRICS_MAX_SERIES ? NULL :
		    realloc(m->fam, (size_t)cap * sizeof(*p));

		if (!p) {
			m->failed = true;
			return NULL;
		}
		m->fam = p;
		m->cap_fam = cap;
	}
	f = &m->fam[m->n_fam++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->type = type;
	f->unit = unit;
	f->help = help;
	f->key[0] = '\0';
	f->first = m->n_ser;
	f->n = 0;
	return f;
}

static struct metric_series *
ser_add(struct metric_set *m, int kind, int a, int b, int c, int decimals)
{
	struct metric_family *f;
	struct metric_series *se;

	if (m->failed || m->n_fam == 0)
		return NULL;
	if (m->n_ser == m->cap_ser) {
		int cap = m->cap_ser ? m->cap_ser * 2 : 1024;
		struct metric_series *p = cap > METRICS_MAX_SERIES ? NULL :
		    realloc(m->ser, (size_t)cap * sizeof(*p));
		int64_t *v = p ? realloc(m->vals, (size_t)cap * sizeof(*v)) : NULL;

		if (p)
			m->ser = p;
		if (!p || !v) {
			m->failed = true;
			return NULL;
		}
		m->vals = v;
		m->cap_ser = cap;
	}
	f = &m->fam[m->n_fam - 1];
	se = &m->ser[m->n_ser++];
	memset(se, 0, sizeof(*se));
	f->n++;
	se->family = m->n_fam - 1;
	se->kind = kind;
	se->a = a;
	se->b = b;
	se->c = c;
	se->decimals = decimals;
	snprintf(se->column, sizeof(se->column), "%s%s",
		 strncmp(f->name, "pagetop_", 8) == 0 ? f->name + 8 : f->name,
		 f->type == METRIC_COUNTER ? "_total" : "");
	return se;
}

struct metric_family *
metrics_fam_add(struct metric_set *m, const char *name, enum metric_type type, const char *unit,
		const char *help)
{
	return fam_add(m, name, type, unit, help);
}

struct metric_series *
metrics_ser_add(struct metric_set *m, int kind, int a, int b, int c, int decimals)
{
	return ser_add(m, kind, a, b, c, decimals);
}

void
metrics_ser_suffix(struct metric_set *m, struct metric_series *se, const char *suffix)
{
	const struct metric_family *f = &m->fam[se->family];

	se->suffix = suffix;
	snprintf(se->column, sizeof(se->column), "%s%s",
		 strncmp(f->name, "pagetop_", 8) == 0 ? f->name + 8 : f->name, suffix);
}

/* Appends name="value" to the labels, escaped as both formats want it
 * (\\, \" and \n; a byte that is not valid UTF-8 as U+FFFD, which
 * promtool otherwise rejects), and .value, safe for a terminal, to the CSV
 * column name. */
static void
lab(struct metric_series *se, const char *name, const char *value)
{
	size_t n = strlen(se->labels), c = strlen(se->column), len = strlen(value);
	char shown[sizeof(se->column)];

	n += (size_t)snprintf(se->labels + n, sizeof(se->labels) - n, "%s%s=\"", n ? "," : "",
			      name);
	for (size_t i = 0; i < len;) {
		const char *put = value + i;
		size_t k = 1, step = 1;
		uint32_t cp;

		if (value[i] == '\\' || value[i] == '"') {
			put = value[i] == '"' ? "\\\"" : "\\\\";
			k = 2;
		} else if (value[i] == '\n') {
			put = "\\n";
			k = 2;
		} else if ((unsigned char)value[i] >= 0x80) {
			if ((step = text_utf8_next(value + i, len - i, &cp)) == 0) {
				put = "\xef\xbf\xbd";
				step = 1;
				k = 3;
			} else {
				k = step;
			}
		}
		if (n + k + 2 > sizeof(se->labels))
			break;	/* room for the closing quote */
		memcpy(se->labels + n, put, k);
		n += k;
		i += step;
	}
	if (n + 1 < sizeof(se->labels))
		se->labels[n++] = '"';
	se->labels[n < sizeof(se->labels) ? n : sizeof(se->labels) - 1] = '\0';
	snprintf(se->column + c, sizeof(se->column) - c, ".%s",
		 text_esc(shown, sizeof(shown), value));
}

/* A kernel name for a HELP line or a metric name: what a crafted recording
 * may hold beyond [A-Za-z0-9_()] becomes sub (HELP escapes differ between
 * the two formats; a metric name allows none). */
static void
plain_name(char *dst, size_t size, const char *name, char sub, bool parens)
{
	size_t n = 0;

	for (const char *p = name; *p && n + 1 < size; p++) {
		char ch = *p;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '_' ||
			  (parens && (ch == '(' || ch == ')'));

		dst[n++] = ok ? ch : sub;
	}
	dst[n] = '\0';
}

static void
lab_int(struct metric_series *se, const char *name, int value)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", value);
	lab(se, name, buf);
}

void
metrics_lab(struct metric_series *se, const char *name, const char *value)
{
	lab(se, name, value);
}

void
metrics_lab_int(struct metric_series *se, const char *name, int value)
{
	lab_int(se, name, value);
}

/*
 * /proc/vmstat mixes events counted since boot with amounts of now. The
 * amounts are the nr_* names (zone and node state) and workingset_nodes;
 * a few nr_* names count events all the same.
 */
static bool
vmstat_is_counter(const char *name)
{
	static const char *const nr_counters[] = {
		"nr_dirtied", "nr_written", "nr_throttled_written", "nr_vmscan_write",
		"nr_vmscan_immediate_reclaim", "nr_foll_pin_acquired", "nr_foll_pin_released",
	};

	if (strncmp(name, "nr_", 3) != 0)
		return strcmp(name, "workingset_nodes") != 0;
	if (strncmp(name, "nr_tlb_", 7) == 0)
		return true;
	for (size_t i = 0; i < sizeof(nr_counters) / sizeof(nr_counters[0]); i++)
		if (strcmp(name, nr_counters[i]) == 0)
			return true;
	return false;
}

/* "MemTotal" -> "mem_total", "Active(anon)" -> "active_anon",
 * "SUnreclaim" -> "sunreclaim": Prometheus names are snake_case. */
static void
meminfo_metric_name(const char *key, char *dst, size_t size)
{
	size_t n = 0;

	for (const char *p = key; *p && n + 2 < size; p++) {
		bool up = *p >= 'A' && *p <= 'Z', low = *p >= 'a' && *p <= 'z';

		if (!up && !low && !(*p >= '0' && *p <= '9')) {
			if (n && dst[n - 1] != '_')
				dst[n++] = '_';
			continue;
		}
		/* A word starts at an upper-case letter after a lower-case one,
		 * or at the last capital of an acronym: SUnreclaim, NFS_Unstable. */
		if (up && n && dst[n - 1] != '_' && p > key &&
		    ((p[-1] >= 'a' && p[-1] <= 'z') || (p - 1 > key &&
		     p[-1] >= 'A' && p[-1] <= 'Z' && p[1] >= 'a' && p[1] <= 'z')))
			dst[n++] = '_';
		dst[n++] = up ? (char)(*p - 'A' + 'a') : *p;
	}
	while (n && dst[n - 1] == '_')
		n--;
	dst[n] = '\0';
}

/*
 * Kernel names whose words read as units to Prometheus' linter (the
 * kernel's name stays in the help): "sec" is secondary, not seconds; a
 * gauge must not end in _total.
 */
static void
metric_words(char *name, size_t size, bool strip_total)
{
	char *p, tail[128];
	size_t n;

	if ((p = strstr(name, "_sec_")) && strlen(p + 4) < sizeof(tail)) {
		snprintf(tail, sizeof(tail), "%s", p + 4);
		snprintf(p, size - (size_t)(p - name), "_secondary%s", tail);
	}
	n = strlen(name);
	if (strip_total && n > 6 && strcmp(name + n - 6, "_total") == 0)
		name[n - 6] = '\0';
}

static const char *const psi_resources[PSI_COUNT] = { "cpu", "memory", "io", "irq" };
static const char *const psi_windows[3] = { "10s", "60s", "300s" };
static const char task_states[] = "RSDTtXZPI";

static void
build_buddyinfo(struct metric_set *m, const struct buddyinfo *bi)
{
	static const struct {
		int kind;
		const char *name, *help;
		int decimals;
	} fams[] = {
		{ MK_BUDDY_FREE, "pagetop_buddyinfo_free_blocks",
		  "Free blocks of 2^order pages in a zone (/proc/buddyinfo).", 0 },
		{ MK_UNUSABLE, "pagetop_unusable_index",
		  "Unusable free space index at an order, 0 to 1, as debugfs extfrag/unusable_index.", 3 },
		{ MK_EXTFRAG, "pagetop_extfrag_index",
		  "Fragmentation index at an order, as debugfs extfrag/extfrag_index: -1 when an "
		  "allocation would succeed, towards 0 for lack of memory, towards 1 for fragmentation.",
		  3 },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		fam_add(m, fams[k].name, METRIC_GAUGE, "", fams[k].help);
		for (int z = 0; z < bi->n_zones; z++)
			for (int o = 0; o < bi->n_orders; o++) {
				struct metric_series *se = ser_add(m, fams[k].kind, z, o, 0,
								   fams[k].decimals);

				if (!se)
					return;
				se->node = bi->zones[z].node;
				snprintf(se->key, sizeof(se->key), "%s", bi->zones[z].zone);
				lab_int(se, "node", se->node);
				lab(se, "zone", se->key);
				lab_int(se, "order", o);
			}
	}
}

static void
build_pagetypeinfo(struct metric_set *m, const struct pagetypeinfo *pti)
{
	struct metric_series *se;

	fam_add(m, "pagetop_pagetypeinfo_free_blocks", METRIC_GAUGE, "",
		"Free blocks of 2^order pages per migratetype (/proc/pagetypeinfo, read every "
		"--pagetypeinfo-every seconds; a count the kernel caps at 100000 is 100000).");
	for (int r = 0; r < pti->n_free; r++)
		for (int o = 0; o < pti->n_orders; o++) {
			if (!(se = ser_add(m, MK_PTI_FREE, r, o, 0, 0)))
				return;
			se->node = pti->free[r].node;
			snprintf(se->key, sizeof(se->key), "%s", pti->free[r].zone);
			snprintf(se->sub, sizeof(se->sub), "%s", pti->types[pti->free[r].type]);
			lab_int(se, "node", se->node);
			lab(se, "zone", se->key);
			lab(se, "migratetype", se->sub);
			lab_int(se, "order", o);
		}
	fam_add(m, "pagetop_pagetypeinfo_pageblocks", METRIC_GAUGE, "",
		"Pageblocks per migratetype in a zone (/proc/pagetypeinfo).");
	for (int r = 0; r < pti->n_blocks; r++)
		for (int t = 0; t < pti->n_types; t++) {
			if (!(se = ser_add(m, MK_PTI_BLOCKS, r, t, 0, 0)))
				return;
			se->node = pti->blocks[r].node;
			snprintf(se->key, sizeof(se->key), "%s", pti->blocks[r].zone);
			snprintf(se->sub, sizeof(se->sub), "%s", pti->types[t]);
			lab_int(se, "node", se->node);
			lab(se, "zone", se->key);
			lab(se, "migratetype", se->sub);
		}
	fam_add(m, "pagetop_pagetypeinfo_read_timestamp_seconds", METRIC_GAUGE, "seconds",
		"When the pagetypeinfo figures were read, in seconds since the epoch.");
	ser_add(m, MK_PTI_TIME, 0, 0, 0, 3);
}

static void
build_zoneinfo(struct metric_set *m, const struct zoneinfo *zi)
{
	static const struct {
		int field;
		const char *name, *help, *watermark;
	} fams[] = {
		{ ZI_FREE, "pagetop_zone_free_bytes", "Free memory in a zone (/proc/zoneinfo).", NULL },
		{ ZI_MIN, "pagetop_zone_watermark_bytes",
		  "A zone's min, low and high watermarks (/proc/zoneinfo).", "min" },
		{ ZI_LOW, NULL, NULL, "low" },
		{ ZI_HIGH, NULL, NULL, "high" },
		{ ZI_MANAGED, "pagetop_zone_managed_bytes",
		  "Memory the page allocator manages in a zone (/proc/zoneinfo).", NULL },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		if (fams[k].name)
			fam_add(m, fams[k].name, METRIC_GAUGE, "bytes", fams[k].help);
		for (int z = 0; z < zi->n_zones; z++) {
			struct metric_series *se;

			if (!(zi->zones[z].has & (1u << fams[k].field)))
				continue;
			if (!(se = ser_add(m, MK_ZONE, z, fams[k].field, 0, 0)))
				return;
			se->node = zi->zones[z].node;
			snprintf(se->key, sizeof(se->key), "%s", zi->zones[z].zone);
			lab_int(se, "node", se->node);
			lab(se, "zone", se->key);
			if (fams[k].watermark)
				lab(se, "watermark", fams[k].watermark);
		}
	}
}

static void
build_vmstat(struct metric_set *m, const struct vmstat *vm)
{
	char name[sizeof(((struct metric_family *)0)->name)];

	for (int i = 0; i < vm->n; i++) {
		bool counter = vmstat_is_counter(vm->e[i].name);
		struct metric_series *se;

		memcpy(name, "pagetop_vmstat_", 15);
		plain_name(name + 15, sizeof(name) - 15, vm->e[i].name, '_', false);
		metric_words(name, sizeof(name), true);
		fam_add(m, name, counter ? METRIC_COUNTER : METRIC_GAUGE, "", counter ?
			"A /proc/vmstat event counter, as the kernel counts it:" :
			"A /proc/vmstat amount (most are pages), as the kernel prints it:");
		plain_name(m->fam[m->n_fam - 1].key, sizeof(m->fam[0].key), vm->e[i].name, '?', true);
		if (!(se = ser_add(m, MK_VMSTAT, i, 0, 0, 0)))
			return;
		snprintf(se->key, sizeof(se->key), "%s", vm->e[i].name);
	}
}

static void
build_meminfo(struct metric_set *m, const struct meminfo *mi)
{
	char key[MEMINFO_NAME_LEN], name[sizeof(((struct metric_family *)0)->name)];

	for (int i = 0; i < mi->n; i++) {
		struct metric_series *se;

		meminfo_metric_name(mi->e[i].name, key, sizeof(key));
		snprintf(name, sizeof(name), "pagetop_meminfo_%s", key);
		metric_words(name, sizeof(name), !mi->e[i].kb);
		if (mi->e[i].kb)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "_bytes");
		fam_add(m, name, METRIC_GAUGE, mi->e[i].kb ? "bytes" : "", mi->e[i].kb ?
			"A /proc/meminfo amount in bytes:" : "A /proc/meminfo count:");
		plain_name(m->fam[m->n_fam - 1].key, sizeof(m->fam[0].key), mi->e[i].name, '?', true);
		if (!(se = ser_add(m, MK_MEMINFO, i, 0, 0, 0)))
			return;
		snprintf(se->key, sizeof(se->key), "%s", mi->e[i].name);
	}
}

static void
build_psi(struct metric_set *m, const struct sample *s, unsigned mask)
{
	static const char *const kinds[2] = { "some", "full" };
	bool any = false;

	for (int r = 0; r < PSI_COUNT; r++)
		any |= (mask & SRC_BIT(SRC_PSI_CPU + r)) && sample_has(s, SRC_PSI_CPU + r);
	if (!any)
		return;
	for (int total = 0; total < 2; total++) {
		if (total)
			fam_add(m, "pagetop_pressure_stalled_seconds", METRIC_COUNTER, "seconds",
				"Time tasks stalled on a resource: some (at least one) or full "
				"(all non-idle tasks), from /proc/pressure/*.");
		else
			fam_add(m, "pagetop_pressure_avg_ratio", METRIC_GAUGE, "ratio",
				"Share of time tasks stalled on a resource over the kernel's 10s, "
				"60s and 300s windows, 0 to 1 (/proc/pressure/*).");
		for (int r = 0; r < PSI_COUNT; r++) {
			if (!(mask & SRC_BIT(SRC_PSI_CPU + r)) || !sample_has(s, SRC_PSI_CPU + r))
				continue;
			for (int k = 0; k < 2; k++) {
				if (!metrics_psi_line(s, r, k)->present)
					continue;
				for (int w = 0; w < (total ? 1 : 3); w++) {
					struct metric_series *se = ser_add(m, total ? MK_PSI_TOTAL :
									   MK_PSI_AVG, r, k, w,
									   total ? 6 : 4);

					if (!se)
						return;
					lab(se, "resource", psi_resources[r]);
					lab(se, "kind", kinds[k]);
					if (!total)
						lab(se, "window", psi_windows[w]);
				}
			}
		}
	}
}

static void
build_tasks(struct metric_set *m)
{
	struct metric_series *se;
	char letter[2] = "";

	fam_add(m, "pagetop_threads", METRIC_GAUGE, "",
		"Threads per state letter of /proc/PID/task/TID/stat (D: uninterruptible sleep).");
	for (const char *p = task_states; *p; p++) {
		if (!(se = ser_add(m, MK_THREADS, *p, 0, 0, 0)))
			return;
		letter[0] = *p;
		lab(se, "state", letter);
	}
	fam_add(m, "pagetop_blocked_tasks", METRIC_GAUGE, "",
		"Tasks in uninterruptible sleep per wait category, from their kernel stacks.");
	for (int c = 0; c < WAIT_COUNT; c++) {
		if (!(se = ser_add(m, MK_BLOCKED, c, 0, 0, 0)))
			return;
		lab(se, "category", wait_category_name(c));
	}
	fam_add(m, "pagetop_blocked_longest_seconds", METRIC_GAUGE, "seconds",
		"How long the longest-blocked task of a wait category has been blocked (0: none).");
	for (int c = 0; c < WAIT_COUNT; c++) {
		if (!(se = ser_add(m, MK_BLOCKED_LONGEST, c, 0, 0, 3)))
			return;
		lab(se, "category", wait_category_name(c));
	}
}

static int build(struct metric_set *m, const struct metrics_input *in, unsigned mask);

int
metrics_build(struct metric_set *m, const struct metrics_input *in, unsigned mask)
{
	int rc = build(m, in, mask);

	/* Without its checks a set reads nothing. */
	if (metrics_values_plan(m) < 0) {
		m->n_fam = m->n_ser = 0;
		rc = -ENOMEM;
	}
	return rc;
}

static int
build(struct metric_set *m, const struct metrics_input *in, unsigned mask)
{
	const struct sample *s = in->s;
	struct metric_series *se;

	m->n_fam = m->n_ser = 0;
	m->failed = false;
	if ((mask & METRICS_SRC_BUDDYINFO) && sample_has(s, SRC_BUDDYINFO))
		build_buddyinfo(m, &s->buddy);
	if ((mask & METRICS_SRC_PAGETYPEINFO) && in->pti)
		build_pagetypeinfo(m, in->pti);
	if ((mask & SRC_BIT(SRC_ZONEINFO)) && sample_has(s, SRC_ZONEINFO))
		build_zoneinfo(m, &s->zi);
	if ((mask & SRC_BIT(SRC_VMSTAT)) && sample_has(s, SRC_VMSTAT))
		build_vmstat(m, &s->vm);
	if ((mask & SRC_BIT(SRC_MEMINFO)) && sample_has(s, SRC_MEMINFO))
		build_meminfo(m, &s->mem);
	build_psi(m, s, mask);
	if ((mask & SRC_BIT(SRC_TASKS)) && sample_has(s, SRC_TASKS))
		build_tasks(m);
	if ((mask & METRICS_SRC_PROBES) && s->probes.state != PROBES_NONE)
		metrics_probes_build(m, in);
	/* Captures come from the kernel log's events and from the probes. */
	if ((mask & METRICS_SRC_CAPTURE) &&
	    (in->kmsg_total || s->probes.state == PROBES_ON || in->cap))
		metrics_capture_build(m, in);
	if (in->kmsg_total) {
		fam_add(m, "pagetop_kernel_events", METRIC_COUNTER, "",
			"Kernel log events (facility kern) per kind since pagetop started: "
			"allocation failures, hung tasks, OOM kills...");
		for (int k = 0; k < KMSG_KIND_COUNT; k++) {
			if (!(se = ser_add(m, MK_KMSG, k, 0, 0, 0)))
				break;
			lab(se, "kind", kmsg_kind_name(k));
		}
	}
	if (!(mask & (SRC_BIT(SRC_COUNT) - 1)))
		return m->failed ? -ENOMEM : 0;	/* the probes alone */
	fam_add(m, "pagetop_source_up", METRIC_GAUGE, "",
		"1 when pagetop could read a source, 0 when not (missing, needs root, malformed).");
	for (int i = 0; i < SRC_COUNT; i++) {
		if (i == SRC_UPTIME || !(mask & SRC_BIT(i)))
			continue;
		if (!(se = ser_add(m, MK_SOURCE_UP, i, 0, 0, 0)))
			break;
		lab(se, "source", source_name(i));
	}
	return m->failed ? -ENOMEM : 0;
}
