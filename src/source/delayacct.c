/*
 * Delay accounting, read through taskstats:
 *
 *	at open
 *	-------
 *	socket(AF_NETLINK, NETLINK_GENERIC), CTRL_CMD_GETFAMILY "TASKSTATS"
 *	  -> the family id (ENOENT: no CONFIG_TASKSTATS)
 *	TASKSTATS_CMD_GET for ourselves -> EPERM: not CAP_NET_ADMIN
 *	open /proc/sys/kernel/task_delayacct, held
 *
 *	each tick, for each task that ran (taskscan_ran)
 *	---------
 *	TASKSTATS_CMD_GET with TASKSTATS_CMD_ATTR_PID -> AGGR_PID { PID,
 *	  STATS: struct taskstats } -> its totals, by the struct's version
 *	minus the totals held from the last time it was asked -> this tick
 *
 * Raw netlink, not libnl: one request and one answer of a few hundred
 * bytes is a few dozen lines, and libnl is not among the libraries
 * pagetop builds with. The kernel answers a taskstats request while it is
 * being sent, so the answer is read without blocking; only when it is
 * not there yet is it polled for, briefly. A tick stops asking at a time
 * budget and says how many were not asked.
 *
 * Each task's last totals are in a table mapped at open, dense, with an
 * open-addressing index of its own (linear probing). An entry carries
 * the generation (the read) it was last seen in. At a soft limit, the
 * entries of tasks gone (kill(tid, 0): ESRCH) are dropped and the limit
 * set to twice the held; when the table is three quarters full the
 * older half of the generations held is dropped.
 * A task not held gives its baseline only; so does a tid reused (a begin
 * time more than a second away, or totals that went down).
 */

#include "source/delayacct.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "util/clock.h"
#include "util/zero-map.h"

#if TASKSTATS_VERSION < 12
#error "needs <linux/taskstats.h> of version 12 or later (Linux 5.19 headers)"
#endif

#define SLOTS_DEFAULT	16384	/* 12,288 tasks held at most */
#define USED_MIN	256	/* slots hashed over at first */
#define SLOTS_MAX	65536	/* what the index's uint16_t numbers */
#define SOFT_MIN	1024	/* held before the gone are first dropped */
#define ENABLED_EVERY	2.0	/* s between reads of kernel.task_delayacct */
#define BUDGET_SECS	0.020	/* a tick's asking stops after this */
#define ANSWER_MS	5	/* wait for one answer at most this */
#define OPEN_ANSWER_MS	200	/* at open: the family, our own task */
#define NL_BUF		8192	/* an answer is well under 1 KB */
#define SYSCTL_PATH	"/proc/sys/kernel/task_delayacct"
#define TURN_ON		"kernel.task_delayacct is 0: turn it on: " \
			"sysctl kernel.task_delayacct=1"

struct entry {
	int32_t tid;		/* 0: empty */
	uint32_t gen;		/* the read it was last seen in */
	uint64_t btime;
	double at;		/* mono seconds of that read */
	uint64_t ns[DELAY_KIND_COUNT];
	uint32_t count[DELAY_KIND_COUNT];	/* low bits: differences hold */
};

struct delayacct {
	struct delayacct_ops ops;
	bool unavailable;
	char why[120];		/* why unavailable */
	int enabled;		/* kernel.task_delayacct at the last look */
	double now;		/* mono seconds of the read being made */
	double enabled_at;	/* mono of that look, < 0: none */
	uint32_t gen;
	uint32_t version, kinds;	/* of the last answer */
	struct entry *e;	/* cap entries mapped, held used */
	uint16_t *idx;		/* slots mapped, the first used in use */
	size_t slots, used, held, cap, soft, sweeps;
};

/* The netlink side: the default ops' context. */
struct nl {
	int fd;
	int sysctl_fd;
	int sysctl_err;
	uint16_t family;
	uint32_t seq;
	_Alignas(8) char buf[NL_BUF];
};

