/*
 * Integers and exact fixed-point values as decimal text, without printf:
 * export writes hundreds of millions of them. Each writes at dst (no NUL)
 * and returns the length; dst holds FMT_NUM_MAX bytes.
 */
#ifndef PAGETOP_FMT_NUM_H
#define PAGETOP_FMT_NUM_H

#include <stdbool.h>
#include <stdint.h>

/* "-9223372036854775808" and a '.' */
#define FMT_NUM_MAX	24

/* As "%llu" and "%lld". */
int fmt_num_u64(uint64_t v, char *dst);
int fmt_num_i64(int64_t v, char *dst);
/*
 * v / 10^decimals (decimals 0 to 18), exactly: 1234 with 2 is "12.34",
 * -5 with 3 is "-0.005". With trim, the fraction loses its trailing zeros
 * and, when nothing is left, its point ("0.5", "1"); without, it keeps all
 * its digits ("1.000").
 */
int fmt_num_fixed(int64_t v, int decimals, bool trim, char *dst);
/*
 * As "%.*f" with decimals 0 to 9, byte for byte (the exact binary value,
 * rounded to nearest with ties to even, and the sign of a negative zero),
 * for a finite v below 2^53 in magnitude that is not subnormal; -1 for
 * any other, which is printf's to write.
 */
int fmt_num_double(double v, int decimals, char *dst);

#endif
