/*
 * libbpf for the pagetop binary alone, without linking it: the loaders
 * run in forked children (bpf-child.h), and the parent only reads maps,
 * creates iterators and runs a test program, which are one bpf(2) call
 * each. Linked, libbpf and what it pulls in (libelf, libz) were 0.44 MB
 * of every pagetop's resident memory, the dashboard's and record's.
 *
 *	the parent's calls		here, as bpf(2) with libbpf's meaning:
 *	  bpf_map_lookup_elem ...	  -errno and errno set on failure
 *	the loaders' calls (skeleton,	forwarded to libbpf, dlopen()ed on
 *	  BTF, attach)			  the first, in the child that makes it
 *
 * Tests link libbpf itself (Makefile.am: this file is the binary's only),
 * so both ways are built and run. The prototypes are libbpf's own
 * headers', so a definition here that does not match does not build.
 */
#include "config.h"

#ifdef HAVE_PROBES

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define BPF_DL_CPUS	"/sys/devices/system/cpu/possible"

/* --- the parent's: bpf(2) ----------------------------------------------- */

static int
bpf_dl_sys(int cmd, union bpf_attr *a, size_t size)
{
	long r = syscall(__NR_bpf, cmd, a, size);

	return r < 0 ? -errno : (int)r;
}

/* A field of libbpf's sized options, when the caller's struct has it. */
#define OPT(o, f, dflt)	((o) && (o)->sz >= offsetof(__typeof__(*(o)), f) + \
			 sizeof((o)->f) ? (o)->f : (dflt))

static int
bpf_dl_elem(int cmd, int fd, const void *key, void *value, __u64 flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (__u32)fd;
	a.key = (__u64)(unsigned long)key;
	a.value = (__u64)(unsigned long)value;
	a.flags = flags;
	return bpf_dl_sys(cmd, &a, sizeof(a)) < 0 ? -errno : 0;
}

int
bpf_map_lookup_elem(int fd, const void *key, void *value)
{
	return bpf_dl_elem(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int
bpf_map_update_elem(int fd, const void *key, const void *value, __u64 flags)
{
	return bpf_dl_elem(BPF_MAP_UPDATE_ELEM, fd, key, (void *)(unsigned long)value,
	    flags);
}

int
bpf_map_delete_elem(int fd, const void *key)
{
	return bpf_dl_elem(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);
}

int
bpf_map_lookup_and_delete_elem(int fd, const void *key, void *value)
{
	return bpf_dl_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, key, value, 0);
}

/* syscall() called here, not through bpf_dl_sys: tests/valgrind.supp
 * takes a NULL key (the first) in a call straight from this function. */
int
bpf_map_get_next_key(int fd, const void *key, void *next_key)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (__u32)fd;
	a.key = (__u64)(unsigned long)key;
	a.next_key = (__u64)(unsigned long)next_key;
	return syscall(__NR_bpf, BPF_MAP_GET_NEXT_KEY, &a, sizeof(a)) < 0 ? -errno : 0;
}

int
bpf_map_create(enum bpf_map_type map_type, const char *map_name, __u32 key_size,
    __u32 value_size, __u32 max_entries, const struct bpf_map_create_opts *opts)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = map_type;
	if (map_name)
		snprintf(a.map_name, sizeof(a.map_name), "%s", map_name);
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = max_entries;
	a.btf_fd = OPT(opts, btf_fd, 0);
	a.btf_key_type_id = OPT(opts, btf_key_type_id, 0);
	a.btf_value_type_id = OPT(opts, btf_value_type_id, 0);
	a.btf_vmlinux_value_type_id = OPT(opts, btf_vmlinux_value_type_id, 0);
	a.inner_map_fd = OPT(opts, inner_map_fd, 0);
	a.map_flags = OPT(opts, map_flags, 0);
	a.map_extra = OPT(opts, map_extra, 0);
	a.numa_node = OPT(opts, numa_node, 0);
	a.map_ifindex = OPT(opts, map_ifindex, 0);
	return bpf_dl_sys(BPF_MAP_CREATE, &a, sizeof(a));
}

int
bpf_iter_create(int link_fd)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.iter_create.link_fd = (__u32)link_fd;
	return bpf_dl_sys(BPF_ITER_CREATE, &a, sizeof(a));
}

int
bpf_prog_test_run_opts(int prog_fd, struct bpf_test_run_opts *o)
{
	union bpf_attr a;
	int r;

	if (o == NULL || o->sz < offsetof(struct bpf_test_run_opts, repeat)) {
		errno = EINVAL;
		return -EINVAL;
	}
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (__u32)prog_fd;
	a.test.data_in = (__u64)(unsigned long)OPT(o, data_in, NULL);
	a.test.data_out = (__u64)(unsigned long)OPT(o, data_out, NULL);
	a.test.data_size_in = OPT(o, data_size_in, 0);
	a.test.data_size_out = OPT(o, data_size_out, 0);
	a.test.ctx_in = (__u64)(unsigned long)OPT(o, ctx_in, NULL);
	a.test.ctx_out = (__u64)(unsigned long)OPT(o, ctx_out, NULL);
	a.test.ctx_size_in = OPT(o, ctx_size_in, 0);
	a.test.ctx_size_out = OPT(o, ctx_size_out, 0);
	a.test.repeat = (__u32)OPT(o, repeat, 0);
	a.test.flags = OPT(o, flags, 0);
	a.test.cpu = OPT(o, cpu, 0);
	a.test.batch_size = OPT(o, batch_size, 0);
	r = bpf_dl_sys(BPF_PROG_TEST_RUN, &a, sizeof(a));
	o->data_size_out = a.test.data_size_out;
	o->ctx_size_out = a.test.ctx_size_out;
	o->duration = a.test.duration;
	o->retval = a.test.retval;
	return r < 0 ? r : 0;
}