/* --- struct taskstats -------------------------------------------------- */

int
delayacct_decode(const void *stats, size_t len, struct delayacct_totals *out)
{
	struct taskstats ts;

	memset(out, 0, sizeof(*out));
	memset(&ts, 0, sizeof(ts));
	if (len < offsetof(struct taskstats, cpu_run_real_total))
		return -EINVAL;
	/* A newer kernel's struct is longer: its start is ours. */
	memcpy(&ts, stats, len < sizeof(ts) ? len : sizeof(ts));
	/* A member is there when the version has it and the length holds it. */
#define HAS(m, v)	(ts.version >= (v) && \
			 len >= offsetof(struct taskstats, m) + sizeof(ts.m))
	out->version = ts.version;
	out->ns[DELAY_BLKIO] = ts.blkio_delay_total;
	out->count[DELAY_BLKIO] = ts.blkio_count;
	out->ns[DELAY_SWAPIN] = ts.swapin_delay_total;
	out->count[DELAY_SWAPIN] = ts.swapin_count;
	out->ns[DELAY_CPU] = ts.cpu_delay_total;
	out->count[DELAY_CPU] = ts.cpu_count;
	out->kinds = 1u << DELAY_BLKIO | 1u << DELAY_SWAPIN | 1u << DELAY_CPU;
	if (HAS(freepages_delay_total, 7)) {
		out->ns[DELAY_RECLAIM] = ts.freepages_delay_total;
		out->count[DELAY_RECLAIM] = ts.freepages_count;
		out->kinds |= 1u << DELAY_RECLAIM;
	}
	if (HAS(thrashing_delay_total, 9)) {
		out->ns[DELAY_THRASHING] = ts.thrashing_delay_total;
		out->count[DELAY_THRASHING] = ts.thrashing_count;
		out->kinds |= 1u << DELAY_THRASHING;
	}
	if (HAS(compact_delay_total, 11)) {
		out->ns[DELAY_COMPACT] = ts.compact_delay_total;
		out->count[DELAY_COMPACT] = ts.compact_count;
		out->kinds |= 1u << DELAY_COMPACT;
	}
	if (HAS(ac_comm, 2)) {
		memcpy(out->comm, ts.ac_comm, sizeof(out->comm) - 1);
		out->comm[sizeof(out->comm) - 1] = '\0';
	}
	if (HAS(ac_pid, 2))
		out->tid = (int32_t)ts.ac_pid;
	if (HAS(ac_btime64, 10))
		out->btime = ts.ac_btime64;
	else if (HAS(ac_btime, 2))
		out->btime = ts.ac_btime;
	if (HAS(ac_tgid, 12))
		out->tgid = (int32_t)ts.ac_tgid;
#undef HAS
	return 0;
}

/* --- netlink ------------------------------------------------------------ */

/* Sends one generic netlink request with one attribute: 0 or -errno. */
static int
nl_send(struct nl *nl, uint16_t type, uint8_t cmd, uint16_t attr,
    const void *data, size_t len)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		_Alignas(4) char a[NLA_HDRLEN + 32];
	} req;
	struct sockaddr_nl to;
	struct nlattr na;
	ssize_t r;

	if (len > sizeof(req.a) - NLA_HDRLEN)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	na.nla_type = attr;
	na.nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(req.a, &na, sizeof(na));
	memcpy(req.a + NLA_HDRLEN, data, len);
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(na.nla_len));
	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = ++nl->seq;
	req.g.cmd = cmd;
	req.g.version = 1;
	memset(&to, 0, sizeof(to));
	to.nl_family = AF_NETLINK;
	do
		r = sendto(nl->fd, &req, req.n.nlmsg_len, MSG_DONTWAIT,
		    (struct sockaddr *)&to, sizeof(to));
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

/*
 * The answer to the last request, waiting at most wait_ms for it: 0 with
 * *out, the kernel's -errno, or -EAGAIN when none came. Answers to earlier
 * requests (that came too late) are read and dropped.
 */
