/*
 * Kernel addresses named by the kernel (ksym.bpf.c, Linux 5.14 and later:
 * a syscall program calling bpf_snprintf's %ps), for the probes' stacks:
 * a batch of addresses costs a few microseconds, where a pass over
 * /proc/kallsyms costs tens of milliseconds. Loaded in a short-lived child
 * (bpf-child.c), before threads start; needs root, as the probes do.
 */
#ifndef PAGETOP_KSYM_H
#define PAGETOP_KSYM_H

#include <stddef.h>
#include <stdint.h>

struct ksym;

/* NULL with why when it cannot load (then names come from kallsyms). */
struct ksym *ksym_open(char *why, size_t size);
void ksym_close(struct ksym *k);
/* Names ip[0..n) into name[i] (size bytes each): 0, with "" for an
 * address the kernel does not know; -errno when the run failed. */
int ksym_name(struct ksym *k, const uint64_t *ip, int n, char *name, size_t size);

#endif
