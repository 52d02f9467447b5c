/*
 * The task iterator's reader (taskiter.h). At open the program is loaded
 * and attached as an iterator link; each read creates an iterator from
 * the link (a new seq_file, so a new walk), reads it into the buffer
 * allocated at open, which holds the most the program writes (it stops
 * listing at TI_MAX_D and TI_MAX_RAN), and parses the fixed-size records.
 * Where the kernel has the open-coded task iterator (6.7), the program is
 * taskiter_walk, attached to this process alone: its records are in the
 * mapped .bss and only the end record comes through the seq_file.
 */
#include "config.h"
#include "source/taskiter.h"
#include "source/bpf-child.h"
#include "source/bpf-privilege.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HAVE_PROBES

struct taskiter {
	int unused;
};

struct taskiter *
taskiter_open(char *why, size_t size)
{
	snprintf(why, size, "built without BPF (configure: %s)", PROBES_WHY);
	return NULL;
}

bool
taskiter_hides_init(const struct taskiter *it)
{
	(void)it;
	return false;
}

bool
taskiter_walks(const struct taskiter *it)
{
	(void)it;
	return false;
}

int
taskiter_read(struct taskiter *it, struct taskiter_out *out)
{
	(void)it;
	(void)out;
	return -ENOTSUP;
}

void
taskiter_close(struct taskiter *it)
{
	(void)it;
}

#else

#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "source/bpf-blob.h"
#include "source/taskiter.skel.h"

#define TASKITER_BTF	"/sys/kernel/btf/vmlinux"
/* The most one walk writes: every listed record and the end. */
#define TASKITER_BUF	((TI_MAX_D + TI_MAX_RAN) * sizeof(struct ti_task) + \
			 sizeof(struct ti_end))
/* Records of the walk's .bss mapped at first; more as walks need them. */
#define TASKITER_HEAD_RECS	256
/* And room for one record more, to tell a walk that wrote more. */
#define TASKITER_ALLOC	(TASKITER_BUF + sizeof(struct ti_task))

/* The parent holds no bpf_object: the iterator's link and its mapped
 * .bss by fd (bpf_iter_create() takes the link's). */
struct taskiter {
	int link_fd, bss_fd;
	struct taskiter_bpf__bss *g;	/* g_len bytes reserved (in the
					 * loader: the skeleton's) */
	size_t g_len;
	size_t head;		/* of them mapped from the start */
	char *buf;		/* alloc bytes */
	size_t alloc;
	bool walk;		/* taskiter_walk: records in the .bss */
	bool hides_init;
};

/* What the loader (taskiter_child) found; its descriptors: link, .bss. */
struct taskiter_facts {
	int ok;
	char why[256];
	bool walk, hides_init;
	uint32_t bss_size;
};

struct taskiter_child_arg {
	const char *btf, *walk;
	pid_t pid;		/* the parent's, for the open-coded walk */
};

_Static_assert(sizeof(struct ti_task) % 8 == 0 && sizeof(struct ti_end) % 4 == 0,
	       "records stay aligned in the buffer");

static int
taskiter_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

void
taskiter_close(struct taskiter *it)
{
	if (!it)
		return;
	if (it->g)
		munmap(it->g, it->g_len);	/* the parts with the rest */
	if (it->link_fd >= 0)
		close(it->link_fd);
	if (it->bss_fd >= 0)
		close(it->bss_fd);
	free(it->buf);
	free(it);
}

/*
 * Whether a walk of pid 1 alone shows nothing: some kernels' iterators
 * never show the init process (6.18 on a Firecracker guest), and the
 * scan then reads its threads from /proc.
 */
