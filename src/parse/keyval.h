/*
 * The line loop of the "name value" files, /proc/meminfo and /proc/vmstat:
 * every line that is not blank goes to the file's own line parser; the
 * lines it passes over are counted, and the first one's number and reason
 * kept, so that a file with no line taken can say what was wrong with it.
 */
#ifndef PAGETOP_KEYVAL_H
#define PAGETOP_KEYVAL_H

#include <stddef.h>

#include "util/text.h"

/* Takes one line into out: NULL, or why it was passed over (a constant
 * string). */
typedef const char *keyval_line_fn(struct span line, void *out);

/* Hands each line of buf that is not blank to line(), and counts in
 * *skipped those it passed over. 0, or -EINVAL with err saying none (and
 * why the first line was passed over, at its number) when it took none. */
int keyval_parse(const char *buf, size_t len, keyval_line_fn *line, void *out, int *skipped,
		 struct parse_error *err, const char *none);

#endif
