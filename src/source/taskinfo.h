/*
 * The details of a blocked task (its process's command line and user,
 * its kernel stack), read by a worker thread so that the scan never
 * waits on them: reading /proc/P/cmdline takes P's mmap lock, which a
 * task stuck in a page fault or in reclaim holds or waits on, and a
 * stack read takes P's exec lock. The scan asks and takes what is known;
 * until the worker has read it, a process shows TASKINFO_PENDING as its
 * command line and "" as its user, and a task no stack. Stacks are read
 * again at every tick that asks; meanwhile the last one read is shown.
 */
#ifndef PAGETOP_TASKINFO_H
#define PAGETOP_TASKINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/stack.h"

#define TASKINFO_PENDING	"(reading...)"

struct taskinfo;

/*
 * Details of the processes under <root>: through libproc2 when live
 * (root is the real /proc) and the scan reads /proc, else by plain reads
 * of <root>/P/cmdline and, live, /proc/P/status for the user. NULL when
 * out of memory or no thread can be started.
 */
struct taskinfo *taskinfo_new(const char *root, bool live);
/* Whether the scan reads /proc (at first it does): off, libproc2 is not
 * loaded for the details. */
void taskinfo_proc2(struct taskinfo *ti, bool on);
/* Never waits for a read in progress: a worker stuck in one is left to
 * free what it holds when the read returns. */
void taskinfo_free(struct taskinfo *ti);
/*
 * The details of process tgid (proc_id and comm tell one process from
 * another that took its pid, or itself after an exec) into cmdline and
 * user: true when known; else they are asked of the worker, the
 * placeholders are copied, and false. Never blocks on /proc, never
 * allocates; scan is the caller's tick count, to keep the recently used.
 */
bool taskinfo_get(struct taskinfo *ti, int tgid, unsigned long proc_id,
    const char *comm, unsigned long scan, char *cmdline, size_t cmdline_size,
    char *user, size_t user_size);
/*
 * The last stack read of task tid of tgid into *st: 0; -errno of the
 * last read (EACCES or EPERM: stacks need root, for good; ENOENT: the
 * kernel keeps none; ESRCH: it was running when read, or gone); -EAGAIN
 * when none was read yet, -EBUSY when the worker has been busy with
 * another read since the scan before last. Asks for a new read unless one is
 * under way (or stuck). anew: the task has just blocked, an older stack
 * is not its own. ran_at, unless NULL: when the task last ran, in
 * clock_mono()'s seconds, at the latest (its sched file's se.exec_start,
 * against the reader's own), read once with a stack, NAN until then.
 * Never blocks on /proc, never allocates.
 */
int taskinfo_stack(struct taskinfo *ti, int tgid, int tid, bool anew,
    unsigned long scan, struct stack *st, double *ran_at);
/*
 * Waits at most ms for the worker to have read all it was asked: whether
 * it has. For a first scan, which may be all a caller takes (pagetop
 * snapshot); never in the steady state.
 */
bool taskinfo_wait(struct taskinfo *ti, int ms);

#endif
