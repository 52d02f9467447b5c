/*
 * taskstat_parse: every fixture in proc/stat with pid, comm, state and ppid
 * read off the files by eye, then every prefix of each (a prefix parses
 * exactly when it holds a blank after ppid, and then parses the same),
 * flipped bytes, and hand-made lines.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	return tap_done();
}
