/*
 * Puts argv[1] extra sleeping threads on the box for the task-scan bench,
 * then waits until killed. Prints "ready N" once they all exist.
 */

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *
sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t th;
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	int r;

	if (n < 0)
		n = 0;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN > 65536 ?
	    PTHREAD_STACK_MIN : 65536);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < n; i++) {
		if ((r = pthread_create(&th, &attr, sleeper, NULL)) != 0) {
			fprintf(stderr, "spawn-threads: thread %ld: %s\n", i,
			    strerror(r));
			return 1;
		}
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
