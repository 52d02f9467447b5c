/*
 * The recording codec: samples read from proc roots made of captured files
 * (this kernel's, and old ones), made-up sensors and blocked tasks, chains
 * of deltas with counters that go back and sources that come and go, fields
 * this reader does not know, damaged bytes, short buffers; then 50 samples
 * of the live /proc, with the sizes they take before and after zstd.
 *
 * Every comparison is field by field (sample_equal below), with times to
 * the microsecond and sensor values to the milli-unit, as the codec keeps
 * them. CODEC_LIVE_N and CODEC_LIVE_INTERVAL (seconds) change the live run,
 * to measure other rates than the default 50 samples 0.1 s apart.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

#include "ptrec/codec.h"
#include "ptrec/codec-int.h"
#include "fixture.h"
#include "model/sample.h"
#include "source/sampler.h"
#include "tap.h"

#include "alloc-count.h"

#define LIVE		"roots/live-6.18-x86_64"
#define BUF_CAP		(1u << 20)

static char tmp[] = "/tmp/pagetop-test-codec-XXXXXX";
static const char *const root_files[] = {
	"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo",
	"pressure/cpu", "pressure/memory", "pressure/io", "pressure/irq",
	"uptime", NULL
};

static struct sample *
sample_new(void)
{
	struct sample *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	return s;
}

/* Root files. */

static void
put(const char *rel, const char *text, size_t len)
{
	char path[4200];
	FILE *f;

	if (strchr(rel, '/')) {
		snprintf(path, sizeof(path), "%s/pressure", tmp);
		mkdir(path, 0755);
	}
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	if (!(f = fopen(path, "w"))) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	fwrite(text, 1, len, f);
	fclose(f);
}

static void
put_fixture(const char *rel, const char *fixture)
{
	size_t len;
	char *buf = fixture_load(fixture, &len);

	put(rel, buf, len);
	free(buf);
}

static void
root_clear(void)
{
	char path[4200];

	for (int i = 0; root_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, root_files[i]);
		unlink(path);
	}
}

static void
root_live(void)
{
	char fx[256];

	root_clear();
	for (int i = 0; root_files[i]; i++) {
		if (strcmp(root_files[i], "pressure/irq") == 0)
			continue;
		snprintf(fx, sizeof(fx), LIVE "/%s", root_files[i]);
		put_fixture(root_files[i], fx);
	}
}

/* The codec's quantisation, restated. */

static int64_t
q_us(double t)
{
	if (!(t > -4294967296.0 && t < 4294967296.0))
		return 0;
	return (int64_t)llround(t * 1e6);
}

/* Milli-units, or INT64_MIN for "none" (NAN when decoded). */
static int64_t
q_milli(double v)
{
	if (!(v > -1e12 && v < 1e12))
		return INT64_MIN;
	return (int64_t)llround(v * 1e3);
}

/* Comparison, field by field; why says the first difference. */

static bool __attribute__((format(printf, 3, 4)))
diff(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return false;
}

static bool
status_equal(const struct sample *a, const struct sample *b, char *why,
	     size_t size)
{
	for (int i = 0; i < SRC_COUNT; i++) {
		const struct source_status *x = &a->status[i], *y = &b->status[i];

		if (x->err != y->err || x->line != y->line || strcmp(x->msg, y->msg) != 0)
			return diff(why, size, "status of %s: %d/%d \"%s\" vs %d/%d \"%s\"",
				    source_name(i), x->err, x->line, x->msg, y->err, y->line,
				    y->msg);
	}
	return true;
}

static bool
buddy_equal(const struct buddyinfo *a, const struct buddyinfo *b, char *why, size_t size)
{
	if (a->n_orders != b->n_orders || a->n_zones != b->n_zones)
		return diff(why, size, "buddyinfo: %d orders %d zones vs %d %d", a->n_orders,
			    a->n_zones, b->n_orders, b->n_zones);
	for (int i = 0; i < a->n_zones; i++) {
		const struct buddyinfo_zone *x = &a->zones[i], *y = &b->zones[i];

		if (x->node != y->node || strcmp(x->zone, y->zone) != 0)
			return diff(why, size, "buddyinfo row %d: node/zone", i);
		for (int o = 0; o < a->n_orders; o++)
			if (x->free[o] != y->free[o])
				return diff(why, size, "buddyinfo row %d order %d: %" PRIu64
					    " vs %" PRIu64, i, o, x->free[o], y->free[o]);
	}
	return true;
}

static bool
rows_equal(const char *what, const struct pagetypeinfo_blocks *a,
	   const struct pagetypeinfo_blocks *b, int n, int n_types, char *why, size_t size)
{
	for (int i = 0; i < n; i++) {
		if (a[i].node != b[i].node || strcmp(a[i].zone, b[i].zone) != 0)
			return diff(why, size, "pagetypeinfo %s row %d: node/zone", what, i);
		for (int t = 0; t < n_types; t++)
			if (a[i].count[t] != b[i].count[t])
				return diff(why, size, "pagetypeinfo %s row %d type %d", what, i,
					    t);
	}
	return true;
}

static bool
pti_equal(const struct pagetypeinfo *a, const struct pagetypeinfo *b, char *why,
	  size_t size)
{
	if (a->pageblock_order != b->pageblock_order ||
	    a->pages_per_block != b->pages_per_block || a->n_orders != b->n_orders ||
	    a->n_types != b->n_types || a->n_free != b->n_free ||
	    a->n_blocks != b->n_blocks || a->n_mixed != b->n_mixed)
		return diff(why, size, "pagetypeinfo: header or counts");
	for (int t = 0; t < a->n_types; t++)
		if (strcmp(a->types[t], b->types[t]) != 0)
			return diff(why, size, "pagetypeinfo: type %d \"%s\" vs \"%s\"", t,
				    a->types[t], b->types[t]);
	for (int i = 0; i < a->n_free; i++) {
		const struct pagetypeinfo_free *x = &a->free[i], *y = &b->free[i];

		if (x->node != y->node || x->type != y->type || strcmp(x->zone, y->zone) != 0)
			return diff(why, size, "pagetypeinfo free row %d: node/zone/type", i);
		if (x->capped != y->capped)
			return diff(why, size, "pagetypeinfo free row %d: capped %#x vs %#x", i,
				    x->capped, y->capped);
		for (int o = 0; o < a->n_orders; o++)
			if (x->free[o] != y->free[o])
				return diff(why, size, "pagetypeinfo free row %d order %d: %u vs %u",
					    i, o, x->free[o], y->free[o]);
	}
	return rows_equal("blocks", a->blocks, b->blocks, a->n_blocks, a->n_types, why, size) &&
	       rows_equal("mixed", a->mixed, b->mixed, a->n_mixed, a->n_types, why, size);
}

static bool
vm_equal(const struct vmstat *a, const struct vmstat *b, char *why, size_t size)
{
	if (a->n != b->n || a->skipped != b->skipped)
		return diff(why, size, "vmstat: %d counters %d skipped vs %d %d", a->n,
			    a->skipped, b->n, b->skipped);
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 || a->e[i].value != b->e[i].value)
			return diff(why, size, "vmstat %d: %s %" PRIu64 " vs %s %" PRIu64, i,
				    a->e[i].name, a->e[i].value, b->e[i].name, b->e[i].value);
	return true;
}

static bool
mem_equal(const struct meminfo *a, const struct meminfo *b, char *why, size_t size)
{
	if (a->n != b->n || a->skipped != b->skipped)
		return diff(why, size, "meminfo: %d keys %d skipped vs %d %d", a->n,
			    a->skipped, b->n, b->skipped);
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->e[i].name, b->e[i].name) != 0 ||
		    a->e[i].value != b->e[i].value || a->e[i].kb != b->e[i].kb)
			return diff(why, size, "meminfo %d: %s %" PRIu64 " vs %s %" PRIu64, i,
				    a->e[i].name, a->e[i].value, b->e[i].name, b->e[i].value);
	return true;
}

static bool
zi_equal(const struct zoneinfo *a, const struct zoneinfo *b, char *why, size_t size)
{
	if (a->n_zones != b->n_zones)
		return diff(why, size, "zoneinfo: %d zones vs %d", a->n_zones, b->n_zones);
	for (int i = 0; i < a->n_zones; i++) {
		const struct zoneinfo_zone *x = &a->zones[i], *y = &b->zones[i];

		if (x->node != y->node || strcmp(x->zone, y->zone) != 0 || x->has != y->has)
			return diff(why, size, "zoneinfo %d: node/zone/has", i);
		for (int f = 0; f < ZI_NFIELDS; f++)
			if ((x->has & (1u << f)) && x->v[f] != y->v[f])
				return diff(why, size, "zoneinfo %d field %d: %" PRIu64 " vs %"
					    PRIu64, i, f, x->v[f], y->v[f]);
	}
	return true;
}

