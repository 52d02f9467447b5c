/*
 * The BPF task iterator (taskiter.bpf.c): every task's state counted in
 * the kernel, and the tasks in D and those that ran since the last read
 * listed, in one read of an iterator's seq_file a tick in place of a
 * pread per thread. The task scan (taskscan.c) uses it when it loads and
 * keeps /proc for what only /proc gives (wchan, stacks, cmdlines, users).
 * Needs root (CAP_BPF and CAP_PERFMON), kernel BTF and a build with the
 * probes; PAGETOP_PROBES_BTF, the probes' hook, names the BTF file here too.
 */
#ifndef PAGETOP_TASKITER_H
#define PAGETOP_TASKITER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/taskiter-bpf.h"

/* One read: pointers into the reader's buffer, valid until the next. */
struct taskiter_out {
	uint32_t by_state[128];		/* by state letter, as struct tasks */
	uint32_t total;
	uint32_t d_seen, ran_seen;	/* in D, ran: listed or not */
	size_t n_d, n_ran;		/* listed */
	const struct ti_task *d[TI_MAX_D];
	uint32_t ran[TI_MAX_RAN];	/* tids */
};

struct taskiter;

/* Loads and attaches the iterator: NULL with why when it cannot. All its
 * memory is allocated here. */
struct taskiter *taskiter_open(char *why, size_t size);
/* One walk of every task into out: 0, or -errno. Allocates nothing. */
int taskiter_read(struct taskiter *it, struct taskiter_out *out);
void taskiter_close(struct taskiter *it);
/* The iterator shows nothing of pid 1 (some kernels hide it): its threads
 * are for /proc to read. */
bool taskiter_hides_init(const struct taskiter *it);
/* The walk is the open-coded one (Linux 6.7), not iter/task's lookup of
 * every tid; PAGETOP_TASKITER_WALK=0 makes it iter/task's, for the tests. */
bool taskiter_walks(const struct taskiter *it);

#endif
