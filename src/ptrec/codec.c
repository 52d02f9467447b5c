/*
 * The recording codec: one struct sample as bytes, and back.
 *
 * A sample is a sequence of fields, each
 *
 *	id	u	what the payload holds (the table below)
 *	len	u	bytes of payload
 *	payload	len bytes
 *
 * Ids are never reused; new fields get new ids. A reader skips a field
 * whose id it does not know and counts it. A field it knows must hold
 * exactly what is described here and nothing more, so a changed encoding
 * of anything is a new id, never a new meaning for an old one. The numbers
 * that name sources, PSI resources, zoneinfo fields and sensor kinds below
 * are part of the format in the same way.
 *
 * Payload types:
 *	u	unsigned LEB128: 7 bits a byte, low bits first, the high bit
 *		set on every byte but the last; at most 10 bytes (64 bits)
 *	s	signed: zigzag ((n << 1) ^ (n >> 63)), then u
 *	str	u length, then that many bytes: no NUL, no terminator
 *	n	unsigned number: u of the value; in a delta chunk or frame,
 *		s of the value minus the previous sample's, modulo 2^64 (a
 *		counter that went back is a negative difference)
 *	d	signed number: s of the value; in a delta chunk or frame, s
 *		of the value minus the previous sample's
 *	flags	u: bit 0 (DELTA) says the chunk was written against the
 *		previous sample; any other bit is an error
 *
 * Runs: in a delta chunk of ids 10 to 15, the numbers that follow the
 * flags (the n and d of the chunk, in the order below) are not written
 * one by one. Most did not change, so they go as runs: u how many in a
 * row are unchanged (0 or more), then s the difference of the next one,
 * and so on; the run that reaches the chunk's last number has no
 * difference after it. How many numbers there are follows from the shape.
 *
 * Ids 20 to 25 and 27 hold what 10 to 15 and 18 hold, written so that a
 * sample compresses to about half (a pagetop writes these, and reads
 * both):
 *  -	In a delta chunk the runs stay where they were, but each difference
 *	after a run goes to DIFFS (26) instead, after those of the chunks
 *	before it in the frame. Zstd then finds a sample's runs and shapes,
 *	which change little, in one piece like the sample's before, and the
 *	differences, which change every time, together after them.
 *  -	In a delta chunk some differences are against a change predicted
 *	from other numbers of the sample (PREDICTIONS below) rather than 0.
 *  -	A whole VMSTAT2 or MEMINFO2 chunk gives its names as name: u k;
 *	0 for the name as str after it, else the name at place
 *	p + 1 + unzigzag(k - 1) of the built-in list (NAMES below), where
 *	p is the place of the last name the chunk took from the list (-1
 *	before the first). The lists follow the kernel's order, so k is
 *	mostly 1 and a keyframe shrinks to a third.
 *
 * A value that does not fit where it goes is an error: a count above its
 * cap in the headers (MAX_ZONES, MAX_VMSTAT, ...), a string as long as
 * its array, a 32-bit field above 2^32 - 1, an int outside int, a flag
 * other than 0 or 1. So is a field cut short or with bytes left over.
 *
 * Times are integer microseconds (seconds * 1e6, halves rounded away
 * from zero), read back as us / 1e6: a time survives a round trip to the microsecond. A time that
 * is not finite or not within 2^32 seconds of 0 (the year 2106), where a
 * double no longer holds microseconds, is written as 0. Sensor values are
 * integer milli-units (value * 1000, rounded the same way); one that is
 * not finite or not within 1e12 of 0 is not written (NAN).
 *
 * A delta chunk leaves out its shape (the counts, names and flags shown in
 * [brackets]: they are the previous sample's) and writes its numbers as
 * differences from the previous sample's same chunk. A writer uses one only
 * in a delta frame, when the previous sample had that source valid and of
 * the same shape; otherwise the chunk is whole. A frame written without a
 * previous sample (a keyframe) has only whole chunks and decodes alone.
 * A reader refuses a delta frame or chunk without its previous sample.
 *
 *  id	field		payload
 *   1	FRAME		u frame flags: bit 0 DELTA, the sample was written
 *			against the previous one. First, exactly once.
 *   2	TIME		d monotonic time, d wall time minus monotonic time;
 *			microseconds, differences in a DELTA frame. Once,
 *			before TASKS and TASKS2.
 *   3	PAGE_SIZE	d bytes, a difference in a DELTA frame. Once.
 *   4	STATUS		u source, s err, s line, str msg. A keyframe has one
 *			for each source whose status is not all zero, a
 *			DELTA frame one for each source whose status differs
 *			from the previous sample's; the others are 0 (valid)
 *			or the previous sample's. Sources: 0 buddyinfo,
 *			1 pagetypeinfo, 2 vmstat, 3 meminfo, 4 zoneinfo,
 *			5 pressure/cpu, 6 pressure/memory, 7 pressure/io,
 *			8 pressure/irq, 9 uptime, 10 tasks; another is
 *			skipped and counted. err: 0 valid, a Linux errno
 *			(22 EINVAL: malformed, with line and msg), -1 not
 *			read on this tick.
 *
 * A source chunk is written for each valid source and for no other: a
 * source that is not valid (or not read on this tick) has its status
 * only. A chunk for a source that is not valid is an error; a valid source
 * without its chunk (written by a pagetop that encodes it under an id this
 * one does not know) is read as malformed, "not in the recording".
 *
 *  10	BUDDYINFO	flags [u orders, u zones, zones x (s node,
 *			str zone)]; zones x orders x n free blocks.
 *  11	PAGETYPEINFO	flags [s pageblock order, u pages per block,
 *			u orders, u types, types x str name, u free rows,
 *			rows x (s node, str zone, u type), u block rows,
 *			rows x (s node, str zone), u mixed rows, rows x
 *			(s node, str zone)]; free rows x (n capped bits,
 *			orders x n free); block rows x types x n count;
 *			mixed rows x types x n count.
 *  12	VMSTAT		flags [u count, count x str name]; d skipped;
 *			count x n value.
 *  13	MEMINFO		flags [u count, count x (str name, u kB: 0 or 1)];
 *			d skipped; count x n value.
 *  14	ZONEINFO	flags [u zones, zones x (s node, str zone, u has)];
 *			zones x (n value for each bit of has, lowest first).
 *			has bits: 0 free, 1 min, 2 low, 3 high, 4 boost,
 *			5 spanned, 6 present, 7 managed, 8 cma; another bit
 *			is an error (a new zoneinfo value gets a new id).
 *  15	PSI		u resource (0 cpu, 1 memory, 2 io, 3 irq; another
 *			is skipped and counted), flags [u lines: bit 0 some,
 *			bit 1 full]; for some, then full, when present:
 *			n avg10, n avg60, n avg300, n total.
 *  16	UPTIME		flags; d uptime in microseconds.
 *  17	SENSORS		flags [u available, str why, u count, count x
 *			(str chip, str label, u kind: 0 temperature, 1 fan,
 *			2 voltage, 3 power)]; count x (u has: bit 0 valid,
 *			bit 1 value, bit 2 high, bit 3 crit; then s milli-
 *			units of value, high and crit, those whose bit is
 *			set, each minus the previous sample's when the chunk
 *			is DELTA and that reading had it). A value not
 *			written is NAN. Sensors have no status: the field is
 *			left out when nothing is available, listed or
 *			explained, and a DELTA chunk needs a DELTA frame
 *			only.
 *  18	TASKS		flags; n threads; u k, k x (u state letter below
 *			128, n count), the letters with a non-zero count
 *			(each count against the previous sample's for that
 *			letter); u truncated; s stack errno; str note;
 *			u stacks, stacks x (u ref: 0, then u frames,
 *			frames x (str function, str module); r > 0: the
 *			previous sample's stack r - 1, in a DELTA chunk
 *			only); u blocked, blocked x (u ref: 0, then s tid,
 *			s tgid, str comm, u state, str wchan, s monotonic
 *			time minus since in microseconds, u since start,
 *			str cmdline, str user; r > 0: all of these as the
 *			previous sample's blocked task r - 1, DELTA only;
 *			then s stack index, -1 for none).
 *  19	KMSG		the kernel log events completed on this tick, in
 *			every sample whose kernel log was read (or tried),
 *			always whole (no flags, never against the previous
 *			sample): s err (0, or the Linux errno that keeps it
 *			from being read: 1 EPERM needs root); u records lost
 *			(overwritten before they were read); u events
 *			dropped (past 16 in one tick); u count, at most 16;
 *			count x (u kernel sequence number, u kernel
 *			timestamp in microseconds, u kind: 0 other,
 *			1 alloc-failure, 2 alloc-stall, 3 hung-task,
 *			4 oom-invoked, 5 oom-kill, 6 oom-reaped, 7 swap-
 *			error, 8 io-error, 9 lockup, 10 bad-page, a kind
 *			this reader does not know reads as other; u log
 *			level, 0 to 7; u has: bit 0 comm, 1 pid, 2 order,
 *			3 gfp, 4 seconds, 5 anon, 6 file, 7 shmem, another
 *			bit is an error; then those whose bit is set: str
 *			comm, s pid, s order, u gfp mode (32 bits), u
 *			seconds (32 bits), u anon-rss kB, u file-rss kB, u
 *			shmem-rss kB; u lines the kernel printed (32 bits);
 *			u truncated: 0 or 1; str text, at most 2047 bytes:
 *			the first line, then the continuation lines, each
 *			after a '\n'). Left out when no kernel log was read
 *			(captured files, a recording of an older pagetop):
 *			the sample has none.
 *
 *  20	BUDDYINFO2	as 10.
 *  21	PAGETYPEINFO2	as 11.
 *  22	VMSTAT2		as 12, the names as name, the list of vmstat names.
 *  23	MEMINFO2	as 13, the names as name, the list of meminfo names.
 *  24	ZONEINFO2	as 14.
 *  25	PSI2		u resource, u c: the number of its differences in
 *			DIFFS (0 in a whole chunk); then as 15 after the
 *			resource. A reader that does not know the resource
 *			skips c differences in DIFFS.
 *  26	DIFFS		the differences of the delta chunks of 20 to 25 and
 *			27, each s, in the order of their fields. At most
 *			once; left out when there is none. A reader finds it
 *			first and takes from it as it reads those chunks;
 *			differences left over are an error.
 *  27	TASKS2		flags; u k, k x u state letter below 128 (those with
 *			a non-zero count, rising); then numbers: n threads,
 *			k x n count (against the previous sample's count for
 *			that letter); then as 18 from "u truncated" on.
 *
 * A pagetop writes the fields in this order: FRAME, PAGE_SIZE, STATUS,
 * SENSORS, BUDDYINFO2, PAGETYPEINFO2, ZONEINFO2, VMSTAT2, MEMINFO2, PSI2,
 * TIME, UPTIME, TASKS2, DIFFS: what stays the same from one sample to the
 * next first.
 *
 * PREDICTIONS. In a delta chunk of ZONEINFO2, VMSTAT2 or MEMINFO2 some
 * numbers are written as their change less a predicted change, modulo
 * 2^64. A decoder reads all of the chunk's numbers, then adds the
 * predictions in the order given, each computed from the values as they
 * are then; so a rule reads only counters that are final by its turn.
 *
 *	ZONEINFO2: a zone's free pages, when a delta BUDDYINFO or
 *	BUDDYINFO2 chunk came before in the frame and has a row of the
 *	same node and zone name: the change of the sum over its orders o
 *	of free[o] << o.
 *
 *	VMSTAT2 and MEMINFO2: the rules below. A rule's target changes by
 *	the sum of its terms' changes, each times its coefficient. Terms:
 *	NAME, a vmstat counter; NAME*kB, a vmstat counter in pages, times
 *	the page size in kB (of the PAGE_SIZE field before; 0 if none);
 *	m:NAME, a meminfo key of this chunk; zones, the free pages of all
 *	zones, when a delta ZONEINFO or ZONEINFO2 chunk came before in the
 *	frame. A vmstat term of a MEMINFO2 rule counts only when a delta
 *	VMSTAT or VMSTAT2 chunk came before in the frame. A rule whose
 *	target is missing is left out, and so is a term whose counter is
 *	missing or not usable, or is the target of this rule or a later
 *	one of the same chunk; where a name comes twice, the first counts.
 *
 *	VMSTAT2:
 *	nr_free_pages		= zones
 *	nr_zone_inactive_anon	= nr_inactive_anon
 *	nr_zone_active_anon	= nr_active_anon
 *	nr_zone_inactive_file	= nr_inactive_file
 *	nr_zone_active_file	= nr_active_file
 *	nr_zone_unevictable	= nr_unevictable
 *	nr_zone_write_pending	= nr_dirty + nr_writeback
 *	numa_local		= numa_hit
 *	nr_file_pages		= nr_active_file + nr_inactive_file +
 *				  nr_isolated_file + nr_shmem + nr_swapcached
 *	nr_anon_pages		= nr_active_anon + nr_inactive_anon - nr_shmem
 *	nr_dirty_threshold	= 2 nr_dirty_background_threshold
 *	pgsteal_file		= pgsteal_kswapd + pgsteal_direct +
 *				  pgsteal_khugepaged - pgsteal_anon
 *	pgscan_file		= pgscan_kswapd + pgscan_direct +
 *				  pgscan_khugepaged - pgscan_anon
 *	unevictable_pgs_rescued	= unevictable_pgs_munlocked
 *	unevictable_pgs_mlocked	= unevictable_pgs_culled
 *
 *	MEMINFO2:
 *	MemFree			= nr_free_pages*kB
 *	Active(anon)		= nr_active_anon*kB
 *	Inactive(anon)		= nr_inactive_anon*kB
 *	Active(file)		= nr_active_file*kB
 *	Inactive(file)		= nr_inactive_file*kB
 *	Unevictable		= nr_unevictable*kB
 *	Mlocked			= nr_mlock*kB
 *	SwapCached		= nr_swapcached*kB
 *	Dirty			= nr_dirty*kB
 *	Writeback		= nr_writeback*kB
 *	AnonPages		= nr_anon_pages*kB
 *	Mapped			= nr_mapped*kB
 *	Shmem			= nr_shmem*kB
 *	SReclaimable		= nr_slab_reclaimable*kB
 *	SUnreclaim		= nr_slab_unreclaimable*kB
 *	KernelStack		= nr_kernel_stack
 *	PageTables		= nr_page_table_pages*kB
 *	SecPageTables		= nr_sec_page_table_pages*kB
 *	Bounce			= nr_bounce*kB
 *	WritebackTmp		= nr_writeback_temp*kB
 *	KReclaimable		= m:SReclaimable +
 *				  nr_kernel_misc_reclaimable*kB
 *	Slab			= m:SReclaimable + m:SUnreclaim
 *	Active			= m:Active(anon) + m:Active(file)
 *	Inactive		= m:Inactive(anon) + m:Inactive(file)
 *	Cached			= nr_file_pages*kB - m:Buffers -
 *				  nr_swapcached*kB
 *	MemAvailable		= m:MemFree + m:Active(file) +
 *				  m:Inactive(file) + m:KReclaimable
 *
 * NAMES: the built-in lists of VMSTAT2 and MEMINFO2, in codec-names.c
 * and in pagetop-recording(5), places counted from 0. They never change.
 *
 * A decoded sample is zero where nothing was written: the data of a source
 * that is not valid, and the array entries past each count, except that
 * tasks.b and tasks.stacks past their counts are left as they were.
 */

