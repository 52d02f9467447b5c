/*
 * Loading BPF in a short-lived child: libbpf parses the kernel's BTF
 * (megabytes) for each object it loads and keeps the object's state; done
 * in a fork, none of that counts in this process's memory. The child
 * loads and attaches, then hands back descriptors (maps, links) over a
 * socketpair (SCM_RIGHTS) with a fixed-size block of facts, and exits;
 * the descriptors keep the maps alive and the programs attached.
 * Call it before the process starts threads: the child has only the
 * forking thread, and a lock another held (malloc's, under a sanitizer
 * whose allocator has no fork guard) would stay held there. A child
 * that does not answer in 30 s is killed and the load fails with why.
 */
#ifndef PAGETOP_BPF_CHILD_H
#define PAGETOP_BPF_CHILD_H

#include <stddef.h>

#define BPF_CHILD_FDS	32	/* the most descriptors one child hands back */

/* Runs in the child: fills facts (facts_size bytes, zeroed) and fd[0..*nfd)
 * (at most BPF_CHILD_FDS). Its return is ignored: facts say what happened. */
typedef void (*bpf_child_fn)(void *arg, void *facts, int *fd, int *nfd);

/* Forks, runs fn there and takes what it hands back: 0 with facts filled
 * and *nfd descriptors (close-on-exec) in fd, or -errno (the child died
 * or sent nothing whole) with why set. */
int bpf_child_run(bpf_child_fn fn, void *arg, void *facts, size_t facts_size,
    int *fd, int *nfd, char *why, size_t why_size);
/* A mmapable map's value (an array of one: .bss) mapped shared, read and
 * write, as libbpf maps it: value_size rounded up to a page. NULL, errno
 * set, on failure. */
void *bpf_child_mmap(int map_fd, size_t value_size, size_t *len);

#endif
