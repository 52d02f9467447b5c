/* src/arith.h against libm, which the tests may link and pagetop does not. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/arith.h"
#include "tap.h"

static void
test_llround(void)
{
	static const double edge[] = {
		0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
		-0.49999999999999994, 4503599627370495.5, -4503599627370495.5,
		4503599627370497.0, 1e15 + 0.5, 1764505123.4999995, 1764505123.5000005,
		9.2e18, -9.2e18, 1e-300, 123456.789,
	};
	int bad = 0;
	unsigned seed = 1;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		if (arith_llround(edge[i]) != llround(edge[i])) {
			tap_ok(0, "llround(%.17g)", edge[i]);
			bad++;
		}
	tap_ok(bad == 0, "llround: halves, near-halves, 2^52 and beyond, large values");
	/* Times in microseconds and sensor values, as the codec rounds them. */
	for (int i = 0; i < 200000 && !bad; i++) {
		double x = (rand_r(&seed) / (double)RAND_MAX - 0.5) * 4e15 / (1 + (i % 7) * 1e3);

		if (arith_llround(x) != llround(x)) {
			tap_ok(0, "llround(%.17g): %lld, libm %lld", x, (long long)arith_llround(x),
			       llround(x));
			bad++;
		}
	}
	tap_ok(bad == 0, "llround: 200,000 random values agree with libm");
}

static void
test_floor_ceil(void)
{
	static const double v[] = { 0, -0.0, 0.5, -0.5, 1, -1, 2.999999999, -2.999999999,
				    1e15 + 0.5, -1e15 - 0.5, 3600.0 / 0.1, 1e-300, -1e-300 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (arith_floor(v[i]) != floor(v[i]) || arith_ceil(v[i]) != ceil(v[i])) {
			tap_ok(0, "floor/ceil(%.17g)", v[i]);
			bad++;
		}
	tap_ok(bad == 0, "floor and ceil agree with libm");
}

static void
test_min_max(void)
{
	tap_ok(arith_min(1, 2) == 1 && arith_max(1, 2) == 2, "min and max");
	tap_ok(arith_min(NAN, 2) == 2 && arith_min(2, NAN) == 2, "min ignores a NAN, as fmin does");
	tap_ok(arith_max(NAN, -3) == -3 && arith_max(-3, NAN) == -3, "max ignores a NAN");
	tap_ok(isnan(arith_min(NAN, NAN)), "min of two NANs is NAN");
}

static void
test_log(void)
{
	double worst = 0;

	for (double x = 1; x < 1e12; x *= 1.37) {
		double d = fabs(arith_log2(x) - log2(x));

		if (d > worst)
			worst = d;
	}
	tap_ok(worst < 0.09, "log2 within 0.09 of libm's from 1 to 1e12 (worst %.3f)", worst);
	tap_ok(arith_log_share(0, 1000) == 0, "log share of 0 is 0");
	tap_ok(arith_log_share(1000, 1000) == 1, "log share of the max is 1");
	tap_ok(arith_log_share(10, 1000) > 0.3 && arith_log_share(10, 1000) < 0.4,
	       "log share of 10 in 1000 is about a third");
	tap_ok(arith_log_share(5, 0) == 0 || arith_log_share(5, 0) >= 1,
	       "a zero max does not divide by zero");
}

static double
rel(double a, double b)
{
	return b == 0 ? fabs(a) : fabs(a - b) / fabs(b);
}

static void
test_sqrt_exp_erfc(void)
{
	double ws = 0, we = 0, wc = 0;

	for (double x = 1e-300; x < 1e300; x *= 1.93)
		if (rel(arith_sqrt(x), sqrt(x)) > ws)
			ws = rel(arith_sqrt(x), sqrt(x));
	tap_ok(ws < 1e-15, "sqrt within 1e-15 of libm's from 1e-300 to 1e300 (worst %.1e)", ws);
	tap_ok(arith_sqrt(0) == 0 && isnan(arith_sqrt(-1)) && arith_sqrt(16) == 4,
	       "sqrt of 0, -1 and 16");
	for (double x = -700; x < 700; x += 0.731)
		if (rel(arith_exp(x), exp(x)) > we)
			we = rel(arith_exp(x), exp(x));
	tap_ok(we < 1e-13, "exp within 1e-13 of libm's from -700 to 700 (worst %.1e)", we);
	tap_ok(arith_exp(0) == 1 && arith_exp(-800) == 0 && isinf(arith_exp(800)),
	       "exp of 0, -800 and 800");
	/* p values: erfc(z / sqrt 2) far into the tail (2.6e-296 at 26). */
	for (double x = -3; x < 26; x += 0.0137)
		if (rel(arith_erfc(x), erfc(x)) > wc)
			wc = rel(arith_erfc(x), erfc(x));
	tap_ok(wc < 1e-12, "erfc within 1e-12 of libm's from -3 to 26 (worst %.1e)", wc);
	tap_ok(fabs(arith_erfc(2.5758293035489 / sqrt(2)) - 0.01) < 1e-8,
	       "erfc at z 2.576: p 0.01");
}

/* arith_popcount is __builtin_popcount without libgcc: every bit alone,
 * none, all, and random words. */
static void
test_popcount(void)
{
	uint32_t x = 2463534242u;
	int bad = 0;

	for (int i = 0; i < 32; i++)
		bad += arith_popcount(1u << i) != 1;
	bad += arith_popcount(0) != 0 || arith_popcount(UINT32_MAX) != 32;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		bad += arith_popcount(x) != __builtin_popcount(x);
	}
	tap_ok(bad == 0, "popcount: each bit, none, all and 100,000 random words (%d off)", bad);
}

int
main(void)
{
	test_llround();
	test_floor_ceil();
	test_min_max();
	test_log();
	test_sqrt_exp_erfc();
	test_popcount();
	return tap_done();
}
