/* The bytes of the recording, the history's packed entries and the
 * exporters: LEB128 varints, zigzag, little-endian integers and seconds as
 * microseconds. One copy, so the formats agree on every edge. */
#ifndef PAGETOP_WIRE_H
#define PAGETOP_WIRE_H

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

/* Bytes used, or 0 if p..end does not hold a whole varint of 64 bits:
 * for bytes read from a file. */
static inline size_t
varint_get_bounded(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	size_t n;

	for (n = 0; n < VARINT_MAX && p + n < end; n++) {
		if (n == 9 && p[n] > 1)
			return 0;
		x |= (uint64_t)(p[n] & 0x7f) << (7 * n);
		if ((p[n] & 0x80) == 0) {
			*v = x;
			return n + 1;
		}
	}
	return 0;
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

static inline void
wire_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void
wire_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void
wire_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t
wire_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
wire_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
wire_get64(const uint8_t *p)
{
	return (uint64_t)wire_get32(p) | (uint64_t)wire_get32(p + 4) << 32;
}

/* Seconds to microseconds, rounded half away from zero, without libm;
 * times out of range (beyond some 100,000 years, where differences could
 * overflow) become 0. */
static inline int64_t
wire_us(double t)
{
	if (!(t > -4e12 && t < 4e12))
		return 0;
	return (int64_t)(t * 1e6 + (t < 0 ? -0.5 : 0.5));
}

#endif
