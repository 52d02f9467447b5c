/*
 * Per-task delay accounting through taskstats (generic netlink): for the
 * tasks that ran in a tick (taskscan_ran), how much longer each waited
 * since it was last asked, into a struct delays (model/delays.h).
 *
 * The kernel keeps each task's totals while kernel.task_delayacct is 1
 * (off by default since Linux 5.14); pagetop never turns it on, it says
 * how. TASKSTATS_CMD_GET needs CAP_NET_ADMIN in the initial user
 * namespace. Each task's last totals are held in a table of fixed size,
 * mapped at open and touched as far as it is used (the tasks gone are
 * dropped as it grows): a task seen for the first time gives its
 * baseline only. Reads allocate nothing and never wait long: the socket is read
 * without blocking, with a short poll for an answer, and a tick's asking
 * stops at a time budget.
 */
#ifndef PAGETOP_DELAYACCT_H
#define PAGETOP_DELAYACCT_H

#include <stddef.h>
#include <stdint.h>

#include "model/delays.h"

struct delayacct;

/* Opens taskstats and reads kernel.task_delayacct. NULL only when out of
 * memory (why says so); a handle that cannot read gives reads whose state
 * is DELAYS_UNAVAILABLE with the reason. */
struct delayacct *delayacct_open(char *why, size_t size);
/* The n tasks tids (those that ran since the last read) into out, whole.
 * kernel.task_delayacct is read again every few seconds. */
void delayacct_read(struct delayacct *d, const int *tids, size_t n,
    struct delays *out);
void delayacct_close(struct delayacct *d);

/* One task's totals since it began, as the kernel gives them. */
struct delayacct_totals {
	int32_t tid;
	int32_t tgid;			/* 0: not given (before version 12) */
	char comm[DELAYS_COMM_LEN];
	uint64_t btime;			/* when it began (s since 1970): a tid
					 * reused has another */
	uint32_t version;		/* of the kernel's struct taskstats */
	uint32_t kinds;			/* a bit per delay_kind given */
	uint64_t ns[DELAY_KIND_COUNT];
	uint64_t count[DELAY_KIND_COUNT];
};

/*
 * Where the totals come from: taskstats, or a test's own. get gives one
 * task's totals: 0, or -errno (-ESRCH: gone, -EPERM: not allowed,
 * -EAGAIN: no answer in time). enabled gives kernel.task_delayacct: 1, 0,
 * or -errno (-ENOENT: the kernel has no such switch). close may be NULL.
 * alive, unless NULL, says whether a task held is still there: 0, or
 * -ESRCH; without it only a full table drops any.
 */
struct delayacct_ops {
	int (*get)(void *ctx, int tid, struct delayacct_totals *out);
	int (*enabled)(void *ctx);
	void (*close)(void *ctx);
	void *ctx;
	int (*alive)(void *ctx, int tid);
};

/* A reader on ops, with a table of slots entries (a power of two up to
 * 65536; 0: the default), three quarters of them held at most. NULL when
 * out of memory. */
struct delayacct *delayacct_open_ops(const struct delayacct_ops *ops,
    size_t slots, char *why, size_t size);
/* How many tasks' totals are held, and the table's size. */
size_t delayacct_held(const struct delayacct *d);
size_t delayacct_slots(const struct delayacct *d);
/* How many times the tasks gone were dropped at the soft limit. */
size_t delayacct_sweeps(const struct delayacct *d);

/* A struct taskstats of len bytes (TASKSTATS_TYPE_STATS) into out, by its
 * version: 0, or -EINVAL when too short to hold the delays. */
int delayacct_decode(const void *stats, size_t len,
    struct delayacct_totals *out);

#endif