/* CPUs possible, from "0-3,8-11": as libbpf counts them, kept. */
int
libbpf_num_possible_cpus(void)
{
	static int cpus;
	char buf[256], *p, *end;
	long a, b;
	ssize_t n;
	int fd, c = 0;

	if (cpus > 0)
		return cpus;
	if ((fd = open(BPF_DL_CPUS, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	for (p = buf; *p >= '0' && *p <= '9'; p = end + (*end == ',')) {
		a = b = strtol(p, &end, 10);
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b < a)
			return -EINVAL;
		c += (int)(b - a + 1);
	}
	if (c == 0)
		return -EINVAL;
	cpus = c;
	return c;
}

/* --- the loaders': libbpf, loaded on the first call ---------------------- */

static void *bpf_dl_handle;
static pthread_once_t bpf_dl_once = PTHREAD_ONCE_INIT;

static void
bpf_dl_open(void)
{
	bpf_dl_handle = dlopen(LIBBPF_SONAME, RTLD_NOW | RTLD_LOCAL);
}

/* libbpf's fn, or NULL with errno ENOSYS when it cannot be loaded. */
static void *
bpf_dl_sym(const char *fn)
{
	void *p;

	pthread_once(&bpf_dl_once, bpf_dl_open);
	if (bpf_dl_handle == NULL || (p = dlsym(bpf_dl_handle, fn)) == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return p;
}

/* Defines libbpf's fn, forwarding to it; on no libbpf, fails with fail. */
#define FORWARD(ret, fn, fail, params, args)				\
ret									\
fn params								\
{									\
	static ret (*f) params;						\
	void *sym_;							\
									\
	if (f == NULL) {						\
		if ((sym_ = bpf_dl_sym(#fn)) == NULL)			\
			return fail;					\
		memcpy(&f, &sym_, sizeof(sym_));			\
	}								\
	return f args;							\
}

FORWARD(int, bpf_object__open_skeleton, -ENOSYS,
    (struct bpf_object_skeleton *s, const struct bpf_object_open_opts *o), (s, o))
FORWARD(int, bpf_object__load_skeleton, -ENOSYS,
    (struct bpf_object_skeleton *s), (s))
FORWARD(int, bpf_map__fd, -ENOSYS, (const struct bpf_map *m), (m))
FORWARD(__u32, bpf_map__value_size, 0, (const struct bpf_map *m), (m))
FORWARD(int, bpf_program__fd, -ENOSYS, (const struct bpf_program *g), (g))
FORWARD(int, bpf_program__set_autoload, -ENOSYS,
    (struct bpf_program *g, bool on), (g, on))
FORWARD(int, bpf_map__set_autocreate, -ENOSYS,
    (struct bpf_map *m, bool on), (m, on))
FORWARD(int, libbpf_probe_bpf_map_type, -ENOSYS,
    (enum bpf_map_type t, const void *o), (t, o))
FORWARD(struct bpf_link *, bpf_program__attach, NULL,
    (const struct bpf_program *g), (g))
FORWARD(struct bpf_link *, bpf_program__attach_iter, NULL,
    (const struct bpf_program *g, const struct bpf_iter_attach_opts *o), (g, o))
FORWARD(int, bpf_link__fd, -ENOSYS, (const struct bpf_link *l), (l))
FORWARD(int, bpf_link__destroy, -ENOSYS, (struct bpf_link *l), (l))
FORWARD(struct btf *, btf__parse, NULL,
    (const char *path, struct btf_ext **ext), (path, ext))
FORWARD(__s32, btf__find_by_name_kind, -ENOSYS,
    (const struct btf *b, const char *name, __u32 kind), (b, name, kind))
FORWARD(const char *, btf__name_by_offset, NULL,
    (const struct btf *b, __u32 off), (b, off))
FORWARD(const struct btf_type *, btf__type_by_id, NULL,
    (const struct btf *b, __u32 id), (b, id))
FORWARD(libbpf_print_fn_t, libbpf_set_print, NULL, (libbpf_print_fn_t fn), (fn))

void
bpf_object__destroy_skeleton(struct bpf_object_skeleton *s)
{
	static void (*f)(struct bpf_object_skeleton *);
	void *p;

	if (f == NULL) {
		if ((p = bpf_dl_sym("bpf_object__destroy_skeleton")) == NULL)
			return;
		memcpy(&f, &p, sizeof(p));
	}
	f(s);
}

void
btf__free(struct btf *b)
{
	static void (*f)(struct btf *);
	void *p;

	if (b == NULL)
		return;
	if (f == NULL) {
		if ((p = bpf_dl_sym("btf__free")) == NULL)
			return;
		memcpy(&f, &p, sizeof(p));
	}
	f(b);
}

#endif
