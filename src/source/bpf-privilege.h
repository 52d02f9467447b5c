/* Whether this process may load BPF programs and read their maps. */
#ifndef PAGETOP_BPF_PRIVILEGE_H
#define PAGETOP_BPF_PRIVILEGE_H

#include <stdbool.h>

/* Root, or CAP_BPF and CAP_PERFMON in the effective set (5.8 and later;
 * before, only root). Asked before loading, so that the reason given is
 * "needs root" and not a verifier's EPERM. */
bool bpf_privileged(void);

#endif