static int
nl_answer(struct nl *nl, int wait_ms, const struct nlmsghdr **out)
{
	struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
	const struct nlmsghdr *h;
	const struct nlmsgerr *e;
	bool waited = false;
	size_t off, step;
	ssize_t r;

	for (;;) {
		r = recv(nl->fd, nl->buf, sizeof(nl->buf), MSG_DONTWAIT | MSG_TRUNC);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -errno;	/* ENOBUFS: answers lost */
			if (waited)
				return -EAGAIN;
			(void)poll(&pfd, 1, wait_ms);
			waited = true;
			continue;
		}
		if ((size_t)r > sizeof(nl->buf))
			continue;	/* truncated: not ours to read */
		/* NLMSG_OK and NLMSG_NEXT, without their int against u32. */
		for (off = 0; off + sizeof(*h) <= (size_t)r; off += step) {
			h = (const void *)(nl->buf + off);
			if (h->nlmsg_len < sizeof(*h) || h->nlmsg_len > (size_t)r - off)
				break;
			step = NLMSG_ALIGN(h->nlmsg_len);
			if (h->nlmsg_seq != nl->seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EPROTO;
				e = NLMSG_DATA(h);
				return e->error != 0 ? e->error : -ENODATA;
			}
			*out = h;
			return 0;
		}
	}
}

