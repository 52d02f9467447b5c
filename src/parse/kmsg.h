/*
 * Kernel log events: the records of /dev/kmsg (Documentation/ABI/testing/
 * dev-kmsg) that say something about memory pressure. A record is
 *
 *	PRI,SEQ,TS_USEC,FLAGS[,MORE...];TEXT\n
 *	 KEY=value\n			(dictionary lines, ignored)
 *
 * where PRI is facility << 3 | level. Only facility 0 ("kern") is the
 * kernel's own: the kernel gives every line written into /dev/kmsg from
 * userspace another facility, so nobody can fake an event.
 *
 * An event is a record whose text matches a rule of data/kmsg-events
 * (kmsg-rules.c), with the records the kernel prints right after it (the
 * stack and Mem-Info of an allocation failure, the stack of a hung task)
 * kept as continuation lines (kmsg-source.c). Everything here is a pure
 * function on a buffer: no allocation.
 */
#ifndef PAGETOP_KMSG_H
#define PAGETOP_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

/* The kinds of event. The numbers are part of the recording format. */
enum kmsg_kind {
	KMSG_OTHER,
	KMSG_ALLOC_FAILURE,	/* warn_alloc: page allocation failure, vmalloc error */
	KMSG_ALLOC_STALL,	/* warn_alloc: page allocation stalls (4.x) */
	KMSG_HUNG_TASK,		/* hung_task: task blocked for more than N seconds */
	KMSG_OOM_INVOKED,	/* dump_header: COMM invoked oom-killer */
	KMSG_OOM_KILL,		/* __oom_kill_process: Killed process PID (COMM) */
	KMSG_OOM_REAPED,	/* oom_reaper: reaped process PID (COMM) */
	KMSG_SWAP_ERROR,	/* swap device read/write errors, bad swap entries */
	KMSG_IO_ERROR,		/* block I/O errors: writeback that failed */
	KMSG_LOCKUP,		/* soft/hard lockups, workqueue lockups */
	KMSG_BAD_PAGE,		/* bad page state or map */
	KMSG_FS_ERROR,		/* a filesystem or its journal gave up: ext4, jbd2 */
	KMSG_KIND_COUNT
};

#define KMSG_MAX_EVENTS	16	/* events kept in one sample */
#define KMSG_TEXT_MAX	2048	/* bytes of an event's text, with its continuation lines */
#define KMSG_COMM_LEN	64	/* a command name (TASK_COMM_LEN is 16; room to spare) */
#define KMSG_DEV_LEN	40	/* a device name (DISK_NAME_LEN is 32), a journal's "sda1-8" */
#define KMSG_MERGE_US	1000000	/* identical lines within this of the first are one event */

/* Which fields of an event the kernel's text gave. */
#define KF_COMM		0x01u
#define KF_PID		0x02u
#define KF_ORDER	0x04u
#define KF_GFP		0x08u
#define KF_SECONDS	0x10u
#define KF_ANON		0x20u
#define KF_FILE		0x40u
#define KF_SHMEM	0x80u
#define KF_ALL		0xffu	/* the bits of recording field KMSG */
#define KF_DEV		0x100u	/* recorded in KMSG_MORE, with count */

struct kmsg_event {
	uint64_t seq;		/* the kernel's record number */
	uint64_t ts_us;		/* the kernel's timestamp: microseconds since boot */
	enum kmsg_kind kind;
	int level;		/* 0 emerg .. 7 debug */
	unsigned has;		/* KF_ bits */
	char comm[KMSG_COMM_LEN];	/* the task: allocating, hung, OOM victim */
	int pid;
	int order;		/* the allocation order (-1 for a sysrq OOM) */
	uint32_t gfp;		/* the GFP mode */
	uint32_t seconds;	/* hung task: blocked for more than; lockup: stuck for */
	uint64_t anon_kb, file_kb, shmem_kb;	/* OOM victim's rss */
	uint32_t lines;		/* lines the kernel printed, kept or not */
	uint32_t count;		/* times the kernel printed it: identical events within
				 * KMSG_MERGE_US of the first are one (0 reads as 1) */
	char dev[KMSG_DEV_LEN];	/* the device of an I/O or filesystem error */
	bool truncated;		/* text holds only the first lines */
	char text[KMSG_TEXT_MAX];	/* the first line, then continuation lines after '\n' */
};

/* What a sample holds of the kernel log: the events completed since the
 * last tick. All zero (read false) when no kernel log was read, as in a
 * recording made by an older pagetop. */
struct kmsg_sample {
	bool read;		/* a kernel log was read (or tried) on this tick */
	int err;		/* 0, or why it cannot be read (EPERM: needs root) */
	uint32_t lost;		/* records the kernel overwrote before they were read */
	uint32_t dropped;	/* events past KMSG_MAX_EVENTS on this tick */
	int n;
	struct kmsg_event ev[KMSG_MAX_EVENTS];
};

/* One record's prefix and text. */
struct kmsg_record {
	unsigned facility;	/* 0 for the kernel's own messages */
	int level;
	uint64_t seq;
	uint64_t ts_us;
	char flag;		/* '-'; old kernels: 'c' starts, '+' continues a fragment */
	bool has_caller;	/* CONFIG_PRINTK_CALLER: caller=T123 or caller=C1 */
	uint32_t caller;	/* the thread id, or the cpu | 0x80000000 */
	struct span text;	/* escaped as the kernel wrote it: \xNN */
};

/*
 * One record (its first line; dictionary lines after it are allowed and
 * ignored) into out. 0, or -EINVAL with err saying what is wrong.
 */
int kmsg_record_parse(const char *buf, size_t len, struct kmsg_record *out,
		      struct parse_error *err);

/*
 * The text of a record as it reads: "\x0a" is a line break, "\x5c" a
 * backslash; other escapes stay escaped and any other control byte
 * becomes '?', so the text is safe on a terminal. Writes at most size - 1
 * bytes and a NUL; returns the bytes written.
 */
size_t kmsg_unescape(struct span text, char *dst, size_t size);

/* The fields of kind that the kernel's first line of an event gives. */
void kmsg_fields(enum kmsg_kind kind, const char *line, size_t len, struct kmsg_event *ev);

/* "alloc-failure", ...; -1 from kmsg_kind_parse for unknown names. */
const char *kmsg_kind_name(enum kmsg_kind kind);
int kmsg_kind_parse(const char *name, size_t len);
/* Whether an event of this kind goes on over the records that follow it. */
bool kmsg_kind_multiline(enum kmsg_kind kind);

/* A short line for an event: "vim order:4 mode:0x40dc0", "sh:30810 blocked 2s",
 * with " (50 times)" after it for an event the kernel printed 50 times. */
void kmsg_event_brief(const struct kmsg_event *ev, char *dst, size_t size);
/* How many times the kernel printed the event: its count, at least 1. */
uint32_t kmsg_event_count(const struct kmsg_event *ev);
/* Whether b is a printed again: the same kind and text, within
 * KMSG_MERGE_US of a's first line. */
bool kmsg_event_repeats(const struct kmsg_event *a, const struct kmsg_event *b);
/* The first line of an event's text, its length. */
size_t kmsg_event_first_line(const struct kmsg_event *ev);
/* The event's wall-clock time from the clocks of the sample it came with:
 * the kernel's timestamp runs with CLOCK_MONOTONIC. A timestamp that does
 * not fit (a log from another boot) gives the sample's own time. */
double kmsg_event_wall(const struct kmsg_event *ev, double sample_wall, double sample_mono);
/* Why the kernel log cannot be read, in a few words. */
void kmsg_reason(int err, char *dst, size_t size);

#endif
