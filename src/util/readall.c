#include "util/readall.h"

#include <errno.h>
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
