/* util/readall: the whole-file loop on a pipe that comes in pieces, and
 * readat_once on a short file, a buffer too small, a missing file. */
#include "util/readall.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

int
main(void)
{
	char dir[] = "/tmp/test-readall.XXXXXX", path[64], buf[16], big[64];
	int dfd, fd, p[2];

	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0)
		return 99;
	snprintf(path, sizeof(path), "%s/stat", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT, 0600)) < 0 ||
	    write(fd, "1 (x) S 0 1 2\n", 14) != 14 || close(fd) != 0)
		return 99;

	tap_eq_int(readat_once(dfd, "stat", 0, big, sizeof(big)), 14, "a short file: its length");
	tap_eq_str(big, "1 (x) S 0 1 2\n", "... as a string");
	tap_eq_int(readat_once(dfd, "stat", O_NONBLOCK, buf, 5), 4, "a buffer of 5: 4 bytes");
	tap_eq_str(buf, "1 (x", "... ended by a NUL");
	memcpy(buf, "stale", 6);
	tap_eq_int(readat_once(dfd, "gone", 0, buf, sizeof(buf)), -ENOENT, "missing: -ENOENT");
	tap_eq_str(buf, "", "... and an empty string, not what was there");

	/* readall() goes on after a short read until the end. */
	if (pipe(p) != 0)
		return 99;
	if (write(p[1], "abc", 3) != 3 || write(p[1], "defg", 4) != 4)
		return 99;
	close(p[1]);
	tap_eq_int(readall(p[0], big, sizeof(big), READALL_HERE), 7, "readall: both pieces");
	tap_ok(memcmp(big, "abcdefg", 7) == 0, "... in order");
	close(p[0]);

	unlink(path);
	close(dfd);
	rmdir(dir);
	return tap_done();
}
