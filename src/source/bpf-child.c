/*
 * The fork and the hand-over of bpf-child.h: one SOCK_SEQPACKET message,
 * so the facts arrive whole or not at all, its descriptors in SCM_RIGHTS.
 */
#include "config.h"
#include "source/bpf-child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BPF_CHILD_CMSG	CMSG_SPACE(sizeof(int) * BPF_CHILD_FDS)
/* A load takes well under a second, a few under a sanitizer; a child
 * that has not answered by then is stuck (a lock a parent's thread held
 * at the fork) and is killed, so that start-up goes on without BPF. */
#define BPF_CHILD_WAIT_MS	30000

static void
bpf_child_serve(int s, bpf_child_fn fn, void *arg, void *facts, size_t facts_size)
{
	union {
		char buf[BPF_CHILD_CMSG];
		struct cmsghdr align;
	} c;
	int fd[BPF_CHILD_FDS], nfd = 0;
	struct iovec iov = { .iov_base = facts, .iov_len = facts_size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *h;

	memset(facts, 0, facts_size);
	fn(arg, facts, fd, &nfd);
	if (nfd < 0 || nfd > BPF_CHILD_FDS)
		nfd = 0;
	if (nfd > 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfd);
		h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfd);
		memcpy(CMSG_DATA(h), fd, sizeof(int) * (size_t)nfd);
	}
	while (sendmsg(s, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* The descriptors of m's SCM_RIGHTS into fd; -1, all closed, when there
 * were more than fit. */
static int
bpf_child_take(struct msghdr *m, int *fd)
{
	int n = 0, bad = 0;

	for (struct cmsghdr *h = CMSG_FIRSTHDR(m); h; h = CMSG_NXTHDR(m, h)) {
		size_t k;
		int in[BPF_CHILD_FDS];

		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		k = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (k > BPF_CHILD_FDS)
			k = BPF_CHILD_FDS;
		memcpy(in, CMSG_DATA(h), k * sizeof(int));
		for (size_t i = 0; i < k; i++) {
			if (n < BPF_CHILD_FDS)
				fd[n++] = in[i];
			else
				close(in[i]), bad = 1;
		}
	}
	if (bad)
		while (n > 0)
			close(fd[--n]);
	return bad ? -1 : n;
}

/* 0 when s has the child's message (or its end) to read, -1 when
 * wait_ms went by first. */
static int
bpf_child_wait(int s, int wait_ms)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	int left = wait_ms, r;

	for (;;) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		r = poll(&p, 1, left);
		if (r > 0)
			return 0;
		if (r == 0 || errno != EINTR)
			return r == 0 ? -1 : 0;
		clock_gettime(CLOCK_MONOTONIC, &b);
		left -= (int)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000);
		if (left <= 0)
			return -1;
	}
}

int
bpf_child_run(bpf_child_fn fn, void *arg, void *facts, size_t facts_size,
    int *fd, int *nfd, char *why, size_t why_size)
{
	union {
		char buf[BPF_CHILD_CMSG];
		struct cmsghdr align;
	} c;
	struct iovec iov = { .iov_base = facts, .iov_len = facts_size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.buf, .msg_controllen = sizeof(c.buf) };
	int s[2], st = 0, err = 0, n, wait_ms = BPF_CHILD_WAIT_MS;
	const char *hang;
	ssize_t r;
	pid_t pid;

	*nfd = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s) != 0) {
		err = errno;
		snprintf(why, why_size, "loading BPF: socketpair: %s", strerror(err));
		return -err;
	}
	/* The tests' hook: PAGETOP_BPF_CHILD_HANG=MS, a child that never
	 * answers and a wait of MS for it. */
	if ((hang = getenv("PAGETOP_BPF_CHILD_HANG")) && atoi(hang) > 0)
		wait_ms = atoi(hang);
	else
		hang = NULL;
	if ((pid = fork()) < 0) {
		err = errno;
		close(s[0]);
		close(s[1]);
		snprintf(why, why_size, "loading BPF: fork: %s", strerror(err));
		return -err;
	}
	if (pid == 0) {
		close(s[0]);
		while (hang)
			pause();
		bpf_child_serve(s[1], fn, arg, facts, facts_size);
		_exit(0);
	}
	close(s[1]);
	memset(&c, 0, sizeof(c));
	if (bpf_child_wait(s[0], wait_ms) == 0) {
		while ((r = recvmsg(s[0], &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
			;
		if (r < 0)
			err = errno;
	} else {
		r = -1;
		err = ETIMEDOUT;
		kill(pid, SIGKILL);
	}
	close(s[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	n = r > 0 ? bpf_child_take(&m, fd) : 0;
	if (r < 0 || (size_t)r != facts_size || (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ||
	    n < 0) {
		for (int i = 0; i < (n > 0 ? n : 0); i++)
			close(fd[i]);
		if (err == ETIMEDOUT)
			snprintf(why, why_size, "loading BPF: the loader did not answer in %.1f s",
				 wait_ms / 1000.0);
		else if (r >= 0 && WIFSIGNALED(st))
			snprintf(why, why_size, "loading BPF: the loader died (%s)",
				 strsignal(WTERMSIG(st)));
		else
			snprintf(why, why_size, "loading BPF: the loader sent %s",
				 r < 0 ? strerror(err) : "nothing whole");
		return -(err ? err : EPROTO);
	}
	*nfd = n;
	return 0;
}

void *
bpf_child_mmap(int map_fd, size_t value_size, size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;
	void *p;

	*len = (value_size + pg - 1) / pg * pg;
	if (!*len) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	return p == MAP_FAILED ? NULL : p;
}
