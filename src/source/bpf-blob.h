/*
 * The BPF objects, kept out of the binary's loaded segments: each is a
 * section of its own (.pagetop.bpf.NAME) that no segment maps, read from
 * /proc/self/exe by the loader child that opens it. Embedded in .rodata
 * (as bpftool's skeletons do), their 115 KB were resident in every
 * pagetop, since this kernel maps a file's page-cache folios whole; the
 * skeletons' NAME_bpf__elf_bytes() call bpf_blob() instead (Makefile.am).
 */
#ifndef PAGETOP_BPF_BLOB_H
#define PAGETOP_BPF_BLOB_H

#include <stddef.h>

/* The object NAME's bytes, read once and kept (a loader child exits
 * soon after), with *size; NULL with errno and *size 0 if it is not
 * there. */
const void *bpf_blob(const char *name, size_t *size);
/* Whether NAME's object can be read: 0, or -errno with why ("the BPF
 * object probes: /proc/self/exe: ...") for the panel to say. */
int bpf_blob_check(const char *name, char *why, size_t why_size);
/* The section's name in a file; NULL when name is too long. */
const char *bpf_blob_section(const char *name, char *buf, size_t size);

#endif
