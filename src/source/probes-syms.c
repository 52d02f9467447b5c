/*
 * Stack ids to names (probes-syms.h). A named stack drops its innermost
 * frames that belong to the probe and the scheduler (bpf_*, __traceiter_*,
 * __schedule, schedule...) so that it begins, as /proc/PID/stack does, at
 * the function that waited.
 */
#include "source/probes-syms.h"
#include "source/ksym.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYMS_FRAMES	(PROBE_STACK_FRAMES + 8)	/* frames looked at */
#define SYMS_READ	16384
/* Addresses kept named: a new stack is mostly addresses seen in others
 * (the same call paths), so after the first ticks it is named from here
 * and the pass over kallsyms (about 40 ms of CPU, most of it the kernel
 * printing 120,000 lines) is only for addresses never seen. */
#define SYMS_IPS	2048
#define SYMS_IP_PROBES	8
/* Their names and the cached stacks', end to end (a kernel function's is
 * about 25 bytes): when full, every address is forgotten and the stacks'
 * names moved to its start (syms_compact); when those alone fill it, the
 * stacks are forgotten too. Pages not reached yet are never touched. */
#define SYMS_POOL	65536	/* ip_name and a stack's names are 16 bits */
#define SYMS_REFS	(PROBES_SYMS_CACHE * PROBE_STACK_FRAMES)	/* names of stacks */
#define SYMS_NAMED	UINT64_MAX	/* best: named from the address cache */
/* At most one pass this often: a box that makes new stacks every tick
 * (a build) would otherwise pay for one each tick. A stack with an address
 * never seen waits for the next pass, unnamed ("not known") until then.
 * The wait starts short, while the address cache is empty and most stacks
 * are new, and doubles with each pass up to the longest. */
#define SYMS_PASS_FIRST	0.5
#define SYMS_PASS_EVERY	30.0

/* Memory is touched only as it is used: the stacks' ids apart from their
 * names (a lookup reads every id), the cache filled in turn, the
 * addresses in the order they were named, their names in a pool. A
 * cached stack is its names' offsets in that pool (34 bytes, where 16
 * names of 64 were 1 KB), so forgetting the pool forgets the stacks. */
struct syms_stack {
	int n;
	uint16_t name[PROBE_STACK_FRAMES];	/* offsets in pool */
};

struct syms_queued {
	int32_t id;
	int n;
	uint64_t ip[SYMS_FRAMES];
	uint64_t best[SYMS_FRAMES];	/* the symbol below ip so far */
	char name[SYMS_FRAMES][STACK_FUNC_LEN];
};

struct probes_syms {
	char path[64];
	int32_t cache_id[PROBES_SYMS_CACHE];	/* -1: free */
	struct syms_stack cache[PROBES_SYMS_CACHE];
	int next;			/* the entry to replace next */
	struct syms_queued q[PROBES_SYMS_BATCH];
	int nq;
	uint16_t slot[SYMS_IPS];	/* 0: free, else 1 + an index in ip */
	unsigned n_ips;			/* of ip and ip_name in use */
	uint64_t ip[SYMS_IPS];		/* the addresses named, in turn */
	uint16_t ip_name[SYMS_IPS];	/* its name's offset in pool */
	size_t pool_used, pool_cap;	/* pool_cap: SYMS_POOL, less in tests */
	char pool[SYMS_POOL];
	struct ksym *namer;		/* the kernel's names; NULL: kallsyms */
	unsigned long kernel_named;	/* addresses it named, for tests */
	char kname[SYMS_FRAMES][STACK_FUNC_LEN];
	unsigned long passes;		/* over kallsyms, for tests */
	double last_pass;		/* mono seconds, 0: none yet */
	double pass_wait;		/* seconds until another pass may come */
	char buf[SYMS_READ];
};
_Static_assert(SYMS_IPS <= UINT16_MAX && SYMS_POOL <= UINT16_MAX + 1, "slot, ip_name");
_Static_assert(2 * SYMS_REFS * sizeof(uint16_t) <= SYMS_READ, "syms_compact's room in buf");

static size_t
syms_ip_home(uint64_t ip)
{
	return (size_t)(((ip >> 2) * 0x9E3779B97F4A7C15ull) >> 40) & (SYMS_IPS - 1);
}