static bool
psi_line_equal(const char *what, const struct psi_line *a, const struct psi_line *b,
	       char *why, size_t size)
{
	if (a->present != b->present)
		return diff(why, size, "%s: present %d vs %d", what, a->present, b->present);
	if (a->present && (a->avg10 != b->avg10 || a->avg60 != b->avg60 ||
			   a->avg300 != b->avg300 || a->total != b->total))
		return diff(why, size, "%s: %u %u %u %" PRIu64 " vs %u %u %u %" PRIu64, what,
			    a->avg10, a->avg60, a->avg300, a->total, b->avg10, b->avg60,
			    b->avg300, b->total);
	return true;
}

static bool
sensors_equal(const struct sensors *a, const struct sensors *b, char *why, size_t size)
{
	if (a->available != b->available || a->n != b->n || strcmp(a->why, b->why) != 0)
		return diff(why, size, "sensors: available/n/why");
	for (int i = 0; i < a->n; i++) {
		const struct sensor_reading *x = &a->r[i], *y = &b->r[i];

		if (strcmp(x->chip, y->chip) != 0 || strcmp(x->label, y->label) != 0 ||
		    x->kind != y->kind || x->valid != y->valid)
			return diff(why, size, "sensor %d: chip/label/kind/valid", i);
		if (q_milli(x->value) != q_milli(y->value) ||
		    q_milli(x->high) != q_milli(y->high) ||
		    q_milli(x->crit) != q_milli(y->crit))
			return diff(why, size, "sensor %d: %g %g %g vs %g %g %g", i, x->value,
				    x->high, x->crit, y->value, y->high, y->crit);
	}
	return true;
}

static bool
tasks_equal(const struct tasks *a, const struct tasks *b, char *why, size_t size)
{
	for (int c = 0; c < 128; c++)
		if (a->by_state[c] != b->by_state[c])
			return diff(why, size, "tasks: state %c: %u vs %u", c, a->by_state[c],
				    b->by_state[c]);
	if (a->total != b->total || a->n_blocked != b->n_blocked ||
	    a->truncated != b->truncated || a->n_stacks != b->n_stacks ||
	    a->stack_err != b->stack_err || strcmp(a->note, b->note) != 0)
		return diff(why, size, "tasks: totals, counts or note");
	for (int i = 0; i < a->n_stacks; i++) {
		static struct stack sx, sy;
		const struct stack *x = tasks_stack(a, i, &sx), *y = tasks_stack(b, i, &sy);

		if (x->n != y->n)
			return diff(why, size, "stack %d: %d frames vs %d", i, x->n, y->n);
		for (int k = 0; k < x->n; k++)
			if (strcmp(x->f[k].func, y->f[k].func) != 0 ||
			    strcmp(x->f[k].module, y->f[k].module) != 0)
				return diff(why, size, "stack %d frame %d", i, k);
	}
	for (int i = 0; i < a->n_blocked; i++) {
		const struct blocked_task *x = &a->b[i], *y = &b->b[i];

		if (x->tid != y->tid || x->tgid != y->tgid || x->state != y->state ||
		    strcmp(x->comm, y->comm) != 0 || strcmp(x->wchan, y->wchan) != 0 ||
		    q_us(x->since) != q_us(y->since) || x->since_start != y->since_start ||
		    x->stack != y->stack || x->stack_why != y->stack_why ||
		    x->since_from != y->since_from || strcmp(x->cmdline, y->cmdline) != 0 ||
		    strcmp(x->user, y->user) != 0)
			return diff(why, size, "blocked task %d (tid %d vs %d)", i, x->tid,
				    y->tid);
	}
	return true;
}

static bool
sample_equal(const struct sample *a, const struct sample *b, char *why, size_t size)
{
	if (q_us(a->wall) != q_us(b->wall) || q_us(a->mono) != q_us(b->mono))
		return diff(why, size, "wall/mono: %.6f %.6f vs %.6f %.6f", a->wall, a->mono,
			    b->wall, b->mono);
	if (a->page_size != b->page_size)
		return diff(why, size, "page size %ld vs %ld", a->page_size, b->page_size);
	if (!status_equal(a, b, why, size))
		return false;
	if (sample_has(a, SRC_BUDDYINFO) && !buddy_equal(&a->buddy, &b->buddy, why, size))
		return false;
	if (sample_has(a, SRC_PAGETYPEINFO) && !pti_equal(&a->pti, &b->pti, why, size))
		return false;
	if (sample_has(a, SRC_VMSTAT) && !vm_equal(&a->vm, &b->vm, why, size))
		return false;
	if (sample_has(a, SRC_MEMINFO) && !mem_equal(&a->mem, &b->mem, why, size))
		return false;
	if (sample_has(a, SRC_ZONEINFO) && !zi_equal(&a->zi, &b->zi, why, size))
		return false;
	for (int r = 0; r < PSI_COUNT; r++) {
		if (!sample_has(a, SRC_PSI_CPU + r))
			continue;
		if (!psi_line_equal(source_name(SRC_PSI_CPU + r), &a->psi[r].some,
				    &b->psi[r].some, why, size) ||
		    !psi_line_equal(source_name(SRC_PSI_CPU + r), &a->psi[r].full,
				    &b->psi[r].full, why, size))
			return false;
	}
	if (sample_has(a, SRC_UPTIME) && q_us(a->uptime) != q_us(b->uptime))
		return diff(why, size, "uptime %.6f vs %.6f", a->uptime, b->uptime);
	if (!sensors_equal(&a->sensors, &b->sensors, why, size))
		return false;
	if (sample_has(a, SRC_TASKS) && !tasks_equal(&a->tasks, &b->tasks, why, size))
		return false;
	return true;
}

/* Encoding and decoding, checked. */

static uint8_t buf[BUF_CAP];

/* s against prev (the original) and back with dprev (prev decoded); the
 * decoded sample in out. The encoded length, or -1 with why. */
static ssize_t
encode_decode(const struct sample *s, const struct sample *prev, const struct sample *dprev,
	      struct sample *out, char *why, size_t size)
{
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };
	ssize_t n;
	int r;

	n = codec_encode(s, prev, buf, sizeof(buf));
	if (n <= 0) {
		snprintf(why, size, "encode: %zd", n);
		return -1;
	}
	r = codec_decode(buf, (size_t)n, dprev, out, &st, &err);
	if (r != 0 || st.unknown_fields != 0) {
		snprintf(why, size, "decode: %d: %s (%d unknown fields)", r, err.msg,
			 st.unknown_fields);
		return -1;
	}
	if (!sample_equal(s, out, why, size))
		return -1;
	return n;
}

static ssize_t
round_trip(const char *what, const struct sample *s, const struct sample *prev,
	   const struct sample *dprev, struct sample *out)
{
	char why[256] = "";
	ssize_t n = encode_decode(s, prev, dprev, out, why, sizeof(why));

	if (!tap_ok(n > 0, "%s: round trip, every field equal (%zd bytes)", what, n))
		printf("#   %s\n", why);
	return n;
}

/* Damage. */

struct damage_ctx {
	const struct sample *prev;
	struct sample *out;
	int odd;		/* returns other than 0 and -EINVAL */
	int insane;		/* decoded, with a count beyond its cap */
};

static int
damage_decode(const char *b, size_t len, void *arg)
{
	struct damage_ctx *c = arg;
	const struct sample *s = c->out;
	int r = codec_decode((const uint8_t *)b, len, c->prev, c->out, NULL, NULL);

	if (r != 0 && r != -EINVAL)
		c->odd++;
	if (r == 0 && (s->vm.n > MAX_VMSTAT || s->mem.n > MAX_MEMINFO ||
		       s->buddy.n_zones > MAX_ZONES || s->buddy.n_orders > MAX_ORDERS ||
		       s->pti.n_free > MAX_ZONES * MAX_MTYPES || s->zi.n_zones > MAX_ZONES ||
		       s->sensors.n > MAX_SENSORS || s->tasks.n_blocked > TASKS_MAX_BLOCKED ||
		       s->tasks.n_stacks > TASKS_MAX_STACKS))
		c->insane++;
	return r;
}

static void
damage(const char *what, const uint8_t *enc, size_t len, const struct sample *prev,
       struct sample *out)
{
	struct damage_ctx c = { prev, out, 0, 0 };
	size_t ok = fixture_damage((const char *)enc, len, damage_decode, &c);
	uint8_t *copy = malloc(len);

	/* And every single bit flipped, in a buffer of exactly that size. */
	for (size_t i = 0; i < len; i++)
		for (int bit = 0; bit < 8; bit++) {
			memcpy(copy, enc, len);
			copy[i] ^= (uint8_t)(1u << bit);
			ok += damage_decode((const char *)copy, len, &c) == 0;
		}
	free(copy);
	tap_ok(c.odd == 0, "%s damaged: every cut and flip decodes or is -EINVAL (%zu of %zu "
	       "decoded)", what, ok, len + 1 + 200 + 8 * len);
	tap_ok(c.insane == 0, "%s damaged: what decodes stays within the caps", what);
}

static void
too_small(const char *what, const struct sample *s, const struct sample *prev, size_t len)
{
	int wrong = 0;

	for (size_t cap = 0; cap < len; cap++) {
		uint8_t *b = malloc(cap ? cap : 1);

		if (codec_encode(s, prev, b, cap) != -ENOSPC)
			wrong++;
		free(b);
	}
	tap_eq_int(wrong, 0, "%s: every buffer shorter than %zu bytes is -ENOSPC", what, len);
	{
		uint8_t *b = malloc(len);

		tap_eq_int(codec_encode(s, prev, b, len), (long long)len,
			   "%s: a buffer of exactly %zu bytes is enough", what, len);
		free(b);
	}
}

