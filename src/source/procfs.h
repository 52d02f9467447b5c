/* Reads whole files under a proc root (default /proc). On a real procfs the
 * descriptors stay open and each read is pread() from offset 0; under any
 * other root (a test's directory of captured files) every read reopens, so
 * a file replaced between ticks is seen. */
#ifndef PAGETOP_PROCFS_H
#define PAGETOP_PROCFS_H

#include <stdbool.h>
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>

#define PROCFS_PATH_MAX	4096
/* What procfs_read() returns, negated, for a file that is neither a
 * regular file nor a directory (a FIFO, a device): "No such device". */
#define PROCFS_NOT_REGULAR	ENODEV

struct procfs_file {
	const char *rel;	/* "buddyinfo", "pressure/memory" */
	int fd;			/* -1 when not open */
	bool absent;		/* not in the kernel's /proc: not looked for again */
};

struct procfs {
	char root[PROCFS_PATH_MAX];
	bool is_procfs;		/* root is a real procfs: keep descriptors open */
	char *buf;		/* the last file read, NUL-terminated */
	size_t cap;
};

/* 0, or -errno when root is not a readable directory. */
int procfs_init(struct procfs *p, const char *root);
void procfs_free(struct procfs *p);
/* Reads f whole into p->buf: the length, or -errno (ENOENT, EACCES,
 * EOPNOTSUPP, EFBIG past the buffer cap, EISDIR, PROCFS_NOT_REGULAR
 * for a FIFO or a device: never opened blocking, never read). */
ssize_t procfs_read(struct procfs *p, struct procfs_file *f);
void procfs_close_file(struct procfs_file *f);
/* "<root>/<rel>" into dst, for messages. */
void procfs_path(const struct procfs *p, const char *rel, char *dst, size_t size);

#endif
