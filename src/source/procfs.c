#include "source/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/readall.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define PROCFS_BUF_START	(64 * 1024)
/* zoneinfo of a large NUMA box is a few hundred KB; nothing we read is near this. */
#define PROCFS_BUF_MAX		(16 * 1024 * 1024)

int
procfs_init(struct procfs *p, const char *root)
{
	struct statfs sfs;
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (strlen(root) >= sizeof(p->root) - 64)
		return -ENAMETOOLONG;
	if (stat(root, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	snprintf(p->root, sizeof(p->root), "%s", root);
	p->is_procfs = statfs(root, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
	p->cap = PROCFS_BUF_START;
	if (!(p->buf = malloc(p->cap)))
		return -ENOMEM;
	return 0;
}

void
procfs_free(struct procfs *p)
{
	free(p->buf);
	p->buf = NULL;
}

void
procfs_path(const struct procfs *p, const char *rel, char *dst, size_t size)
{
	snprintf(dst, size, "%s/%s", p->root, rel);
}

void
procfs_close_file(struct procfs_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Files under /proc are generated on read: readall() goes on until pread() returns 0. */
ssize_t
procfs_read(struct procfs *p, struct procfs_file *f)
{
	char path[PROCFS_PATH_MAX + 64];
	struct stat st;
	size_t n = 0;
	ssize_t r;

	/* A kernel without the file (pressure/irq before 6.1, or without
	 * CONFIG_IRQ_TIME_ACCOUNTING) does not grow one: one open a tick
	 * less. A tree of captured files is looked at every time. */
	if (f->fd < 0 && f->absent && p->is_procfs)
		return -ENOENT;
	if (f->fd < 0) {
		procfs_path(p, f->rel, path, sizeof(path));
		/* Non-blocking, and regular files only (procfs's are too): a
		 * FIFO or a device planted in a proc root must not hang or
		 * feed us forever. */
		if ((f->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC)) < 0) {
			f->fd = -1;
			f->absent = errno == ENOENT;
			return -errno;
		}
		if (fstat(f->fd, &st) < 0) {
			r = -errno;
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			r = S_ISDIR(st.st_mode) ? -EISDIR : -PROCFS_NOT_REGULAR;
			goto out;
		}
	}
	for (;;) {
		if (n + 1 >= p->cap) {
			char *nb;

			if (p->cap >= PROCFS_BUF_MAX) {
				r = -EFBIG;
				goto out;
			}
			if (!(nb = realloc(p->buf, p->cap * 2))) {
				r = -ENOMEM;
				goto out;
			}
			p->buf = nb;
			p->cap *= 2;
		}
		if ((r = readall(f->fd, p->buf + n, p->cap - n - 1, (off_t)n)) < 0)
			goto out;
		n += (size_t)r;
		if (n + 1 < p->cap)
			break;		/* the end of the file before the end of the buffer */
	}
	p->buf[n] = '\0';
	r = (ssize_t)n;
out:
	/* Keep descriptors on procfs only; elsewhere a replaced file must be seen. */
	if (!p->is_procfs || r < 0)
		procfs_close_file(f);
	return r;
}
