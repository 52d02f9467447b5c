/*
 * The blocked tasks' details, inside: taskinfo.c holds the entries and
 * runs the worker, which reads with taskinfo-read.c (plain /proc files)
 * or taskinfo-proc2.c (libproc2, for the /proc scan). Only they include
 * this.
 */
#ifndef PAGETOP_TASKINFO_INT_H
#define PAGETOP_TASKINFO_INT_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "parse/stack.h"

#define ENTRIES_MAX	512	/* twice the blocked tasks a scan lists */
#define STACKS_MAX	256	/* as many */
#define STACK_PACKED	2048	/* a packed stack: 64 frames of 31 bytes */
#define STACK_READ	(16 * 1024)	/* 64 frames of ~100 bytes */
#define CMDLINE_MAX	160	/* as struct blocked_task's */
#define USER_MAX	32
#define SCHED_READ	512	/* se.exec_start is its third line */
#define USERS_KEPT	8	/* uid to name, the last looked up */

enum entry_state { ENTRY_FREE, ENTRY_PENDING, ENTRY_READING, ENTRY_KNOWN };

struct entry {
	enum entry_state state;
	int tgid;
	unsigned long proc_id;
	char comm[16];
	unsigned long used;	/* the scan that last asked */
	unsigned long asked;	/* order of the asking, oldest read first */
	unsigned long gen;	/* moves when the entry is given to another */
	char cmdline[CMDLINE_MAX];
	char user[USER_MAX];
};

/* A blocked task's stack, read again at every tick that asks. */
struct stack_entry {
	enum entry_state state;
	int tgid, tid;
	unsigned long used, asked, gen;
	bool have;		/* packed holds the last one read */
	int err;		/* of the last read, 0 */
	bool ran_want;		/* read its sched file too, once */
	bool ran_have;		/* ran_at is known */
	double ran_at;		/* clock_mono() when it last ran, at the latest */
	uint16_t len;
	char packed[STACK_PACKED];	/* stack_pack(): touched only as far as it goes */
};

struct pids_info;

struct taskinfo {
	pthread_mutex_t mtx;
	pthread_cond_t work;	/* an entry is pending, or stop */
	pthread_cond_t done;	/* the worker has stopped */
	pthread_cond_t idle;	/* the worker found nothing to do */
	pthread_t thread;
	bool stop;
	bool running;
	bool orphaned;		/* freed while reading: the worker frees */
	unsigned long asks;
	unsigned long gens;
	int stack_denied;	/* EACCES or EPERM: stacks need root */
	bool reading;		/* the worker is in a read */
	unsigned long reading_scan;	/* the scan that asked for it */
	struct entry e[ENTRIES_MAX];
	int n;
	struct stack_entry s[STACKS_MAX];
	int n_s;

	bool proc2;		/* the scan reads /proc: details through
				 * libproc2 when live */

	/* The worker's alone. */
	bool live;		/* the real /proc */
	bool pids_tried;
	struct pids_info *pids;	/* once libproc2 is set up, else NULL */
	int root_fd;		/* stacks, and cmdlines when not live */
	char cmdline[CMDLINE_MAX];
	char user[USER_MAX];
	struct stack st;
	char stackbuf[STACK_READ];
	char schedbuf[SCHED_READ];
	bool cpus_known;	/* cpus: the worker's own CPUs, to go back to */
	cpu_set_t cpus;
	struct {
		unsigned uid;
		char name[USER_MAX];
	} users[USERS_KEPT];
	int n_users, next_user;
};

/* taskinfo-read.c: the worker's reads, into ti's buffers. The command
 * line of <root>/P into ti->cmdline, "[comm]" when empty. */
void taskinfo_read_cmdline(struct taskinfo *ti, int tgid, const char *comm);
/* Its effective user into ti->user, when it can be told. */
void taskinfo_read_user(struct taskinfo *ti, int tgid);
/* <root>/P/task/T/stack parsed into ti->st: 0 or -errno. */
int taskinfo_read_stack(struct taskinfo *ti, int tgid, int tid);
/* When task tid last ran, in clock_mono() seconds: 0 or -errno. */
int taskinfo_read_last_ran(struct taskinfo *ti, int tgid, int tid, double *at);

/* taskinfo-proc2.c: libproc2 set up on the worker, once (ti->pids stays
 * NULL if it cannot be); a process's command line and user through it;
 * and its state given back. */
void taskinfo_proc2_setup(struct taskinfo *ti);
void taskinfo_proc2_read(struct taskinfo *ti, int tgid);
void taskinfo_proc2_free(struct taskinfo *ti);

#endif
