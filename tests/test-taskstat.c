/*
 * taskstat_parse: every fixture in proc/stat with pid, comm, state and ppid
 * read off the files by eye, then every prefix of each (a prefix parses
 * exactly when it holds a blank after ppid, and then parses the same),
 * flipped bytes, and hand-made lines. Then taskstat_field (flags and
 * num_threads of every fixture, read by eye, and hand-made lines) and the
 * schedstat signature.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "tap.h"
#include "parse/taskstat.h"

#define STAT_DIR "proc/stat"

struct expect {
	const char *file;
	int pid;
	const char *comm;
	char state;
	int ppid;
};

static const struct expect expects[] = {
	{ "gopsutil-comm-with-parens.txt", 68927, "test(cmd).sh", 'S', 68044 },
	{ "gopsutil-illumos-lx-brandz-39fields.txt", 1, "systemd", 'S', 0 },
	/* comm "bad) S 1 2 3 4 5" is 16 bytes: one more than the kernel keeps */
	{ "jc-comm-with-close-paren-hack.txt", 2001, "bad) S 1 2 3 4 ", 'S', 1888 },
	{ "jc-comm-with-space-and-newline.txt", 2001, "my file with\nsp", 'S', 1888 },
	{ "jc-systemd-5.8.txt", 1, "systemd", 'S', 0 },
	{ "node_exporter-khungtaskd-nonewline.txt", 17, "khungtaskd", 'S', 2 },
	{ "node_exporter-rcu_preempt-state-I.txt", 11, "rcu_preempt", 'I', 2 },
	{ "node_exporter-systemd.txt", 1, "systemd", 'S', 0 },
	{ "pcp-2.6.32-qemu-kvm-44fields.txt", 2858, "qemu-kvm", 'S', 1 },
	{ "pcp-3.19-pid1.txt", 1, "systemd", 'S', 0 },
	{ "pcp-5.5.7-pid1-52fields.txt", 1, "systemd", 'S', 0 },
	{ "pcp-collectl-debian-3.2-686pae-32bit-ksoftirqd.txt", 3, "ksoftirqd/0", 'S', 2 },
	{ "pcp-collectl-rhel6-2.6.32-init-raw-wchan-addr.txt", 1, "init", 'S', 0 },
	{ "pcp-collectl-rhel6-2.6.32-kthreadd-raw-wchan-addr.txt", 2, "kthreadd", 'S', 0 },
	{ "procfs-comm-with-parens-spaces.txt", 1020, "(a b ) ( c d) ", 'R', 28378 },
	{ "procfs-kthread-ata_sff-extreme-values.txt", 33, "ata_sff", 'S', 2 },
	{ "procfs-vim.txt", 26231, "vim", 'R', 5392 },
};

static const struct expect *
find_expect(const char *base)
{
	size_t i;

	for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		if (strcmp(expects[i].file, base) == 0)
			return &expects[i];
	}
	return NULL;
}

static int
damage_parse(const char *buf, size_t len, void *ctx)
{
	struct taskstat ts;
	struct parse_error err;
	int r;

	r = taskstat_parse(buf, len, &ts, &err);
	if (r == 0 && (ts.pid < 0 || ts.ppid < 0 || ts.state == '\0' ||
	    memchr(ts.comm, '\0', sizeof(ts.comm)) == NULL))
		(*(int *)ctx)++;
	if (r != 0 && (r != -EINVAL || err.msg[0] == '\0'))
		(*(int *)ctx)++;
	return r;
}

/* Where the blank after ppid is, found without the parser. */
static size_t
ppid_end(const char *buf, size_t len)
{
	const char *p = buf + len;

	while (p > buf && p[-1] != ')')
		p--;
	p += 3;			/* " S " */
	while (p < buf + len && *p >= '0' && *p <= '9')
		p++;
	return (size_t)(p - buf);
}