#include "ptrec/codec.h"
#include "util/wire.h"
#include "util/arith.h"
#include "ptrec/codec-names.h"
#include "ptrec/codec-predict.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum codec_field {
	F_FRAME = 1,
	F_TIME = 2,
	F_PAGE_SIZE = 3,
	F_STATUS = 4,
	F_BUDDYINFO = 10,
	F_PAGETYPEINFO = 11,
	F_VMSTAT = 12,
	F_MEMINFO = 13,
	F_ZONEINFO = 14,
	F_PSI = 15,
	F_UPTIME = 16,
	F_SENSORS = 17,
	F_TASKS = 18,
	F_KMSG = 19,
	/* 10 to 15 and 18 again: differences in DIFFS, predictions, names */
	F_BUDDYINFO2 = 20,
	F_PAGETYPEINFO2 = 21,
	F_VMSTAT2 = 22,
	F_MEMINFO2 = 23,
	F_ZONEINFO2 = 24,
	F_PSI2 = 25,
	F_DIFFS = 26,		/* the differences of 20 to 25 and 27 */
	F_TASKS2 = 27,		/* 18 with its counts as 20 to 25 have them */
};

#define DELTA		0x1u	/* frame and chunk flags */
/* Beyond these, a double does not keep microseconds or milli-units. */
#define TIME_MAX	4294967296.0
#define SENSOR_MAX	1e12

/* Source numbers in the recording, whatever enum source becomes. */
static const enum source codec_sources[] = {
	SRC_BUDDYINFO, SRC_PAGETYPEINFO, SRC_VMSTAT, SRC_MEMINFO,
	SRC_ZONEINFO, SRC_PSI_CPU, SRC_PSI_MEMORY, SRC_PSI_IO, SRC_PSI_IRQ,
	SRC_UPTIME, SRC_TASKS,
};
#define N_WIRE_SOURCES	(sizeof(codec_sources) / sizeof(codec_sources[0]))

static const enum psi_resource codec_psi[] = {
	PSI_CPU, PSI_MEMORY, PSI_IO, PSI_IRQ,
};
#define N_WIRE_PSI	(sizeof(codec_psi) / sizeof(codec_psi[0]))

static const enum zoneinfo_field codec_zi[] = {
	ZI_FREE, ZI_MIN, ZI_LOW, ZI_HIGH, ZI_BOOST, ZI_SPANNED, ZI_PRESENT,
	ZI_MANAGED, ZI_CMA,
};
#define N_WIRE_ZI	(sizeof(codec_zi) / sizeof(codec_zi[0]))

static const enum sensor_kind codec_kinds[] = {
	SENSOR_TEMP, SENSOR_FAN, SENSOR_VOLTAGE, SENSOR_POWER,
};
#define N_WIRE_KINDS	(sizeof(codec_kinds) / sizeof(codec_kinds[0]))

/* Bits of a sensor reading's "has". */
#define SR_VALID	0x1u
#define SR_VALUE	0x2u
#define SR_HIGH		0x4u
#define SR_CRIT		0x8u

/* Bits of a PSI chunk's "lines". */
#define PSI_SOME	0x1u
#define PSI_FULL	0x2u

struct wbuf {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool full;		/* a write did not fit; len stopped there */
};

struct rbuf {
	const uint8_t *p;
	size_t len;
	size_t off;
	bool bad;		/* read past the end, or a malformed varint */
};

/* What a field decoder needs. */
struct dec {
	const struct sample *prev;	/* NULL in a keyframe */
	struct sample *s;
	struct parse_error *err;
	struct codec_stats *st;
	unsigned chunks;		/* bit per enum source: chunk seen */
	bool sensors;			/* SENSORS seen */
	bool v2;			/* the field is one of 20 to 25, 27 */
	bool buddy_delta;		/* a delta buddyinfo chunk was read */
	bool zi_delta;			/* likewise zoneinfo */
	bool vm_delta;			/* likewise vmstat */
	struct rbuf diffs;		/* DIFFS, read as chunks need it */
};

