/* Facts about the machine the figures come from: read once from the live
 * system (source/host-read.c) or taken from a recording's header. */
#ifndef PAGETOP_HOST_H
#define PAGETOP_HOST_H

struct host {
	char hostname[65];
	char release[65];	/* kernel release, "6.18.44" */
	char machine[33];	/* "x86_64" */
	long page_size;
	int ncpus;
};

#endif