/* ip's name, or NULL when it is not known. */
static const char *
syms_ip_get(const struct probes_syms *s, uint64_t ip)
{
	size_t h = syms_ip_home(ip);

	for (int i = 0; i < SYMS_IP_PROBES; i++) {
		unsigned e = s->slot[(h + (size_t)i) & (SYMS_IPS - 1)];

		if (e == 0)
			return NULL;
		if (s->ip[e - 1] == ip)
			return s->pool + s->ip_name[e - 1];
	}
	return NULL;
}

/* Shell sort: n is a few thousand at most, and this runs when the pool
 * fills, not every tick. */
static void
syms_sort(uint16_t *v, int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++) {
			uint16_t t = v[i];
			int j = i;

			for (; j >= gap && v[j - gap] > t; j -= gap)
				v[j] = v[j - gap];
			v[j] = t;
		}
}

/*
 * Every address forgotten, and the names of the cached stacks moved to
 * the pool's start, in the order they were in, each once (a string
 * moves down over strings no longer used, never over one still to
 * move): the stacks stay named. The offsets are sorted in buf, which
 * only a pass uses.
 */
static void
syms_compact(struct probes_syms *s)
{
	uint16_t *old = (uint16_t *)(void *)s->buf, *now = old + SYMS_REFS;
	int n = 0, u = 0;
	size_t at = 0;

	memset(s->slot, 0, sizeof(s->slot));
	s->n_ips = 0;
	for (int i = 0; i < PROBES_SYMS_CACHE; i++)
		for (int k = 0; s->cache_id[i] >= 0 && k < s->cache[i].n; k++)
			old[n++] = s->cache[i].name[k];
	syms_sort(old, n);
	for (int i = 0; i < n; i++) {
		size_t len;

		if (u > 0 && old[i] == old[u - 1])
			continue;
		len = strlen(s->pool + old[i]) + 1;
		memmove(s->pool + at, s->pool + old[i], len);
		old[u] = old[i];
		now[u++] = (uint16_t)at;
		at += len;
	}
	s->pool_used = at;
	for (int i = 0; i < PROBES_SYMS_CACHE; i++)
		for (int k = 0; s->cache_id[i] >= 0 && k < s->cache[i].n; k++) {
			int lo = 0, hi = u - 1;

			while (lo < hi) {
				int mid = (lo + hi) / 2;

				if (old[mid] < s->cache[i].name[k])
					lo = mid + 1;
				else
					hi = mid;
			}
			s->cache[i].name[k] = now[lo];
		}
}

/* Room for need more bytes in the pool: the stacks' names kept when they
 * leave it, else every stack forgotten too. */
static void
syms_room(struct probes_syms *s, size_t need)
{
	if (s->pool_used + need <= s->pool_cap)
		return;
	syms_compact(s);
	if (s->pool_used + need <= s->pool_cap)
		return;
	s->pool_used = 0;
	for (int i = 0; i < PROBES_SYMS_CACHE; i++)
		s->cache_id[i] = -1;
	s->next = 0;
}

/* name (at most STACK_FUNC_LEN - 1 bytes of it) at the pool's end; the
 * pool has room (the callers see to it). */
static uint16_t
syms_pool_put(struct probes_syms *s, const char *name)
{
	size_t len = strnlen(name, STACK_FUNC_LEN - 1), at = s->pool_used;

	memcpy(s->pool + at, name, len);
	s->pool[at + len] = '\0';
	s->pool_used += len + 1;
	return (uint16_t)at;
}

/* Full around its home: the home slot's address is replaced (a cache,
 * not a map). The replaced name stays in the pool until it is full. */
static void
syms_ip_put(struct probes_syms *s, uint64_t ip, const char *name)
{
	size_t h = syms_ip_home(ip), k = h, len = strnlen(name, STACK_FUNC_LEN - 1);
	unsigned e;

	syms_room(s, len + 1);
	for (int i = 0; i < SYMS_IP_PROBES; i++) {
		size_t c = (h + (size_t)i) & (SYMS_IPS - 1);

		if (s->slot[c] == 0 || s->ip[s->slot[c] - 1] == ip) {
			k = c;
			break;
		}
	}
	if ((e = s->slot[k]) == 0)
		s->slot[k] = (uint16_t)(e = ++s->n_ips);
	s->ip[e - 1] = ip;
	s->ip_name[e - 1] = syms_pool_put(s, name);
}

