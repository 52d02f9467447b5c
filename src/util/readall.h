/*
 * The one whole-file read loop: files under /proc are made as they are
 * read and come in pieces, so a file is read until read() says 0. The
 * buffer is the caller's; nothing here allocates, so a caller that reads
 * every tick can grow its buffer rarely and with a cap.
 */
#ifndef PAGETOP_READALL_H
#define PAGETOP_READALL_H

#include <stddef.h>
#include <sys/types.h>

/* For off: read() from where the descriptor stands, not pread(). */
#define READALL_HERE	((off_t)-1)

/*
 * Reads fd into buf until the end of the file or until size bytes are
 * in, with pread() from offset off (or read(), off READALL_HERE), again
 * after a short read or EINTR. The length read, or -errno; size means the
 * buffer is full and the file may go on (at off + size).
 */
ssize_t readall(int fd, void *buf, size_t size, off_t off);

/*
 * A short file's one read: path opened under dirfd with flags (and
 * O_RDONLY | O_CLOEXEC), read() once (again after EINTR) into buf, which
 * is then a string (empty on an error). The length read, or -errno. For a
 * task's stat, status or sched file, whose first read has all of it.
 */
ssize_t readat_once(int dirfd, const char *path, int flags, char *buf, size_t size);

#endif
