/*
 * What the task iterator (taskiter.bpf.c) writes through its seq_file and
 * its reader (taskiter.c) parses: fixed-size records, one per task in D or
 * that ran since the last read, then one end record with the counts.
 */
#ifndef PAGETOP_TASKITER_BPF_H
#define PAGETOP_TASKITER_BPF_H

#define TI_MAX_D	1024	/* D records a read, the rest only counted */
#define TI_MAX_RAN	4096	/* "ran" records a read, the rest only counted */
#define TI_STATES	9	/* R S D T t X Z P I, as task_index_to_char() */
#define TI_LETTERS	"RSDTtXZPI"

#define TI_REC_TASK	0x7469u	/* "it" */
#define TI_REC_END	0x6e65u	/* "en" */

#define TI_F_D		1u	/* in D: for the blocked list */
#define TI_F_RAN	2u	/* on a CPU since the last read */
#define TI_F_KTHREAD	4u	/* PF_KTHREAD */

struct ti_task {
	__u32 kind;		/* TI_REC_TASK */
	__u32 tid, tgid;	/* in the initial pid namespace */
	__u32 what;		/* TI_F_* */
	__u64 leader_start;	/* its leader's start_time: the process's identity */
	__u64 ran_ns;		/* se.sum_exec_runtime */
	char comm[16];
};

struct ti_end {
	__u32 kind;		/* TI_REC_END */
	__u32 total;
	__u32 by_state[TI_STATES];
	__u32 n_d, n_ran;	/* seen, listed or not */
	__u32 pad;
};

#endif
