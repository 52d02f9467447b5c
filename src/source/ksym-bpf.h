/*
 * What ksym.bpf.c and ksym.c share: a batch of kernel addresses in, their
 * names out, in the program's .bss (mapped by the reader).
 */
#ifndef PAGETOP_KSYM_BPF_H
#define PAGETOP_KSYM_BPF_H

#define KSYM_BATCH	32	/* addresses a run */
#define KSYM_LEN	64	/* a name with its NUL, as %ps writes it */

struct ksym_io {
	__u64 ip[KSYM_BATCH];
	__u32 n;
	__u32 pad;
	char name[KSYM_BATCH][KSYM_LEN];
};

#endif
