/* The clocks every layer reads: monotonic for intervals and deadlines,
 * wall for what a person reads. */
#ifndef PAGETOP_CLOCK_H
#define PAGETOP_CLOCK_H

#include <time.h>

static inline double
clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline double
clock_mono(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

static inline double
clock_wall(void)
{
	return clock_seconds(CLOCK_REALTIME);
}

#endif
