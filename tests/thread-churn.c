/*
 * Thread churn for the task-scan tests: for argv[1] seconds (default 3)
 * start argv[2] threads at a time (default 200), each living 0 to 4 ms,
 * and reap them; again and again. Thousands of tasks appear and vanish
 * while a scanner runs. The pid is printed first; how many threads were
 * started goes to stderr at the end.
 */

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH_MAX	4096

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *
worker(void *arg)
{
	struct timespec ts = { 0, (long)(size_t)arg * 1000000L };

	nanosleep(&ts, NULL);
	return NULL;
}

int
main(int argc, char **argv)
{
	static pthread_t th[BATCH_MAX];
	pthread_attr_t attr;
	double secs = argc > 1 ? atof(argv[1]) : 3, end;
	int batch = argc > 2 ? atoi(argv[2]) : 200;
	unsigned long started = 0;
	int i, n, r;

	if (batch < 1 || batch > BATCH_MAX)
		batch = 200;
	printf("%ld\n", (long)getpid());
	fflush(stdout);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN > 65536 ?
	    PTHREAD_STACK_MIN : 65536);

	end = now() + secs;
	while (now() < end) {
		for (n = 0; n < batch; n++) {
			r = pthread_create(&th[n], &attr, worker,
			    (void *)(size_t)(n % 5));
			if (r != 0) {
				fprintf(stderr, "thread-churn: %s\n",
				    strerror(r));
				break;
			}
		}
		started += (unsigned long)n;
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	}
	fprintf(stderr, "thread-churn: %lu threads started\n", started);
	return 0;
}
