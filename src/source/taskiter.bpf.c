// SPDX-License-Identifier: GPL-2.0
/*
 * pagetop's task iterator: an iter/task program that walks every task once
 * per read of its seq_file and counts each in the state letter that
 * /proc/PID/stat would show (the kernel's __task_state_index()), writing
 * a record for each task in D or that ran since the last walk, and the
 * counts at the end. One read in place of a pread per thread.
 *
 * bpf_seq_read() shows a task again when its record did not fit: a task is
 * counted only once its record (if any) is written, so it is never counted
 * twice.
 *
 * taskiter_walk does the same walk in one call, through the open-coded
 * task iterator (bpf_iter_task_new, Linux 6.7): the iter/task walk looks
 * every tid up in the pid table and takes a reference on its task, which
 * at 50,000 threads was half its time (get_pid_task, pid_nr_ns), where
 * this one follows the task lists under RCU. It is attached to the
 * reader's own process (a walk of its threads, so one call), writes its
 * records into recs[] and only the end record through the seq_file.
 */
#include "source/vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "source/taskiter-bpf.h"

/* include/linux/sched.h, as of 6.x; TASK_REPORT is stable since 4.14. */
#define TASK_REPORT		0x7f
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_NOLOAD		0x0400
#define TASK_IDLE		(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_RTLOCK_WAIT	0x1000
#define TASK_FROZEN		0x8000
#define PF_KTHREAD		0x00200000

char LICENSE[] SEC("license") = "GPL";

/* Zeroed by the reader before each walk; the end record resets too. */
__u32 by_state[TI_STATES];
__u32 total, n_d, n_ran, listed_d, listed_ran;
/* The reader's last arrival on a CPU before the last walk began: a task
 * that arrived on one since has run (sched_info.last_arrival, rq clock).
 * Taken before the first task is seen, so that nothing that ran after it
 * was seen is missed; a task that ran just before may count twice. */
__u64 prev_start, this_start;
/* taskiter_walk's records, read by the reader through the mapped .bss. */
struct ti_task recs[TI_MAX_D + TI_MAX_RAN];
__u32 n_recs;
__u32 saw_init;		/* the walk met pid 1: some kernels hide it */

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;

struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int
task_state_get(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (unsigned int)BPF_CORE_READ((struct task_struct___old *)t, state);
}

/* The same with plain loads, for the trusted pointers of the open-coded
 * iterator (a probe read per field costs more than the rest of a task). */
static __always_inline unsigned int
task_state_direct(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return (unsigned int)((struct task_struct___old *)(void *)t)->state;
}

/* __task_state_index(): an index into TI_LETTERS. */
static __always_inline unsigned int
state_index(unsigned int st, unsigned int exit_state)
{
	unsigned int s = (st | exit_state) & TASK_REPORT;

	if ((st & TASK_IDLE) == TASK_IDLE)
		return 8;	/* TASK_REPORT_IDLE: I */
	if (st & (TASK_RTLOCK_WAIT | TASK_FROZEN))
		return 2;	/* shown as uninterruptible */
	/* fls(): BPF has no clz instruction, and s has 7 bits. */
	for (int b = 6; b >= 0; b--)
		if (s & (1u << b))
			return (unsigned int)b + 1;
	return 0;
}

static __always_inline void
record_fill(struct ti_task *r, struct task_struct *t, unsigned int i, bool ran)
{
	r->kind = TI_REC_TASK;
	r->tid = (__u32)t->pid;
	r->tgid = (__u32)t->tgid;
	r->what = (i == 2 ? TI_F_D : 0) | (ran ? TI_F_RAN : 0) |
	    (t->flags & PF_KTHREAD ? TI_F_KTHREAD : 0);
	r->leader_start = BPF_CORE_READ(t, group_leader, start_time);
	r->ran_ns = t->se.sum_exec_runtime;
	__builtin_memcpy(r->comm, t->comm, sizeof(r->comm));
}

/* The end record: the counts, then all reset for the next walk. */
static __always_inline void
end_write(struct seq_file *seq)
{
	struct ti_end e = { .kind = TI_REC_END, .total = total,
			    .n_d = n_d, .n_ran = n_ran };
	unsigned int i;

	for (i = 0; i < TI_STATES; i++)
		e.by_state[i] = by_state[i];
	if (bpf_seq_write(seq, &e, sizeof(e)) == 0) {
		for (i = 0; i < TI_STATES; i++)
			by_state[i] = 0;
		total = n_d = n_ran = listed_d = listed_ran = 0;
		prev_start = this_start;
	}
}

/* A D task or one that ran gets a record, each kind up to its cap. */
static __always_inline bool
wants_record(unsigned int i, bool ran)
{
	return (i == 2 && listed_d < TI_MAX_D) || (ran && listed_ran < TI_MAX_RAN);
}

/* Task of state i (< TI_STATES) in the counts, and in the caps when it
 * got a record. */
static __always_inline void
count_task(unsigned int i, bool ran, bool listed)
{
	if (listed && i == 2)
		listed_d++;
	if (listed && ran)
		listed_ran++;
	by_state[i]++;
	total++;
	if (i == 2)
		n_d++;
	if (ran)
		n_ran++;
}

SEC("iter/task")
int
taskiter_walk(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t, *me;
	struct bpf_iter_task it;
	unsigned int i, n;
	bool ran, listed;

	/* The whole walk at the first of the reader's threads; the end
	 * record when its threads are done. */
	if (!ctx->task) {
		end_write(seq);
		return 0;
	}
	if (ctx->meta->seq_num != 0)
		return 0;
	me = bpf_get_current_task_btf();
	this_start = BPF_CORE_READ(me, sched_info.last_arrival);
	n_recs = 0;
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_THREADS);
	while ((t = bpf_iter_task_next(&it)) != NULL) {
		/* It starts at the idle task of CPU 0, which no /proc shows. */
		if (t->pid == 0)
			continue;
		if (t->pid == 1)
			saw_init = 1;
		i = state_index(task_state_direct(t), (unsigned int)t->exit_state);
		if (i >= TI_STATES)
			continue;
		ran = i == 0 || (prev_start != 0 &&
		    t->sched_info.last_arrival >= prev_start);
		listed = false;
		if (wants_record(i, ran)) {
			n = n_recs;
			if (n < TI_MAX_D + TI_MAX_RAN) {
				record_fill(&recs[n], t, i, ran);
				n_recs = n + 1;
				listed = true;
			}
		}
		count_task(i, ran, listed);
	}
	bpf_iter_task_destroy(&it);
	return 0;
}

SEC("iter/task")
int
taskiter(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task;
	struct task_struct *me;
	struct ti_task r;
	unsigned int i;
	bool ran, listed;

	if (!t) {
		end_write(seq);
		return 0;
	}
	if (ctx->meta->seq_num == 0) {
		me = bpf_get_current_task_btf();
		this_start = BPF_CORE_READ(me, sched_info.last_arrival);
	}
	i = state_index(task_state_get(t), (unsigned int)t->exit_state);
	if (i >= TI_STATES)
		return 0;
	ran = i == 0 || (prev_start != 0 &&
	    BPF_CORE_READ(t, sched_info.last_arrival) >= prev_start);
	listed = wants_record(i, ran);
	if (listed) {
		record_fill(&r, t, i, ran);
		if (bpf_seq_write(seq, &r, sizeof(r)) != 0)
			return 0;	/* shown again at the next read */
	}
	count_task(i, ran, listed);
	return 0;
}
