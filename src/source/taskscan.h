/*
 * The task scan: every thread of every process, every tick, as cheaply as
 * the kernel allows. Each task's stat and schedstat files stay open and
 * are pread() from offset 0. A task whose schedstat did not change has not
 * run since the last tick, so its state cannot have changed and its stat
 * is not read; stat is read for tasks that ran, are new, are in D, and for
 * every task once in ten ticks. Directories are listed again only when
 * /proc/stat's "processes" (forks since boot) moved or a task vanished.
 * For the few tasks in state D it reads wchan; their kernel stacks (root
 * only) and, with libproc2, command lines and users are read by a worker
 * thread (taskinfo.c), because those reads take locks a blocked task may
 * hold (mmap_lock, cred_guard_mutex) and must never stall the scan.
 */
#ifndef PAGETOP_TASKSCAN_H
#define PAGETOP_TASKSCAN_H

#include "model/tasks.h"

struct taskscan;

/* Scans <root> (a procfs). NULL only when out of memory; a root that
 * cannot be listed gives scans whose note says why. */
struct taskscan *taskscan_new(const char *root);
void taskscan_free(struct taskscan *ts);
/* One tick at monotonic time mono. */
void taskscan_read(struct taskscan *ts, double mono, struct tasks *out);
/*
 * The tasks that ran since the last tick, as the last taskscan_read saw
 * them (its schedstat moved, it is new, or, with no schedstat to tell,
 * its stat said R or D): up to max tids into tids, how many given. At
 * most TASKSCAN_RAN_MAX are kept a tick; when more ran, the next tick
 * starts where this one stopped, so each is asked in turn.
 */
#define TASKSCAN_RAN_MAX	512
size_t taskscan_ran(const struct taskscan *ts, int *tids, size_t max);
/* How many ran at the last tick, kept or not. */
size_t taskscan_ran_seen(const struct taskscan *ts);

struct taskiter;
/*
 * Hands the scan the BPF task iterator (taskiter.h), which it then owns:
 * each tick takes the state counts and the tasks in D from it, and reads
 * of /proc only what it alone gives of the blocked ones (wchan, stacks,
 * cmdlines, users). NULL, with why, keeps the /proc scan and says why.
 * A read of the iterator that fails drops it for /proc, for good.
 * Only for a scan of the real /proc (the iterator sees this machine).
 */
void taskscan_set_iter(struct taskscan *ts, struct taskiter *it, const char *why);
/* "BPF task iterator", or "/proc (why not the iterator)". */
void taskscan_how(const struct taskscan *ts, char *buf, size_t size);

#endif
