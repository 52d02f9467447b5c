/*
 * Kernel stack ids to function names, for the D stacks of source/probes.c:
 * a bounded cache allocated at open; a stack not seen before is named from
 * a cache of addresses already named, and a new address by the kernel
 * itself (ksym.h), or where it cannot, in one pass over /proc/kallsyms
 * with every other new one of the same tick. kallsyms is never held in
 * memory.
 */
#ifndef PAGETOP_PROBES_SYMS_H
#define PAGETOP_PROBES_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "model/probes.h"

#define PROBES_SYMS_CACHE	256	/* stacks kept named */
#define PROBES_SYMS_BATCH	PROBE_TOP_STACKS	/* new stacks named per pass */

struct probes_syms;

/* kallsyms: its path ("/proc/kallsyms"). NULL: out of memory. */
struct probes_syms *probes_syms_new(const char *kallsyms);
void probes_syms_free(struct probes_syms *s);
/*
 * The named stack of id into *d, or NULL when it is not known yet: then
 * its addresses (ips, n of them, innermost first) are queued for the next
 * probes_syms_resolve(). Returns d->stack's frame count, or -1 when
 * queued (or the queue is full).
 */
int probes_syms_get(struct probes_syms *s, int32_t id, const uint64_t *ips, int n,
		    struct probe_dstack *d);
/* Names every queued stack in one pass over kallsyms; at most one pass
 * every few seconds (the queue is dropped in between: asked again). */
void probes_syms_resolve(struct probes_syms *s);
/* How many passes over kallsyms were made. */
unsigned long probes_syms_passes(const struct probes_syms *s);
/* Names new addresses through the kernel (ksym.h) as they come, with no
 * pass and no wait; kallsyms stays for a kernel without it (k NULL). */
struct ksym;
void probes_syms_set_namer(struct probes_syms *s, struct ksym *k);
/* At most size bytes of names (SYMS_POOL), for tests of a full pool. */
void probes_syms_set_pool(struct probes_syms *s, size_t size);
/* How many addresses the kernel named. */
unsigned long probes_syms_kernel_named(const struct probes_syms *s);

#endif