static void
check_fixture(const char *rel)
{
	const char *base = strrchr(rel, '/') + 1;
	const struct expect *e = find_expect(base);
	struct taskstat ts, ps;
	struct parse_error err;
	size_t len, cut, end, n_ok = 0, n_same = 0;
	char *buf, *copy;
	int r, bad = 0;

	if (!tap_ok(e != NULL, "%s: has expectations in this test", base))
		return;
	buf = fixture_load(rel, &len);
	r = taskstat_parse(buf, len, &ts, &err);
	if (!tap_ok(r == 0, "%s: parses", base)) {
		printf("#   line %d: %s\n", err.line, err.msg);
		free(buf);
		return;
	}
	tap_eq_int(ts.pid, e->pid, "%s: pid", base);
	tap_eq_str(ts.comm, e->comm, "%s: comm", base);
	tap_eq_int(ts.state, e->state, "%s: state", base);
	tap_eq_int(ts.ppid, e->ppid, "%s: ppid", base);

	/* Every prefix, each in a buffer of exactly its size. */
	end = ppid_end(buf, len);
	for (cut = 0; cut <= len; cut++) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, buf, cut);
		if (taskstat_parse(copy, cut, &ps, NULL) == 0) {
			n_ok++;
			n_same += ps.pid == ts.pid && ps.ppid == ts.ppid &&
			    ps.state == ts.state && strcmp(ps.comm, ts.comm) == 0;
		}
		free(copy);
	}
	/* The hack's prefix "2001 (bad) S 1 " is a line of its own. */
	if (strcmp(base, "jc-comm-with-close-paren-hack.txt") != 0) {
		tap_eq_u64(n_ok, len - end, "%s: prefixes past ppid parse, "
		    "shorter ones do not", base);
		tap_eq_u64(n_same, n_ok, "%s: and give the same fields", base);
	}

	fixture_damage(buf, len, damage_parse, &bad);
	tap_eq_int(bad, 0, "%s: damaged copies give sane fields or -EINVAL "
	    "with a message", base);
	free(buf);
}

struct hand {
	const char *line;
	int ok;
	int pid;
	const char *comm;
	char state;
	int ppid;
};

static const struct hand hands[] = {
	{ "1 (x) S 2 ", 1, 1, "x", 'S', 2 },
	{ "1 (x) D 0\n", 1, 1, "x", 'D', 0 },
	{ "1 () S 2 3", 1, 1, "", 'S', 2 },
	{ "1 ()) S 2 3", 1, 1, ")", 'S', 2 },
	{ "1 (() S 2 3", 1, 1, "(", 'S', 2 },
	{ "1 ( ) ) ) S 2 3", 1, 1, " ) ) ", 'S', 2 },
	{ "7 (kworker/0:1-virtio_vsock) I 2 0", 1, 7, "kworker/0:1-vir", 'I', 2 },
	{ "2147483647 (x) S 2147483647 ", 1, 2147483647, "x", 'S', 2147483647 },
	{ "", 0, 0, NULL, 0, 0 },
	{ "1", 0, 0, NULL, 0, 0 },
	{ "1 ", 0, 0, NULL, 0, 0 },
	{ "1 (", 0, 0, NULL, 0, 0 },
	{ "1 (x", 0, 0, NULL, 0, 0 },
	{ "1 (x)", 0, 0, NULL, 0, 0 },
	{ "1 (x) ", 0, 0, NULL, 0, 0 },
	{ "1 (x) S", 0, 0, NULL, 0, 0 },
	{ "1 (x) S ", 0, 0, NULL, 0, 0 },
	{ "1 (x) S 2", 0, 0, NULL, 0, 0 },	/* ppid may be cut */
	{ "1 (x) S -2 ", 0, 0, NULL, 0, 0 },
	{ "1 (x) S x ", 0, 0, NULL, 0, 0 },
	{ "1 (x) 5 2 ", 0, 0, NULL, 0, 0 },
	{ "1 (x) SS 2 ", 0, 0, NULL, 0, 0 },
	{ "1 (x)S 2 ", 0, 0, NULL, 0, 0 },
	{ "1 x) S 2 ", 0, 0, NULL, 0, 0 },
	{ "1  (x) S 2 ", 0, 0, NULL, 0, 0 },
	{ " 1 (x) S 2 ", 0, 0, NULL, 0, 0 },
	{ "x (x) S 2 ", 0, 0, NULL, 0, 0 },
	{ "-1 (x) S 2 ", 0, 0, NULL, 0, 0 },
	{ "4294967296 (x) S 2 ", 0, 0, NULL, 0, 0 },
	{ "1 (x) S 99999999999 ", 0, 0, NULL, 0, 0 },
};

