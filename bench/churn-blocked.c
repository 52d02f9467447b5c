/*
 * Keeps argv[1] (default 64) tasks churning in and out of D for the task
 * scan's bench: each is a process that calls vfork() (the kernel holds it
 * in D until the child exits), whose child sleeps 20 to 300 ms, then
 * sleeps itself (S) 20 to 300 ms, and again, a new child (a new tid) each
 * time. So the blocked list changes every tick: tasks join it and leave,
 * as on a box whose disk is slow. Prints "ready N" once they all run;
 * runs until killed, and its tasks end with it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void
nap_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static void
churner(unsigned seed)
{
	pid_t c;

	/* Ends with the bench's driver. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		long d = 20 + (long)(rand_r(&seed) % 281), s = 20 + (long)(rand_r(&seed) % 281);

		if ((c = vfork()) == 0) {
			nap_ms(d);
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		nap_ms(s);
	}
}

int
main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 64;

	if (n < 1 || n > 4096) {
		fprintf(stderr, "churn-blocked: %s: not a count of 1 to 4096\n",
		    argc > 1 ? argv[1] : "");
		return 2;
	}
	for (i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("churn-blocked: fork");
			return 1;
		}
		if (p == 0)
			churner((unsigned)(i * 2654435761u) ^ (unsigned)getpid());
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