static bool
taskiter_hides(struct taskiter *it, struct taskiter_bpf *skel)
{
	union bpf_iter_link_info li = { .task.pid = 1 };
	LIBBPF_OPTS(bpf_iter_attach_opts, o, .link_info = &li,
		    .link_info_len = sizeof(li));
	struct taskiter_out out;
	struct bpf_link *l;
	int all = it->link_fd, r;

	if (!(l = bpf_program__attach_iter(skel->progs.taskiter, &o)))
		return false;
	it->link_fd = bpf_link__fd(l);
	r = taskiter_read(it, &out);
	it->link_fd = all;
	bpf_link__destroy(l);
	it->g->prev_start = 0;
	return r == 0 && out.total == 0;
}

/* The loader's objects: it exits holding them, reachable from here so
 * that valgrind counts none of them lost. */
static struct {
	struct taskiter_bpf *volatile skel;	/* volatile: stored, never read */
	struct bpf_link *volatile link;
	char *volatile buf;
} taskiter_loader;

/* In the loader (bpf-child.h): loads and attaches the iterator, tells
 * whether it hides init, hands back the link and the .bss map. It exits
 * after, so nothing here is freed. */
static void
taskiter_child(void *arg, void *facts, int *fd, int *nfd)
{
	const struct taskiter_child_arg *a = arg;
	struct taskiter_facts *f = facts;
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct taskiter_bpf *skel;
	struct taskiter it = { .link_fd = -1, .bss_fd = -1 };
	struct bpf_link *link;
	int r;

	if (!getenv("PAGETOP_PROBES_DEBUG"))
		libbpf_set_print(taskiter_quiet);
	oo.btf_custom_path = a->btf;
	if (bpf_blob_check("taskiter", f->why, sizeof(f->why)) < 0)
		return;
	/* The open-coded walk first; the iter/task walk where the kernel
	 * lacks it (its kfuncs do not resolve, or it does not verify). */
	for (it.walk = !a->walk || strcmp(a->walk, "0") != 0; ; it.walk = false) {
		if (!(skel = taskiter_loader.skel = taskiter_bpf__open_opts(&oo))) {
			snprintf(f->why, sizeof(f->why), "opening the task iterator: %s",
				 strerror(errno));
			return;
		}
		bpf_program__set_autoload(it.walk ? skel->progs.taskiter :
		    skel->progs.taskiter_walk, false);
		if ((r = taskiter_bpf__load(skel)) == 0)
			break;
		taskiter_bpf__destroy(skel);
		taskiter_loader.skel = NULL;
		if (!it.walk) {
			snprintf(f->why, sizeof(f->why), "loading the task iterator: %s",
				 strerror(-r));
			return;
		}
	}
	if (!(it.g = skel->bss)) {
		snprintf(f->why, sizeof(f->why), "the task iterator's globals are not mapped");
		return;
	}
	it.head = SIZE_MAX;	/* libbpf mapped it whole */
	it.alloc = it.walk ? sizeof(struct ti_end) + sizeof(struct ti_task) : TASKITER_ALLOC;
	if (!(it.buf = taskiter_loader.buf = malloc(it.alloc))) {
		snprintf(f->why, sizeof(f->why), "out of memory");
		return;
	}
	if (it.walk) {
		union bpf_iter_link_info li = { .task.pid = (__u32)a->pid };
		LIBBPF_OPTS(bpf_iter_attach_opts, o, .link_info = &li,
			    .link_info_len = sizeof(li));

		link = bpf_program__attach_iter(skel->progs.taskiter_walk, &o);
	} else {
		link = bpf_program__attach_iter(skel->progs.taskiter, NULL);
	}
	if (!(taskiter_loader.link = link)) {
		snprintf(f->why, sizeof(f->why), "no BPF task iterator (iter/task): %s",
			 strerror(errno));
		return;
	}
	it.link_fd = bpf_link__fd(link);
	if (it.walk) {
		struct taskiter_out out;

		it.g->saw_init = 0;
		it.hides_init = taskiter_read(&it, &out) == 0 && !it.g->saw_init;
		it.g->prev_start = 0;
	} else {
		it.hides_init = taskiter_hides(&it, skel);
	}
	fd[0] = it.link_fd;
	fd[1] = bpf_map__fd(skel->maps.bss);
	*nfd = 2;
	f->walk = it.walk;
	f->hides_init = it.hides_init;
	f->bss_size = (uint32_t)bpf_map__value_size(skel->maps.bss);
	f->ok = 1;
}

