#include "util/fmt-num.h"

#include <string.h>

/* "00" to "99": two digits per division. */
static const char fmt_num_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Digits of v, at least min_digits of them (zeros first). */
static int
fmt_num_digits(uint64_t v, int min_digits, char *dst)
{
	char tmp[FMT_NUM_MAX];
	char *p = tmp + sizeof(tmp);
	int n;

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
	while (tmp + sizeof(tmp) - p < min_digits)
		*--p = '0';
	n = (int)(tmp + sizeof(tmp) - p);
	memcpy(dst, p, (size_t)n);
	return n;
}

int
fmt_num_u64(uint64_t v, char *dst)
{
	return fmt_num_digits(v, 1, dst);
}

int
fmt_num_i64(int64_t v, char *dst)
{
	if (v >= 0)
		return fmt_num_digits((uint64_t)v, 1, dst);
	*dst = '-';
	return 1 + fmt_num_digits((uint64_t)0 - (uint64_t)v, 1, dst + 1);
}

int
fmt_num_fixed(int64_t v, int decimals, bool trim, char *dst)
{
	static const uint64_t pow10[19] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull,
	};
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, frac;
	int n = 0, d = decimals < 0 || decimals > 18 ? 0 : decimals;

	if (v < 0)
		dst[n++] = '-';
	if (d == 0)
		return n + fmt_num_digits(a, 1, dst + n);
	frac = a % pow10[d];
	n += fmt_num_digits(a / pow10[d], 1, dst + n);
	if (trim) {
		if (frac == 0)
			return n;
		while (frac % 10 == 0) {
			frac /= 10;
			d--;
		}
	}
	dst[n++] = '.';
	return n + fmt_num_digits(frac, d, dst + n);
}
