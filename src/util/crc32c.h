/* CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and
 * final XOR 0xFFFFFFFF), the checksum of the recording's frames. */
#ifndef PAGETOP_CRC32C_H
#define PAGETOP_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of len bytes at buf, continuing from crc (0 to start):
 * crc32c(crc32c(0, a, n), b, m) is the CRC of a then b. Thread-safe. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);
/* The same by tables alone, whatever the CPU has: for tests. */
uint32_t crc32c_portable(uint32_t crc, const void *buf, size_t len);

#endif
