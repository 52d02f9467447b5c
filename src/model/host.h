/* Facts about the machine the figures come from: read once from the live
 * system (source/host-read.c) or taken from a recording's header. */
#ifndef PAGETOP_HOST_H
#define PAGETOP_HOST_H

#include <stddef.h>
#include <stdint.h>

struct host {
	char hostname[65];
	char release[65];	/* kernel release, "6.18.44" */
	char machine[65];	/* "x86_64" */
	long page_size;		/* bytes; 0: unknown */
	int ncpus;		/* 0: unknown */
	int nodes;		/* 0: unknown */
	int pageblock_order;	/* -1: unknown */
	int64_t mem_kb;		/* MemTotal; 0: unknown */
};

/* The facts in one line, for dump --info and report: "vm, Linux 6.18.44
 * x86_64, 2 CPUs, 24684084 kB, page size 4096, pageblock order 9" (a fact
 * not known is left out). */
void host_facts(const struct host *h, char *dst, size_t size);

#endif