static int
codec_fail(struct parse_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
codec_fail(struct parse_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->line = 0;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Puts where the field that failed starts in front of its message. */
static int
codec_fail_at(struct parse_error *err, size_t at)
{
	char msg[sizeof(err->msg)];
	size_t n, k;

	if (err != NULL) {
		memcpy(msg, err->msg, sizeof(msg));
		n = strnlen(msg, sizeof(msg) - 1);
		k = (size_t)snprintf(err->msg, sizeof(err->msg), "byte %zu: ",
		    at);
		if (k < sizeof(err->msg) - 1) {
			if (n > sizeof(err->msg) - 1 - k)
				n = sizeof(err->msg) - 1 - k;
			memcpy(err->msg + k, msg, n);
			err->msg[k + n] = '\0';
		}
	}
	return -EINVAL;
}

/* Seconds as integer microseconds. */
static int64_t
codec_us(double t)
{
	if (!(t > -TIME_MAX && t < TIME_MAX))
		return 0;
	return wire_us(t);
}

static double
codec_from_us(int64_t us)
{
	return (double)us / 1e6;
}

/* A sensor value as integer milli-units; false when it has none. */
static bool
codec_milli(double v, int64_t *out)
{
	if (!(v > -SENSOR_MAX && v < SENSOR_MAX))
		return false;
	*out = arith_llround(v * 1e3);
	return true;
}

/* The page size in kB, for meminfo predicted from vmstat; 0 if unknown. */
static uint64_t
page_kb(long page_size)
{
	return page_size > 0 ? (uint64_t)page_size / 1024 : 0;
}

/*
 * Writing. Every put stops at cap and marks the buffer full; the encoder
 * checks once at the end.
 */

static void
put_bytes(struct wbuf *w, const void *src, size_t n)
{
	if (w->full || n > w->cap - w->len) {
		w->full = true;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void
put_u(struct wbuf *w, uint64_t v)
{
	uint8_t tmp[VARINT_MAX];

	put_bytes(w, tmp, varint_put(tmp, v));
}

static void
put_s(struct wbuf *w, int64_t v)
{
	put_u(w, zigzag(v));
}

/* A signed number: whole, or its difference from base. */
static void
put_d(struct wbuf *w, bool delta, int64_t v, int64_t base)
{
	if (delta)
		put_s(w, (int64_t)((uint64_t)v - (uint64_t)base));
	else
		put_s(w, v);
}

/*
 * The numbers of a source chunk: each whole (u or s of the value), or in
 * a delta chunk the differences from the previous sample's. A delta chunk
 * of ids 20 to 25 and 27 has only its runs; its differences go in the DIFFS
 * field, with every other chunk's, so that zstd finds a sample's runs and
 * shapes in one piece like the sample before. An encoder goes over the
 * numbers once for the chunk and once more for DIFFS (diffs):
 *
 *	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);)
 *		num_u(&nw, value, base), ...
 */
struct nums {
	struct wbuf *w;
	bool delta;
	int pass;		/* 1: whole numbers or the runs; 2: differences */
	int last;		/* the last pass to make */
	uint64_t zeros;		/* unchanged numbers not yet written */
};

static void
nums_begin(struct nums *nw, struct wbuf *w, bool delta, bool diffs)
{
	nw->w = w;
	nw->delta = delta;
	nw->pass = diffs ? 1 : 0;
	nw->last = diffs && delta ? 2 : 1;
	nw->zeros = 0;
}

static bool
nums_pass(struct nums *nw)
{
	if (nw->pass == 1 && nw->delta && nw->zeros > 0)
		put_u(nw->w, nw->zeros);	/* the run to the end */
	nw->zeros = 0;
	return ++nw->pass <= nw->last;
}

static void
nums_diff(struct nums *nw, uint64_t diff)
{
	if (nw->pass == 2) {
		if (diff != 0)
			put_s(nw->w, (int64_t)diff);
	} else if (diff == 0)
		nw->zeros++;
	else {
		put_u(nw->w, nw->zeros);
		nw->zeros = 0;
	}
}

static void
num_u(struct nums *nw, uint64_t v, uint64_t base)
{
	if (nw->delta)
		nums_diff(nw, v - base);
	else
		put_u(nw->w, v);
}

static void
num_s(struct nums *nw, int64_t v, int64_t base)
{
	if (nw->delta)
		nums_diff(nw, (uint64_t)v - (uint64_t)base);
	else
		put_s(nw->w, v);
}

/* A string from an array of size bytes (its last byte is never written). */
static void
put_str(struct wbuf *w, const char *s, size_t size)
{
	size_t n = strnlen(s, size - 1);

	put_u(w, n);
	put_bytes(w, s, n);
}

/*
 * A name of a whole vmstat or meminfo chunk of ids 22, 23 (name): u k,
 * 0 for the name written out as str after it, else the name of the
 * built-in list (codec-names.c) at place at + 1 + unzigzag(k - 1). The
 * list's order is the kernel's, so k is mostly 1.
 */
struct names_pos {
	const char *const *list;
	int n;
	int at;			/* the place of the last name taken; -1 */
};

static void
put_name(struct wbuf *w, struct names_pos *np, const char *s, size_t size)
{
	int i;

	/* Mostly the next one; else anywhere in the list. */
	for (i = np->at + 1; i < np->n; i++)
		if (strncmp(np->list[i], s, size) == 0)
			break;
	if (i == np->n)
		for (i = 0; i < np->n; i++)
			if (strncmp(np->list[i], s, size) == 0)
				break;
	if (i == np->n) {
		put_u(w, 0);
		put_str(w, s, size);
		return;
	}
	put_u(w, 1 + zigzag((int64_t)i - np->at - 1));
	np->at = i;
}

static size_t
field_begin(struct wbuf *w, enum codec_field id)
{
	put_u(w, (uint64_t)id);
	return w->len;
}

/* Puts the payload's length in front of it. */
static void
field_end(struct wbuf *w, size_t start)
{
	uint8_t tmp[VARINT_MAX];
	size_t n, k;

	if (w->full)
		return;
	n = w->len - start;
	k = varint_put(tmp, n);
	if (k > w->cap - w->len) {
		w->full = true;
		return;
	}
	memmove(w->p + start + k, w->p + start, n);
	memcpy(w->p + start, tmp, k);
	w->len += k;
}

/*
 * Reading. Every get stops at the end and marks the buffer bad, returning
 * zeroes; the decoders check counts before they use them and the whole
 * field at its end.
 */

static uint64_t
get_u(struct rbuf *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	for (;;) {
		if (r->bad || r->off >= r->len) {
			r->bad = true;
			return 0;
		}
		b = r->p[r->off++];
		if (shift == 63 && b > 1) {
			r->bad = true;	/* more than 64 bits */
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
}

static int64_t
get_s(struct rbuf *r)
{
	return unzigzag(get_u(r));
}

static uint64_t
get_n(struct rbuf *r, bool delta, uint64_t base)
{
	if (delta)
		return base + (uint64_t)get_s(r);
	return get_u(r);
}

static int64_t
get_d(struct rbuf *r, bool delta, int64_t base)
{
	if (delta)
		return (int64_t)((uint64_t)base + (uint64_t)get_s(r));
	return get_s(r);
}

/* A number that must fit 32 bits. */
static uint32_t
get_n32(struct rbuf *r, bool delta, uint32_t base)
{
	uint64_t v = get_n(r, delta, base);

	if (v > UINT32_MAX) {
		r->bad = true;
		return 0;
	}
	return (uint32_t)v;
}

/* An unsigned value no larger than max. */
static bool
get_max(struct rbuf *r, uint64_t max, uint64_t *out)
{
	*out = get_u(r);
	return !r->bad && *out <= max;
}

static bool
get_int(struct rbuf *r, int max, int *out)
{
	uint64_t v;

	if (!get_max(r, (uint64_t)max, &v))
		return false;
	*out = (int)v;
	return true;
}

/*
 * The numbers of a source chunk, as nums wrote them. A delta chunk knows
 * from its shape how many there are (left), so it can tell a run of
 * unchanged numbers at the end from one followed by a difference. The
 * differences of ids 20 to 25 and 27 are read from DIFFS (diffs).
 */
struct numr {
	struct rbuf *r;
	bool delta;
	uint64_t left;		/* numbers not yet read */
	uint64_t zeros;		/* unchanged numbers still to give */
	bool in_run;		/* a run was read, its difference not yet */
	struct rbuf *diffs;	/* where the differences are: r or DIFFS */
	uint64_t ndiffs;	/* differences read */
};

static uint64_t
numr_diff(struct numr *nr)
{
	uint64_t v;

	if (nr->left == 0) {
		nr->r->bad = true;
		return 0;
	}
	if (!nr->in_run) {
		nr->zeros = get_u(nr->r);
		if (nr->zeros > nr->left) {
			nr->r->bad = true;
			nr->zeros = 0;
		}
		nr->in_run = true;
	}
	nr->left--;
	if (nr->zeros > 0) {
		nr->zeros--;
		return 0;
	}
	nr->in_run = false;
	nr->ndiffs++;
	v = (uint64_t)get_s(nr->diffs != NULL ? nr->diffs : nr->r);
	if (nr->diffs != NULL && nr->diffs->bad)
		nr->r->bad = true;
	return v;
}

static uint64_t
numr_u(struct numr *nr, uint64_t base)
{
	if (nr->delta)
		return base + numr_diff(nr);
	return get_u(nr->r);
}

static int64_t
numr_s(struct numr *nr, int64_t base)
{
	if (nr->delta)
		return (int64_t)((uint64_t)base + numr_diff(nr));
	return get_s(nr->r);
}

static uint32_t
numr_u32(struct numr *nr, uint32_t base)
{
	uint64_t v = numr_u(nr, base);

	if (v > UINT32_MAX) {
		nr->r->bad = true;
		return 0;
	}
	return (uint32_t)v;
}

/* A signed value that fits an int. */
static bool
get_sint(struct rbuf *r, int *out)
{
	int64_t v = get_s(r);

	if (r->bad || v < INT_MIN || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

/* A string into an array of size bytes; false when it does not fit. */
static bool
get_str(struct rbuf *r, char *dst, size_t size)
{
	uint64_t n = get_u(r);

	if (r->bad || n >= size || n > r->len - r->off ||
	    memchr(r->p + r->off, '\0', (size_t)n) != NULL) {
		r->bad = true;
		return false;
	}
	memcpy(dst, r->p + r->off, (size_t)n);
	dst[n] = '\0';
	r->off += (size_t)n;
	return true;
}

static bool
get_name(struct rbuf *r, struct names_pos *np, char *dst, size_t size)
{
	uint64_t k = get_u(r);
	int64_t off, at;

	if (r->bad)
		return false;
	if (k == 0)
		return get_str(r, dst, size);
	/* Checked before it is added: a crafted k must not overflow. */
	off = unzigzag(k - 1);
	if (off < -1 - (int64_t)np->at || off > (int64_t)np->n - 2 - np->at) {
		r->bad = true;
		return false;
	}
	at = np->at + 1 + off;
	if (strlen(np->list[at]) >= size) {
		r->bad = true;
		return false;
	}
	strcpy(dst, np->list[at]);
	np->at = (int)at;
	return true;
}

static bool
get_bool(struct rbuf *r, bool *out)
{
	uint64_t v;

	if (!get_max(r, 1, &v))
		return false;
	*out = v != 0;
	return true;
}

/* The chunk flags; false for a bit this reader does not know. */
static bool
get_flags(struct rbuf *r, bool *delta)
{
	uint64_t v;

	if (!get_max(r, DELTA, &v))
		return false;
	*delta = (v & DELTA) != 0;
	return true;
}

/* The end of a field: all of it read, none past it. */
static int
field_done(struct rbuf *r, struct parse_error *err, const char *what)
{
	if (r->bad)
		return codec_fail(err, "%s: cut short or malformed", what);
	if (r->off != r->len)
		return codec_fail(err, "%s: bytes left over: %zu", what,
		    r->len - r->off);
	return 0;
}

/*
 * The counts a sample may hold, checked before either side indexes by
 * them: the encoder trusts neither its sample nor its previous one, the
 * decoder not the previous sample it is handed.
 */
static bool
sample_sane(const struct sample *s)
{
	const struct tasks *t = &s->tasks;
	int i;

	if (sample_has(s, SRC_BUDDYINFO) &&
	    (s->buddy.n_orders < 0 || s->buddy.n_orders > MAX_ORDERS ||
	    s->buddy.n_zones < 0 || s->buddy.n_zones > MAX_ZONES))
		return false;
	if (sample_has(s, SRC_PAGETYPEINFO)) {
		const struct pagetypeinfo *p = &s->pti;

		if (p->n_orders < 0 || p->n_orders > MAX_ORDERS ||
		    p->n_types < 0 || p->n_types > MAX_MTYPES ||
		    p->n_free < 0 || p->n_free > MAX_ZONES * MAX_MTYPES ||
		    p->n_blocks < 0 || p->n_blocks > MAX_ZONES ||
		    p->n_mixed < 0 || p->n_mixed > MAX_ZONES)
			return false;
		for (i = 0; i < p->n_free; i++)
			if (p->free[i].type < 0 ||
			    p->free[i].type >= p->n_types ||
			    p->free[i].capped >> p->n_orders != 0)
				return false;
	}
	if (sample_has(s, SRC_VMSTAT) &&
	    (s->vm.n < 0 || s->vm.n > MAX_VMSTAT))
		return false;
	if (sample_has(s, SRC_MEMINFO) &&
	    (s->mem.n < 0 || s->mem.n > MAX_MEMINFO))
		return false;
	if (sample_has(s, SRC_ZONEINFO) &&
	    (s->zi.n_zones < 0 || s->zi.n_zones > MAX_ZONES))
		return false;
	if (s->sensors.n < 0 || s->sensors.n > MAX_SENSORS)
		return false;
	for (i = 0; i < s->sensors.n; i++)
		if ((unsigned)s->sensors.r[i].kind >= N_WIRE_KINDS)
			return false;
	if (sample_has(s, SRC_TASKS)) {
		if (t->n_blocked < 0 || t->n_blocked > TASKS_MAX_BLOCKED ||
		    t->n_stacks < 0 || t->n_stacks > TASKS_MAX_STACKS)
			return false;
		for (i = 0; i < t->n_stacks; i++)
			if (t->stacks[i].n < 0 ||
			    t->stacks[i].n > STACK_MAX_FRAMES)
				return false;
		for (i = 0; i < t->n_blocked; i++)
			if (t->b[i].stack < -1 || t->b[i].stack >= t->n_stacks)
				return false;
	}
	return true;
}

/* The previous sample had this source valid: a chunk may be a delta. */
static bool
prev_has(const struct sample *prev, enum source src)
{
	return prev != NULL && sample_has(prev, src);
}

static bool
status_same(const struct source_status *a, const struct source_status *b)
{
	return a->err == b->err && a->line == b->line &&
	    strncmp(a->msg, b->msg, sizeof(a->msg)) == 0;
}

static bool
name_same(const char *a, const char *b, size_t size)
{
	return strncmp(a, b, size) == 0;
}

/* Same shape: the chunk can leave it out. */

static bool
buddy_same(const struct buddyinfo *a, const struct buddyinfo *b)
{
	int i;

	if (a->n_orders != b->n_orders || a->n_zones != b->n_zones)
		return false;
	for (i = 0; i < a->n_zones; i++)
		if (a->zones[i].node != b->zones[i].node ||
		    !name_same(a->zones[i].zone, b->zones[i].zone, NAME_LEN))
			return false;
	return true;
}

static bool
rows_same(const struct pagetypeinfo_blocks *a,
    const struct pagetypeinfo_blocks *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i].node != b[i].node ||
		    !name_same(a[i].zone, b[i].zone, NAME_LEN))
			return false;
	return true;
}

static bool
pti_same(const struct pagetypeinfo *a, const struct pagetypeinfo *b)
{
	int i;

	if (a->pageblock_order != b->pageblock_order ||
	    a->pages_per_block != b->pages_per_block ||
	    a->n_orders != b->n_orders || a->n_types != b->n_types ||
	    a->n_free != b->n_free || a->n_blocks != b->n_blocks ||
	    a->n_mixed != b->n_mixed)
		return false;
	for (i = 0; i < a->n_types; i++)
		if (!name_same(a->types[i], b->types[i], NAME_LEN))
			return false;
	for (i = 0; i < a->n_free; i++)
		if (a->free[i].node != b->free[i].node ||
		    a->free[i].type != b->free[i].type ||
		    !name_same(a->free[i].zone, b->free[i].zone, NAME_LEN))
			return false;
	return rows_same(a->blocks, b->blocks, a->n_blocks) &&
	    rows_same(a->mixed, b->mixed, a->n_mixed);
}

static bool
vm_same(const struct vmstat *a, const struct vmstat *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (!name_same(a->e[i].name, b->e[i].name, VMSTAT_NAME_LEN))
			return false;
	return true;
}

static bool
mem_same(const struct meminfo *a, const struct meminfo *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->e[i].kb != b->e[i].kb ||
		    !name_same(a->e[i].name, b->e[i].name, MEMINFO_NAME_LEN))
			return false;
	return true;
}

static bool
zi_same(const struct zoneinfo *a, const struct zoneinfo *b)
{
	int i;

	if (a->n_zones != b->n_zones)
		return false;
	for (i = 0; i < a->n_zones; i++)
		if (a->zones[i].node != b->zones[i].node ||
		    a->zones[i].has != b->zones[i].has ||
		    !name_same(a->zones[i].zone, b->zones[i].zone, NAME_LEN))
			return false;
	return true;
}

static unsigned
psi_lines(const struct psi *p)
{
	return (p->some.present ? PSI_SOME : 0) |
	    (p->full.present ? PSI_FULL : 0);
}

static bool
sensors_same(const struct sensors *a, const struct sensors *b)
{
	int i;

	if (a->available != b->available || a->n != b->n ||
	    !name_same(a->why, b->why, sizeof(a->why)))
		return false;
	for (i = 0; i < a->n; i++)
		if (a->r[i].kind != b->r[i].kind ||
		    !name_same(a->r[i].chip, b->r[i].chip,
		    sizeof(a->r[i].chip)) ||
		    !name_same(a->r[i].label, b->r[i].label,
		    sizeof(a->r[i].label)))
			return false;
	return true;
}

/* Everything of a blocked task but its stack. */
static bool
blocked_same(const struct blocked_task *a, const struct blocked_task *b)
{
	return a->tid == b->tid && a->tgid == b->tgid &&
	    a->state == b->state && a->since_start == b->since_start &&
	    codec_us(a->since) == codec_us(b->since) &&
	    name_same(a->comm, b->comm, sizeof(a->comm)) &&
	    name_same(a->wchan, b->wchan, sizeof(a->wchan)) &&
	    name_same(a->cmdline, b->cmdline, sizeof(a->cmdline)) &&
	    name_same(a->user, b->user, sizeof(a->user));
}

/*
 * The encoder, a chunk at a time. delta: write against prev (the caller
 * checked it may).
 */

static void
enc_buddy(struct wbuf *w, const struct buddyinfo *b,
    const struct buddyinfo *pb, bool diffs)
{
	bool delta = pb != NULL;
	struct nums nw;
	int i, o;

	if (!diffs)
		put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		put_u(w, (uint64_t)b->n_orders);
		put_u(w, (uint64_t)b->n_zones);
		for (i = 0; i < b->n_zones; i++) {
			put_s(w, b->zones[i].node);
			put_str(w, b->zones[i].zone, NAME_LEN);
		}
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);)
		for (i = 0; i < b->n_zones; i++)
			for (o = 0; o < b->n_orders; o++)
				num_u(&nw, b->zones[i].free[o],
				    delta ? pb->zones[i].free[o] : 0);
}

static void
enc_pti_rows(struct wbuf *w, const struct pagetypeinfo_blocks *rows, int n)
{
	int i;

	put_u(w, (uint64_t)n);
	for (i = 0; i < n; i++) {
		put_s(w, rows[i].node);
		put_str(w, rows[i].zone, NAME_LEN);
	}
}

static void
enc_pti_counts(struct nums *nw, const struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n, int n_types)
{
	int i, t;

	for (i = 0; i < n; i++)
		for (t = 0; t < n_types; t++)
			num_u(nw, rows[i].count[t],
			    prows != NULL ? prows[i].count[t] : 0);
}

static void
enc_pti(struct wbuf *w, const struct pagetypeinfo *p,
    const struct pagetypeinfo *pp, bool diffs)
{
	const struct pagetypeinfo_free *f, *pf;
	bool delta = pp != NULL;
	struct nums nw;
	int i, o;

	if (!diffs)
		put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		put_s(w, p->pageblock_order);
		put_u(w, p->pages_per_block);
		put_u(w, (uint64_t)p->n_orders);
		put_u(w, (uint64_t)p->n_types);
		for (i = 0; i < p->n_types; i++)
			put_str(w, p->types[i], NAME_LEN);
		put_u(w, (uint64_t)p->n_free);
		for (i = 0; i < p->n_free; i++) {
			put_s(w, p->free[i].node);
			put_str(w, p->free[i].zone, NAME_LEN);
			put_u(w, (uint64_t)p->free[i].type);
		}
		enc_pti_rows(w, p->blocks, p->n_blocks);
		enc_pti_rows(w, p->mixed, p->n_mixed);
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);) {
		for (i = 0; i < p->n_free; i++) {
			f = &p->free[i];
			pf = delta ? &pp->free[i] : NULL;
			num_u(&nw, f->capped, delta ? pf->capped : 0);
			for (o = 0; o < p->n_orders; o++)
				num_u(&nw, f->free[o], delta ? pf->free[o] : 0);
		}
		enc_pti_counts(&nw, p->blocks, delta ? pp->blocks : NULL,
		    p->n_blocks, p->n_types);
		enc_pti_counts(&nw, p->mixed, delta ? pp->mixed : NULL,
		    p->n_mixed, p->n_types);
	}
}

/* ps: what the predictions read besides vmstat. */
static void
enc_vm(struct wbuf *w, const struct vmstat *v, const struct vmstat *pv,
    struct predict_src *ps, bool diffs)
{
	bool delta = pv != NULL;
	struct names_pos np = { codec_vmstat_names, codec_vmstat_nnames, -1 };
	uint64_t pred[MAX_VMSTAT];
	struct predict pr;
	struct nums nw;
	int i;

	if (!diffs)
		put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		put_u(w, (uint64_t)v->n);
		for (i = 0; i < v->n; i++)
			put_name(w, &np, v->e[i].name, VMSTAT_NAME_LEN);
	}
	if (delta) {
		memset(pred, 0, (size_t)v->n * sizeof(pred[0]));
		ps->v = v;
		ps->pv = pv;
		predict_vmstat(&pr, v, ps);
		for (i = 0; i < pr.n; i++)
			pred[pr.r[i].target] = predict_change(&pr, i, ps);
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);) {
		num_s(&nw, v->skipped, delta ? pv->skipped : 0);
		for (i = 0; i < v->n; i++)
			num_u(&nw, v->e[i].value,
			    delta ? pv->e[i].value + pred[i] : 0);
	}
}

