/*
 * The few bits of arithmetic pagetop needs from <math.h>, without libm.
 * Linking libm costs about 0.5 MB of resident memory (the loader runs
 * its hundreds of IFUNC resolvers, spread over its text) for five
 * functions; the dashboard's budget is 6 MB. (The compilers call libm
 * for ceil() and floor() too, at least at some optimisation levels.) isnan(), NAN and fabs()
 * come from the compiler and stay.
 */
#ifndef PAGETOP_ARITH_H
#define PAGETOP_ARITH_H

#include <math.h>
#include <stdint.h>

static inline double
arith_min(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static inline double
arith_max(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* llround(): to nearest, halves away from zero. x - trunc(x) is exact, so
 * the comparison with 0.5 is too. |x| must be below 2^63. */
static inline int64_t
arith_llround(double x)
{
	int64_t t = (int64_t)x;
	double frac = x - (double)t;

	if (frac >= 0.5)
		t++;
	else if (frac <= -0.5)
		t--;
	return t;
}

/* floor() and ceil() for |x| below 2^63 (sizes, milliseconds, seconds). */
static inline double
arith_floor(double x)
{
	double t = (double)(int64_t)x;

	return t > x ? t - 1 : t;
}

static inline double
arith_ceil(double x)
{
	double t = (double)(int64_t)x;

	return t < x ? t + 1 : t;
}

/* log2(x) for x >= 1, good to about 0.09: the bit length plus a straight
 * line within the octave. For colour scales, not for figures. */
static inline double
arith_log2(double x)
{
	int e = 0;

	if (!(x >= 1))
		return 0;
	while (x >= 2 && e < 1100) {
		x /= 2;
		e++;
	}
	return e + (x - 1);
}

/* Where v falls between 0 and max on a log scale: 0..1. */
static inline double
arith_log_share(double v, double max)
{
	double m = arith_log2(max + 1);

	return m > 0 ? arith_log2(v + 1) / m : 0;
}

#endif
