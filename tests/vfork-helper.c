/*
 * A real task in state D that needs no privilege: the parent calls vfork()
 * and the kernel keeps it in TASK_KILLABLE (shown as D, with kernel_clone
 * and __do_sys_vfork on its stack) until the child exits or execs. The
 * child sleeps argv[1] seconds (default 5), then _exit()s. argv[2], when
 * given, becomes the task's name (comm) first, as any user may set it with
 * prctl(PR_SET_NAME): a test gives it terminal escapes.
 *
 * The parent's pid is printed first, so a test knows whom to look for.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	double secs = argc > 1 ? atof(argv[1]) : 5;
	pid_t child;
	int status;

	if (secs < 0 || secs > 3600)
		secs = 5;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	if (argc > 2 && prctl(PR_SET_NAME, argv[2], 0, 0, 0) != 0) {
		perror("vfork-helper: prctl");
		return 1;
	}
	printf("%ld\n", (long)getpid());
	fflush(stdout);

	/*
	 * The child runs on the parent's stack and memory: it may only make
	 * system calls and _exit(). nanosleep() is one system call; the
	 * loop resumes it after a signal.
	 */
	child = vfork();
	if (child == 0) {
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		_exit(0);
	}
	if (child < 0) {
		perror("vfork-helper: vfork");
		return 1;
	}
	if (waitpid(child, &status, 0) < 0) {
		perror("vfork-helper: waitpid");
		return 1;
	}
	return 0;
}