/* ps: what the predictions read besides meminfo. */
static void
enc_mem(struct wbuf *w, const struct meminfo *m, const struct meminfo *pm,
    struct predict_src *ps, bool diffs)
{
	bool delta = pm != NULL;
	struct names_pos np = { codec_meminfo_names, codec_meminfo_nnames, -1 };
	uint64_t pred[MAX_MEMINFO];
	struct predict pr;
	struct nums nw;
	int i;

	if (!diffs)
		put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		put_u(w, (uint64_t)m->n);
		for (i = 0; i < m->n; i++) {
			put_name(w, &np, m->e[i].name, MEMINFO_NAME_LEN);
			put_u(w, m->e[i].kb);
		}
	}
	if (delta) {
		memset(pred, 0, (size_t)m->n * sizeof(pred[0]));
		ps->m = m;
		ps->pm = pm;
		predict_meminfo(&pr, m, ps);
		for (i = 0; i < pr.n; i++)
			pred[pr.r[i].target] = predict_change(&pr, i, ps);
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);) {
		num_s(&nw, m->skipped, delta ? pm->skipped : 0);
		for (i = 0; i < m->n; i++)
			num_u(&nw, m->e[i].value,
			    delta ? pm->e[i].value + pred[i] : 0);
	}
}

/* The wire bits of a zone's "has". */
static uint64_t
zi_has_wire(uint32_t has)
{
	uint64_t bits = 0;
	size_t k;

	for (k = 0; k < N_WIRE_ZI; k++)
		if (has & (1u << codec_zi[k]))
			bits |= 1u << k;
	return bits;
}

/* b, pb: buddyinfo, when its chunk was a delta chunk, for the free pages. */
static void
enc_zi(struct wbuf *w, const struct zoneinfo *z, const struct zoneinfo *pz,
    const struct buddyinfo *b, const struct buddyinfo *pb, bool diffs)
{
	const struct zoneinfo_zone *zz;
	bool delta = pz != NULL;
	struct nums nw;
	uint64_t base;
	size_t k;
	int i;

	if (!diffs)
		put_u(w, delta ? DELTA : 0);
	if (!delta && !diffs) {
		put_u(w, (uint64_t)z->n_zones);
		for (i = 0; i < z->n_zones; i++) {
			put_s(w, z->zones[i].node);
			put_str(w, z->zones[i].zone, NAME_LEN);
			put_u(w, zi_has_wire(z->zones[i].has));
		}
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);)
		for (i = 0; i < z->n_zones; i++) {
			zz = &z->zones[i];
			for (k = 0; k < N_WIRE_ZI; k++) {
				if (!(zz->has & (1u << codec_zi[k])))
					continue;
				base = delta ? pz->zones[i].v[codec_zi[k]] : 0;
				if (delta && b != NULL && codec_zi[k] == ZI_FREE)
					base += predict_zone_free(zz, b, pb);
				num_u(&nw, zz->v[codec_zi[k]], base);
			}
		}
}

static void
enc_psi_line(struct nums *nw, const struct psi_line *l,
    const struct psi_line *pl)
{
	num_u(nw, l->avg10, pl != NULL ? pl->avg10 : 0);
	num_u(nw, l->avg60, pl != NULL ? pl->avg60 : 0);
	num_u(nw, l->avg300, pl != NULL ? pl->avg300 : 0);
	num_u(nw, l->total, pl != NULL ? pl->total : 0);
}

/* The numbers of a PSI delta chunk that changed: its differences in DIFFS. */
static uint64_t
psi_changed(const struct psi *p, const struct psi *pp)
{
	const struct psi_line *l[2] = { &p->some, &p->full };
	const struct psi_line *pl[2] = { &pp->some, &pp->full };
	uint64_t n = 0;
	int i;

	for (i = 0; i < 2; i++)
		if (l[i]->present)
			n += (l[i]->avg10 != pl[i]->avg10) +
			    (l[i]->avg60 != pl[i]->avg60) +
			    (l[i]->avg300 != pl[i]->avg300) +
			    (l[i]->total != pl[i]->total);
	return n;
}

static void
enc_psi(struct wbuf *w, size_t wire, const struct psi *p,
    const struct psi *pp, bool diffs)
{
	bool delta = pp != NULL;
	struct nums nw;

	if (!diffs) {
		put_u(w, wire);
		put_u(w, delta ? psi_changed(p, pp) : 0);
		put_u(w, delta ? DELTA : 0);
		if (!delta)
			put_u(w, psi_lines(p));
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);) {
		if (p->some.present)
			enc_psi_line(&nw, &p->some, delta ? &pp->some : NULL);
		if (p->full.present)
			enc_psi_line(&nw, &p->full, delta ? &pp->full : NULL);
	}
}

static size_t
kind_wire(enum sensor_kind kind)
{
	size_t k;

	for (k = 0; k < N_WIRE_KINDS; k++)
		if (codec_kinds[k] == kind)
			break;
	return k;
}

/* One of a reading's values, against the previous reading's same one. */
static void
enc_sensor_value(struct wbuf *w, double v, const double *pv)
{
	int64_t m = 0, pm = 0;

	(void)codec_milli(v, &m);
	if (pv != NULL && !codec_milli(*pv, &pm))
		pm = 0;
	put_s(w, (int64_t)((uint64_t)m - (uint64_t)pm));
}

static void
enc_sensors(struct wbuf *w, const struct sensors *se,
    const struct sensors *pse)
{
	const struct sensor_reading *r, *pr;
	bool delta = pse != NULL;
	unsigned has;
	int64_t m;
	int i;

	put_u(w, delta ? DELTA : 0);
	if (!delta) {
		put_u(w, se->available);
		put_str(w, se->why, sizeof(se->why));
		put_u(w, (uint64_t)se->n);
		for (i = 0; i < se->n; i++) {
			put_str(w, se->r[i].chip, sizeof(se->r[i].chip));
			put_str(w, se->r[i].label, sizeof(se->r[i].label));
			put_u(w, kind_wire(se->r[i].kind));
		}
	}
	for (i = 0; i < se->n; i++) {
		r = &se->r[i];
		pr = delta ? &pse->r[i] : NULL;
		has = (r->valid ? SR_VALID : 0) |
		    (codec_milli(r->value, &m) ? SR_VALUE : 0) |
		    (codec_milli(r->high, &m) ? SR_HIGH : 0) |
		    (codec_milli(r->crit, &m) ? SR_CRIT : 0);
		put_u(w, has);
		if (has & SR_VALUE)
			enc_sensor_value(w, r->value, pr ? &pr->value : NULL);
		if (has & SR_HIGH)
			enc_sensor_value(w, r->high, pr ? &pr->high : NULL);
		if (has & SR_CRIT)
			enc_sensor_value(w, r->crit, pr ? &pr->crit : NULL);
	}
}

/* Where in prev's list an equal entry is: its index + 1, or 0. */
static int
stack_ref(const struct stack *st, int i, const struct tasks *pt)
{
	int k;

	if (i < pt->n_stacks && stack_equal(st, &pt->stacks[i]))
		return i + 1;
	for (k = 0; k < pt->n_stacks; k++)
		if (stack_equal(st, &pt->stacks[k]))
			return k + 1;
	return 0;
}

