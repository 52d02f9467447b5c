#include "util/thread.h"

#include <signal.h>

int
thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int r;

	/* The mask is inherited; blocking it here leaves no window in which
	 * the new thread could take a signal before blocking it itself. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}