/* Made-up samples. */

static void
set_status(struct sample *s, enum source src, int err, int line, const char *msg)
{
	memset(&s->status[src], 0, sizeof(s->status[src]));
	s->status[src].err = err;
	s->status[src].line = line;
	snprintf(s->status[src].msg, sizeof(s->status[src].msg), "%s", msg);
}

/* A tick later: counters up, gauges about. */
static void
tick(struct sample *s, int k)
{
	s->wall += 1.000137 + k * 1e-6;
	s->mono += 1.000125;
	s->uptime += 1.0;
	for (int i = 0; i < s->vm.n; i++)
		s->vm.e[i].value += (uint64_t)((i * 7 + k) % 5 == 0 ? i * 13 + k : 0);
	for (int i = 0; i < s->mem.n; i++)
		s->mem.e[i].value += (uint64_t)(i % 3 == 0 ? 4 * k : 0);
	for (int z = 0; z < s->buddy.n_zones; z++)
		for (int o = 0; o < s->buddy.n_orders; o++)
			s->buddy.zones[z].free[o] += (uint64_t)((z + o + k) % 3);
	for (int z = 0; z < s->zi.n_zones; z++)
		s->zi.zones[z].v[ZI_FREE] += (uint64_t)(17 * k);
	for (int r = 0; r < PSI_COUNT; r++) {
		s->psi[r].some.total += (uint64_t)(1000 * k);
		s->psi[r].some.avg10 = (uint32_t)(k * 37 % 1000);
	}
	for (int i = 0; i < s->pti.n_free; i++)
		s->pti.free[i].free[0] += (uint32_t)k;
}

static void
frame(struct stack *st, int n, const char *const *funcs, const char *const *mods)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	for (int i = 0; i < n; i++) {
		snprintf(st->f[i].func, sizeof(st->f[i].func), "%s", funcs[i]);
		snprintf(st->f[i].module, sizeof(st->f[i].module), "%s", mods[i]);
	}
}

static void
blocked(struct blocked_task *b, int tid, const char *comm, const char *wchan, double since,
	int stack, const char *cmdline)
{
	memset(b, 0, sizeof(*b));
	b->tid = tid;
	b->tgid = tid - tid % 10;
	snprintf(b->comm, sizeof(b->comm), "%s", comm);
	b->state = 'D';
	snprintf(b->wchan, sizeof(b->wchan), "%s", wchan);
	b->since = since;
	b->since_start = tid % 2 == 0;
	b->stack = stack;
	/* Each reason in turn, and each source of since. */
	b->stack_why = stack >= 0 ? STACK_HAVE : (enum stack_missing)(1 + tid % (STACK_UNSAID - 1));
	b->since_from = b->since_start ? (tid % 4 == 0 ? SINCE_SCHED : SINCE_START) : SINCE_SEEN;
	snprintf(b->cmdline, sizeof(b->cmdline), "%s", cmdline);
	snprintf(b->user, sizeof(b->user), "%s", tid > 1000 ? "alice" : "root");
}

static void
made_up(struct sample *s)
{
	static const char *const f1[] = { "jbd2_log_wait_commit", "jbd2_complete_transaction",
					  "ext4_sync_file", "do_fsync", "__x64_sys_fsync",
					  "do_syscall_64", "entry_SYSCALL_64_after_hwframe" };
	static const char *const m1[] = { "jbd2", "jbd2", "ext4", "", "", "", "" };
	static const char *const f2[] = { "folio_wait_bit_common.constprop.0",
					  "0xffffffffc085d868", "filemap_fault" };
	static const char *const m2[] = { "", "", "" };
	static struct stack st;
	struct sensors *se = &s->sensors;
	struct tasks *t = &s->tasks;

	memset(se, 0, sizeof(*se));
	se->available = true;
	se->n = 5;
	snprintf(se->r[0].chip, sizeof(se->r[0].chip), "coretemp-isa-0000");
	snprintf(se->r[0].label, sizeof(se->r[0].label), "Package id 0");
	se->r[0] = (struct sensor_reading){ .kind = SENSOR_TEMP, .valid = true, .value = 45.0,
					    .high = 80.0, .crit = 100.0 };
	snprintf(se->r[0].chip, sizeof(se->r[0].chip), "coretemp-isa-0000");
	snprintf(se->r[0].label, sizeof(se->r[0].label), "Package id 0");
	se->r[1] = (struct sensor_reading){ .kind = SENSOR_FAN, .valid = true, .value = 1234,
					    .high = NAN, .crit = NAN };
	snprintf(se->r[1].chip, sizeof(se->r[1].chip), "nct6775-isa-0290");
	snprintf(se->r[1].label, sizeof(se->r[1].label), "fan2");
	se->r[2] = (struct sensor_reading){ .kind = SENSOR_VOLTAGE, .valid = false,
					    .value = NAN, .high = 1.5, .crit = NAN };
	snprintf(se->r[2].chip, sizeof(se->r[2].chip), "nct6775-isa-0290");
	snprintf(se->r[2].label, sizeof(se->r[2].label), "Vcore");
	se->r[3] = (struct sensor_reading){ .kind = SENSOR_POWER, .valid = true,
					    .value = 12.345678, .high = INFINITY, .crit = -3.25 };
	snprintf(se->r[3].chip, sizeof(se->r[3].chip), "rapl");
	snprintf(se->r[3].label, sizeof(se->r[3].label), "package-0");
	se->r[4] = (struct sensor_reading){ .kind = SENSOR_TEMP, .valid = true,
					    .value = -12.5, .high = NAN, .crit = NAN };
	snprintf(se->r[4].chip, sizeof(se->r[4].chip), "acpitz-acpi-0");
	snprintf(se->r[4].label, sizeof(se->r[4].label), "temp1");

	memset(t->by_state, 0, sizeof(t->by_state));
	t->by_state['R'] = 3;
	t->by_state['S'] = 812;
	t->by_state['D'] = 3;
	t->by_state['I'] = 95;
	t->by_state['Z'] = 1;
	t->total = 914;
	t->truncated = false;
	t->stack_err = 0;
	snprintf(t->note, sizeof(t->note), "descriptor cap 1024 in force");
	tasks_stacks_clear(t);
	frame(&st, 7, f1, m1);
	tasks_stack_add(t, &st);
	frame(&st, 3, f2, m2);
	tasks_stack_add(t, &st);
	t->n_blocked = 3;
	blocked(&t->b[0], 4321, "postgres", "jbd2_log_wait_commit", s->mono - 12.345678, 0,
		"postgres: checkpointer");
	blocked(&t->b[1], 4400, "postgres", "jbd2_log_wait_commit", s->mono - 0.25, 0,
		"postgres: walwriter");
	blocked(&t->b[2], 88, "kworker/u8:2", "", s->mono - 3.5, -1, "");
	set_status(s, SRC_TASKS, 0, 0, "");
}

/* The next tick of made_up(): a task gone, one new, one moved on, the
 * stacks listed in another order. */
static void
made_up_next(struct sample *s)
{
	struct tasks *t = &s->tasks;
	static struct stack st0, st1;

	tasks_stack(t, 0, &st0);
	tasks_stack(t, 1, &st1);
	tasks_stacks_clear(t);
	tasks_stack_add(t, &st1);
	tasks_stack_add(t, &st0);
	t->by_state['S'] = 800;
	t->by_state['Z'] = 0;
	t->by_state['T'] = 2;
	t->total = 903;
	t->b[0].stack = 1;
	t->b[1] = t->b[2];		/* 4400 is gone */
	blocked(&t->b[2], 5000, "dd", "folio_wait_bit_common", s->mono - 0.1, 0, "dd if=x");
	snprintf(t->b[1].wchan, sizeof(t->b[1].wchan), "rq_qos_wait");	/* moved on */
	t->truncated = true;
	s->sensors.r[0].value = 47.125;
	s->sensors.r[1].value = 1180;
	s->sensors.r[2].valid = true;
	s->sensors.r[2].value = 1.1;
	s->sensors.r[3].value = NAN;
}

/* A chain of samples, keyframe first; each decoded against the last.
 * One test point per sample, or one for them all. */
static void
chain(const char *what, struct sample **orig, int n, size_t *sizes, bool each)
{
	struct sample *dec[2] = { sample_new(), sample_new() };
	char label[160], why[256] = "";
	int bad = -1;

	for (int i = 0; i < n; i++) {
		const struct sample *prev = i ? orig[i - 1] : NULL;
		const struct sample *dprev = i ? dec[(i - 1) % 2] : NULL;
		ssize_t len;

		snprintf(label, sizeof(label), "%s %d%s", what, i, i ? " (delta)" : " (keyframe)");
		if (each)
			len = round_trip(label, orig[i], prev, dprev, dec[i % 2]);
		else if ((len = encode_decode(orig[i], prev, dprev, dec[i % 2], why,
					      sizeof(why))) < 0 && bad < 0)
			bad = i;
		if (sizes)
			sizes[i] = len < 0 ? 0 : (size_t)len;
	}
	if (!each && !tap_ok(bad < 0, "%s: %d samples, keyframe and deltas, every field equal",
			     what, n))
		printf("#   sample %d: %s\n", bad, why);
	free(dec[0]);
	free(dec[1]);
}