static int
blocked_ref(const struct blocked_task *b, int i, const struct tasks *pt)
{
	int k;

	if (i < pt->n_blocked && blocked_same(b, &pt->b[i]))
		return i + 1;
	for (k = 0; k < pt->n_blocked; k++)
		if (pt->b[k].tid == b->tid)
			return blocked_same(b, &pt->b[k]) ? k + 1 : 0;
	return 0;
}

static void
enc_tasks(struct wbuf *w, const struct tasks *t, const struct tasks *pt,
    double mono, bool diffs)
{
	const struct blocked_task *b;
	const struct stack *st;
	bool delta = pt != NULL;
	struct nums nw;
	int i, k, ref;
	uint64_t n = 0;

	if (!diffs) {
		put_u(w, delta ? DELTA : 0);
		for (i = 0; i < 128; i++)
			n += t->by_state[i] != 0;
		put_u(w, n);
		for (i = 0; i < 128; i++)
			if (t->by_state[i] != 0)
				put_u(w, (uint64_t)i);
	}
	for (nums_begin(&nw, w, delta, diffs); nums_pass(&nw);) {
		num_u(&nw, t->total, delta ? pt->total : 0);
		for (i = 0; i < 128; i++)
			if (t->by_state[i] != 0)
				num_u(&nw, t->by_state[i],
				    delta ? pt->by_state[i] : 0);
	}
	if (diffs)
		return;
	put_u(w, t->truncated);
	put_s(w, t->stack_err);
	put_str(w, t->note, sizeof(t->note));

	put_u(w, (uint64_t)t->n_stacks);
	for (i = 0; i < t->n_stacks; i++) {
		st = &t->stacks[i];
		ref = delta ? stack_ref(st, i, pt) : 0;
		put_u(w, (uint64_t)ref);
		if (ref != 0)
			continue;
		put_u(w, (uint64_t)st->n);
		for (k = 0; k < st->n; k++) {
			put_str(w, st->f[k].func, STACK_FUNC_LEN);
			put_str(w, st->f[k].module, STACK_MODULE_LEN);
		}
	}

	put_u(w, (uint64_t)t->n_blocked);
	for (i = 0; i < t->n_blocked; i++) {
		b = &t->b[i];
		ref = delta ? blocked_ref(b, i, pt) : 0;
		put_u(w, (uint64_t)ref);
		if (ref == 0) {
			put_s(w, b->tid);
			put_s(w, b->tgid);
			put_str(w, b->comm, sizeof(b->comm));
			put_u(w, (unsigned char)b->state);
			put_str(w, b->wchan, sizeof(b->wchan));
			put_s(w, codec_us(mono) - codec_us(b->since));
			put_u(w, b->since_start);
			put_str(w, b->cmdline, sizeof(b->cmdline));
			put_str(w, b->user, sizeof(b->user));
		}
		put_s(w, b->stack);
	}
}

static void
enc_status(struct wbuf *w, size_t wire, const struct source_status *st)
{
	size_t start = field_begin(w, F_STATUS);

	put_u(w, wire);
	put_s(w, st->err);
	put_s(w, st->line);
	put_str(w, st->msg, sizeof(st->msg));
	field_end(w, start);
}

/*
 * The fields of ids 20 to 25; with diffs, their differences instead, for
 * the DIFFS field. Zoneinfo goes before vmstat, whose free pages it
 * predicts.
 */
static void
enc_counters(struct wbuf *w, const struct sample *s, const struct sample *p,
    bool diffs)
{
	struct predict_src ps;
	size_t k, start = 0;
	enum source src;
	bool b_delta, z_delta, vm_delta;

	memset(&ps, 0, sizeof(ps));
	ps.page_kb = page_kb(s->page_size);
	b_delta = sample_has(s, SRC_BUDDYINFO) &&
	    prev_has(p, SRC_BUDDYINFO) && buddy_same(&s->buddy, &p->buddy);
	z_delta = sample_has(s, SRC_ZONEINFO) &&
	    prev_has(p, SRC_ZONEINFO) && zi_same(&s->zi, &p->zi);
	vm_delta = sample_has(s, SRC_VMSTAT) && prev_has(p, SRC_VMSTAT) &&
	    vm_same(&s->vm, &p->vm);
	if (sample_has(s, SRC_BUDDYINFO)) {
		if (!diffs)
			start = field_begin(w, F_BUDDYINFO2);
		enc_buddy(w, &s->buddy, b_delta ? &p->buddy : NULL, diffs);
		if (!diffs)
			field_end(w, start);
	}
	if (sample_has(s, SRC_PAGETYPEINFO)) {
		if (!diffs)
			start = field_begin(w, F_PAGETYPEINFO2);
		enc_pti(w, &s->pti, prev_has(p, SRC_PAGETYPEINFO) &&
		    pti_same(&s->pti, &p->pti) ? &p->pti : NULL, diffs);
		if (!diffs)
			field_end(w, start);
	}
	if (sample_has(s, SRC_ZONEINFO)) {
		if (!diffs)
			start = field_begin(w, F_ZONEINFO2);
		enc_zi(w, &s->zi, z_delta ? &p->zi : NULL,
		    b_delta ? &s->buddy : NULL, b_delta ? &p->buddy : NULL,
		    diffs);
		if (!diffs)
			field_end(w, start);
	}
	if (z_delta) {
		ps.z = &s->zi;
		ps.pz = &p->zi;
	}
	if (sample_has(s, SRC_VMSTAT)) {
		if (!diffs)
			start = field_begin(w, F_VMSTAT2);
		enc_vm(w, &s->vm, vm_delta ? &p->vm : NULL, &ps, diffs);
		if (!diffs)
			field_end(w, start);
	}
	if (!vm_delta)
		ps.v = ps.pv = NULL;
	if (sample_has(s, SRC_MEMINFO)) {
		if (!diffs)
			start = field_begin(w, F_MEMINFO2);
		enc_mem(w, &s->mem, prev_has(p, SRC_MEMINFO) &&
		    mem_same(&s->mem, &p->mem) ? &p->mem : NULL, &ps, diffs);
		if (!diffs)
			field_end(w, start);
	}
	for (k = 0; k < N_WIRE_PSI; k++) {
		enum psi_resource r = codec_psi[k];

		src = (enum source)(SRC_PSI_CPU + r);
		if (!sample_has(s, src))
			continue;
		if (!diffs)
			start = field_begin(w, F_PSI2);
		enc_psi(w, k, &s->psi[r], prev_has(p, src) &&
		    psi_lines(&s->psi[r]) == psi_lines(&p->psi[r]) ?
		    &p->psi[r] : NULL, diffs);
		if (!diffs)
			field_end(w, start);
	}
}

/* TASKS2, or with diffs its differences, after the time it is written
 * against (and after the differences of enc_counters). */
static void
enc_tasks_field(struct wbuf *w, const struct sample *s, const struct sample *p,
    bool diffs)
{
	size_t start = 0;

	if (!sample_has(s, SRC_TASKS))
		return;
	if (!diffs)
		start = field_begin(w, F_TASKS2);
	enc_tasks(w, &s->tasks, prev_has(p, SRC_TASKS) ? &p->tasks : NULL,
	    s->mono, diffs);
	if (!diffs)
		field_end(w, start);
}

static bool
sensors_empty(const struct sensors *se)
{
	return !se->available && se->n == 0 && se->why[0] == '\0';
}

/* The kernel log events of one tick; whole, never a delta. */
static void
enc_kmsg(struct wbuf *w, const struct kmsg_sample *k)
{
	int n = k->n < 0 ? 0 : k->n > KMSG_MAX_EVENTS ? KMSG_MAX_EVENTS : k->n;

	put_s(w, k->err);
	put_u(w, k->lost);
	put_u(w, k->dropped);
	put_u(w, (uint64_t)n);
	for (int i = 0; i < n; i++) {
		const struct kmsg_event *ev = &k->ev[i];
		unsigned has = ev->has & KF_ALL;

		put_u(w, ev->seq);
		put_u(w, ev->ts_us);
		put_u(w, (unsigned)ev->kind < KMSG_KIND_COUNT ? (uint64_t)ev->kind : 0);
		put_u(w, (uint64_t)(ev->level & 7));
		put_u(w, has);
		if (has & KF_COMM)
			put_str(w, ev->comm, sizeof(ev->comm));
		if (has & KF_PID)
			put_s(w, ev->pid);
		if (has & KF_ORDER)
			put_s(w, ev->order);
		if (has & KF_GFP)
			put_u(w, ev->gfp);
		if (has & KF_SECONDS)
			put_u(w, ev->seconds);
		if (has & KF_ANON)
			put_u(w, ev->anon_kb);
		if (has & KF_FILE)
			put_u(w, ev->file_kb);
		if (has & KF_SHMEM)
			put_u(w, ev->shmem_kb);
		put_u(w, ev->lines);
		put_u(w, ev->truncated ? 1 : 0);
		put_str(w, ev->text, sizeof(ev->text));
	}
}

ssize_t
codec_encode(const struct sample *s, const struct sample *prev, uint8_t *buf,
    size_t cap)
{
	struct wbuf w = { buf, 0, cap, false };
	const struct sample *p = prev;
	struct source_status zero;
	int64_t mono, wall, pmono = 0, pwall = 0, up, pup = 0;
	struct wbuf probe = { NULL, 0, 0, false };
	size_t k, start;
	enum source src;

	if (!sample_sane(s) || (p != NULL && !sample_sane(p)))
		return -EINVAL;
	memset(&zero, 0, sizeof(zero));

	/* What stays the same from one sample to the next first, in one
	 * piece for zstd; then what changes: times, tasks, differences. */
	start = field_begin(&w, F_FRAME);
	put_u(&w, p != NULL ? DELTA : 0);
	field_end(&w, start);

	start = field_begin(&w, F_PAGE_SIZE);
	put_d(&w, p != NULL, s->page_size, p != NULL ? p->page_size : 0);
	field_end(&w, start);

	for (k = 0; k < N_WIRE_SOURCES; k++) {
		src = codec_sources[k];
		if (!status_same(&s->status[src],
		    p != NULL ? &p->status[src] : &zero))
			enc_status(&w, k, &s->status[src]);
	}

	if (!sensors_empty(&s->sensors)) {
		start = field_begin(&w, F_SENSORS);
		enc_sensors(&w, &s->sensors, p != NULL &&
		    sensors_same(&s->sensors, &p->sensors) ?
		    &p->sensors : NULL);
		field_end(&w, start);
	}
	enc_counters(&w, s, p, false);

	mono = codec_us(s->mono);
	wall = codec_us(s->wall);
	if (p != NULL) {
		pmono = codec_us(p->mono);
		pwall = codec_us(p->wall);
	}
	start = field_begin(&w, F_TIME);
	put_d(&w, p != NULL, mono, pmono);
	put_d(&w, p != NULL, wall - mono, pwall - pmono);
	field_end(&w, start);

	if (sample_has(s, SRC_UPTIME)) {
		up = codec_us(s->uptime);
		if (prev_has(p, SRC_UPTIME))
			pup = codec_us(p->uptime);
		start = field_begin(&w, F_UPTIME);
		put_u(&w, prev_has(p, SRC_UPTIME) ? DELTA : 0);
		put_d(&w, prev_has(p, SRC_UPTIME), up, pup);
		field_end(&w, start);
	}
	enc_tasks_field(&w, s, p, false);
	if (s->kmsg.read || s->kmsg.n > 0) {
		start = field_begin(&w, F_KMSG);
		enc_kmsg(&w, &s->kmsg);
		field_end(&w, start);
	}

	/* Left out when there is none: a keyframe, or nothing changed. A
	 * probe that has no room says whether there is. */
	enc_counters(&probe, s, p, true);
	enc_tasks_field(&probe, s, p, true);
	if (probe.full) {
		start = field_begin(&w, F_DIFFS);
		enc_counters(&w, s, p, true);
		enc_tasks_field(&w, s, p, true);
		field_end(&w, start);
	}

	if (w.full)
		return -ENOSPC;
	return (ssize_t)w.len;
}

/*
 * The decoder, a field at a time. Each returns 0 or -EINVAL with err set.
 */

/* The previous chunk a delta chunk needs, or a failure. */
static int
dec_delta_ok(struct dec *d, bool delta, enum source src, const char *what)
{
	if (delta && !prev_has(d->prev, src))
		return codec_fail(d->err,
		    "%s: a delta without the previous sample's", what);
	return 0;
}

