/*
 * What export writes, in blocks of a MiB, written out by a thread of its
 * own while the next block fills: a day's JSON is 800 MB, and the
 * kernel's copy of it into a file takes as long as making it. With one
 * CPU, or when the thread cannot start, the blocks are written as they
 * fill. The bytes go out as they were put, in order.
 */
#ifndef PAGETOP_EXPORT_WRITE_H
#define PAGETOP_EXPORT_WRITE_H

#include <stddef.h>
#include <stdio.h>

struct export_write;

/* Writes to fd, which nothing else writes to until export_write_end().
 * NULL when out of memory. */
struct export_write *export_write_new(int fd);
void export_write_put(struct export_write *w, const void *p, size_t n);
/* A stream that puts what is written to it (unbuffered: it goes
 * straight into the block). NULL when out of memory. fclose() it before
 * export_write_end(). */
FILE *export_write_file(struct export_write *w);
/* Writes out what is held, stops the thread and frees w. 0, or the first
 * write's -errno. */
int export_write_end(struct export_write *w);

#endif