/* Fields of an encoding, to cut and splice by hand. */
static size_t
read_varint(const uint8_t *b, size_t len, size_t *off)
{
	size_t v = 0;
	int shift = 0;

	while (*off < len) {
		uint8_t c = b[(*off)++];

		v |= (size_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
		shift += 7;
	}
	return v;
}

static int
put_varint_test(uint8_t *p, size_t v)
{
	int n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Where the field of id wanted starts (len if none), and its length. */
static size_t
field_with(const uint8_t *b, size_t len, size_t wanted, size_t *flen)
{
	size_t off = 0, start, id;

	while (off < len) {
		start = off;
		id = read_varint(b, len, &off);
		*flen = read_varint(b, len, &off);
		off += *flen;
		if (id == wanted)
			return start;
	}
	return len;
}

/* Where the field after the first k starts, and id/len of field k. */
static size_t
field_offset(const uint8_t *b, size_t len, int k, size_t *id, size_t *flen)
{
	size_t off = 0, start = 0;

	for (int i = 0; i <= k && off < len; i++) {
		start = off;
		*id = read_varint(b, len, &off);
		*flen = read_varint(b, len, &off);
		off += *flen;
	}
	return start;
}

static void
test_keyframes(struct sampler *sp, struct sample *s, struct sample *d)
{
	char pti[4096];
	size_t len;
	char *frag, *row2;

	/* This kernel's files. */
	root_live();
	sampler_read(sp, s, SRC_ALL);
	tap_ok(sample_has(s, SRC_PAGETYPEINFO) && sample_has(s, SRC_VMSTAT) &&
	       sample_has(s, SRC_ZONEINFO) && sample_has(s, SRC_PSI_MEMORY),
	       "live capture read");
	round_trip("live capture", s, NULL, NULL, d);
	tap_eq_int(d->status[SRC_PSI_IRQ].err, ENOENT, "live capture: irq absent, as written");
	tap_eq_int(d->status[SRC_TASKS].err, SRC_NOT_READ, "live capture: tasks not read");
	tap_eq_int(d->vm.n, s->vm.n, "live capture: %d vmstat counters", s->vm.n);

	/* fb 3.10: two nodes, Reserve and Isolate, no PSI. */
	root_clear();
	put_fixture("buddyinfo", "proc/buddyinfo/lkml-fb-3.10-x86_64-2node.txt");
	put_fixture("pagetypeinfo", "proc/pagetypeinfo/lkml-fb-3.10-x86_64-2node-reserve-isolate.txt");
	put_fixture("vmstat",
		    "proc/vmstat/blog-centos7.5-3.10.0-862-x86_64-2node-perzone-numa-balancing.txt");
	put_fixture("meminfo", "proc/meminfo/pcp-002-x86_64-2node.txt");
	put_fixture("zoneinfo", "proc/zoneinfo/pcp-002-x86_64-2node-oldformat-scanned.txt");
	put_fixture("uptime", LIVE "/uptime");
	sampler_read(sp, s, SRC_ALL);
	tap_ok(sample_has(s, SRC_BUDDYINFO) && s->buddy.n_zones == 4 &&
	       sample_has(s, SRC_PAGETYPEINFO) && sample_has(s, SRC_ZONEINFO) &&
	       s->status[SRC_PSI_MEMORY].err == ENOENT, "fb-3.10 root read (%d zones, %d types)",
	       s->buddy.n_zones, s->pti.n_types);
	round_trip("fb-3.10 2 nodes", s, NULL, NULL, d);

	/* arm32: 13 orders, page block order 12, DMA/HighMem/CMA. */
	put_fixture("buddyinfo", "proc/buddyinfo/android-arm32-3.x-normal-highmem-nodma.txt");
	put_fixture("pagetypeinfo", "proc/pagetypeinfo/"
		    "lkml-2019-arm32-4.14-13orders-pbo12-dma-highmem-cma-RECONSTRUCTED.txt");
	sampler_read(sp, s, SRC_ALL);
	tap_ok(sample_has(s, SRC_PAGETYPEINFO) && s->pti.n_orders == 13 &&
	       s->pti.pageblock_order == 12, "arm32 pagetypeinfo read: 13 orders");
	round_trip("arm32 13 orders", s, NULL, NULL, d);

	/* 5.4+: counts capped at 100000, flagged per order. */
	frag = fixture_load("proc/pagetypeinfo/lkml-2019-5.4-cap-100000-ROW-FRAGMENT.txt", &len);
	row2 = strchr(frag, '\n') + 1;
	snprintf(pti, sizeof(pti), "%s%.*s%s",
		 "Free pages count per migrate type at order       0      1      2      3      4"
		 "      5      6      7      8      9     10 \n",
		 (int)(row2 - frag), frag,
		 "\nNumber of blocks type       Movable \nNode 6, zone   Normal        30000 \n");
	free(frag);
	put("pagetypeinfo", pti, strlen(pti));
	sampler_read(sp, s, SRC_ALL);
	tap_ok(sample_has(s, SRC_PAGETYPEINFO) && s->pti.free[0].capped == 0xf,
	       "capped pagetypeinfo read: capped bits %#x", s->pti.free[0].capped);
	round_trip("capped pagetypeinfo", s, NULL, NULL, d);
	tap_eq_int(d->pti.free[0].capped, 0xf, "capped bits survive");
	tap_eq_u64(d->pti.free[0].free[0], PTI_CAP, "a capped count is the cap");

	/* A keyframe decodes the same with a previous sample handed in. */
	{
		struct sample *other = sample_new();
		struct parse_error err;
		ssize_t n = codec_encode(s, NULL, buf, sizeof(buf));
		char why[256];

		root_live();
		sampler_read(sp, other, SRC_ALL);
		tap_ok(n > 0 && codec_decode(buf, (size_t)n, other, d, NULL, &err) == 0 &&
		       sample_equal(s, d, why, sizeof(why)), "a keyframe ignores the previous sample");
		free(other);
	}
}

static void
test_chain(struct sampler *sp)
{
	struct sample *o[9];
	size_t sizes[9];
	char why[256];

	for (int i = 0; i < 9; i++)
		o[i] = sample_new();
	root_live();
	sampler_read(sp, o[0], SRC_ALL);
	made_up(o[0]);

	/* 1: counters on; one goes back, one wraps; pagetypeinfo not read. */
	*o[1] = *o[0];
	tick(o[1], 1);
	o[1]->vm.e[3].value -= 1000;
	o[1]->vm.e[5].value = 0;
	o[1]->vm.e[6].value = UINT64_MAX - 2;
	o[1]->mem.e[0].value /= 2;
	o[1]->psi[PSI_MEMORY].full.total = 0;
	o[1]->uptime -= 0.01;
	set_status(o[1], SRC_PAGETYPEINFO, SRC_NOT_READ, 0, "");
	made_up_next(o[1]);

	/* 2: pagetypeinfo back (whole: the previous had none); vmstat gone. */
	*o[2] = *o[1];
	tick(o[2], 2);
	o[2]->vm.e[6].value += 5;	/* wraps past zero */
	set_status(o[2], SRC_PAGETYPEINFO, 0, 0, "");
	set_status(o[2], SRC_VMSTAT, EACCES, 0, "");
	set_status(o[2], SRC_TASKS, EPERM, 0, "");

	/* 3: vmstat back; meminfo malformed; the page size changes. */
	*o[3] = *o[2];
	tick(o[3], 3);
	set_status(o[3], SRC_VMSTAT, 0, 0, "");
	set_status(o[3], SRC_MEMINFO, EINVAL, 7, "expected \"Key: value\", got \"garbage\"");
	set_status(o[3], SRC_TASKS, 0, 0, "");
	o[3]->page_size = 16384;

	/* 4: a vmstat name changes and one goes: written whole. */
	*o[4] = *o[3];
	tick(o[4], 4);
	set_status(o[4], SRC_MEMINFO, 0, 0, "");
	snprintf(o[4]->vm.e[10].name, sizeof(o[4]->vm.e[10].name), "nr_new_counter_in_7_1");
	o[4]->vm.n--;
	o[4]->vm.skipped = 2;

	/* 5: PSI full line goes; zoneinfo gains a field; a zone is renamed. */
	*o[5] = *o[4];
	tick(o[5], 5);
	o[5]->psi[PSI_IO].full.present = false;
	o[5]->psi[PSI_IO].full.total = 0;
	o[5]->zi.zones[0].has |= 1u << ZI_CMA;
	o[5]->zi.zones[0].v[ZI_CMA] = 1024;
	snprintf(o[5]->buddy.zones[0].zone, sizeof(o[5]->buddy.zones[0].zone), "DMA32");

	/* 6: sensors change shape; time goes backwards a little. */
	*o[6] = *o[5];
	tick(o[6], 6);
	o[6]->sensors.n = 3;
	o[6]->mono -= 2.0;
	o[6]->wall -= 3600.0;

	/* 7: no sensors at all; every source unread but uptime. */
	*o[7] = *o[6];
	tick(o[7], 7);
	memset(&o[7]->sensors, 0, sizeof(o[7]->sensors));
	for (int i = 0; i < SRC_COUNT; i++)
		if (i != SRC_UPTIME)
			set_status(o[7], i, SRC_NOT_READ, 0, "");

	/* 8: everything again: whole chunks after the unread tick. */
	*o[8] = *o[6];
	tick(o[8], 8);

	chain("chain", o, 9, sizes, true);
	tap_ok(sizes[1] < sizes[0] / 3, "chain: a delta is small (%zu bytes, keyframe %zu)",
	       sizes[1], sizes[0]);
	tap_ok(sizes[7] < 100, "chain: an unread tick is its statuses (%zu bytes)", sizes[7]);

	/* A counter that went back, alone: a small negative difference. */
	{
		struct sample *d0 = sample_new(), *d1 = sample_new();
		ssize_t n0 = codec_encode(o[0], NULL, buf, sizeof(buf)), n1, same;
		uint64_t was = o[0]->vm.e[3].value;

		codec_decode(buf, (size_t)n0, NULL, d0, NULL, NULL);
		same = codec_encode(o[0], o[0], buf, sizeof(buf));
		*o[8] = *o[0];
		o[8]->vm.e[3].value = was - 5;
		n1 = round_trip("a counter 5 lower", o[8], o[0], d0, d1);
		/* The runs around it, and a DIFFS field (id, length, 1 byte). */
		tap_ok(d1->vm.e[3].value == was - 5 && n1 > 0 && n1 <= same + 5,
		       "... decodes to %" PRIu64 " - 5, in %zd bytes (%zd unchanged)", was, n1,
		       same);
		free(d0);
		free(d1);
	}

	/* What a source that is not valid decodes to: zero. */
	{
		struct sample *d = sample_new();
		ssize_t n = codec_encode(o[2], NULL, buf, sizeof(buf));

		tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, d, NULL, NULL) == 0 &&
		       d->vm.n == 0 && d->vm.e[0].value == 0 && d->tasks.n_blocked == 0,
		       "a source that was not valid decodes empty");
		if (!sample_equal(o[2], d, why, sizeof(why)))
			printf("# %s\n", why);
		free(d);
	}

	/* A delta needs its previous sample. */
	{
		struct sample *d = sample_new();
		struct parse_error err = { 0, "" };
		ssize_t n = codec_encode(o[1], o[0], buf, sizeof(buf));

		tap_eq_int(codec_decode(buf, (size_t)n, NULL, d, NULL, &err), -EINVAL,
			   "a delta without its previous sample: -EINVAL (%s)", err.msg);
		tap_eq_int(codec_decode(buf, (size_t)n, d, d, NULL, &err), -EINVAL,
			   "decoding onto the previous sample: -EINVAL");
		free(d);
	}

	/* Damage, and short buffers, on the made-up keyframe and delta. */
	{
		struct sample *d0 = sample_new(), *d1 = sample_new();
		uint8_t *k = malloc(BUF_CAP), *dl = malloc(BUF_CAP);
		ssize_t nk = codec_encode(o[0], NULL, k, BUF_CAP);
		ssize_t nd = codec_encode(o[1], o[0], dl, BUF_CAP);

		codec_decode(k, (size_t)nk, NULL, d0, NULL, NULL);
		damage("keyframe", k, (size_t)nk, NULL, d1);
		damage("keyframe with a previous sample", k, (size_t)nk, d0, d1);
		damage("delta", dl, (size_t)nd, d0, d1);
		too_small("keyframe", o[0], NULL, (size_t)nk);
		too_small("delta", o[1], o[0], (size_t)nd);
		free(k);
		free(dl);
		free(d0);
		free(d1);
	}
	for (int i = 0; i < 9; i++)
		free(o[i]);
}