static int
dec_buddy(struct dec *d, struct rbuf *r)
{
	struct buddyinfo *b = &d->s->buddy;
	const struct buddyinfo *pb;
	struct numr nr = { .r = r };
	bool delta;
	int i, o;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "buddyinfo: bad flags");
	if (dec_delta_ok(d, delta, SRC_BUDDYINFO, "buddyinfo") < 0)
		return -EINVAL;
	pb = delta ? &d->prev->buddy : NULL;
	if (delta) {
		b->n_orders = pb->n_orders;
		b->n_zones = pb->n_zones;
		for (i = 0; i < b->n_zones; i++) {
			b->zones[i].node = pb->zones[i].node;
			memcpy(b->zones[i].zone, pb->zones[i].zone, NAME_LEN);
		}
	} else {
		if (!get_int(r, MAX_ORDERS, &b->n_orders) ||
		    !get_int(r, MAX_ZONES, &b->n_zones))
			return codec_fail(d->err,
			    "buddyinfo: more than %d orders or %d zones",
			    MAX_ORDERS, MAX_ZONES);
		for (i = 0; i < b->n_zones; i++)
			if (!get_sint(r, &b->zones[i].node) ||
			    !get_str(r, b->zones[i].zone, NAME_LEN))
				return codec_fail(d->err,
				    "buddyinfo: zone %d: bad node or name", i);
	}
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	nr.left = (uint64_t)b->n_zones * (uint64_t)b->n_orders;
	for (i = 0; i < b->n_zones; i++)
		for (o = 0; o < b->n_orders; o++)
			b->zones[i].free[o] = numr_u(&nr,
			    delta ? pb->zones[i].free[o] : 0);
	d->buddy_delta = delta;
	return field_done(r, d->err, "buddyinfo");
}

static bool
dec_pti_rows(struct rbuf *r, struct pagetypeinfo_blocks *rows, int *n)
{
	int i;

	if (!get_int(r, MAX_ZONES, n))
		return false;
	for (i = 0; i < *n; i++)
		if (!get_sint(r, &rows[i].node) ||
		    !get_str(r, rows[i].zone, NAME_LEN))
			return false;
	return true;
}

static void
dec_pti_copy_rows(struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		rows[i].node = prows[i].node;
		memcpy(rows[i].zone, prows[i].zone, NAME_LEN);
	}
}

static void
dec_pti_counts(struct numr *nr, struct pagetypeinfo_blocks *rows,
    const struct pagetypeinfo_blocks *prows, int n, int n_types)
{
	int i, t;

	for (i = 0; i < n; i++)
		for (t = 0; t < n_types; t++)
			rows[i].count[t] = numr_u(nr,
			    prows != NULL ? prows[i].count[t] : 0);
}

static int
dec_pti_shape(struct dec *d, struct rbuf *r)
{
	struct pagetypeinfo *p = &d->s->pti;
	uint64_t v;
	int i;

	if (!get_sint(r, &p->pageblock_order))
		return codec_fail(d->err, "pagetypeinfo: bad page block order");
	p->pages_per_block = get_u(r);
	if (!get_int(r, MAX_ORDERS, &p->n_orders) ||
	    !get_int(r, MAX_MTYPES, &p->n_types))
		return codec_fail(d->err, "pagetypeinfo: more than %d orders "
		    "or %d types", MAX_ORDERS, MAX_MTYPES);
	for (i = 0; i < p->n_types; i++)
		if (!get_str(r, p->types[i], NAME_LEN))
			return codec_fail(d->err,
			    "pagetypeinfo: type %d: bad name", i);
	if (!get_int(r, MAX_ZONES * MAX_MTYPES, &p->n_free))
		return codec_fail(d->err,
		    "pagetypeinfo: more than %d free rows",
		    MAX_ZONES * MAX_MTYPES);
	for (i = 0; i < p->n_free; i++) {
		if (!get_sint(r, &p->free[i].node) ||
		    !get_str(r, p->free[i].zone, NAME_LEN) ||
		    !get_max(r, (uint64_t)p->n_types, &v) ||
		    v == (uint64_t)p->n_types)
			return codec_fail(d->err,
			    "pagetypeinfo: free row %d: bad node, zone or type",
			    i);
		p->free[i].type = (int)v;
	}
	if (!dec_pti_rows(r, p->blocks, &p->n_blocks) ||
	    !dec_pti_rows(r, p->mixed, &p->n_mixed))
		return codec_fail(d->err, "pagetypeinfo: bad block rows");
	return 0;
}

static int
dec_pti(struct dec *d, struct rbuf *r)
{
	struct pagetypeinfo *p = &d->s->pti;
	const struct pagetypeinfo *pp;
	struct pagetypeinfo_free *f;
	struct numr nr = { .r = r };
	bool delta;
	int i, o;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "pagetypeinfo: bad flags");
	if (dec_delta_ok(d, delta, SRC_PAGETYPEINFO, "pagetypeinfo") < 0)
		return -EINVAL;
	pp = delta ? &d->prev->pti : NULL;
	if (delta) {
		p->pageblock_order = pp->pageblock_order;
		p->pages_per_block = pp->pages_per_block;
		p->n_orders = pp->n_orders;
		p->n_types = pp->n_types;
		memcpy(p->types, pp->types, sizeof(p->types));
		p->n_free = pp->n_free;
		for (i = 0; i < p->n_free; i++) {
			p->free[i].node = pp->free[i].node;
			p->free[i].type = pp->free[i].type;
			memcpy(p->free[i].zone, pp->free[i].zone, NAME_LEN);
		}
		p->n_blocks = pp->n_blocks;
		dec_pti_copy_rows(p->blocks, pp->blocks, p->n_blocks);
		p->n_mixed = pp->n_mixed;
		dec_pti_copy_rows(p->mixed, pp->mixed, p->n_mixed);
	} else if (dec_pti_shape(d, r) < 0)
		return -EINVAL;
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	nr.left = (uint64_t)p->n_free * (uint64_t)(1 + p->n_orders) +
	    (uint64_t)(p->n_blocks + p->n_mixed) * (uint64_t)p->n_types;
	for (i = 0; i < p->n_free; i++) {
		f = &p->free[i];
		f->capped = numr_u32(&nr, delta ? pp->free[i].capped : 0);
		if (f->capped >> p->n_orders != 0)
			return codec_fail(d->err,
			    "pagetypeinfo: free row %d: capped past order %d",
			    i, p->n_orders - 1);
		for (o = 0; o < p->n_orders; o++)
			f->free[o] = numr_u32(&nr,
			    delta ? pp->free[i].free[o] : 0);
	}
	dec_pti_counts(&nr, p->blocks, delta ? pp->blocks : NULL,
	    p->n_blocks, p->n_types);
	dec_pti_counts(&nr, p->mixed, delta ? pp->mixed : NULL, p->n_mixed,
	    p->n_types);
	return field_done(r, d->err, "pagetypeinfo");
}

static int
dec_vm(struct dec *d, struct rbuf *r)
{
	struct vmstat *v = &d->s->vm;
	const struct vmstat *pv;
	struct names_pos np = { codec_vmstat_names, codec_vmstat_nnames, -1 };
	struct numr nr = { .r = r };
	struct predict_src ps;
	struct predict pr;
	bool delta;
	int64_t skipped;
	int i;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "vmstat: bad flags");
	if (dec_delta_ok(d, delta, SRC_VMSTAT, "vmstat") < 0)
		return -EINVAL;
	pv = delta ? &d->prev->vm : NULL;
	if (delta) {
		v->n = pv->n;
		for (i = 0; i < v->n; i++)
			memcpy(v->e[i].name, pv->e[i].name, VMSTAT_NAME_LEN);
	} else {
		if (!get_int(r, MAX_VMSTAT, &v->n))
			return codec_fail(d->err,
			    "vmstat: more than %d counters", MAX_VMSTAT);
		for (i = 0; i < v->n; i++)
			if (!(d->v2 ? get_name(r, &np, v->e[i].name,
			    VMSTAT_NAME_LEN) : get_str(r, v->e[i].name,
			    VMSTAT_NAME_LEN)))
				return codec_fail(d->err,
				    "vmstat: counter %d: bad name", i);
	}
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	nr.left = 1 + (uint64_t)v->n;
	skipped = numr_s(&nr, delta ? pv->skipped : 0);
	if (skipped < INT_MIN || skipped > INT_MAX)
		return codec_fail(d->err, "vmstat: bad skipped count");
	v->skipped = (int)skipped;
	for (i = 0; i < v->n; i++)
		v->e[i].value = numr_u(&nr, delta ? pv->e[i].value : 0);
	if (delta && d->v2) {
		memset(&ps, 0, sizeof(ps));
		ps.v = v;
		ps.pv = pv;
		if (d->zi_delta) {
			ps.z = &d->s->zi;
			ps.pz = &d->prev->zi;
		}
		predict_vmstat(&pr, v, &ps);
		for (i = 0; i < pr.n; i++)
			v->e[pr.r[i].target].value += predict_change(&pr, i, &ps);
	}
	d->vm_delta = delta;
	return field_done(r, d->err, "vmstat");
}

static int
dec_mem(struct dec *d, struct rbuf *r)
{
	struct meminfo *m = &d->s->mem;
	const struct meminfo *pm;
	struct predict_src ps;
	struct names_pos np = { codec_meminfo_names, codec_meminfo_nnames, -1 };
	struct numr nr = { .r = r };
	struct predict pr;
	bool delta;
	int64_t skipped;
	int i;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "meminfo: bad flags");
	if (dec_delta_ok(d, delta, SRC_MEMINFO, "meminfo") < 0)
		return -EINVAL;
	pm = delta ? &d->prev->mem : NULL;
	if (delta) {
		m->n = pm->n;
		for (i = 0; i < m->n; i++) {
			memcpy(m->e[i].name, pm->e[i].name, MEMINFO_NAME_LEN);
			m->e[i].kb = pm->e[i].kb;
		}
	} else {
		if (!get_int(r, MAX_MEMINFO, &m->n))
			return codec_fail(d->err,
			    "meminfo: more than %d keys", MAX_MEMINFO);
		for (i = 0; i < m->n; i++)
			if (!(d->v2 ? get_name(r, &np, m->e[i].name,
			    MEMINFO_NAME_LEN) : get_str(r, m->e[i].name,
			    MEMINFO_NAME_LEN)) ||
			    !get_bool(r, &m->e[i].kb))
				return codec_fail(d->err,
				    "meminfo: key %d: bad name or unit", i);
	}
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	nr.left = 1 + (uint64_t)m->n;
	skipped = numr_s(&nr, delta ? pm->skipped : 0);
	if (skipped < INT_MIN || skipped > INT_MAX)
		return codec_fail(d->err, "meminfo: bad skipped count");
	m->skipped = (int)skipped;
	for (i = 0; i < m->n; i++)
		m->e[i].value = numr_u(&nr, delta ? pm->e[i].value : 0);
	if (delta && d->v2) {
		memset(&ps, 0, sizeof(ps));
		if (d->vm_delta) {
			ps.v = &d->s->vm;
			ps.pv = &d->prev->vm;
		}
		ps.m = m;
		ps.pm = pm;
		ps.page_kb = page_kb(d->s->page_size);
		predict_meminfo(&pr, m, &ps);
		for (i = 0; i < pr.n; i++)
			m->e[pr.r[i].target].value += predict_change(&pr, i, &ps);
	}
	return field_done(r, d->err, "meminfo");
}

static int
dec_zi(struct dec *d, struct rbuf *r)
{
	struct zoneinfo *z = &d->s->zi;
	const struct zoneinfo *pz;
	struct zoneinfo_zone *zz;
	struct numr nr = { .r = r };
	bool delta;
	uint64_t bits;
	size_t k;
	int i;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "zoneinfo: bad flags");
	if (dec_delta_ok(d, delta, SRC_ZONEINFO, "zoneinfo") < 0)
		return -EINVAL;
	pz = delta ? &d->prev->zi : NULL;
	if (delta) {
		z->n_zones = pz->n_zones;
		for (i = 0; i < z->n_zones; i++) {
			z->zones[i].node = pz->zones[i].node;
			z->zones[i].has = pz->zones[i].has;
			memcpy(z->zones[i].zone, pz->zones[i].zone, NAME_LEN);
		}
	} else {
		if (!get_int(r, MAX_ZONES, &z->n_zones))
			return codec_fail(d->err,
			    "zoneinfo: more than %d zones", MAX_ZONES);
		for (i = 0; i < z->n_zones; i++) {
			zz = &z->zones[i];
			if (!get_sint(r, &zz->node) ||
			    !get_str(r, zz->zone, NAME_LEN) ||
			    !get_max(r, (1u << N_WIRE_ZI) - 1, &bits))
				return codec_fail(d->err, "zoneinfo: zone %d: "
				    "bad node, name or fields", i);
			for (k = 0; k < N_WIRE_ZI; k++)
				if (bits & (1u << k))
					zz->has |= 1u << codec_zi[k];
		}
	}
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	for (i = 0; i < z->n_zones; i++)
		for (k = 0; k < N_WIRE_ZI; k++)
			nr.left += (z->zones[i].has >> codec_zi[k]) & 1;
	for (i = 0; i < z->n_zones; i++) {
		zz = &z->zones[i];
		for (k = 0; k < N_WIRE_ZI; k++)
			if (zz->has & (1u << codec_zi[k]))
				zz->v[codec_zi[k]] = numr_u(&nr,
				    delta ? pz->zones[i].v[codec_zi[k]] : 0);
		if (delta && d->v2 && d->buddy_delta &&
		    (zz->has & (1u << ZI_FREE)))
			zz->v[ZI_FREE] += predict_zone_free(zz, &d->s->buddy,
			    &d->prev->buddy);
	}
	d->zi_delta = delta;
	return field_done(r, d->err, "zoneinfo");
}

