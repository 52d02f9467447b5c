/*
 * The kernel log as a source: /dev/kmsg read without blocking from the
 * moment pagetop starts (a character device is opened at its end), or a
 * file or FIFO of /dev/kmsg records read from its start (tests, captures).
 *
 * Each record the kernel prints right after an event's first line joins
 * the event as a continuation line, up to KMSG_TEXT_MAX bytes: the same
 * caller when the kernel names it (CONFIG_PRINTK_CALLER), else the next
 * records within a second of each other. An event is complete when a
 * record that is not its own comes, or when a whole tick brings nothing
 * for it: it reaches the sample of that tick. An event identical to one
 * of that tick's (kind and text) within KMSG_MERGE_US of its first line
 * adds to its count instead of taking a row, as the kernel's own
 * ratelimit and journald fold a flood of one line. Nothing is allocated
 * after kmsg_source_open().
 */
#ifndef PAGETOP_KMSG_SOURCE_H
#define PAGETOP_KMSG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "source/kmsg-rules.h"
#include "parse/kmsg.h"

#define KMSG_DEVICE		"/dev/kmsg"
#define KMSG_CONT_GAP_US	1000000	/* a continuation line follows within this */

struct kmsg_source;

/* Reads path with rules (kept by the caller; NULL: the built-in rules).
 * NULL only when out of memory: a path that cannot be opened gives a
 * source whose samples say why (kmsg_sample.err). */
struct kmsg_source *kmsg_source_open(const char *path, const struct kmsg_rules *rules);
void kmsg_source_close(struct kmsg_source *ks);
/* One tick: out gets the events completed since the last one. Never blocks. */
void kmsg_source_read(struct kmsg_source *ks, struct kmsg_sample *out);
/* Records as bytes (whole lines are taken; the rest waits for more),
 * adding completed events to out. For tests and for kmsg_source_read. */
void kmsg_source_feed(struct kmsg_source *ks, const char *buf, size_t len, struct kmsg_sample *out);
/* The end of the input: a last line without '\n' and the event being
 * assembled are added to out. */
void kmsg_source_flush(struct kmsg_source *ks, struct kmsg_sample *out);
/* ev into out: counted into an event of out it repeats
 * (kmsg_event_repeats: true), else added, or counted as dropped when out
 * is full. */
bool kmsg_source_add(struct kmsg_sample *out, const struct kmsg_event *ev);
/* 0, or the errno that keeps the log from being read. */
int kmsg_source_err(const struct kmsg_source *ks);
/* Records that were not /dev/kmsg records: how many, and what was wrong
 * with the first ("record 3: no ';' after the prefix"). */
uint32_t kmsg_source_bad(const struct kmsg_source *ks, const char **first);

#endif