/*
 * The .bss is mapped in parts over a reservation of its length, so that
 * it->g's members are where the skeleton says: its counters (after the
 * records) and, of the records, as many pages as the walks have needed.
 * The pages of a BPF array's mapping are all resident from the mmap():
 * mapped whole, the 5,120 records' 245 KB counted in full where a tick
 * writes a few hundred.
 */
static int
taskiter_map(struct taskiter *it, size_t off, size_t len)
{
	void *p = mmap((char *)it->g + off, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_FIXED, it->bss_fd, (off_t)off);

	return p == MAP_FAILED ? -errno : 0;
}

/* Maps at least need bytes from the start: 0 or -errno. */
static int
taskiter_map_head(struct taskiter *it, size_t need)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), tail, len;
	int r;

	tail = offsetof(struct taskiter_bpf__bss, by_state) / pg * pg;
	if (need <= it->head)
		return 0;
	len = (need + pg - 1) / pg * pg;
	if (len < 2 * it->head)
		len = 2 * it->head;
	if (len > tail)
		len = tail;
	if (len > it->head && (r = taskiter_map(it, it->head, len - it->head)) < 0)
		return r;
	it->head = len;
	return 0;
}

static int
taskiter_map_bss(struct taskiter *it, uint32_t bss_size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), tail;
	void *p;

	_Static_assert(offsetof(struct taskiter_bpf__bss, by_state) >
	    offsetof(struct taskiter_bpf__bss, recs), "counters after the records");
	it->g_len = ((size_t)bss_size + pg - 1) / pg * pg;
	p = mmap(NULL, it->g_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	it->g = p;
	tail = offsetof(struct taskiter_bpf__bss, by_state) / pg * pg;
	if (taskiter_map(it, tail, it->g_len - tail) < 0)
		return -errno;
	return taskiter_map_head(it, offsetof(struct taskiter_bpf__bss, recs) +
	    (it->walk ? TASKITER_HEAD_RECS * sizeof(struct ti_task) : 0));
}

struct taskiter *
taskiter_open(char *why, size_t size)
{
	struct taskiter_child_arg a = { .btf = getenv("PAGETOP_PROBES_BTF"),
					.walk = getenv("PAGETOP_TASKITER_WALK"),
					.pid = getpid() };
	struct taskiter_facts f;
	struct taskiter *it;
	int fd[BPF_CHILD_FDS], nfd = 0, r = 0;

	if (a.btf && !*a.btf)
		a.btf = NULL;
	if (access(a.btf ? a.btf : TASKITER_BTF, R_OK) != 0) {
		snprintf(why, size, "kernel has no BTF (%s)", a.btf ? a.btf : TASKITER_BTF);
		return NULL;
	}
	if (!bpf_privileged()) {
		snprintf(why, size, "needs root (CAP_BPF, CAP_PERFMON)");
		return NULL;
	}
	if (!(it = calloc(1, sizeof(*it)))) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	it->link_fd = it->bss_fd = -1;
	if (bpf_child_run(taskiter_child, &a, &f, sizeof(f), fd, &nfd, why, size) < 0)
		goto fail;
	if (!f.ok || nfd != 2) {
		f.why[sizeof(f.why) - 1] = '\0';
		snprintf(why, size, "%s", f.ok ? "loading the task iterator: descriptors lost" :
			 f.why);
		for (int i = 0; i < nfd; i++)
			close(fd[i]);
		goto fail;
	}
	it->link_fd = fd[0];
	it->bss_fd = fd[1];
	it->walk = f.walk;
	it->hides_init = f.hides_init;
	if (f.bss_size < sizeof(*it->g) || (r = taskiter_map_bss(it, f.bss_size)) < 0) {
		snprintf(why, size, "mapping the task iterator's globals: %s",
			 f.bss_size < sizeof(*it->g) ? "too small" : strerror(-r));
		goto fail;
	}
	it->alloc = it->walk ? sizeof(struct ti_end) + sizeof(struct ti_task) :
	    TASKITER_ALLOC;
	if (!(it->buf = malloc(it->alloc))) {
		snprintf(why, size, "out of memory");
		goto fail;
	}
	return it;
fail:
	taskiter_close(it);
	return NULL;
}

