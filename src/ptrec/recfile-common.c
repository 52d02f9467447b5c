/*
 * What the writer and the reader of recordings both use: the file head,
 * the HEADER frame's fields (encoded by the writer, decoded by either
 * reader), the frame CRC, and small helpers for buffers and messages.
 */

#include "ptrec/recfile-int.h"
#include "util/crc32c.h"
#include "util/wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum header_field {
	HF_HOSTNAME = 1,
	HF_RELEASE = 2,
	HF_MACHINE = 3,
	HF_PAGE_SIZE = 4,
	HF_PAGEBLOCK_ORDER = 5,
	HF_NODES = 6,
	HF_CPUS = 7,
	HF_MEM_KB = 8,
	HF_BOOT_ID = 9,
	HF_VERSION = 10,
	HF_INTERVAL_US = 11,
	HF_START_US = 12,
	HF_CMDLINE = 13,
	HF_PTI_EVERY_US = 14	/* 2.1 */
};

/* The public name of util/crc32c.c's crc32c(). */
uint32_t
rec_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc32c(crc, buf, len);
}

/* The CRC a frame head carries: of its length..reserved and payload. */
uint32_t
recfile_frame_crc(const uint8_t *head, const uint8_t *payload, size_t len)
{
	return crc32c(crc32c(0, head + 4, 8), payload, len);
}

