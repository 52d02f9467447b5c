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

/* The bits set in x: __builtin_popcount() without -mpopcnt calls
 * libgcc's __popcountdi2, which the linker puts past every object of
 * the program, so the first call maps the 64 KB of text around it. */
static inline int
arith_popcount(uint32_t x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
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

/* sqrt() for x >= 0 (NAN below): Newton's method from the exponent's half,
 * to the last bit or one off. */
static inline double
arith_sqrt(double x)
{
	double r = 1;

	if (!(x >= 0))
		return NAN;
	if (x == 0 || isinf(x))
		return x;
	/* A start within a factor of 2: halve the exponent. */
	for (double y = x; y >= 4; y /= 4)
		r *= 2;
	for (double y = x; y < 0.25; y *= 4)
		r /= 2;
	for (int i = 0; i < 8; i++)
		r = 0.5 * (r + x / r);
	return r;
}

/* exp(x): 2^k e^r with |r| <= ln2/2, e^r by its Taylor series (18 terms:
 * below 1e-16 relative); 0 below -745, INFINITY above 709.8. */
static inline double
arith_exp(double x)
{
	static const double ln2 = 0.69314718055994530942;
	double r, term = 1, sum = 1, scale = 1;
	int k;

	if (isnan(x))
		return x;
	if (x < -745)
		return 0;
	if (x > 709.78)
		return INFINITY;
	k = (int)(x / ln2 + (x < 0 ? -0.5 : 0.5));
	r = x - k * ln2;
	for (int i = 1; i <= 18; i++) {
		term *= r / i;
		sum += term;
	}
	/* 2^k by halves, so that neither step leaves the doubles. */
	for (int i = 0; i < (k < 0 ? -k : k); i++)
		scale *= k < 0 ? 0.5 : 2;
	return sum * scale;
}

/* erfc(x), for the normal distribution's tail (a p value), to about
 * 1e-13 relative: below 2, 1 - erf(x) by erf's Taylor series; from 2 on,
 * the continued fraction e^-x^2 / sqrt(pi) / (x + 1/2 / (x + 1 / (x + 3/2
 * / (x + ...)))) by the modified Lentz method. */
static inline double
arith_erfc(double x)
{
	static const double two_sqrtpi = 1.12837916709551257390;	/* 2 / sqrt(pi) */
	double sum, term, f, c, d;

	if (isnan(x))
		return x;
	if (x < 0)
		return 2 - arith_erfc(-x);
	if (x < 2) {
		sum = term = x;
		for (int n = 1; n < 100 && fabs(term) > 1e-17 * fabs(sum); n++) {
			term *= -x * x / n;
			sum += term / (2 * n + 1);
		}
		return 1 - two_sqrtpi * sum;
	}
	if (x > 27)
		return 0;
	/* f = x + a1 / (x + a2 / (x + ...)), a_k = k / 2. */
	f = c = x;
	d = 0;
	for (int k = 1; k < 500; k++) {
		double a = k / 2.0, delta;

		d = x + a * d;
		c = x + a / c;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < 1e-16)
			break;
	}
	return two_sqrtpi / 2 * arith_exp(-x * x) / f;
}

#endif