/* s with newlines shown as "\\n", for one-line TAP descriptions. */
static const char *
oneline(const char *s, char *dst, size_t size)
{
	size_t n = 0;

	for (; *s != '\0' && n + 3 < size; s++) {
		if (*s == '\n') {
			dst[n++] = '\\';
			dst[n++] = 'n';
		} else
			dst[n++] = *s;
	}
	dst[n] = '\0';
	return dst;
}

static void
check_hand(void)
{
	struct taskstat ts;
	struct parse_error err;
	char shown[128];
	size_t i;
	int r;

	for (i = 0; i < sizeof(hands) / sizeof(hands[0]); i++) {
		const struct hand *h = &hands[i];

		oneline(h->line, shown, sizeof(shown));
		r = taskstat_parse(h->line, strlen(h->line), &ts, &err);
		if (!h->ok) {
			tap_ok(r == -EINVAL && err.msg[0] != '\0',
			    "\"%s\": rejected (%s)", shown, err.msg);
			continue;
		}
		if (!tap_ok(r == 0, "\"%s\": parses", shown)) {
			printf("#   %s\n", err.msg);
			continue;
		}
		tap_ok(ts.pid == h->pid && ts.state == h->state &&
		    ts.ppid == h->ppid && strcmp(ts.comm, h->comm) == 0,
		    "\"%s\": pid %d comm \"%s\" state %c ppid %d", shown,
		    ts.pid, ts.comm, ts.state, ts.ppid);
	}
	tap_ok(taskstat_parse("1 (x) S 2 ", 10, &ts, NULL) == 0 &&
	    taskstat_parse("1 (x) S ", 8, &ts, NULL) == -EINVAL,
	    "err may be NULL");
}

/* Our own task's stat, read the way the scanner reads it. */
static void
check_self(void)
{
	char buf[1024];
	struct taskstat ts;
	FILE *f;
	size_t n;
	int r;

	if (!(f = fopen("/proc/self/stat", "r"))) {
		tap_ok(1, "/proc/self/stat # SKIP not readable");
		return;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	r = taskstat_parse(buf, n, &ts, NULL);
	tap_ok(r == 0 && ts.state == 'R' && ts.pid > 0 && ts.ppid >= 0,
	    "/proc/self/stat: pid %d state %c comm \"%s\"", ts.pid,
	    ts.state ? ts.state : '?', ts.comm);
}

/* Fields 9 (flags) and 20 (num_threads) of each fixture, and whether the
 * flags say kernel thread (PF_KTHREAD, 0x00200000). */
struct fields {
	const char *file;
	long long flags;
	long long nthreads;
	int kthread;
};

static const struct fields fields[] = {
	{ "gopsutil-comm-with-parens.txt", 4194304, 1, 0 },
	{ "gopsutil-illumos-lx-brandz-39fields.txt", 0, 0, 0 },
	{ "jc-comm-with-close-paren-hack.txt", 4202496, 1, 0 },
	{ "jc-comm-with-space-and-newline.txt", 4202496, 1, 0 },
	{ "jc-systemd-5.8.txt", 4194560, 1, 0 },
	{ "node_exporter-khungtaskd-nonewline.txt", 2129984, 1, 1 },
	{ "node_exporter-rcu_preempt-state-I.txt", 2129984, 1, 1 },
	{ "node_exporter-systemd.txt", 4194560, 1, 0 },
	{ "pcp-2.6.32-qemu-kvm-44fields.txt", 138420608, 8, 0 },
	{ "pcp-3.19-pid1.txt", 4219136, 1, 0 },
	{ "pcp-5.5.7-pid1-52fields.txt", 4194560, 1, 0 },
	{ "pcp-collectl-debian-3.2-686pae-32bit-ksoftirqd.txt", 2216722752ll, 1, 1 },
	{ "pcp-collectl-rhel6-2.6.32-init-raw-wchan-addr.txt", 4202752, 1, 0 },
	{ "pcp-collectl-rhel6-2.6.32-kthreadd-raw-wchan-addr.txt", 2149613632ll, 1, 1 },
	{ "procfs-comm-with-parens-spaces.txt", 4218880, 1, 0 },
	{ "procfs-kthread-ata_sff-extreme-values.txt", 69238880, 1, 1 },
	{ "procfs-vim.txt", 4218880, 1, 0 },
};

static void
check_fields(void)
{
	char rel[256];

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct fields *f = &fields[i];
		long long flags, nthreads;
		size_t len;
		char *buf;

		snprintf(rel, sizeof(rel), "%s/%s", STAT_DIR, f->file);
		buf = fixture_load(rel, &len);
		flags = taskstat_field(buf, len, 9);
		nthreads = taskstat_field(buf, len, 20);
		tap_ok(flags == f->flags && nthreads == f->nthreads &&
		    ((flags & 0x00200000) != 0) == f->kthread,
		    "%s: flags %lld (%s), num_threads %lld", f->file, flags,
		    f->kthread ? "kernel thread" : "user", nthreads);
		free(buf);
	}
}