/* Field k's id and bounds in a sample: false when there is none. */
static bool
field_find(const uint8_t *b, size_t len, size_t want, size_t *start, size_t *end)
{
	size_t id = 0, flen = 0, at;

	for (int k = 0; (at = field_offset(b, len, k, &id, &flen)) < len; k++) {
		if (id == want) {
			size_t off = at;

			read_varint(b, len, &off);
			read_varint(b, len, &off);
			*start = at;
			*end = off + flen;
			return true;
		}
		if (k > 64)
			break;
	}
	return false;
}

/*
 * BLOCKED_WHY (28, issue 12 items 13 and 17): why a task has no stack and
 * where its since comes from go round; a sample of an older pagetop
 * (without the field) reads with what the tasks chunk implies; a count
 * that is not the tasks', or the field before the tasks, is an error.
 */
static void
test_blocked_why(struct sampler *sp)
{
	struct sample *a = sample_new(), *d = sample_new();
	struct parse_error err = { 0, "" };
	static uint8_t cut[BUF_CAP];
	size_t start = 0, end = 0, n;
	ssize_t len;
	char why[256];

	root_live();
	sampler_read(sp, a, SRC_ALL);
	made_up(a);
	a->tasks.b[2].stack_why = STACK_BUSY;
	a->tasks.b[2].since_from = SINCE_SCHED;
	len = codec_encode(a, NULL, buf, sizeof(buf));
	tap_ok(len > 0 && codec_decode(buf, (size_t)len, NULL, d, NULL, &err) == 0 &&
	       d->tasks.b[2].stack_why == STACK_BUSY && d->tasks.b[2].since_from == SINCE_SCHED &&
	       d->tasks.b[0].stack_why == STACK_HAVE && sample_equal(a, d, why, sizeof(why)),
	       "blocked why: busy, and since from sched, read back");
	tap_ok(len > 0 && field_find(buf, (size_t)len, 28, &start, &end),
	       "blocked why: written as field 28");

	/* Without it, as an older pagetop wrote. */
	memcpy(cut, buf, start);
	memcpy(cut + start, buf + end, (size_t)len - end);
	n = (size_t)len - (end - start);
	tap_ok(codec_decode(cut, n, NULL, d, NULL, &err) == 0 &&
	       d->tasks.b[2].stack == -1 && d->tasks.b[2].stack_why == STACK_UNSAID &&
	       d->tasks.b[0].stack_why == STACK_HAVE &&
	       d->tasks.b[0].since_from == (d->tasks.b[0].since_start ? SINCE_START : SINCE_SEEN),
	       "blocked why: without field 28 (older pagetop), a missing stack is \"not said\"");
	a->tasks.stack_err = EACCES;
	len = codec_encode(a, NULL, buf, sizeof(buf));
	field_find(buf, (size_t)len, 28, &start, &end);
	memcpy(cut, buf, start);
	memcpy(cut + start, buf + end, (size_t)len - end);
	n = (size_t)len - (end - start);
	tap_ok(codec_decode(cut, n, NULL, d, NULL, &err) == 0 &&
	       d->tasks.b[2].stack_why == STACK_DENIED,
	       "blocked why: ... and \"denied\" when its stack errno was EACCES");

	/* A count that is not the tasks': the field's first byte. */
	len = codec_encode(a, NULL, buf, sizeof(buf));
	field_find(buf, (size_t)len, 28, &start, &end);
	memcpy(cut, buf, (size_t)len);
	cut[start + 2] = 2;
	tap_ok(codec_decode(cut, (size_t)len, NULL, d, NULL, &err) != 0 &&
	       strstr(err.msg, "2 for 3 tasks") != NULL,
	       "blocked why: a count not the tasks' is an error (%s)", err.msg);
	/* Before the tasks: moved to the front, after FRAME. */
	{
		size_t f0s, f0e, flen = end - start;

		field_find(buf, (size_t)len, 1, &f0s, &f0e);
		memcpy(cut, buf, f0e);
		memcpy(cut + f0e, buf + start, flen);
		memcpy(cut + f0e + flen, buf + f0e, start - f0e);
		memcpy(cut + f0e + flen + (start - f0e), buf + end, (size_t)len - end);
		tap_ok(codec_decode(cut, (size_t)len, NULL, d, NULL, &err) != 0 &&
		       strstr(err.msg, "before the tasks") != NULL,
		       "blocked why: before the tasks is an error (%s)", err.msg);
	}
	free(a);
	free(d);
}