static void
dec_psi_line(struct numr *nr, struct psi_line *l, const struct psi_line *pl)
{
	l->present = true;
	l->avg10 = numr_u32(nr, pl != NULL ? pl->avg10 : 0);
	l->avg60 = numr_u32(nr, pl != NULL ? pl->avg60 : 0);
	l->avg300 = numr_u32(nr, pl != NULL ? pl->avg300 : 0);
	l->total = numr_u(nr, pl != NULL ? pl->total : 0);
}

static int
dec_psi(struct dec *d, struct rbuf *r)
{
	const struct psi *pp;
	struct numr nr = { .r = r };
	struct psi *p;
	enum source src;
	uint64_t wire, lines, changed;
	bool delta;

	wire = get_u(r);
	changed = d->v2 ? get_u(r) : 0;
	if (r->bad)
		return codec_fail(d->err, "pressure: cut short");
	if (wire >= N_WIRE_PSI) {
		if (d->st != NULL)
			d->st->unknown_fields++;
		/* A resource newer than this reader: skip its differences. */
		while (changed-- > 0 && !d->diffs.bad)
			(void)get_u(&d->diffs);
		return 0;
	}
	p = &d->s->psi[codec_psi[wire]];
	src = (enum source)(SRC_PSI_CPU + codec_psi[wire]);
	if (d->chunks & SRC_BIT(src))
		return codec_fail(d->err, "%s: twice", source_name(src));
	d->chunks |= SRC_BIT(src);

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "%s: bad flags", source_name(src));
	if (dec_delta_ok(d, delta, src, source_name(src)) < 0)
		return -EINVAL;
	pp = delta ? &d->prev->psi[codec_psi[wire]] : NULL;
	if (delta)
		lines = psi_lines(pp);
	else if (!get_max(r, PSI_SOME | PSI_FULL, &lines))
		return codec_fail(d->err, "%s: bad lines", source_name(src));
	nr.delta = delta;
	nr.diffs = d->v2 ? &d->diffs : NULL;
	nr.left = 4 * (uint64_t)(((lines & PSI_SOME) != 0) +
	    ((lines & PSI_FULL) != 0));
	if (lines & PSI_SOME)
		dec_psi_line(&nr, &p->some, delta ? &pp->some : NULL);
	if (lines & PSI_FULL)
		dec_psi_line(&nr, &p->full, delta ? &pp->full : NULL);
	if (d->v2 && nr.ndiffs != changed)
		return codec_fail(d->err, "%s: %llu differences, not %llu",
		    source_name(src), (unsigned long long)nr.ndiffs,
		    (unsigned long long)changed);
	return field_done(r, d->err, source_name(src));
}

static int
dec_uptime(struct dec *d, struct rbuf *r)
{
	bool delta;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "uptime: bad flags");
	if (dec_delta_ok(d, delta, SRC_UPTIME, "uptime") < 0)
		return -EINVAL;
	d->s->uptime = codec_from_us(get_d(r, delta,
	    delta ? codec_us(d->prev->uptime) : 0));
	return field_done(r, d->err, "uptime");
}

/* One of a sensor's values; NAN when not written. */
static double
dec_sensor_value(struct rbuf *r, bool written, const double *pv)
{
	int64_t pm = 0;

	if (!written)
		return NAN;
	if (pv != NULL && !codec_milli(*pv, &pm))
		pm = 0;
	return (double)(int64_t)((uint64_t)pm + (uint64_t)get_s(r)) / 1e3;
}

static int
dec_sensors(struct dec *d, struct rbuf *r)
{
	struct sensors *se = &d->s->sensors;
	const struct sensors *pse;
	struct sensor_reading *sr;
	const struct sensor_reading *pr;
	uint64_t v;
	bool delta;
	int i;

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "sensors: bad flags");
	if (delta && d->prev == NULL)
		return codec_fail(d->err,
		    "sensors: a delta without the previous sample's");
	pse = delta ? &d->prev->sensors : NULL;
	if (delta) {
		se->available = pse->available;
		memcpy(se->why, pse->why, sizeof(se->why));
		se->n = pse->n;
		for (i = 0; i < se->n; i++) {
			memcpy(se->r[i].chip, pse->r[i].chip,
			    sizeof(se->r[i].chip));
			memcpy(se->r[i].label, pse->r[i].label,
			    sizeof(se->r[i].label));
			se->r[i].kind = pse->r[i].kind;
		}
	} else {
		if (!get_bool(r, &se->available) ||
		    !get_str(r, se->why, sizeof(se->why)) ||
		    !get_int(r, MAX_SENSORS, &se->n))
			return codec_fail(d->err, "sensors: bad header or "
			    "more than %d readings", MAX_SENSORS);
		for (i = 0; i < se->n; i++) {
			sr = &se->r[i];
			if (!get_str(r, sr->chip, sizeof(sr->chip)) ||
			    !get_str(r, sr->label, sizeof(sr->label)) ||
			    !get_max(r, N_WIRE_KINDS - 1, &v))
				return codec_fail(d->err,
				    "sensors: reading %d: bad chip, label or "
				    "kind", i);
			sr->kind = codec_kinds[v];
		}
	}
	for (i = 0; i < se->n; i++) {
		sr = &se->r[i];
		pr = delta ? &pse->r[i] : NULL;
		if (!get_max(r, SR_VALID | SR_VALUE | SR_HIGH | SR_CRIT, &v))
			return codec_fail(d->err,
			    "sensors: reading %d: bad flags", i);
		sr->valid = (v & SR_VALID) != 0;
		sr->value = dec_sensor_value(r, v & SR_VALUE,
		    pr ? &pr->value : NULL);
		sr->high = dec_sensor_value(r, v & SR_HIGH,
		    pr ? &pr->high : NULL);
		sr->crit = dec_sensor_value(r, v & SR_CRIT,
		    pr ? &pr->crit : NULL);
	}
	return field_done(r, d->err, "sensors");
}

static int
dec_stacks(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	struct stack *st;
	uint64_t ref;
	int i, k;

	if (!get_int(r, TASKS_MAX_STACKS, &t->n_stacks))
		return codec_fail(d->err, "tasks: more than %d stacks",
		    TASKS_MAX_STACKS);
	for (i = 0; i < t->n_stacks; i++) {
		st = &t->stacks[i];
		if (!get_max(r, pt != NULL ? (uint64_t)pt->n_stacks : 0, &ref))
			return codec_fail(d->err,
			    "tasks: stack %d: bad reference", i);
		if (ref != 0) {
			*st = pt->stacks[ref - 1];
			continue;
		}
		memset(st, 0, sizeof(*st));
		if (!get_int(r, STACK_MAX_FRAMES, &st->n))
			return codec_fail(d->err, "tasks: stack %d: more "
			    "than %d frames", i, STACK_MAX_FRAMES);
		for (k = 0; k < st->n; k++)
			if (!get_str(r, st->f[k].func, STACK_FUNC_LEN) ||
			    !get_str(r, st->f[k].module, STACK_MODULE_LEN))
				return codec_fail(d->err,
				    "tasks: stack %d frame %d: bad name", i, k);
	}
	return 0;
}

static int
dec_blocked(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	int64_t mono = codec_us(d->s->mono), age, stack;
	struct blocked_task *b;
	uint64_t ref, v;
	int i;

	if (!get_int(r, TASKS_MAX_BLOCKED, &t->n_blocked))
		return codec_fail(d->err, "tasks: more than %d blocked tasks",
		    TASKS_MAX_BLOCKED);
	for (i = 0; i < t->n_blocked; i++) {
		b = &t->b[i];
		if (!get_max(r, pt != NULL ? (uint64_t)pt->n_blocked : 0,
		    &ref))
			return codec_fail(d->err,
			    "tasks: blocked task %d: bad reference", i);
		if (ref != 0)
			*b = pt->b[ref - 1];
		else {
			memset(b, 0, sizeof(*b));
			if (!get_sint(r, &b->tid) ||
			    !get_sint(r, &b->tgid) ||
			    !get_str(r, b->comm, sizeof(b->comm)) ||
			    !get_max(r, UINT8_MAX, &v))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad ids", i);
			b->state = (char)v;
			if (!get_str(r, b->wchan, sizeof(b->wchan)))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad wchan", i);
			age = get_s(r);
			b->since = codec_from_us((int64_t)((uint64_t)mono -
			    (uint64_t)age));
			if (!get_bool(r, &b->since_start) ||
			    !get_str(r, b->cmdline, sizeof(b->cmdline)) ||
			    !get_str(r, b->user, sizeof(b->user)))
				return codec_fail(d->err,
				    "tasks: blocked task %d: bad strings", i);
		}
		stack = get_s(r);
		if (r->bad || stack < -1 || stack >= t->n_stacks)
			return codec_fail(d->err,
			    "tasks: blocked task %d: bad stack", i);
		b->stack = (int)stack;
	}
	return 0;
}

/* TASKS2: the letters, then the counts as numbers. */
static int
dec_tasks2(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt = delta ? &d->prev->tasks : NULL;
	struct numr nr = { .r = r };
	uint64_t n, letter, k;
	uint8_t letters[128];
	bool seen[128];

	if (!get_max(r, 128, &n))
		return codec_fail(d->err, "tasks: bad state count");
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < n; k++) {
		if (!get_max(r, 127, &letter) || seen[letter])
			return codec_fail(d->err, "tasks: bad state letter");
		seen[letter] = true;
		letters[k] = (uint8_t)letter;
	}
	nr.delta = delta;
	nr.diffs = &d->diffs;
	nr.left = 1 + n;
	t->total = numr_u32(&nr, delta ? pt->total : 0);
	for (k = 0; k < n; k++)
		t->by_state[letters[k]] = numr_u32(&nr,
		    delta ? pt->by_state[letters[k]] : 0);
	if (r->bad)
		return codec_fail(d->err, "tasks: cut short or malformed");
	return 0;
}

/* What TASKS and TASKS2 have alike after the counts. */
static int
dec_tasks_rest(struct dec *d, struct rbuf *r, bool delta)
{
	struct tasks *t = &d->s->tasks;
	int64_t serr;

	if (!get_bool(r, &t->truncated))
		return codec_fail(d->err, "tasks: bad truncated flag");
	serr = get_s(r);
	if (serr < INT_MIN || serr > INT_MAX ||
	    !get_str(r, t->note, sizeof(t->note)))
		return codec_fail(d->err, "tasks: bad flags or note");
	t->stack_err = (int)serr;
	if (dec_stacks(d, r, delta) < 0 || dec_blocked(d, r, delta) < 0)
		return -EINVAL;
	return field_done(r, d->err, "tasks");
}

static int
dec_tasks(struct dec *d, struct rbuf *r)
{
	struct tasks *t = &d->s->tasks;
	const struct tasks *pt;
	uint64_t n, letter, k;
	bool delta, seen[128];

	if (!get_flags(r, &delta))
		return codec_fail(d->err, "tasks: bad flags");
	if (dec_delta_ok(d, delta, SRC_TASKS, "tasks") < 0)
		return -EINVAL;
	pt = delta ? &d->prev->tasks : NULL;
	if (d->v2)
		return dec_tasks2(d, r, delta) < 0 ? -EINVAL :
		    dec_tasks_rest(d, r, delta);
	t->total = get_n32(r, delta, delta ? pt->total : 0);
	if (!get_max(r, 128, &n))
		return codec_fail(d->err, "tasks: bad state count");
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < n; k++) {
		if (!get_max(r, 127, &letter) || seen[letter])
			return codec_fail(d->err, "tasks: bad state letter");
		seen[letter] = true;
		t->by_state[letter] = get_n32(r, delta,
		    delta ? pt->by_state[letter] : 0);
	}
	return dec_tasks_rest(d, r, delta);
}