struct field_hand {
	const char *line;
	int n;
	long long v;
};

static const struct field_hand field_hands[] = {
	{ "1 (x) S 2 3\n", 4, 2 },
	{ "1 (x) S 2 3\n", 5, 3 },
	{ "1 (x) S 2 3", 5, 3 },
	{ "1 (x) S 2 3", 6, -1 },		/* past the end */
	{ "1 (x) S 2 3", 3, -1 },		/* the state is not a number */
	{ "1 (x) S 2 3", 2, -1 },		/* comm is not either */
	{ "1 (x) S 2 3", 1, -1 },
	{ "1 (a) 9) S 2 7", 5, 7 },		/* counted from the last ')' */
	{ "1 (x) S 2 -5 6", 5, -1 },		/* signed: not what it reads */
	{ "1 (x) S 2  6", 5, -1 },		/* an empty field */
	{ "1 (x) S 2 12ab", 5, 12 },
	{ "1 x S 2 3", 4, -1 },			/* no ')' */
	{ "1 (x) S 2 99999999999999999999", 5, 999999999999999999ll },
};

static void
check_field_hand(void)
{
	char shown[64];

	for (size_t i = 0; i < sizeof(field_hands) / sizeof(field_hands[0]); i++) {
		const struct field_hand *h = &field_hands[i];
		long long v = taskstat_field(h->line, strlen(h->line), h->n);

		tap_ok(v == h->v, "field %d of \"%s\": %lld, want %lld", h->n,
		    oneline(h->line, shown, sizeof(shown)), v, h->v);
	}
}

static void
check_sched_sig(void)
{
	static const char a[] = "4180127 109541 57\n", b[] = "4180128 109541 57\n";
	uint64_t sa = taskstat_sched_sig(a, strlen(a));
	char buf[128];
	ssize_t n1, n2;
	volatile unsigned long spin = 0;
	int fd;

	tap_ok(taskstat_sched_sig("0 0 0\n", 6) == 0 && taskstat_sched_sig("0 0 0", 5) == 0,
	    "schedstat \"0 0 0\" says nothing: 0");
	tap_ok(sa != 0 && (sa & 1) && sa == taskstat_sched_sig(a, strlen(a)),
	    "a schedstat's signature: not 0, the same for the same text");
	tap_ok(sa != taskstat_sched_sig(b, strlen(b)),
	    "one more nanosecond run: another signature");
	tap_ok(taskstat_sched_sig("0 0 01\n", 7) == 0,
	    "only the start is looked at for \"0 0 0\"");
	tap_ok(taskstat_sched_sig("", 0) != 0 && taskstat_sched_sig("1", 1) != 0,
	    "anything else is not 0");

	/* Our own thread's, before and after it ran a while. */
	if ((fd = open("/proc/thread-self/schedstat", O_RDONLY)) < 0) {
		tap_ok(1, "own schedstat # SKIP not readable");
		return;
	}
	n1 = pread(fd, buf, sizeof(buf), 0);
	sa = n1 > 0 ? taskstat_sched_sig(buf, (size_t)n1) : 0;
	for (unsigned long i = 0; i < 50000000; i++)
		spin += i;
	(void)spin;
	n2 = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	tap_ok(n1 > 0 && n2 > 0 && (sa == 0 || sa != taskstat_sched_sig(buf, (size_t)n2)),
	    "own schedstat: moves when the thread ran (or says nothing)");
}

int
main(void)
{
	char **list = fixture_list(STAT_DIR);
	size_t n = 0;

	for (char **p = list; *p; p++, n++)
		check_fixture(*p);
	tap_eq_u64(n, sizeof(expects) / sizeof(expects[0]),
	    "every expectation has its fixture");
	fixture_list_free(list);
	check_hand();
	check_self();
	check_fields();
	check_field_hand();
	check_sched_sig();
	return tap_done();
}
