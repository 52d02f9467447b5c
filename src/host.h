/* Facts about the machine the figures come from, read once. */
#ifndef PAGETOP_HOST_H
#define PAGETOP_HOST_H

struct host {
	char hostname[65];
	char release[65];	/* kernel release, "6.18.44" */
	char machine[33];	/* "x86_64" */
	long page_size;
	int ncpus;
};

/* From <root>/sys/kernel/{hostname,osrelease} when there, else uname(2):
 * under a --proc-root of captured files the names are the capture's. */
void host_read(struct host *h, const char *root);

#endif
