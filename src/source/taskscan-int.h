/*
 * What the three files of the task scan share: the scanner's state, its
 * tasks and processes, and the functions one file calls in another.
 * taskscan.c is the tick (and says how the scan works), taskscan-dirs.c
 * lists the directories and holds the descriptors, taskscan-blocked.c
 * reads what is shown of the tasks in D.
 */
#ifndef PAGETOP_TASKSCAN_INT_H
#define PAGETOP_TASKSCAN_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/tasks.h"
#include "parse/taskstat.h"
#include "source/taskscan.h"

#define DENTS_SIZE		(32 * 1024)

struct task {
	int tid;		/* 0: gone, dropped at the next listing */
	int tgid;
	int fd;			/* its stat, or -1: opened each tick */
	int sfd;		/* its schedstat, or -1: stat read every tick */
	char state;		/* at the last stat read, 0: none or unparsed */
	uint64_t sched_sig;	/* of its schedstat then, 0: none */
	bool fresh;		/* listed this tick, not read yet */
	bool moved;		/* carried into the listing being made */
	bool in_d;		/* in D at the last tick */
	bool since_start;
	enum blocked_since since_from;
	uint64_t wchan_hash;	/* of the wchan it is blocked on */
	double since;		/* mono when first seen in D on that wchan */
};

/* A process: its threads are t[start .. start + count). */
struct proc {
	int tgid;
	bool dirty;		/* its task directory must be listed again */
	bool kept;		/* carried whole into the listing being made */
	int nthreads;		/* from its leader's line, -1 unknown */
	unsigned long id;	/* new when the process is new or its leader gone */
	size_t start, count;
};

/* Open addressing, key 0 empty: tid -> task, or tgid -> proc. */
struct slot {
	int key;
	int val;
};

struct index {
	struct slot *s;
	size_t size;		/* a power of two, at least twice the keys */
};

struct taskscan {
	char root[PATH_MAX];
	int root_fd;		/* -1 when root could not be opened */
	int root_err;
	bool live;		/* root is /proc itself: libproc2 sees the same */

	int stat_fd;		/* <root>/stat, for "processes" */
	char *procstat;
	size_t procstat_cap;
	uint64_t processes;	/* at the last listing of <root> */
	bool have_processes;
	double listed_at;	/* mono of the last full listing */
	int list_err;		/* errno of the last listing of <root> */
	unsigned long scans;
	double began;		/* clock_mono() when this scan began */

	struct task *t, *t_next;	/* by process, in <root>'s order */
	size_t n_t, cap_t, cap_t_next;
	struct proc *p, *p_next;
	size_t n_p, cap_p, cap_p_next;
	int *tgids;		/* <root> as listed this tick */
	size_t n_tgids, cap_tgids;
	bool root_listed;	/* tgids is this tick's */
	bool full;		/* list every task directory this tick */
	bool any_dirty;
	struct index by_tid;	/* tasks of dirty processes */
	struct index by_tgid;	/* processes */

	size_t held;		/* descriptors open in t */
	size_t fd_cap;
	unsigned long fd_limit;
	size_t reopened;	/* tasks read with open/pread/close */
	bool fds_short;		/* EMFILE while reopening */
	bool no_sched;		/* schedstat missing: not opened till full */

	struct taskinfo *info;	/* stacks, cmdlines, users; NULL: none */
	struct taskiter_scan *iter;	/* the BPF task iterator, NULL: /proc */
	char iter_why[96];	/* why /proc is scanned, "" when not said */
	bool info_proc2;	/* told the worker that /proc is scanned */
	unsigned long proc_ids;	/* the last one given */
	/* Of out->b[i]: */
	bool kthread[TASKS_MAX_BLOCKED];
	unsigned long b_proc_id[TASKS_MAX_BLOCKED];
	struct task *b_task[TASKS_MAX_BLOCKED];	/* this tick only */
	unsigned long sigs[TASKS_MAX_STACKS];
	struct stack scratch;	/* a stack read when all slots are taken */

	/* The tasks that ran this tick (taskscan_ran), in the order read.
	 * From the ran_from'th on they come first: those before it are
	 * kept at the front while room is left and overwritten from the
	 * front (the earliest first) by later ones when it is not. */
	int ran[TASKSCAN_RAN_MAX];
	size_t n_ran;		/* kept */
	size_t ran_seen;	/* ran this tick */
	size_t ran_from;	/* where this tick's turn starts */
	size_t ran_before;	/* kept from before ran_from, at the front */
	size_t ran_over;	/* of those, overwritten */
	size_t ran_next;	/* the first refused from ran_from on */
	bool ran_refused;

	_Alignas(8) char dents[DENTS_SIZE];	/* struct dirent64 records */
};

/* taskscan-dirs.c: listing and descriptors. */
/* Makes room for need elements in *arr, doubling: 0 or -ENOMEM. */
int	taskscan_grow(void *arr, size_t *cap, size_t need, size_t size);
/* Raises the soft descriptor limit to the hard one; sets the cap. */
void	taskscan_fd_limit_raise(struct taskscan *ts);
/* The processes in <root>, in its order, into ts->tgids: 0 or -errno. */
int	taskscan_root_list(struct taskscan *ts);
/* The next listing, merged by tid with the last: 0 or -errno. */
int	taskscan_relist(struct taskscan *ts);
/* <root>/P/task/T/<name> opened, or -1 with errno set. */
int	taskscan_task_open(struct taskscan *ts, const struct task *e,
	    const char *name);

/* taskscan-blocked.c: the tasks in D. */
/* Blocked task i's stack, as an index in out->stacks, or -1 and why
 * not; and, for a task in D at the first scan, when it last ran. */
void	taskscan_stack_get(struct taskscan *ts, int i, bool anew,
	    double mono, struct tasks *out);
/* A task seen in D: its entry in out, and how long it has been blocked. */
void	taskscan_blocked_add(struct taskscan *ts, struct task *e,
	    const struct taskstat *st, bool kthread, unsigned long proc_id,
	    double mono, struct tasks *out);
/* Command lines and users of the blocked tasks' processes. */
void	taskscan_details_fill(struct taskscan *ts, struct tasks *out);

/* taskiter-scan.c: the tick through the BPF task iterator. */
/* Counts and blocked tasks into out: 0, or -errno and the iterator is
 * dropped (ts->iter NULL, iter_why says why) for /proc to scan. */
int	taskiter_scan_read(struct taskscan *ts, double mono, struct tasks *out);
void	taskiter_scan_free(struct taskiter_scan *is);

/* Task tid ran this tick, for taskscan_ran (taskscan.c). */
void taskscan_ran_note(struct taskscan *ts, int tid);

#endif
