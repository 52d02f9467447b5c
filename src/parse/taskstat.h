/* /proc/PID/task/TID/stat: the fields the task scan needs; and its
 * schedstat, as a signature of whether the task ran. */
#ifndef PAGETOP_TASKSTAT_H
#define PAGETOP_TASKSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

struct taskstat {
	int pid;
	char comm[16];		/* up to 15 bytes; may hold spaces, parens, newlines */
	char state;		/* R S D T t X Z P I ... */
	int ppid;
};

/* Splits on the LAST ')' (comm may contain ')'); 0 or -EINVAL. */
int taskstat_parse(const char *buf, size_t len, struct taskstat *out, struct parse_error *err);
/* Field n of a stat line (counted from 1 as in proc(5), after comm: n > 2)
 * when it holds an unsigned number, else -1; past LLONG_MAX / 10 its
 * digits stop counting. */
long long taskstat_field(const char *buf, size_t len, int n);
/* A schedstat's contents ("run_ns wait_ns timeslices") as a number that
 * moves whenever they do: never 0, except for "0 0 0", which says nothing
 * (never run, or schedstats and delay accounting off). */
uint64_t taskstat_sched_sig(const char *buf, size_t len);

#endif
