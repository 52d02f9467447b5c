/* Facts about the machine the figures come from, read once. */
#ifndef PAGETOP_HOST_READ_H
#define PAGETOP_HOST_READ_H

#include "model/host.h"

/* From <root>/sys/kernel/{hostname,osrelease} when there, else uname(2):
 * under a --proc-root of captured files the names are the capture's. */
void host_read(struct host *h, const char *root);

#endif
