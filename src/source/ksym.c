/*
 * The kernel's own names for addresses (ksym.h): the loader in a child,
 * then one BPF_PROG_TEST_RUN a batch on the program's mapped .bss.
 */
#include "config.h"
#include "source/ksym.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef HAVE_PROBES

struct ksym *
ksym_open(char *why, size_t size)
{
	snprintf(why, size, "built without BPF (configure: %s)", PROBES_WHY);
	return NULL;
}

void
ksym_close(struct ksym *k)
{
	(void)k;
}

int
ksym_name(struct ksym *k, const uint64_t *ip, int n, char *name, size_t size)
{
	(void)k;
	(void)ip;
	(void)n;
	(void)name;
	(void)size;
	return -ENOTSUP;
}

#else

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "source/bpf-child.h"
#include "source/bpf-privilege.h"
#include "source/ksym-bpf.h"
#include "source/bpf-blob.h"
#include "source/ksym.skel.h"

struct ksym {
	int prog_fd, bss_fd;
	struct ksym_io *io;	/* io_len bytes mapped */
	size_t io_len;
};

struct ksym_facts {
	int ok;
	uint32_t bss_size;
	char why[160];
};

static int
ksym_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The child's skeleton, kept reachable until it exits (as the other
 * loaders keep theirs): valgrind counts a local one lost. */
static struct ksym_bpf *volatile ksym_loader;

/* In the child: load, and hand back the program and its .bss. */
static void
ksym_child(void *arg, void *facts, int *fd, int *nfd)
{
	struct ksym_facts *f = facts;
	struct ksym_bpf *skel;
	int r;

	(void)arg;
	if (!getenv("PAGETOP_PROBES_DEBUG"))
		libbpf_set_print(ksym_quiet);
	if (bpf_blob_check("ksym", f->why, sizeof(f->why)) < 0)
		return;
	if (!(skel = ksym_loader = ksym_bpf__open())) {
		snprintf(f->why, sizeof(f->why), "opening the namer: %s", strerror(errno));
		return;
	}
	if ((r = ksym_bpf__load(skel)) != 0) {
		snprintf(f->why, sizeof(f->why), "loading the namer: %s", strerror(-r));
		return;
	}
	fd[0] = bpf_program__fd(skel->progs.ksym_name);
	fd[1] = bpf_map__fd(skel->maps.bss);
	*nfd = 2;
	f->bss_size = (uint32_t)bpf_map__value_size(skel->maps.bss);
	f->ok = 1;
}

struct ksym *
ksym_open(char *why, size_t size)
{
	struct ksym_facts f;
	struct ksym *k;
	int fd[BPF_CHILD_FDS], nfd = 0;

	if (!bpf_privileged()) {
		snprintf(why, size, "needs root (CAP_BPF, CAP_PERFMON)");
		return NULL;
	}
	if (!(k = calloc(1, sizeof(*k)))) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	k->prog_fd = k->bss_fd = -1;
	if (bpf_child_run(ksym_child, NULL, &f, sizeof(f), fd, &nfd, why, size) < 0)
		goto fail;
	if (!f.ok || nfd != 2) {
		f.why[sizeof(f.why) - 1] = '\0';
		snprintf(why, size, "%s", f.ok ? "loading the namer: descriptors lost" : f.why);
		for (int i = 0; i < nfd; i++)
			close(fd[i]);
		goto fail;
	}
	k->prog_fd = fd[0];
	k->bss_fd = fd[1];
	if (f.bss_size < sizeof(*k->io) ||
	    !(k->io = bpf_child_mmap(k->bss_fd, f.bss_size, &k->io_len))) {
		snprintf(why, size, "mapping the namer's globals: %s",
			 f.bss_size < sizeof(*k->io) ? "too small" : strerror(errno));
		goto fail;
	}
	/* The mapping holds the map: one descriptor fewer. */
	close(k->bss_fd);
	k->bss_fd = -1;
	return k;
fail:
	ksym_close(k);
	return NULL;
}

void
ksym_close(struct ksym *k)
{
	if (!k)
		return;
	if (k->io)
		munmap(k->io, k->io_len);
	if (k->prog_fd >= 0)
		close(k->prog_fd);
	if (k->bss_fd >= 0)
		close(k->bss_fd);
	free(k);
}

int
ksym_name(struct ksym *k, const uint64_t *ip, int n, char *name, size_t size)
{
	for (int at = 0; at < n; at += KSYM_BATCH) {
		int m = n - at < KSYM_BATCH ? n - at : KSYM_BATCH;
		LIBBPF_OPTS(bpf_test_run_opts, o);

		memcpy(k->io->ip, ip + at, sizeof(*ip) * (size_t)m);
		k->io->n = (__u32)m;
		if (bpf_prog_test_run_opts(k->prog_fd, &o) < 0)
			return -errno;
		for (int i = 0; i < m; i++) {
			const char *s = k->io->name[i];
			char *d = name + (size_t)(at + i) * size;

			/* Not a symbol: %ps prints the address. */
			if (strncmp(s, "0x", 2) == 0 || !memchr(s, '\0', KSYM_LEN))
				d[0] = '\0';
			else
				snprintf(d, size, "%s", s);
		}
	}
	return 0;
}

#endif
