#include "source/host-read.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static void
read_line(const char *root, const char *rel, char *dst, size_t size)
{
	char path[4200];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* Non-blocking, and regular files or procfs only: a FIFO planted
	 * in a proc root must not hang the start. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)) < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	n = read(fd, dst, size - 1);
	close(fd);
	if (n <= 0)
		return;
	dst[n] = '\0';
	dst[strcspn(dst, "\n")] = '\0';
}

void
host_read(struct host *h, const char *root)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
		snprintf(h->release, sizeof(h->release), "%s", u.release);
		snprintf(h->machine, sizeof(h->machine), "%s", u.machine);
	}
	if (strcmp(root, "/proc") != 0) {
		/* A capture tells its own names, or none. */
		strcpy(h->hostname, "?");
		strcpy(h->release, "?");
	}
	read_line(root, "sys/kernel/hostname", h->hostname, sizeof(h->hostname));
	read_line(root, "sys/kernel/osrelease", h->release, sizeof(h->release));
	h->pageblock_order = -1;
	h->page_size = sysconf(_SC_PAGESIZE);
	h->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}