/* Grows *buf to hold at least need bytes; false if memory ran out. */
bool
recfile_grow(void *bufp, size_t *cap, size_t need, size_t elem)
{
	void **buf = bufp;
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	if ((p = realloc(*buf, n * elem)) == NULL)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

void
recfile_say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why == NULL || whylen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

const char *
recfile_errstr(int e, char *buf, size_t len)
{
	return strerror_r(e, buf, len);
}

void
rec_header_init(struct rec_header *h)
{
	memset(h, 0, sizeof(*h));
	h->page_size = -1;
	h->pageblock_order = -1;
	h->nodes = -1;
	h->cpus = -1;
	h->mem_kb = -1;
}

/* The file head, HEAD_LEN bytes, of the version this pagetop writes. */
void
recfile_head_encode(uint8_t *head)
{
	memcpy(head, FILE_MAGIC, MAGIC_LEN);
	wire_put16(head + MAGIC_LEN, REC_MAJOR);
	wire_put16(head + MAGIC_LEN + 2, REC_MINOR);
}

/* The first n bytes of the file (HEAD_LEN, or all of a shorter file):
 * its version into *major and *minor, or false with why. */
bool
recfile_head_decode(const uint8_t *head, size_t n, const char *path,
    int *major, int *minor, char *why, size_t whylen)
{
	if (n < HEAD_LEN || memcmp(head, FILE_MAGIC, MAGIC_LEN) != 0) {
		if (n > 12 && memcmp(head + 1, "PAGETOP REC", 11) == 0)
			recfile_say(why, whylen, "%s: a pagetop recording "
			    "damaged by a text-mode transfer (send it as "
			    "binary)", path);
		else if (n > 0 && n < HEAD_LEN &&
		    memcmp(head, FILE_MAGIC, n < MAGIC_LEN ? n : MAGIC_LEN) ==
		    0)
			recfile_say(why, whylen, "%s: a pagetop recording cut "
			    "short within its first %d bytes", path, HEAD_LEN);
		else
			recfile_say(why, whylen, "%s: not a pagetop recording",
			    path);
		return false;
	}
	*major = wire_get16(head + MAGIC_LEN);
	*minor = wire_get16(head + MAGIC_LEN + 2);
	if (*major < 1 || *major > REC_MAJOR) {
		recfile_say(why, whylen, "%s: recording format %d.%d; this "
		    "pagetop reads 1.x to %d.x", path, *major, *minor,
		    REC_MAJOR);
		return false;
	}
	return true;
}

static size_t
put_field(uint8_t *p, int id, const void *v, size_t len)
{
	wire_put16(p, (uint16_t)id);
	wire_put16(p + 2, (uint16_t)len);
	memcpy(p + 4, v, len);
	return 4 + len;
}

static size_t
put_str(uint8_t *p, int id, const char *s, size_t max)
{
	return put_field(p, id, s, strnlen(s, max));
}

static size_t
put_int(uint8_t *p, int id, int64_t v)
{
	uint8_t b[8];

	wire_put64(b, (uint64_t)v);
	return put_field(p, id, b, 8);
}

/* The HEADER frame's payload into p (room: sizeof(*h) + 256). */
size_t
recfile_header_encode(const struct rec_header *h, uint8_t *p)
{
	size_t n = 0;

	n += put_str(p + n, HF_HOSTNAME, h->hostname, sizeof(h->hostname));
	n += put_str(p + n, HF_RELEASE, h->release, sizeof(h->release));
	n += put_str(p + n, HF_MACHINE, h->machine, sizeof(h->machine));
	n += put_str(p + n, HF_BOOT_ID, h->boot_id, sizeof(h->boot_id));
	n += put_str(p + n, HF_VERSION, h->version, sizeof(h->version));
	n += put_str(p + n, HF_CMDLINE, h->cmdline, sizeof(h->cmdline));
	if (h->page_size >= 0)
		n += put_int(p + n, HF_PAGE_SIZE, h->page_size);
	if (h->pageblock_order >= 0)
		n += put_int(p + n, HF_PAGEBLOCK_ORDER, h->pageblock_order);
	if (h->nodes >= 0)
		n += put_int(p + n, HF_NODES, h->nodes);
	if (h->cpus >= 0)
		n += put_int(p + n, HF_CPUS, h->cpus);
	if (h->mem_kb >= 0)
		n += put_int(p + n, HF_MEM_KB, h->mem_kb);
	if (h->interval > 0)
		n += put_int(p + n, HF_INTERVAL_US, wire_us(h->interval));
	if (h->start != 0)
		n += put_int(p + n, HF_START_US, wire_us(h->start));
	if (h->pti_every > 0)
		n += put_int(p + n, HF_PTI_EVERY_US, wire_us(h->pti_every));
	return n;
}

/* Text from the file for the screen: control characters become '?'. */
void
recfile_copy_text(char *dst, size_t size, const uint8_t *p, size_t len)
{
	size_t i;

	if (len >= size) {
		len = size - 1;
		while (len > 0 && (p[len] & 0xc0) == 0x80)
			len--;
	}
	for (i = 0; i < len; i++)
		dst[i] = p[i] < 0x20 || p[i] == 0x7f ? '?' : (char)p[i];
	dst[len] = '\0';
}

void
recfile_header_decode(struct rec_reader *r, const uint8_t *p, size_t len)
{
	struct rec_header *h = &r->hdr;
	const uint8_t *end = p + len;
	size_t n;
	int64_t v;
	int id;

	while (end - p >= 4) {
		id = wire_get16(p);
		n = wire_get16(p + 2);
		p += 4;
		if (n > (size_t)(end - p))
			break;
		v = n == 8 ? (int64_t)wire_get64(p) : -1;
		switch (id) {
		case HF_HOSTNAME:
			recfile_copy_text(h->hostname, sizeof(h->hostname), p,
			    n);
			break;
		case HF_RELEASE:
			recfile_copy_text(h->release, sizeof(h->release), p, n);
			break;
		case HF_MACHINE:
			recfile_copy_text(h->machine, sizeof(h->machine), p, n);
			break;
		case HF_BOOT_ID:
			recfile_copy_text(h->boot_id, sizeof(h->boot_id), p, n);
			break;
		case HF_VERSION:
			recfile_copy_text(h->version, sizeof(h->version), p, n);
			break;
		case HF_CMDLINE:
			recfile_copy_text(h->cmdline, sizeof(h->cmdline), p, n);
			break;
		case HF_PAGE_SIZE:
			if (v >= 0 && v <= 1 << 30)
				h->page_size = (long)v;
			break;
		case HF_PAGEBLOCK_ORDER:
			if (v >= 0 && v < 64)
				h->pageblock_order = (int)v;
			break;
		case HF_NODES:
			if (v >= 0 && v < 1 << 20)
				h->nodes = (int)v;
			break;
		case HF_CPUS:
			if (v >= 0 && v < 1 << 24)
				h->cpus = (int)v;
			break;
		case HF_MEM_KB:
			h->mem_kb = v;
			break;
		case HF_INTERVAL_US:
			if (v > 0)
				h->interval = (double)v / 1e6;
			break;
		case HF_START_US:
			if (n == 8)
				h->start = (double)v / 1e6;
			break;
		case HF_PTI_EVERY_US:
			if (v > 0)
				h->pti_every = (double)v / 1e6;
			break;
		default:
			r->info.unknown_fields++;
			break;
		}
		p += n;
	}
}