/* The attribute of type in [p, p + len), or NULL. */
static const struct nlattr *
attr_find(const char *p, size_t len, uint16_t type)
{
	const struct nlattr *a;
	size_t step;

	while (len >= NLA_HDRLEN) {
		a = (const void *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return NULL;
		p += step;
		len -= step;
	}
	return NULL;
}

/* The generic netlink attributes of message h. */
static const char *
genl_attrs(const struct nlmsghdr *h, size_t *len)
{
	if (h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
		*len = 0;
		return NULL;
	}
	*len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	return (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
}

static int
nl_family(struct nl *nl)
{
	const struct nlmsghdr *h;
	const struct nlattr *a;
	const char *p;
	size_t len;
	int r;

	if ((r = nl_send(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
	    CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME,
	    sizeof(TASKSTATS_GENL_NAME))) != 0)
		return r;
	if ((r = nl_answer(nl, OPEN_ANSWER_MS, &h)) != 0)
		return r;
	p = genl_attrs(h, &len);
	if (p == NULL || (a = attr_find(p, len, CTRL_ATTR_FAMILY_ID)) == NULL ||
	    a->nla_len < NLA_HDRLEN + sizeof(uint16_t))
		return -EPROTO;
	memcpy(&nl->family, (const char *)a + NLA_HDRLEN, sizeof(nl->family));
	return 0;
}

static int
nl_get_wait(struct nl *nl, int tid, int wait_ms, struct delayacct_totals *out)
{
	const struct nlmsghdr *h;
	const struct nlattr *agg, *st, *pa;
	const char *p;
	uint32_t pid = (uint32_t)tid;
	size_t len;
	int r;

	if ((r = nl_send(nl, nl->family, TASKSTATS_CMD_GET,
	    TASKSTATS_CMD_ATTR_PID, &pid, sizeof(pid))) != 0)
		return r;
	if ((r = nl_answer(nl, wait_ms, &h)) != 0)
		return r;
	if (h->nlmsg_type != nl->family || (p = genl_attrs(h, &len)) == NULL ||
	    (agg = attr_find(p, len, TASKSTATS_TYPE_AGGR_PID)) == NULL)
		return -EPROTO;
	p = (const char *)agg + NLA_HDRLEN;
	len = agg->nla_len - NLA_HDRLEN;
	if ((st = attr_find(p, len, TASKSTATS_TYPE_STATS)) == NULL)
		return -EPROTO;
	if ((r = delayacct_decode((const char *)st + NLA_HDRLEN,
	    st->nla_len - NLA_HDRLEN, out)) != 0)
		return r;
	if ((pa = attr_find(p, len, TASKSTATS_TYPE_PID)) != NULL &&
	    pa->nla_len >= NLA_HDRLEN + sizeof(pid))
		memcpy(&pid, (const char *)pa + NLA_HDRLEN, sizeof(pid));
	if ((int)pid != tid)
		return -EPROTO;
	out->tid = tid;
	return 0;
}

static int
nl_get(void *ctx, int tid, struct delayacct_totals *out)
{
	return nl_get_wait(ctx, tid, ANSWER_MS, out);
}

static int
nl_enabled(void *ctx)
{
	struct nl *nl = ctx;
	char b[8];
	ssize_t r;

	if (nl->sysctl_fd < 0)
		return -nl->sysctl_err;
	do
		r = pread(nl->sysctl_fd, b, sizeof(b), 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0 || (b[0] != '0' && b[0] != '1'))
		return -EINVAL;
	return b[0] == '1';
}

/* A thread's tid is a pid to kill(): EPERM says it is there too. */
static int
nl_alive(void *ctx, int tid)
{
	(void)ctx;
	return kill(tid, 0) == 0 || errno != ESRCH ? 0 : -ESRCH;
}

static void
nl_close(void *ctx)
{
	struct nl *nl = ctx;

	if (nl == NULL)
		return;
	if (nl->fd >= 0)
		close(nl->fd);
	if (nl->sysctl_fd >= 0)
		close(nl->sysctl_fd);
	free(nl);
}

/* Why taskstats cannot be asked, for an error from it. */
static void
why_set(char *why, size_t size, int err)
{
	if (err == -EPERM || err == -EACCES)
		snprintf(why, size, "not root: TASKSTATS_CMD_GET needs "
		    "CAP_NET_ADMIN");
	else if (err == -EINVAL)
		snprintf(why, size, "taskstats answers only in the initial "
		    "user and pid namespaces");
	else if (err == -ENOENT)
		snprintf(why, size, "no taskstats in this kernel "
		    "(CONFIG_TASKSTATS)");
	else
		snprintf(why, size, "taskstats: %s", strerror(-err));
}

/* --- the table ---------------------------------------------------------- */

/*
 * The entries are dense, the first held of them in use, in a mapping of
 * the most that can be held: only the pages held are touched. The index
 * (slots of uint16_t, linear probing, 0 empty, else the entry's number
 * plus one) is all that the hashing spreads over: 32 KB at the default,
 * where a table of the entries themselves made every page of its 1.5 MB
 * resident as soon as a few hundred tids had come and gone. It is mapped
 * too, and only its first used slots hashed over, doubled (and indexed
 * anew) as the entries held pass three quarters of them: a box of a few
 * hundred tasks touches 2 KB of it, not all 32.
 */

static size_t
slot_of(int32_t tid, size_t mask)
{
	return ((uint32_t)tid * 2654435761u) & mask;
}

static struct entry *
table_find(struct delayacct *d, int32_t tid)
{
	size_t mask = d->used - 1, i = slot_of(tid, mask);

	while (d->idx[i] != 0) {
		if (d->e[d->idx[i] - 1].tid == tid)
			return &d->e[d->idx[i] - 1];
		i = (i + 1) & mask;
	}
	return NULL;
}

static void
table_index(struct delayacct *d, size_t k)
{
	size_t mask = d->used - 1, i;

	for (i = slot_of(d->e[k].tid, mask); d->idx[i] != 0; i = (i + 1) & mask)
		;
	d->idx[i] = (uint16_t)(k + 1);
}

static void
table_reindex(struct delayacct *d)
{
	memset(d->idx, 0, d->used * sizeof(*d->idx));
	for (size_t k = 0; k < d->held; k++)
		table_index(d, k);
}

/* Keeps the entries keep() says to, in their order, and indexes them
 * anew; the pages past them are given back. */
static void
table_compact(struct delayacct *d, bool (*keep)(struct delayacct *,
    const struct entry *, uint32_t), uint32_t arg)
{
	size_t k, n = 0, page = (size_t)sysconf(_SC_PAGESIZE), from, to;

	for (k = 0; k < d->held; k++)
		if (keep(d, &d->e[k], arg))
			d->e[n++] = d->e[k];
	from = (n * sizeof(*d->e) + page - 1) / page * page;
	to = d->held * sizeof(*d->e) / page * page;
	if (to > from)
		(void)madvise((char *)d->e + from, to - from, MADV_DONTNEED);
	d->held = n;
	table_reindex(d);
}

static bool
keep_from(struct delayacct *d, const struct entry *e, uint32_t cut)
{
	(void)d;
	return e->gen >= cut;
}

/* Seen in this read, or still there. */
static bool
keep_alive(struct delayacct *d, const struct entry *e, uint32_t gen)
{
	return e->gen == gen || d->ops.alive(d->ops.ctx, e->tid) != -ESRCH;
}

/* Drops the older half of the generations held (at least the oldest). */
static void
table_evict(struct delayacct *d)
{
	uint32_t min = d->gen, cut;
	size_t k;

	for (k = 0; k < d->held; k++)
		if (d->e[k].gen < min)
			min = d->e[k].gen;
	cut = min + ((d->gen - min) / 2 > 0 ? (d->gen - min) / 2 : 1);
	table_compact(d, keep_from, cut);
}

static struct entry *
table_add(struct delayacct *d, int32_t tid)
{
	struct entry *e;

	/* Tasks come and go: at the soft limit the gone are dropped, and
	 * the limit is set at twice what is left, so that a sweep comes
	 * only after as many new tasks as there are held. */
	if (d->held >= d->soft && d->ops.alive != NULL) {
		table_compact(d, keep_alive, d->gen);
		d->soft = d->held * 2 > SOFT_MIN ? d->held * 2 : SOFT_MIN;
		d->sweeps++;
	}
	if (d->held >= d->cap)
		table_evict(d);
	if ((d->held + 1) * 4 > d->used * 3 && d->used < d->slots) {
		d->used *= 2;
		table_reindex(d);
	}
	e = &d->e[d->held];
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	table_index(d, d->held++);
	return e;
}

size_t
delayacct_held(const struct delayacct *d)
{
	return d->held;
}

size_t
delayacct_slots(const struct delayacct *d)
{
	return d->slots;
}

size_t
delayacct_sweeps(const struct delayacct *d)
{
	return d->sweeps;
}

/* --- open, read, close -------------------------------------------------- */

struct delayacct *
delayacct_open_ops(const struct delayacct_ops *ops, size_t slots, char *why,
    size_t size)
{
	struct delayacct *d;

	if (slots == 0)
		slots = SLOTS_DEFAULT;
	if (slots < 4 || slots > SLOTS_MAX || (slots & (slots - 1)) != 0) {
		snprintf(why, size, "delay accounting: %zu slots: not a power "
		    "of two up to %d", slots, SLOTS_MAX);
		return NULL;
	}
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->idx = zero_map(slots * sizeof(*d->idx))) == NULL) {
		free(d);
		snprintf(why, size, "delay accounting: %s", strerror(ENOMEM));
		return NULL;
	}
	d->cap = slots / 4 * 3;
	if ((d->e = zero_map(d->cap * sizeof(*d->e))) == NULL) {
		snprintf(why, size, "delay accounting: %s", strerror(errno));
		zero_unmap(d->idx, slots * sizeof(*d->idx));
		free(d);
		return NULL;
	}
	d->ops = *ops;
	d->slots = slots;
	d->used = slots < USED_MIN ? slots : USED_MIN;
	d->soft = SOFT_MIN;
	d->enabled_at = -1;
	return d;
}

