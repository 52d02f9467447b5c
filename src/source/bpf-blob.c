#include "source/bpf-blob.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/readall.h"

#define BLOB_EXE	"/proc/self/exe"
#define BLOB_NAMES	4		/* probes, taskiter, ksym */
#define BLOB_MAX	(16u << 20)	/* no object is near this */

/* Defined in the object that holds the sections (Makefile.am's
 * bpf-blobs.o): referring to it links them in wherever this is. */
extern const char bpf_blobs_linked;

static struct {
	char name[24];
	void *at;
	size_t size;
} blobs[BLOB_NAMES];

const char *
bpf_blob_section(const char *name, char *buf, size_t size)
{
	int n = snprintf(buf, size, ".pagetop.bpf.%s", name);

	return n > 0 && (size_t)n < size ? buf : NULL;
}

static bool
blob_pread(int fd, void *buf, size_t n, uint64_t at)
{
	return readall(fd, buf, n, (off_t)at) == (ssize_t)n;
}

/* The section's bytes at *at, *size: 0, or -errno. */
static int
blob_find(int fd, const char *want, uint64_t *at, uint64_t *size)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) sh, strsh;
	char name[48];

	if (!blob_pread(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shstrndx >= eh.e_shnum ||
	    !blob_pread(fd, &strsh, sizeof(sh), eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh)))
		return -ENOEXEC;
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		size_t len = strlen(want) + 1;

		if (!blob_pread(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)))
			return -ENOEXEC;
		if (sh.sh_name >= strsh.sh_size || len > sizeof(name) ||
		    !blob_pread(fd, name, len, strsh.sh_offset + sh.sh_name) ||
		    memcmp(name, want, len) != 0)
			continue;
		/* Loaded, it would be mapped: not what the build makes. */
		if (sh.sh_type != SHT_PROGBITS || (sh.sh_flags & SHF_ALLOC) || !sh.sh_size ||
		    sh.sh_size > BLOB_MAX)
			return -ENOEXEC;
		*at = sh.sh_offset;
		*size = sh.sh_size;
		return 0;
	}
	return -ENOENT;
}

const void *
bpf_blob(const char *name, size_t *size)
{
	char want[40];
	uint64_t at, n;
	int fd, r, slot = -1;
	void *p;

	*size = 0;
	if (!bpf_blobs_linked) {
		errno = ENOENT;
		return NULL;
	}
	for (int i = 0; i < BLOB_NAMES; i++) {
		if (blobs[i].at && strcmp(blobs[i].name, name) == 0) {
			*size = blobs[i].size;
			return blobs[i].at;
		}
		if (!blobs[i].at && slot < 0)
			slot = i;
	}
	if (slot < 0 || strlen(name) >= sizeof(blobs[0].name) ||
	    !bpf_blob_section(name, want, sizeof(want))) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((fd = open(BLOB_EXE, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	r = blob_find(fd, want, &at, &n);
	/* Its own pages, given back whole when the loader exits. */
	p = r < 0 ? MAP_FAILED : mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && !blob_pread(fd, p, n, at)) {
		munmap(p, n);
		p = MAP_FAILED;
		r = -EIO;
	} else if (p == MAP_FAILED && r == 0) {
		r = -errno;
	}
	close(fd);
	if (p == MAP_FAILED) {
		errno = -r;
		return NULL;
	}
	snprintf(blobs[slot].name, sizeof(blobs[slot].name), "%s", name);
	blobs[slot].at = p;
	blobs[slot].size = n;
	*size = n;
	return p;
}

int
bpf_blob_check(const char *name, char *why, size_t why_size)
{
	size_t n;

	if (bpf_blob(name, &n))
		return 0;
	snprintf(why, why_size, "the BPF object %s: %s: %s", name, BLOB_EXE,
		 errno == ENOENT ? "not in this binary" : strerror(errno));
	return -errno;
}
