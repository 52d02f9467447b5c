#include "util/readall.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t
readall(int fd, void *buf, size_t size, off_t off)
{
	char *p = buf;
	size_t n = 0;
	ssize_t r;

	while (n < size) {
		if (off == READALL_HERE)
			r = read(fd, p + n, size - n);
		else
			r = pread(fd, p + n, size - n, off + (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

ssize_t
readat_once(int dirfd, const char *path, int flags, char *buf, size_t size)
{
	ssize_t r;
	int fd;

	buf[0] = '\0';
	if ((fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | flags)) < 0)
		return -errno;
	do
		r = read(fd, buf, size - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		r = -errno;
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}