struct probes_syms *
probes_syms_new(const char *kallsyms)
{
	struct probes_syms *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	snprintf(s->path, sizeof(s->path), "%s", kallsyms);
	s->pool_cap = SYMS_POOL;
	for (int i = 0; i < PROBES_SYMS_CACHE; i++)
		s->cache_id[i] = -1;
	return s;
}

void
probes_syms_free(struct probes_syms *s)
{
	free(s);
}

static void
syms_copy(const struct probes_syms *s, const struct syms_stack *c, struct probe_dstack *d)
{
	d->stack.n = c->n;
	for (int i = 0; i < c->n; i++) {
		const char *f = s->pool + c->name[i];

		memcpy(d->stack.func[i], f, strlen(f) + 1);
	}
}

/* The frames of the probe and the scheduler, innermost. */
static bool syms_skipped(const char *f);

/* q's names as a cached stack, without the probe's own frames: each the
 * pool's copy of its address's name, or one of its own. */
static struct syms_stack *
syms_name(struct probes_syms *s, const struct syms_queued *q)
{
	struct syms_stack *c;
	size_t need = 0;
	int k = 0, from;

	while (k < q->n && syms_skipped(q->name[k]))
		k++;
	from = k;
	for (; k < q->n && k - from < PROBE_STACK_FRAMES; k++)
		need += strnlen(q->name[k], STACK_FUNC_LEN - 1) + 1;
	syms_room(s, need);
	c = &s->cache[s->next];
	s->cache_id[s->next] = q->id;
	s->next = (s->next + 1) % PROBES_SYMS_CACHE;
	c->n = 0;
	for (k = from; k < q->n && c->n < PROBE_STACK_FRAMES; k++) {
		const char *e = syms_ip_get(s, q->ip[k]);

		if (e && strncmp(e, q->name[k], STACK_FUNC_LEN) == 0)
			c->name[c->n++] = (uint16_t)(e - s->pool);
		else
			c->name[c->n++] = syms_pool_put(s, q->name[k]);
	}
	return c;
}

/* q's addresses the cache did not know, named by the kernel; one it
 * cannot name keeps its "0x..." (kallsyms would not name it either). */
static int
syms_ask_kernel(struct probes_syms *s, struct syms_queued *q)
{
	uint64_t ip[SYMS_FRAMES] = { 0 };
	int at[SYMS_FRAMES], n = 0;

	for (int k = 0; k < q->n; k++)
		if (q->best[k] != SYMS_NAMED) {
			at[n] = k;
			ip[n++] = q->ip[k];
		}
	if (ksym_name(s->namer, ip, n, s->kname[0], STACK_FUNC_LEN) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int k = at[i];

		if (s->kname[i][0])
			memcpy(q->name[k], s->kname[i], STACK_FUNC_LEN);
		q->best[k] = SYMS_NAMED;
		syms_ip_put(s, q->ip[k], q->name[k]);
	}
	s->kernel_named += (unsigned long)n;
	return 0;
}

void
probes_syms_set_pool(struct probes_syms *s, size_t size)
{
	s->pool_cap = size < SYMS_POOL ? size : SYMS_POOL;
}

void
probes_syms_set_namer(struct probes_syms *s, struct ksym *k)
{
	s->namer = k;
}

unsigned long
probes_syms_kernel_named(const struct probes_syms *s)
{
	return s->kernel_named;
}

int
probes_syms_get(struct probes_syms *s, int32_t id, const uint64_t *ips, int n,
		struct probe_dstack *d)
{
	struct syms_queued *q;
	int unknown = 0;

