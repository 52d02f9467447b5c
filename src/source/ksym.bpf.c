// SPDX-License-Identifier: GPL-2.0
/*
 * Names kernel addresses as the kernel itself does (%ps: the symbol, no
 * offset), a batch a run: a syscall program, run by BPF_PROG_TEST_RUN from
 * ksym.c, so that naming a new stack's frames costs microseconds instead
 * of a pass over /proc/kallsyms (the kernel printing 120,000 lines, 60 ms
 * and more). An address the kernel cannot name comes back as "0x...".
 */
#include "source/vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "source/ksym-bpf.h"

struct ksym_io io;

SEC("syscall")
int
ksym_name(void *ctx)
{
	(void)ctx;
	for (__u32 i = 0; i < KSYM_BATCH && i < io.n; i++) {
		__u64 a[1] = { io.ip[i] };

		bpf_snprintf(io.name[i], KSYM_LEN, "%ps", a, sizeof(a));
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