static int
dec_kmsg(struct dec *d, struct rbuf *r)
{
	struct kmsg_sample *k = &d->s->kmsg;
	uint64_t v, has;
	int64_t e;

	if (k->read)
		return codec_fail(d->err, "kernel log: twice");
	k->read = true;
	e = get_s(r);
	if (r->bad || e < INT_MIN || e > INT_MAX || !get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err, "kernel log: bad status");
	k->err = (int)e;
	k->lost = (uint32_t)v;
	if (!get_max(r, UINT32_MAX, &v))
		return codec_fail(d->err, "kernel log: bad count of dropped events");
	k->dropped = (uint32_t)v;
	if (!get_int(r, KMSG_MAX_EVENTS, &k->n))
		return codec_fail(d->err, "kernel log: more than %d events",
		    KMSG_MAX_EVENTS);
	for (int i = 0; i < k->n; i++) {
		struct kmsg_event *ev = &k->ev[i];

		memset(ev, 0, sizeof(*ev));
		ev->seq = get_u(r);
		ev->ts_us = get_u(r);
		v = get_u(r);
		ev->kind = v < KMSG_KIND_COUNT ? (enum kmsg_kind)v : KMSG_OTHER;
		if (!get_int(r, 7, &ev->level) || !get_max(r, KF_ALL, &has))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "level or fields", i);
		ev->has = (unsigned)has;
		if (((has & KF_COMM) && !get_str(r, ev->comm, sizeof(ev->comm))) ||
		    ((has & KF_PID) && !get_sint(r, &ev->pid)) ||
		    ((has & KF_ORDER) && !get_sint(r, &ev->order)))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "command, pid or order", i);
		if (has & KF_GFP) {
			if (!get_max(r, UINT32_MAX, &v))
				return codec_fail(d->err, "kernel log: event "
				    "%d: bad GFP mode", i);
			ev->gfp = (uint32_t)v;
		}
		if (has & KF_SECONDS) {
			if (!get_max(r, UINT32_MAX, &v))
				return codec_fail(d->err, "kernel log: event "
				    "%d: bad seconds", i);
			ev->seconds = (uint32_t)v;
		}
		if (has & KF_ANON)
			ev->anon_kb = get_u(r);
		if (has & KF_FILE)
			ev->file_kb = get_u(r);
		if (has & KF_SHMEM)
			ev->shmem_kb = get_u(r);
		if (r->bad || !get_max(r, UINT32_MAX, &v))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "values", i);
		ev->lines = (uint32_t)v;
		if (!get_bool(r, &ev->truncated) ||
		    !get_str(r, ev->text, sizeof(ev->text)))
			return codec_fail(d->err, "kernel log: event %d: bad "
			    "text", i);
	}
	return field_done(r, d->err, "kernel log");
}

static int
dec_status(struct dec *d, struct rbuf *r, unsigned *seen)
{
	struct source_status *st;
	uint64_t wire;
	int64_t e;
	enum source src;

	wire = get_u(r);
	if (r->bad)
		return codec_fail(d->err, "status: cut short");
	if (wire >= N_WIRE_SOURCES) {
		if (d->st != NULL)
			d->st->unknown_fields++;
		return 0;	/* a source newer than this reader */
	}
	src = codec_sources[wire];
	if (*seen & SRC_BIT(src))
		return codec_fail(d->err, "status of %s: twice",
		    source_name(src));
	*seen |= SRC_BIT(src);
	st = &d->s->status[src];
	memset(st, 0, sizeof(*st));
	e = get_s(r);
	if (e < INT_MIN || e > INT_MAX || !get_sint(r, &st->line) ||
	    !get_str(r, st->msg, sizeof(st->msg)))
		return codec_fail(d->err, "status of %s: malformed",
		    source_name(src));
	st->err = (int)e;
	return field_done(r, d->err, "status");
}

static int
dec_time(struct dec *d, struct rbuf *r)
{
	const struct sample *p = d->prev;
	int64_t mono, off, pmono = 0, poff = 0;

	if (p != NULL) {
		pmono = codec_us(p->mono);
		poff = codec_us(p->wall) - pmono;
	}
	mono = get_d(r, p != NULL, pmono);
	off = get_d(r, p != NULL, poff);
	d->s->mono = codec_from_us(mono);
	d->s->wall = codec_from_us((int64_t)((uint64_t)mono + (uint64_t)off));
	return field_done(r, d->err, "time");
}

static int
dec_page_size(struct dec *d, struct rbuf *r)
{
	int64_t v = get_d(r, d->prev != NULL,
	    d->prev != NULL ? d->prev->page_size : 0);

	if (v < LONG_MIN || v > LONG_MAX)
		return codec_fail(d->err, "page size %lld", (long long)v);
	d->s->page_size = (long)v;
	return field_done(r, d->err, "page size");
}

/* The chunk of one source, once. */
static int
dec_chunk(struct dec *d, struct rbuf *r, enum source src,
    int (*fn)(struct dec *, struct rbuf *))
{
	if (d->chunks & SRC_BIT(src))
		return codec_fail(d->err, "%s: twice", source_name(src));
	d->chunks |= SRC_BIT(src);
	return fn(d, r);
}

static int
dec_field(struct dec *d, uint64_t id, struct rbuf *r, unsigned *seen_status)
{
	d->v2 = (id >= F_BUDDYINFO2 && id <= F_PSI2) || id == F_TASKS2;
	switch (id) {
	case F_STATUS:
		return dec_status(d, r, seen_status);
	case F_BUDDYINFO:
	case F_BUDDYINFO2:
		return dec_chunk(d, r, SRC_BUDDYINFO, dec_buddy);
	case F_PAGETYPEINFO:
	case F_PAGETYPEINFO2:
		return dec_chunk(d, r, SRC_PAGETYPEINFO, dec_pti);
	case F_VMSTAT:
	case F_VMSTAT2:
		return dec_chunk(d, r, SRC_VMSTAT, dec_vm);
	case F_MEMINFO:
	case F_MEMINFO2:
		return dec_chunk(d, r, SRC_MEMINFO, dec_mem);
	case F_ZONEINFO:
	case F_ZONEINFO2:
		return dec_chunk(d, r, SRC_ZONEINFO, dec_zi);
	case F_PSI:
	case F_PSI2:
		return dec_psi(d, r);
	case F_UPTIME:
		return dec_chunk(d, r, SRC_UPTIME, dec_uptime);
	case F_TASKS:
	case F_TASKS2:
		return dec_chunk(d, r, SRC_TASKS, dec_tasks);
	case F_KMSG:
		return dec_kmsg(d, r);
	case F_SENSORS:
		if (d->sensors)
			return codec_fail(d->err, "sensors: twice");
		d->sensors = true;
		return dec_sensors(d, r);
	default:
		if (d->st != NULL)
			d->st->unknown_fields++;
		return 0;
	}
}

/*
 * Zero where nothing will be written, but not the two large arrays of the
 * task scan: their entries are cleared as they are filled. tasks must stay
 * the last member of struct sample.
 */
_Static_assert(offsetof(struct sample, tasks) + sizeof(struct tasks) ==
    sizeof(struct sample), "tasks is the last member of struct sample");

static void
sample_clear(struct sample *s)
{
	struct tasks *t = &s->tasks;

	memset(s, 0, offsetof(struct sample, tasks));
	memset(t->by_state, 0, sizeof(t->by_state));
	t->total = 0;
	t->n_blocked = 0;
	t->truncated = false;
	t->n_stacks = 0;
	t->stack_err = 0;
	memset(t->note, 0, sizeof(t->note));
}

/* One field at r's offset: its id and its payload as a reader of its own. */
static int
next_field(struct rbuf *r, uint64_t *id, struct rbuf *f,
    struct parse_error *err)
{
	size_t at = r->off;
	uint64_t len;

	*id = get_u(r);
	len = get_u(r);
	if (r->bad || len > r->len - r->off)
		return codec_fail(err, "field at byte %zu: cut short", at);
	f->p = r->p + r->off;
	f->len = (size_t)len;
	f->off = 0;
	f->bad = false;
	r->off += (size_t)len;
	return 0;
}

/* The DIFFS field among the fields after r's offset, once; empty if none. */
static int
find_diffs(const struct rbuf *r, struct rbuf *diffs, struct parse_error *err)
{
	struct rbuf scan = *r, f;
	uint64_t id;
	bool seen = false;

	memset(diffs, 0, sizeof(*diffs));
	diffs->p = r->p;	/* a valid pointer even when empty */
	while (scan.off < scan.len) {
		if (next_field(&scan, &id, &f, err) < 0)
			return -EINVAL;
		if (id != F_DIFFS)
			continue;
		if (seen)
			return codec_fail(err, "differences twice");
		*diffs = f;
		seen = true;
	}
	return 0;
}

/* With a source's fate known: every valid source has its chunk. */
static int
dec_finish(struct dec *d)
{
	struct source_status *st;
	int i;

	for (i = 0; i < SRC_COUNT; i++) {
		st = &d->s->status[i];
		if ((d->chunks & SRC_BIT(i)) && st->err != 0)
			return codec_fail(d->err, "%s: data for a source "
			    "that was not valid", source_name(i));
		if (!(d->chunks & SRC_BIT(i)) && st->err == 0) {
			st->err = EINVAL;
			st->line = 0;
			snprintf(st->msg, sizeof(st->msg), "%s",
			    "not in the recording (written by a newer "
			    "pagetop?)");
		}
	}
	return 0;
}

int
codec_decode(const uint8_t *buf, size_t len, const struct sample *prev,
    struct sample *s, struct codec_stats *st, struct parse_error *err)
{
	struct rbuf r = { buf, len, 0, false };
	struct rbuf f = { NULL, 0, 0, false };
	struct dec d;
	uint64_t id, flags;
	unsigned seen_status = 0;
	bool time = false, page_size = false;
	size_t at;
	int i;

	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (prev == s)
		return codec_fail(err,
		    "decoding a sample onto its previous one");
	sample_clear(s);

	if (next_field(&r, &id, &f, err) < 0)
		return -EINVAL;
	if (id != F_FRAME || !get_max(&f, DELTA, &flags) || f.off != f.len)
		return codec_fail(err, "no frame field first");
	if (!(flags & DELTA))
		prev = NULL;
	else if (prev == NULL)
		return codec_fail(err, "a delta without the previous sample");
	else if (!sample_sane(prev))
		return codec_fail(err, "the previous sample is damaged");

	memset(&d, 0, sizeof(d));
	d.prev = prev;
	d.s = s;
	d.err = err;
	d.st = st;
	if (find_diffs(&r, &d.diffs, err) < 0)
		return -EINVAL;
	if (prev != NULL)
		for (i = 0; i < SRC_COUNT; i++)
			s->status[i] = prev->status[i];

	while (r.off < r.len) {
		at = r.off;
		if (next_field(&r, &id, &f, err) < 0)
			return -EINVAL;
		if (id == F_FRAME)
			return codec_fail(err, "byte %zu: a second frame field",
			    at);
		if (id == F_DIFFS)
			continue;	/* read by the chunks before */
		if (id == F_TIME || id == F_PAGE_SIZE) {
			if (id == F_TIME ? time : page_size)
				return codec_fail(err, "byte %zu: %s twice",
				    at, id == F_TIME ? "time" : "page size");
			if ((id == F_TIME ? dec_time(&d, &f) :
			    dec_page_size(&d, &f)) < 0)
				return codec_fail_at(err, at);
			if (id == F_TIME)
				time = true;
			else
				page_size = true;
			continue;
		}
		/* Blocked tasks are written against the time. */
		if ((id == F_TASKS || id == F_TASKS2) && !time)
			return codec_fail(err, "byte %zu: before the time", at);
		if (dec_field(&d, id, &f, &seen_status) < 0)
			return codec_fail_at(err, at);
	}
	if (!time || !page_size)
		return codec_fail(err, "no %s field", !time ? "time" :
		    "page size");
	if (d.diffs.bad || d.diffs.off != d.diffs.len)
		return codec_fail(err, "differences: %s", d.diffs.bad ?
		    "cut short or malformed" : "bytes left over");
	return dec_finish(&d);
}
