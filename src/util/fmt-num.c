#include "util/fmt-num.h"

#include <string.h>

/* "00" to "99": two digits per division. */
static const char fmt_num_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t fmt_num_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/* How many digits v (10 or more) has: its bits times log10(2), and one
 * more where that falls short. */
static int
fmt_num_len(uint64_t v)
{
	int t = ((64 - __builtin_clzll(v)) * 1233) >> 12;

	return t + (v >= fmt_num_pow10[t]);
}

/* The n digits of v, written backwards from dst + n, two at a time. */
static void
fmt_num_put(uint64_t v, int n, char *dst)
{
	char *p = dst + n;

	while (v >= 100) {
		p -= 2;
		memcpy(p, fmt_num_pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, fmt_num_pairs + v * 2, 2);
	} else {
		*--p = (char)('0' + v);
	}
	/* Leading zeros, when n is more than v's digits. */
	if (p > dst)
		memset(dst, '0', (size_t)(p - dst));
}

int
fmt_num_u64(uint64_t v, char *dst)
{
	char *p;
	int n;

	if (v < 10) {
		*dst = (char)('0' + v);
		return 1;
	}
	/* fmt_num_put() without the zeros, written out: export's commonest. */
	n = fmt_num_len(v);
	p = dst + n;
	while (v >= 100) {
		uint64_t q = v / 100;

		p -= 2;
		memcpy(p, fmt_num_pairs + (v - q * 100) * 2, 2);
		v = q;
	}
	if (v >= 10)
		memcpy(p - 2, fmt_num_pairs + v * 2, 2);
	else
		p[-1] = (char)('0' + v);
	return n;
}

int
fmt_num_i64(int64_t v, char *dst)
{
	if (v >= 0)
		return fmt_num_u64((uint64_t)v, dst);
	*dst = '-';
	return 1 + fmt_num_u64((uint64_t)0 - (uint64_t)v, dst + 1);
}

int
fmt_num_fixed(int64_t v, int decimals, bool trim, char *dst)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, frac, whole;
	int n = 0, d = decimals < 0 || decimals > 18 ? 0 : decimals;

	if (v < 0)
		dst[n++] = '-';
	if (d == 0)
		return n + fmt_num_u64(a, dst + n);
	/* Below one (ratios, indices) needs no division. */
	if (a < fmt_num_pow10[d]) {
		whole = 0;
		frac = a;
	} else {
		whole = a / fmt_num_pow10[d];
		frac = a - whole * fmt_num_pow10[d];
	}
	n += fmt_num_u64(whole, dst + n);
	if (trim) {
		if (frac == 0)
			return n;
		while (frac % 10 == 0) {
			frac /= 10;
			d--;
		}
	}
	dst[n++] = '.';
	fmt_num_put(frac, d, dst + n);
	return n + d;
}

#ifdef __SIZEOF_INT128__
int
fmt_num_double(double v, int decimals, char *dst)
{
	uint64_t bits, mant, q, whole;
	unsigned __int128 x, r, half;
	int e, sh, n = 0;

	if (decimals < 0 || decimals > 9)
		return -1;
	memcpy(&bits, &v, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	mant = bits & (((uint64_t)1 << 52) - 1);
	if (e == 0x7ff || (e == 0 && mant != 0))
		return -1;	/* not finite, or subnormal */
	if (e == 0) {
		sh = 0;		/* zero */
	} else {
		mant |= (uint64_t)1 << 52;
		/* |v| = mant * 2^-sh exactly; 2^53 and above is printf's. */
		if ((sh = 1075 - e) < 0 || sh > 120)
			return -1;
	}
	x = (unsigned __int128)mant * fmt_num_pow10[decimals];
	if (sh == 0) {
		if (x >> 63)
			return -1;
		q = (uint64_t)x;
	} else {
		if ((x >> sh) >> 63)
			return -1;
		q = (uint64_t)(x >> sh);
		r = x - ((unsigned __int128)q << sh);
		half = (unsigned __int128)1 << (sh - 1);
		/* printf's rounding: to nearest, a tie to even. */
		if (r > half || (r == half && (q & 1)))
			q++;
	}
	if (bits >> 63)
		dst[n++] = '-';
	whole = q / fmt_num_pow10[decimals];
	n += fmt_num_u64(whole, dst + n);
	if (decimals == 0)
		return n;
	dst[n++] = '.';
	fmt_num_put(q - whole * fmt_num_pow10[decimals], decimals, dst + n);
	return n + decimals;
}
#else
int
fmt_num_double(double v, int decimals, char *dst)
{
	(void)v;
	(void)decimals;
	(void)dst;
	return -1;
}
#endif