struct delayacct *
delayacct_open(char *why, size_t size)
{
	struct delayacct_ops ops = { nl_get, nl_enabled, nl_close, NULL,
	    nl_alive };
	struct delayacct_totals self;
	struct delayacct *d;
	struct nl *nl;
	int r;

	if ((nl = calloc(1, sizeof(*nl))) == NULL) {
		snprintf(why, size, "delay accounting: %s", strerror(ENOMEM));
		return NULL;
	}
	nl->fd = nl->sysctl_fd = -1;
	ops.ctx = nl;
	if ((d = delayacct_open_ops(&ops, 0, why, size)) == NULL) {
		nl_close(nl);
		return NULL;
	}
	if ((nl->sysctl_fd = open(SYSCTL_PATH, O_RDONLY | O_CLOEXEC)) < 0)
		nl->sysctl_err = errno;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    NETLINK_GENERIC);
	if (nl->fd < 0) {
		d->unavailable = true;
		snprintf(d->why, sizeof(d->why), "no generic netlink socket: %s",
		    strerror(errno));
	}
	else if ((r = nl_family(nl)) != 0) {
		d->unavailable = true;
		why_set(d->why, sizeof(d->why), r);
	}
	/* Asked once now, so that a reader not allowed says so at once. */
	else if ((r = nl_get_wait(nl, (int)gettid(), OPEN_ANSWER_MS,
	    &self)) != 0) {
		d->unavailable = true;
		why_set(d->why, sizeof(d->why), r);
	}
	return d;
}