static void
test_unknown(struct sampler *sp)
{
	struct sample *a = sample_new(), *b = sample_new(), *da = sample_new(),
		      *db = sample_new();
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };
	static uint8_t spliced[BUF_CAP];
	char why[256];
	size_t at, id, flen, n;
	ssize_t len;
	int r;

	root_live();
	sampler_read(sp, a, SRC_ALL);
	made_up(a);
	*b = *a;
	tick(b, 1);
	made_up_next(b);
	len = codec_encode(a, NULL, buf, sizeof(buf));
	codec_decode(buf, (size_t)len, NULL, da, NULL, NULL);
	len = codec_encode(b, a, buf, sizeof(buf));

	/* A field with id 99 after the fifth one. */
	at = field_offset(buf, (size_t)len, 5, &id, &flen);
	memcpy(spliced, buf, at);
	n = at;
	spliced[n++] = 99;
	spliced[n++] = 3;
	memcpy(spliced + n, "new", 3);
	n += 3;
	memcpy(spliced + n, buf + at, (size_t)len - at);
	n += (size_t)len - at;
	r = codec_decode(spliced, n, da, db, &st, &err);
	if (!tap_ok(r == 0, "an unknown field (id 99) in the middle is skipped"))
		printf("#   %s\n", err.msg);
	tap_eq_int(st.unknown_fields, 1, "... and counted once");
	tap_ok(sample_equal(b, db, why, sizeof(why)), "... and the rest decodes equal");

	/* A field with a large id and a long payload. */
	memcpy(spliced, buf, at);
	n = at;
	spliced[n++] = 0x80 | 0x10;	/* id 0x1010 */
	spliced[n++] = 0x20;
	spliced[n++] = 0x80 | 0x2c;	/* 300 bytes */
	spliced[n++] = 0x02;
	memset(spliced + n, 0xff, 300);
	n += 300;
	memcpy(spliced + n, buf + at, (size_t)len - at);
	n += (size_t)len - at;
	st.unknown_fields = 0;
	tap_ok(codec_decode(spliced, n, da, db, &st, &err) == 0 && st.unknown_fields == 1 &&
	       sample_equal(b, db, why, sizeof(why)), "a 300-byte field with id 4112 is skipped");

	/* A status of a source this reader does not know. */
	memcpy(spliced, buf, at);
	n = at;
	memcpy(spliced + n, "\x04\x04\x2a\x00\x00\x00", 6);	/* STATUS, source 42 */
	n += 6;
	memcpy(spliced + n, buf + at, (size_t)len - at);
	n += (size_t)len - at;
	st.unknown_fields = 0;
	tap_ok(codec_decode(spliced, n, da, db, &st, &err) == 0 && st.unknown_fields == 1,
	       "a status of an unknown source is skipped and counted");

	/* A valid source whose field (VMSTAT2) is missing: said, not fatal.
	 * In a keyframe: a delta frame's DIFFS would not match any more. */
	{
		ssize_t klen = codec_encode(a, NULL, spliced + BUF_CAP / 2, BUF_CAP / 2);
		const uint8_t *k0 = spliced + BUF_CAP / 2;

		n = 0;
		for (int k = 0; k < 64 && klen > 0; k++) {
			size_t s0 = field_offset(k0, (size_t)klen, k, &id, &flen);

			if (id != 22)
				continue;
			n = s0;
			memmove(spliced, k0, s0);
			at = field_offset(k0, (size_t)klen, k + 1, &id, &flen);
			memmove(spliced + n, k0 + at, (size_t)klen - at);
			n += (size_t)klen - at;
			break;
		}
	}
	r = codec_decode(spliced, n, NULL, db, &st, &err);
	tap_ok(r == 0 && db->status[SRC_VMSTAT].err == EINVAL &&
	       strstr(db->status[SRC_VMSTAT].msg, "not in the recording") != NULL,
	       "vmstat without its field: malformed, \"%s\"", db->status[SRC_VMSTAT].msg);

	/* In a delta frame, a chunk missing leaves differences over. */
	for (int k = 0; k < 64; k++) {
		size_t s0 = field_offset(buf, (size_t)len, k, &id, &flen);

		if (id != 22)
			continue;
		n = s0;
		memcpy(spliced, buf, s0);
		at = field_offset(buf, (size_t)len, k + 1, &id, &flen);
		memcpy(spliced + n, buf + at, (size_t)len - at);
		n += (size_t)len - at;
		break;
	}
	tap_ok(codec_decode(spliced, n, da, db, &st, &err) == -EINVAL &&
	       strstr(err.msg, "differences") != NULL,
	       "a delta frame without its vmstat field: -EINVAL (%s)", err.msg);

	/* Two of a field that must be once. */
	memcpy(spliced, buf, (size_t)len);
	at = field_with(buf, (size_t)len, 2, &flen);
	memcpy(spliced + len, buf + at, 2 + flen);
	tap_ok(codec_decode(spliced, (size_t)len + 2 + flen, da, db, NULL, &err) == -EINVAL &&
	       strstr(err.msg, "time twice") != NULL, "a second time field: -EINVAL (%s)", err.msg);

	/* A byte more in a known field (the page size). */
	at = field_with(buf, (size_t)len, 3, &flen);
	id = buf[at];
	memcpy(spliced, buf, at);
	n = at;
	spliced[n++] = 3;
	spliced[n++] = (uint8_t)(flen + 1);
	memcpy(spliced + n, buf + at + 2, flen);
	n += flen;
	spliced[n++] = 0;
	memcpy(spliced + n, buf + at + 2 + flen, (size_t)len - at - 2 - flen);
	n += (size_t)len - at - 2 - flen;
	tap_ok(id == 3 && codec_decode(spliced, n, da, db, NULL, &err) == -EINVAL &&
	       strstr(err.msg, "left over") != NULL, "a byte left over in a field: -EINVAL (%s)",
	       err.msg);

	/* A delta chunk in a frame that says it is whole. */
	memcpy(spliced, buf, (size_t)len);
	spliced[2] = 0;		/* FRAME: 1, 1, flags */
	tap_ok(buf[0] == 1 && buf[1] == 1 && buf[2] == 1 &&
	       codec_decode(spliced, (size_t)len, da, db, NULL, &err) == -EINVAL,
	       "delta chunks in a keyframe: -EINVAL (%s)", err.msg);

	/* A count beyond its cap: vmstat says 513 counters. */
	{
		uint8_t k[64];
		size_t m = 0;

		memcpy(k, "\x01\x01\x00" "\x02\x02\x00\x00" "\x03\x01\x00", 10);
		m = 10;
		k[m++] = 12;
		k[m++] = 4;
		k[m++] = 0;		/* whole */
		k[m++] = 0x81;		/* 513 */
		k[m++] = 0x04;
		k[m++] = 0;
		r = codec_decode(k, m, NULL, db, NULL, &err);
		tap_ok(r == -EINVAL && strstr(err.msg, "512") != NULL,
		       "513 vmstat counters: -EINVAL (%s)", err.msg);
	}
	free(a);
	free(b);
	free(da);
	free(db);
}

static int
vm_at(const struct vmstat *v, const char *name)
{
	for (int i = 0; i < v->n; i++)
		if (strcmp(v->e[i].name, name) == 0)
			return i;
	return -1;
}

static int
mem_at(const struct meminfo *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->e[i].name, name) == 0)
			return i;
	return -1;
}

