/* Marks from scripts: the listeners' sockets, and sending to the ones
 * that take marks now. */
#include "source/marks.h"

#include <dirent.h>
#include <signal.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* $XDG_RUNTIME_DIR/pagetop, else /tmp/pagetop-UID; made 0700 and ours.
 * -ENOENT when it is not there (nothing has listened), -EPERM when it is
 * not ours to use, with why. */
static int
marks_dir(char *dst, size_t size, bool create, char *why, size_t whylen)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (xdg && *xdg)
		snprintf(dst, size, "%s/pagetop", xdg);
	else
		snprintf(dst, size, "/tmp/pagetop-%u", (unsigned)getuid());
	if (create && mkdir(dst, 0700) < 0 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", dst, strerror(errno));
		return -errno;
	}
	if (lstat(dst, &st) < 0) {
		int e = errno;

		snprintf(why, whylen, "%s: %s", dst, strerror(e));
		return -e;
	}
	/* Someone else's directory in /tmp is a trap, not a rendezvous: say
	 * whose it is, so the user knows why no mark goes through. */
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s is not a directory: marks cannot use it", dst);
		return -EPERM;
	}
	if (st.st_uid != getuid()) {
		snprintf(why, whylen, "%s is taken by another user (uid %u): marks cannot use it "
			 "(set XDG_RUNTIME_DIR, or have it removed)", dst, (unsigned)st.st_uid);
		return -EPERM;
	}
	if (st.st_mode & 077) {
		snprintf(why, whylen, "%s is open to other users (mode %03o): marks do not use it",
			 dst, (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

int
marks_listen(char *path, size_t pathlen, char *why, size_t whylen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path) - 16];
	int fd;

	if (marks_dir(dir, sizeof(dir), true, why, whylen) < 0)
		return -1;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.80s/%ld.sock", dir, (long)getpid());
	unlink(sa.sun_path);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(why, whylen, "%s: %s", sa.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* Taking marks from the start, whatever the umask: a dashboard
	 * that does not record says so by taking the write bit away. */
	if (chmod(sa.sun_path, MARKS_TAKING) < 0) {
		snprintf(why, whylen, "%s: %s", sa.sun_path, strerror(errno));
		close(fd);
		unlink(sa.sun_path);
		return -1;
	}
	snprintf(path, pathlen, "%s", sa.sun_path);
	return fd;
}

int
marks_receive(int fd, char *text, size_t size)
{
	ssize_t n;

	if (fd < 0 || (n = recv(fd, text, size - 1, MSG_DONTWAIT)) < 0)
		return 0;
	text[n] = '\0';
	/* A mark is one line of text: control characters would reach terminals. */
	for (ssize_t i = 0; i < n; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			text[i] = ' ';
	return 1;
}

void
marks_close(int fd, const char *path)
{
	if (fd >= 0)
		close(fd);
	if (path && *path)
		unlink(path);
}

int
marks_taking(const char *path, bool on)
{
	if (!path || !*path)
		return -ENOENT;
	return chmod(path, on ? MARKS_TAKING : MARKS_NOT_TAKING) < 0 ? -errno : 0;
}

#define MARKS_NONE	"nothing is recording: press R in the dashboard, or start pagetop record"

/* Whether the listener at path takes marks now: its socket is writable
 * by its owner (marks.h). One that is not, left by a pagetop that died,
 * is removed. */
static bool
marks_taken_at(const char *path, long pid)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	if (st.st_mode & S_IWUSR)
		return true;
	if (pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		unlink(path);
	return false;
}

int
marks_send(const char *text, char *why, size_t whylen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path) - 16];
	struct dirent *de;
	DIR *d;
	int fd, sent = 0, r;
	size_t len = strlen(text);

	/* Cut on a character boundary: the byte after the cut must not
	 * continue a UTF-8 character. */
	if (len > MARK_TEXT_MAX) {
		len = MARK_TEXT_MAX;
		while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;
	}
	if ((r = marks_dir(dir, sizeof(dir), false, why, whylen)) < 0 && r != -ENOENT)
		return -1;
	if (r < 0 || !(d = opendir(dir))) {
		snprintf(why, whylen, MARKS_NONE);
		return -1;
	}
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		closedir(d);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".sock") != 0)
			continue;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", dir, de->d_name);
		if (!marks_taken_at(sa.sun_path, strtol(de->d_name, NULL, 10)))
			continue;
		if (sendto(fd, text, len, 0, (struct sockaddr *)&sa, sizeof(sa)) == (ssize_t)len)
			sent++;
		else if (errno == ECONNREFUSED || errno == ENOENT)
			unlink(sa.sun_path);	/* left by a pagetop that died */
	}
	close(fd);
	closedir(d);
	if (!sent) {
		snprintf(why, whylen, MARKS_NONE);
		return -1;
	}
	return sent;
}