bool
taskiter_hides_init(const struct taskiter *it)
{
	return it->hides_init;
}

bool
taskiter_walks(const struct taskiter *it)
{
	return it->walk;
}

static void
taskiter_take(const struct ti_task *t, struct taskiter_out *out)
{
	if ((t->what & TI_F_D) && out->n_d < TI_MAX_D)
		out->d[out->n_d++] = t;
	if ((t->what & TI_F_RAN) && out->n_ran < TI_MAX_RAN)
		out->ran[out->n_ran++] = t->tid;
}

/* The records of recs[0..n_recs) (the walk's), then of buf[0..n), into
 * out: 0, or -EPROTO for a walk cut short. */
static int
taskiter_parse(const struct ti_task *recs, size_t n_recs, const char *buf,
    size_t n, struct taskiter_out *out)
{
	static const char letters[] = TI_LETTERS;
	const struct ti_task *t;
	const struct ti_end *e;
	size_t off = 0;
	__u32 kind;

	out->n_d = out->n_ran = 0;
	for (size_t i = 0; i < n_recs; i++)
		taskiter_take(&recs[i], out);
	while (off + sizeof(kind) <= n) {
		memcpy(&kind, buf + off, sizeof(kind));
		if (kind == TI_REC_END && off + sizeof(*e) == n) {
			e = (const struct ti_end *)(const void *)(buf + off);
			memset(out->by_state, 0, sizeof(out->by_state));
			for (size_t i = 0; i < TI_STATES; i++)
				out->by_state[(unsigned char)letters[i]] = e->by_state[i];
			out->total = e->total;
			out->d_seen = e->n_d;
			out->ran_seen = e->n_ran;
			return 0;
		}
		if (kind != TI_REC_TASK || off + sizeof(*t) > n)
			break;
		t = (const struct ti_task *)(const void *)(buf + off);
		taskiter_take(t, out);
		off += sizeof(*t);
	}
	return -EPROTO;
}

int
taskiter_read(struct taskiter *it, struct taskiter_out *out)
{
	struct taskiter_bpf__bss *g = it->g;
	size_t n = 0;
	ssize_t r;
	int fd, err = 0;

	/* A walk cut short last time leaves its counts: start from none. */
	memset(g->by_state, 0, sizeof(g->by_state));
	g->total = g->n_d = g->n_ran = g->listed_d = g->listed_ran = 0;
	g->n_recs = 0;
	if ((fd = bpf_iter_create(it->link_fd)) < 0)
		return -errno;
	for (;;) {
		if (n > it->alloc - sizeof(struct ti_task)) {
			err = -EFBIG;
			break;
		}
		r = read(fd, it->buf + n, it->alloc - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err)
		return err;
	if (it->walk) {
		size_t k = g->n_recs < TI_MAX_D + TI_MAX_RAN ? g->n_recs :
		    TI_MAX_D + TI_MAX_RAN;

		/* A walk that wrote past what is mapped maps more, once. */
		if ((err = taskiter_map_head(it, offsetof(struct taskiter_bpf__bss,
		    recs) + k * sizeof(struct ti_task))) < 0)
			return err;
		return taskiter_parse(g->recs, k, it->buf, n, out);
	}
	return taskiter_parse(NULL, 0, it->buf, n, out);
}

#endif