	d->stack.n = 0;
	if (id < 0)
		return 0;
	for (int i = 0; i < PROBES_SYMS_CACHE; i++)
		if (s->cache_id[i] == id) {
			syms_copy(s, &s->cache[i], d);
			return d->stack.n;
		}
	for (int i = 0; i < s->nq; i++)
		if (s->q[i].id == id)
			return -1;
	if (s->nq >= PROBES_SYMS_BATCH)
		return -1;
	q = &s->q[s->nq++];
	q->id = id;
	q->n = 0;
	for (int i = 0; i < n && q->n < SYMS_FRAMES && ips[i]; i++) {
		const char *e = syms_ip_get(s, ips[i]);

		q->ip[q->n] = ips[i];
		q->best[q->n] = e ? SYMS_NAMED : 0;
		if (e)
			snprintf(q->name[q->n], STACK_FUNC_LEN, "%s", e);
		else
			unknown++;
		if (!e)
			snprintf(q->name[q->n], STACK_FUNC_LEN, "0x%llx",
				 (unsigned long long)ips[i]);
		q->n++;
	}
	/* The kernel names what the cache does not know, now (ksym.h). */
	if (unknown > 0 && s->namer && syms_ask_kernel(s, q) == 0)
		unknown = 0;
	/* Every address known: named now, with no pass. */
	if (unknown == 0) {
		struct syms_stack *c = syms_name(s, q);

		s->nq--;
		syms_copy(s, c, d);
		return d->stack.n;
	}
	return -1;
}

static bool
syms_skipped(const char *f)
{
	static const char *const prefix[] = {
		"bpf_", "__bpf_", "__traceiter_", "__schedule", "schedule", "preempt_schedule",
	};

	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (strncmp(f, prefix[i], strlen(prefix[i])) == 0)
			return true;
	return false;
}

/*
 * One kallsyms symbol at addr: every queued address at or above it whose
 * best symbol so far is lower takes it. Within one stack's sorted copy
 * this is a prefix walk; stacks are few, addresses a few dozen.
 */
static void
syms_offer(struct probes_syms *s, uint64_t addr, const char *name, size_t len)
{
	if (len >= STACK_FUNC_LEN)
		len = STACK_FUNC_LEN - 1;
	for (int i = 0; i < s->nq; i++) {
		struct syms_queued *q = &s->q[i];

		for (int k = 0; k < q->n; k++) {
			if (q->ip[k] < addr || q->best[k] >= addr)
				continue;
			q->best[k] = addr;
			memcpy(q->name[k], name, len);
			q->name[k][len] = '\0';
		}
	}
}

/* "ffffffff81000000 T _stext" or "... t name\t[module]": text only. */
static void
syms_line(struct probes_syms *s, const char *l, const char *end)
{
	uint64_t addr = 0;
	const char *p = l, *name;
	int digits = 0;

	for (; p < end && *p != ' '; p++, digits++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (v < 0)
			return;
		addr = addr << 4 | (uint64_t)v;
	}
	if (!digits || !addr || end - p < 4 || p[2] != ' ' ||
	    !strchr("tTwW", p[1]))
		return;
	name = p + 3;
	for (p = name; p < end && *p != '\t' && *p != ' '; p++)
		;
	syms_offer(s, addr, name, (size_t)(p - name));
}

static void
syms_pass(struct probes_syms *s)
{
	int fd = open(s->path, O_RDONLY | O_CLOEXEC);
	size_t have = 0;

	if (fd < 0)
		return;
	for (;;) {
		ssize_t r = read(fd, s->buf + have, sizeof(s->buf) - have);
		char *l = s->buf, *nl, *end;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		end = s->buf + have + r;
		while ((nl = memchr(l, '\n', (size_t)(end - l)))) {
			syms_line(s, l, nl);
			l = nl + 1;
		}
		have = (size_t)(end - l);
		if (have == sizeof(s->buf))	/* a line longer than the buffer */
			have = 0;
		memmove(s->buf, l, have);
	}
	close(fd);
}

void
probes_syms_resolve(struct probes_syms *s)
{
	double now = clock_mono();

	if (!s->nq)
		return;
	if (s->last_pass > 0 && now - s->last_pass < s->pass_wait) {
		s->nq = 0;	/* asked again at a later tick */
		return;
	}
	s->pass_wait = s->last_pass > 0 ? s->pass_wait * 2 : SYMS_PASS_FIRST;
	if (s->pass_wait > SYMS_PASS_EVERY)
		s->pass_wait = SYMS_PASS_EVERY;
	s->last_pass = now;
	syms_pass(s);
	s->passes++;
	for (int i = 0; i < s->nq; i++) {
		struct syms_queued *q = &s->q[i];

		for (int k = 0; k < q->n; k++)
			if (q->best[k] != 0 && q->best[k] != SYMS_NAMED)
				syms_ip_put(s, q->ip[k], q->name[k]);
		syms_name(s, q);
	}
	s->nq = 0;
}

unsigned long
probes_syms_passes(const struct probes_syms *s)
{
	return s->passes;
}