void
delayacct_close(struct delayacct *d)
{
	if (d == NULL)
		return;
	if (d->ops.close != NULL)
		d->ops.close(d->ops.ctx);
	zero_unmap(d->e, d->cap * sizeof(*d->e));
	zero_unmap(d->idx, d->slots * sizeof(*d->idx));
	free(d);
}

/* Whether a ranks before b in the top: memory, then block I/O, then tid. */
static bool
top_before(const struct delay_task *a, const struct delay_task *b)
{
	uint64_t ma = delay_task_memory_ns(a), mb = delay_task_memory_ns(b);

	if (ma != mb)
		return ma > mb;
	if (a->ns[DELAY_BLKIO] != b->ns[DELAY_BLKIO])
		return a->ns[DELAY_BLKIO] > b->ns[DELAY_BLKIO];
	return a->tid < b->tid;
}

static void
top_add(struct delays *out, const struct delay_task *t)
{
	int i;

	if (delay_task_memory_ns(t) == 0 && t->ns[DELAY_BLKIO] == 0)
		return;
	if (out->n_top == DELAYS_TOP_TASKS &&
	    !top_before(t, &out->top[DELAYS_TOP_TASKS - 1]))
		return;
	i = out->n_top < DELAYS_TOP_TASKS ? out->n_top++ : DELAYS_TOP_TASKS - 1;
	for (; i > 0 && top_before(t, &out->top[i - 1]); i--)
		out->top[i] = out->top[i - 1];
	out->top[i] = *t;
}

static void
entry_set(struct entry *e, const struct delayacct_totals *t, uint32_t gen)
{
	int k;

	e->gen = gen;
	e->at = -1;		/* the caller's read, set by task_account */
	e->btime = t->btime;
	for (k = 0; k < DELAY_KIND_COUNT; k++) {
		e->ns[k] = t->ns[k];
		e->count[k] = (uint32_t)t->count[k];
	}
}

/* One task's answer: its increase since it was held, or its baseline. */
static void
task_account(struct delayacct *d, const struct delayacct_totals *t,
    struct delays *out)
{
	struct delay_task dt;
	struct entry *e;
	int k;

