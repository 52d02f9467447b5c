/* LEB128 varints and zigzag, for the history's packed entries. */
#ifndef PAGETOP_VARINT_H
#define PAGETOP_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX	10	/* bytes of a uint64_t */

static inline size_t
varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* The value at *p, moving *p past it. The bytes were written by
 * varint_put() into memory the caller owns, so no bound is checked. */
static inline uint64_t
varint_get(const uint8_t **p)
{
	uint64_t v = 0;
	int shift = 0;
	uint8_t b;

	do {
		b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && shift < 64);
	return v;
}

static inline void
varint_skip(const uint8_t **p)
{
	while (*(*p)++ & 0x80)
		;
}

static inline uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
