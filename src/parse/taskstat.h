/* /proc/PID/task/TID/stat: the fields the task scan needs. */
#ifndef PAGETOP_TASKSTAT_H
#define PAGETOP_TASKSTAT_H

#include <stddef.h>

#include "util/text.h"

struct taskstat {
	int pid;
	char comm[16];		/* up to 15 bytes; may hold spaces, parens, newlines */
	char state;		/* R S D T t X Z P I ... */
	int ppid;
};

/* Splits on the LAST ')' (comm may contain ')'); 0 or -EINVAL. */
int taskstat_parse(const char *buf, size_t len, struct taskstat *out, struct parse_error *err);

#endif