/* What fields 20 to 27 do: names by number, predictions, DIFFS. */
static void
test_v2(struct sampler *sp)
{
	struct sample *a = sample_new(), *b = sample_new(), *da = sample_new(),
		      *db = sample_new();
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };
	static uint8_t spliced[BUF_CAP];
	ssize_t n0, n1, n2, len;
	size_t at, flen, n;
	char why[256];
	int f, mf, z, i;

	root_live();
	sampler_read(sp, a, SRC_ALL);
	made_up(a);

	/* A keyframe names vmstat and meminfo from the built-in lists. */
	n0 = codec_encode(a, NULL, buf, sizeof(buf));
	tap_ok(n0 > 0 && n0 < 2500 && codec_decode(buf, (size_t)n0, NULL, da, NULL, NULL) == 0,
	       "a keyframe of this kernel's files: %zd bytes, names by number", n0);
	*b = *a;
	snprintf(b->vm.e[3].name, sizeof(b->vm.e[3].name), "nr_not_in_any_list");
	{
		struct vmstat_entry e = b->vm.e[0];	/* out of order */

		b->vm.e[0] = b->vm.e[5];
		b->vm.e[5] = e;
	}
	round_trip("names out of order and one not in the list", b, NULL, NULL, db);

	/* Predictions: meminfo and the zone counters moved as vmstat and
	 * buddyinfo say cost nothing; moved otherwise, they decode all the
	 * same. */
	f = vm_at(&a->vm, "nr_free_pages");
	mf = mem_at(&a->mem, "MemFree");
	z = vm_at(&a->vm, "nr_zone_active_anon");
	if (!tap_ok(f >= 0 && mf >= 0 && z >= 0 && vm_at(&a->vm, "nr_active_anon") >= 0 &&
		    a->page_size == 4096, "the capture has the counters predicted"))
		goto out;
	*b = *a;
	b->mono += 1;
	b->wall += 1;
	b->vm.e[vm_at(&b->vm, "nr_active_anon")].value += 1000;
	n1 = round_trip("nr_active_anon up 1000", b, a, da, db);
	b->vm.e[z].value += 1000;
	b->mem.e[mem_at(&b->mem, "Active(anon)")].value += 4000;
	b->mem.e[mem_at(&b->mem, "Active")].value += 4000;
	n2 = round_trip("... with the zone counter and meminfo along", b, a, da, db);
	tap_ok(n1 > 0 && n2 > 0 && n2 < n1, "which costs less: %zd bytes, not %zd", n2, n1);
	b->mem.e[mem_at(&b->mem, "Active")].value += 7;
	round_trip("... and with meminfo's Active 7 kB off", b, a, da, db);

	*b = *a;
	b->mono += 1;
	b->wall += 1;
	for (i = 0; i < b->zi.n_zones; i++)
		if (strcmp(b->zi.zones[i].zone, "Normal") == 0)
			b->zi.zones[i].v[ZI_FREE] += 64;
	for (i = 0; i < b->buddy.n_zones; i++)
		if (strcmp(b->buddy.zones[i].zone, "Normal") == 0)
			b->buddy.zones[i].free[6]++;
	b->vm.e[f].value += 64;
	b->mem.e[mf].value += 256;
	n1 = round_trip("64 pages freed as an order-6 block, every file agreeing", b, a, da, db);
	b->vm.e[f].value += 3;
	n2 = round_trip("... nr_free_pages 3 off", b, a, da, db);
	tap_ok(n1 > 0 && n2 > n1, "an agreeing change costs less (%zd bytes) than one off (%zd)",
	       n1, n2);

	/* A PSI resource this reader does not know: skipped with its
	 * differences, the rest of DIFFS still in step. */
	*b = *a;
	tick(b, 3);
	made_up_next(b);
	len = codec_encode(b, a, buf, sizeof(buf));
	at = field_with(buf, (size_t)len, 25, &flen);
	memcpy(spliced, buf, (size_t)len);
	if (tap_ok(at < (size_t)len && spliced[at + 2] < 4 && spliced[at + 3] > 0,
		   "a delta's first PSI2 field has differences"))
		spliced[at + 2] = 9;	/* resource 9 */
	st.unknown_fields = 0;
	tap_ok(codec_decode(spliced, (size_t)len, da, db, &st, &err) == 0 &&
	       st.unknown_fields == 1 && sample_equal(b, db, why, sizeof(why)) == false &&
	       db->vm.e[f].value == b->vm.e[f].value && db->tasks.total == b->tasks.total,
	       "an unknown resource in PSI2 is skipped with its differences (%s)", err.msg);

	/* DIFFS twice, or with a difference over: -EINVAL. DIFFS is last. */
	at = field_with(buf, (size_t)len, 26, &flen);
	memcpy(spliced, buf, (size_t)len);
	memcpy(spliced + len, buf + at, (size_t)len - at);
	tap_ok(at < (size_t)len && codec_decode(spliced, 2 * (size_t)len - at, da, db, NULL,
	       &err) == -EINVAL && strstr(err.msg, "twice") != NULL,
	       "DIFFS twice: -EINVAL (%s)", err.msg);
	memcpy(spliced, buf, at);
	n = at;
	spliced[n++] = 26;
	n += (size_t)put_varint_test(spliced + n, flen + 1);
	memcpy(spliced + n, buf + (size_t)len - flen, flen);
	n += flen;
	spliced[n++] = 0;
	tap_ok(codec_decode(spliced, n, da, db, NULL, &err) == -EINVAL &&
	       strstr(err.msg, "left over") != NULL, "a difference too many: -EINVAL (%s)", err.msg);
out:
	free(a);
	free(b);
	free(da);
	free(db);
}

static void
test_no_alloc(struct sampler *sp)
{
#ifdef COUNT_ALLOCS
	struct sample *a = sample_new(), *b = sample_new(), *da = sample_new(),
		      *db = sample_new();
	ssize_t n;
	long before;

	root_live();
	sampler_read(sp, a, SRC_ALL);
	made_up(a);
	*b = *a;
	tick(b, 1);
	made_up_next(b);
	before = allocs;
	n = codec_encode(a, NULL, buf, sizeof(buf));
	codec_decode(buf, (size_t)n, NULL, da, NULL, NULL);
	n = codec_encode(b, a, buf, sizeof(buf));
	codec_decode(buf, (size_t)n, da, db, NULL, NULL);
	tap_eq_int(allocs - before, 0, "encoding and decoding do not allocate");
	free(a);
	free(b);
	free(da);
	free(db);
#else
	(void)sp;
	printf("# allocation count skipped (AddressSanitizer)\n");
#endif
}

static size_t
zstd_size(const uint8_t *src, size_t len)
{
	size_t cap = ZSTD_compressBound(len), n;
	void *dst = malloc(cap);

	n = ZSTD_compress(dst, cap, src, len, 3);
	free(dst);
	return ZSTD_isError(n) ? 0 : n;
}

/* The sizes of a chain of samples, all, and with pagetypeinfo read only
 * every pti_every samples (as the dashboard does). */
static void
live_sizes(const char *what, struct sample **o, int n)
{
	size_t total = 0, deltas = 0;
	uint8_t *all = malloc((size_t)n * 65536);
	ssize_t len;

	for (int i = 0; i < n; i++) {
		len = codec_encode(o[i], i ? o[i - 1] : NULL, all + total, 65536);
		if (len < 0) {
			tap_ok(0, "%s: sample %d encodes", what, i);
			free(all);
			return;
		}
		if (i > 0)
			deltas += (size_t)len;
		else
			printf("# %s: keyframe %zd bytes\n", what, len);
		total += (size_t)len;
	}
	printf("# %s: %d samples, deltas %.1f bytes a sample; all %zu bytes, "
	       "zstd -3 %zu bytes: %.1f bytes a sample\n", what, n,
	       (double)deltas / (n - 1), total, zstd_size(all, total),
	       (double)zstd_size(all, total) / n);
	printf("# %s: the deltas alone, zstd -3: %.1f bytes a sample\n", what,
	       (double)zstd_size(all + (total - deltas), deltas) / (n - 1));
	free(all);
}

static double
getenv_num(const char *name, double dflt)
{
	const char *v = getenv(name);

	return v && *v ? atof(v) : dflt;
}

static void
test_live(void)
{
	int n = (int)getenv_num("CODEC_LIVE_N", 50);
	double interval = getenv_num("CODEC_LIVE_INTERVAL", 0.1);
	struct sample **o, **p;
	struct sampler sp;
	size_t *sizes;

	if (n < 2 || n > 10000)
		n = 50;
	if (sampler_init(&sp, "/proc") != 0) {
		printf("# no /proc: live samples skipped\n");
		return;
	}
	o = calloc((size_t)n, sizeof(*o));
	p = calloc((size_t)n, sizeof(*p));
	sizes = calloc((size_t)n, sizeof(*sizes));
	for (int i = 0; i < n; i++) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - (time_t)interval) * 1e9) };

		o[i] = sample_new();
		sampler_read(&sp, o[i], SRC_ALL);
		if (i + 1 < n)
			nanosleep(&ts, NULL);
	}
	sampler_free(&sp);
	tap_ok(sample_has(o[0], SRC_VMSTAT) && sample_has(o[0], SRC_BUDDYINFO),
	       "live /proc read");
	chain("live", o, n, sizes, false);

	live_sizes("live, pagetypeinfo every sample", o, n);
	for (int i = 0; i < n; i++) {
		p[i] = sample_new();
		*p[i] = *o[i];
		if (i % 10 != 0)
			p[i]->status[SRC_PAGETYPEINFO].err = SRC_NOT_READ;
	}
	live_sizes("live, pagetypeinfo every 10th", p, n);
	for (int i = 0; i < n; i++) {
		free(o[i]);
		free(p[i]);
	}
	free(o);
	free(p);
	free(sizes);
}

#ifdef COUNT_ALLOCS
/* A thread that cannot allocate the rules it keeps (test_unkept). */
struct unkept_arg {
	const struct sample *a, *b;
	struct sample *out;
	struct codec_stream *cs;
	uint8_t *bytes;
	ssize_t n;
	long tried;
	int r_plain, r_stream;
	bool eq_plain, eq_stream;
	char why[256];
};

static void *
unkept_thread(void *p)
{
	struct unkept_arg *u = p;
	struct parse_error err = { 0, "" };

	allocs = 0;
	allocs_fail = 1;
	u->n = codec_encode(u->b, u->a, u->bytes, BUF_CAP);
	u->r_plain = u->n > 0 ? codec_decode(u->bytes, (size_t)u->n, u->a, u->out, NULL, &err) : -1;
	u->eq_plain = u->r_plain == 0 && sample_equal(u->b, u->out, u->why, sizeof(u->why));
	u->r_stream = u->n > 0 ? codec_decode_stream(u->cs, u->bytes, (size_t)u->n, u->a, u->out,
						     NULL, &err) : -1;
	u->eq_stream = u->r_stream == 0 && sample_equal(u->b, u->out, u->why, sizeof(u->why));
	allocs_fail = 0;
	u->tried = allocs;
	return NULL;
}

/* A thread with no memory for the rules it would keep codes the same
 * bytes, resolving them at each call into room of the caller's (the
 * stream's, or a frame of its own), not into room every thread has. */
