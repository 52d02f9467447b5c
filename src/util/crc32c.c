/*
 * CRC-32C by the SSE 4.2 instruction where the CPU has it (eight bytes in
 * about a cycle: opening a day's recording checks every frame, 12 MB),
 * else by slicing by 8: eight tables of 256 entries, made once (by
 * whichever thread asks first, under pthread_once), take eight bytes a
 * step. crc32c_portable() is the table path alone, for the test that the
 * two agree.
 */

#include "util/crc32c.h"
#include "util/wire.h"

#include <pthread.h>

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void
crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
			    crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t
crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t lo, hi;

	pthread_once(&crc_once, crc_init);
	crc = ~crc;
	while (len >= 8) {
		lo = crc ^ wire_get32(p);
		hi = wire_get32(p + 4);
		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		    crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		    crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		    crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <stdbool.h>
#include <string.h>

__attribute__((target("sse4.2"))) static uint32_t
crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;

	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);	/* little-endian, as the format is */
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

/* Asked of the CPU once (cpuid leaves the VM: not on every call), by
 * <cpuid.h>, not __builtin_cpu_supports(): that links libgcc's cpuinfo,
 * whose constructor runs in every pagetop from the far end of its text,
 * keeping 64 KB of it resident for nothing (Makefile.am's link order). */
static pthread_once_t sse42_once = PTHREAD_ONCE_INIT;
static bool sse42;

static void
sse42_init(void)
{
	unsigned a, b, c, d;

	sse42 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
}

uint32_t
crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&sse42_once, sse42_init);
	return sse42 ? crc32c_sse42(crc, buf, len) : crc32c_portable(crc, buf, len);
}
#else
uint32_t
crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_portable(crc, buf, len);
}
#endif