	if ((e = table_find(d, t->tid)) == NULL) {
		e = table_add(d, t->tid);
		entry_set(e, t, d->gen);
		e->at = d->now;
		out->first_seen++;
		return;
	}
	/* A task waits one wait at a time: more than the time since it was
	 * asked (a second of slack for the spread of the asks) is not its
	 * increase but another counting (seen on a kworker: a total longer
	 * than the uptime). Taken as a new baseline, as a tid reused. */
	for (k = 0; k < DELAY_KIND_COUNT; k++)
		if (t->ns[k] < e->ns[k] || (e->at >= 0 && k != DELAY_CPU &&
		    (double)(t->ns[k] - e->ns[k]) > (d->now - e->at + 1.0) * 1e9))
			break;
	/* The kernel makes btime as now less the time since it began, in
	 * whole seconds: it moves by one between asks. */
	if (k < DELAY_KIND_COUNT || t->btime > e->btime + 1 ||
	    e->btime > t->btime + 1) {
		entry_set(e, t, d->gen);	/* another task, same tid */
		e->at = d->now;
		out->first_seen++;
		return;
	}
	memset(&dt, 0, sizeof(dt));
	dt.tid = t->tid;
	dt.tgid = t->tgid;
	memcpy(dt.comm, t->comm, sizeof(dt.comm));
	for (k = 0; k < DELAY_KIND_COUNT; k++) {
		dt.ns[k] = t->ns[k] - e->ns[k];
		dt.count[k] = (uint32_t)t->count[k] - e->count[k];
		out->total_ns[k] += dt.ns[k];
		out->total_count[k] += dt.count[k];
	}
	entry_set(e, t, d->gen);
	e->at = d->now;
	top_add(out, &dt);
}

void
delayacct_read(struct delayacct *d, const int *tids, size_t n,
    struct delays *out)
{
	struct delayacct_totals t;
	double now = clock_mono();
	size_t i;
	int r;

	d->now = now;
	memset(out, 0, sizeof(*out));
	out->ran = (uint32_t)n;
	if (d->unavailable) {
		out->state = DELAYS_UNAVAILABLE;
		snprintf(out->why, sizeof(out->why), "%s", d->why);
		return;
	}
	if (d->enabled_at < 0 || now - d->enabled_at >= ENABLED_EVERY ||
	    now < d->enabled_at) {
		d->enabled = d->ops.enabled(d->ops.ctx);
		d->enabled_at = now;
	}
	if (d->enabled == 0) {
		out->state = DELAYS_OFF;
		snprintf(out->why, sizeof(out->why), "%s", TURN_ON);
		return;
	}
	out->state = DELAYS_ON;
	/* Without the switch (before Linux 5.14) it is on unless booted
	 * with nodelayacct, or not built in (then every delay reads 0). */
	if (d->enabled == -ENOENT)
		snprintf(out->why, sizeof(out->why), "no kernel.task_delayacct: "
		    "as the kernel was built and booted");
	else if (d->enabled < 0)
		snprintf(out->why, sizeof(out->why), "cannot read %s: %s",
		    SYSCTL_PATH, strerror(-d->enabled));
	d->gen++;
	for (i = 0; i < n; i++) {
		/* A clock read is some 20 ns: every task, so that a few
		 * answers that do not come cannot run far past the budget. */
		if (i > 0 && clock_mono() - now > BUDGET_SECS) {
			snprintf(out->why, sizeof(out->why), "%zu of %zu tasks "
			    "not asked: over %.0f ms", n - i, n,
			    BUDGET_SECS * 1000);
			break;
		}
		if (tids[i] <= 0)
			continue;
		out->asked++;
		r = d->ops.get(d->ops.ctx, tids[i], &t);
		if (r == -ESRCH || r == -ENOENT) {
			out->gone++;
			continue;
		}
		if (r == -EPERM || r == -EACCES) {
			d->unavailable = true;
			why_set(d->why, sizeof(d->why), r);
			delayacct_read(d, tids, 0, out);
			return;
		}
		if (r != 0 || t.tid != tids[i])
			continue;	/* no answer in time: next tick */
		out->answered++;
		d->version = t.version;
		d->kinds = t.kinds;
		task_account(d, &t, out);
	}
	out->version = d->version;
	out->kinds = d->kinds;
}
