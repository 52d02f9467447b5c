/* Worker threads that never take a signal. */
#ifndef PAGETOP_UTIL_THREAD_H
#define PAGETOP_UTIL_THREAD_H

#include <pthread.h>

/* pthread_create() with every signal blocked in the new thread from its
 * first instruction: a SIGWINCH or SIGTERM taken by a worker would never
 * wake the main thread's ppoll(). Returns pthread_create()'s result. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