static void
test_unkept(struct sampler *sp)
{
	struct sample *a = sample_new(), *b = sample_new(), *out = sample_new();
	static uint8_t bytes[BUF_CAP];
	struct unkept_arg u = { .a = a, .b = b, .out = out, .bytes = bytes };
	pthread_t t;
	ssize_t n;

	root_live();
	sampler_read(sp, a, SRC_ALL);
	made_up(a);
	*b = *a;
	b->mono += 1;
	b->wall += 1;
	b->vm.e[vm_at(&b->vm, "nr_active_anon")].value += 1000;
	b->vm.e[vm_at(&b->vm, "nr_zone_active_anon")].value += 1000;
	b->mem.e[mem_at(&b->mem, "Active(anon)")].value += 4000;
	b->mem.e[mem_at(&b->mem, "Active")].value += 4004;
	n = codec_encode(b, a, buf, sizeof(buf));
	u.cs = codec_stream_new();
	if (u.cs == NULL || pthread_create(&t, NULL, unkept_thread, &u) != 0) {
		printf("Bail out! codec_stream_new or pthread_create\n");
		exit(1);
	}
	pthread_join(t, NULL);
	tap_ok(u.tried > 0, "the thread's allocations failed (%ld tried)", u.tried);
	tap_ok(n > 0 && u.n == n && memcmp(bytes, buf, (size_t)n) == 0,
	       "encoded without kept rules: the same %zd bytes as with them", u.n);
	if (!tap_ok(u.eq_plain && u.eq_stream,
		    "decoded without them, alone (%d) and by a stream (%d): every field equal",
		    u.r_plain, u.r_stream))
		printf("#   %s\n", u.why);
	codec_stream_free(u.cs);
	free(a);
	free(b);
	free(out);
}
#endif

/* The prediction rules compiled (predict_apply's ops) move each counter
 * as the rules applied one by one do: on this kernel's names, with
 * made-up values that go up, down and wrap, with and without the zones
 * and vmstat terms. */
static void
test_predict_ops(struct sampler *sp)
{
	struct sample *a = sample_new(), *b = sample_new(), *c = sample_new();
	struct predict *slow = malloc(sizeof(*slow));
	struct predict_src ps;
	const struct predict *pr;
	uint64_t seed = 88172645463325252ull;
	int pass, i, moved, diff;

	root_live();
	sampler_read(sp, a, SRC_ALL);
	if (slow == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (pass = 0; pass < 4; pass++) {
		*b = *a;
		for (i = 0; i < b->vm.n; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			b->vm.e[i].value += pass == 3 ? seed : seed % 2001 - 1000;
		}
		for (i = 0; i < b->mem.n; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			b->mem.e[i].value += pass == 3 ? seed : seed % 2001 - 1000;
		}
		for (i = 0; i < b->zi.n_zones; i++)
			b->zi.zones[i].v[ZI_FREE] += (uint64_t)(i * 77) - 100;
		memset(&ps, 0, sizeof(ps));
		ps.v = &b->vm;
		ps.pv = &a->vm;
		if (pass != 1) {
			ps.z = &b->zi;
			ps.pz = &a->zi;
		}
		pr = predict_vmstat(&b->vm, &ps, NULL);
		*slow = *pr;
		slow->n_ops = -1;
		*c = *b;
		predict_apply(pr, &ps, &b->vm.e[0].value, sizeof(b->vm.e[0]));
		ps.v = &c->vm;
		predict_apply(slow, &ps, &c->vm.e[0].value, sizeof(c->vm.e[0]));
		for (i = moved = diff = 0; i < b->vm.n; i++) {
			moved += b->vm.e[i].value != a->vm.e[i].value;
			diff += b->vm.e[i].value != c->vm.e[i].value;
		}
		tap_ok(pr->n_ops > 0 && pr->n > 10 && diff == 0,
		       "vmstat pass %d: %d rules as %d ops, %d counters moved, %d off",
		       pass, pr->n, pr->n_ops, moved, diff);

		memset(&ps, 0, sizeof(ps));
		if (pass != 2) {
			ps.v = &b->vm;
			ps.pv = &a->vm;
		}
		ps.m = &b->mem;
		ps.pm = &a->mem;
		ps.page_kb = pass == 3 ? 64 : 4;
		pr = predict_meminfo(&b->mem, &ps, NULL);
		*slow = *pr;
		slow->n_ops = -1;
		c->mem = b->mem;
		predict_apply(pr, &ps, &b->mem.e[0].value, sizeof(b->mem.e[0]));
		ps.m = &c->mem;
		predict_apply(slow, &ps, &c->mem.e[0].value, sizeof(c->mem.e[0]));
		for (i = diff = 0; i < b->mem.n; i++)
			diff += b->mem.e[i].value != c->mem.e[i].value;
		tap_ok(pr->n_ops > 0 && pr->n > 10 && diff == 0,
		       "meminfo pass %d: %d rules as %d ops, %d off", pass, pr->n,
		       pr->n_ops, diff);
	}
	free(slow);
	free(a);
	free(b);
	free(c);
}

/* One xorshift step. */
static uint64_t
numr_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * codec_numr_add against codec_numr_u one number at a time, on made-up
 * runs and differences (ids 20 to 25: the differences in DIFFS), taken in
 * pieces of every size, some past the numbers left, some streams cut or
 * with a run past the chunk: the same values, the same state after, and
 * refused alike.
 */
static void
test_numr_add(void)
{
	static uint8_t rb[4096], db[4096];
	uint64_t seed = 0x9E3779B97F4A7C15ull, a[64], b[64], left, k, x;
	struct wbuf rw, dw;
	struct rbuf ra, da, rr, dr;
	struct numr na, nb;
	int trial, i, at, n, lim, off = 0, refused = 0;

	for (trial = 0; trial < 20000; trial++) {
		rw = (struct wbuf){ rb, 0, sizeof(rb), false };
		dw = (struct wbuf){ db, 0, sizeof(db), false };
		left = 1 + numr_rand(&seed) % 60;
		for (k = 0; k < left;) {
			uint64_t run = numr_rand(&seed) % 4 == 0 ? numr_rand(&seed) % 20 : 0;

			if (run > left - k)
				run = left - k;
			if (numr_rand(&seed) % 50 == 0)
				run = left - k + 1 + numr_rand(&seed) % 3;	/* past the chunk */
			codec_put_u(&rw, run);
			k += run;
			if (k >= left)
				break;
			x = numr_rand(&seed);
			codec_put_s(&dw, (int64_t)(x % 7 == 0 ? x : x % 300) - 150);
			k++;
		}
		if (numr_rand(&seed) % 20 == 0 && rw.len > 0)
			rw.len--;
		if (numr_rand(&seed) % 20 == 0 && dw.len > 0)
			dw.len -= 1 + numr_rand(&seed) % dw.len;
		for (i = 0; i < 64; i++)
			a[i] = b[i] = numr_rand(&seed);
		ra = rr = (struct rbuf){ rb, rw.len, 0, false };
		da = dr = (struct rbuf){ db, dw.len, 0, false };
		memset(&na, 0, sizeof(na));
		na.r = &ra;
		na.delta = true;
		na.diffs = &da;
		na.left = left;
		nb = na;
		nb.r = &rr;
		nb.diffs = &dr;
		/* The numbers the chunk has, or sometimes more. */
		lim = numr_rand(&seed) % 10 == 0 ? (int)left + 1 + (int)(numr_rand(&seed) % 3) :
		    (int)left;
		for (at = 0; at < lim && !ra.bad; at += n) {
			n = (int)(numr_rand(&seed) % 12);
			if (at + n > lim)
				n = lim - at;
			codec_numr_add(&na, &a[at], sizeof(a[0]), (size_t)n);
			for (i = at; i < at + n; i++)
				b[i] = codec_numr_u(&nb, b[i]);
			if (nb.diffs->bad)
				rr.bad = true;
			if (ra.bad != rr.bad)
				break;
			if (!ra.bad && (memcmp(a, b, sizeof(a)) != 0 || ra.off != rr.off ||
			    da.off != dr.off || na.left != nb.left || na.zeros != nb.zeros ||
			    na.in_run != nb.in_run || na.ndiffs != nb.ndiffs))
				break;
		}
		if (ra.bad != rr.bad || (!ra.bad && at < lim)) {
			off++;
			if (off <= 3)
				printf("# trial %d: at %d, bad %d %d\n", trial, at, ra.bad, rr.bad);
		}
		refused += ra.bad;
	}
	tap_ok(off == 0 && refused > 1000 && refused < 12000,
	       "numr_add is numr_u number by number: %d of 20000 streams off, %d refused alike",
	       off, refused);
}

int
main(void)
{
	struct sample *s = sample_new(), *d = sample_new();
	struct sampler sp;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	if (sampler_init(&sp, tmp) != 0) {
		printf("Bail out! sampler_init %s\n", tmp);
		return 1;
	}
	test_keyframes(&sp, s, d);
	test_chain(&sp);
	test_unknown(&sp);
	test_blocked_why(&sp);
	test_v2(&sp);
	test_predict_ops(&sp);
#ifdef COUNT_ALLOCS
	test_unkept(&sp);
#endif
	test_numr_add();
	test_no_alloc(&sp);
	sampler_free(&sp);

	root_clear();
	{
		char path[4200];

		snprintf(path, sizeof(path), "%s/pressure", tmp);
		rmdir(path);
	}
	rmdir(tmp);
	test_live();
	free(s);
	free(d);
	return tap_done();
}
