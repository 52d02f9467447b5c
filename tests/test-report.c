/*
 * The report on a recording made here sample by sample, so that every
 * figure is known by hand: peak and mean PSI with its time, counter totals
 * across a reset and a gap, peak rates, the worst moment of a zone (a tie
 * on the highest free order broken by the unusable index) with its
 * buddyinfo row, blocked-task groups (a task seen again later, a stack read
 * late, a task blocked before the recording), events, marks, a gap the
 * recorder wrote down and a pause it did not; then the same recording
 * narrowed to a few samples, and every line within 78 columns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptrec/codec.h"
#include "model/reasons.h"
#include "ptrec/recfile.h"
#include "source/replay.h"
#include "output/report.h"
#include "model/sample.h"
#include "tap.h"

#ifndef DATADIR_SRC
#define DATADIR_SRC "data"
#endif

#define BASE	1700000000.0	/* 2023-11-14 22:13:20.000 UTC */
#define N	13

/* Wall time of each sample, in seconds after BASE: 5 samples lost after
 * the 8th (the recorder says so), and 20 s with none after the 11th. */
static const double at[N] = { 0, 1, 2, 3, 4, 5, 6, 7, 13, 14, 15, 35, 36 };
static const uint32_t psi_some[N] = { 0, 500, 1200, 4250, 900, 300, 0, 0, 0, 1500, 0, 0, 0 };
static const uint64_t pgscan[N] = { 1000, 1100, 1300, 1300, 1300, 1300, 1300, 1300, 1500, 100,
				    200, 200, 200 };
static const uint64_t pgsteal[N] = { 0, 50, 150, 150, 150, 150, 150, 150, 250, 0, 50, 50, 50 };
static const uint64_t stall_normal[N] = { 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 5 };
static const uint64_t stall_movable[N] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

static const uint64_t row_base[11] = { 100, 50, 40, 30, 20, 10, 5, 4, 3, 2, 1 };
/* Highest free order 7 both; unusable at order 3: 0.571 and 0.668. */
static const uint64_t row_a[11] = { 500, 200, 100, 50, 10, 5, 2, 1, 0, 0, 0 };
static const uint64_t row_b[11] = { 600, 100, 50, 20, 5, 2, 1, 1, 0, 0, 0 };
static const uint64_t row_dma32[11] = { 1, 1, 4, 2, 5, 4, 3, 3, 4, 2, 752 };

static char dir[] = "/tmp/pagetop-test-report.XXXXXX";

static void
vm_set(struct vmstat *vm, int i, const char *name, uint64_t v)
{
	snprintf(vm->e[i].name, sizeof(vm->e[i].name), "%s", name);
	vm->e[i].value = v;
}

static void
stack_set(struct stack *st, const char *const *funcs, const char *module0)
{
	memset(st, 0, sizeof(*st));
	for (; funcs[st->n]; st->n++)
		snprintf(st->f[st->n].func, sizeof(st->f[st->n].func), "%s", funcs[st->n]);
	snprintf(st->f[0].module, sizeof(st->f[0].module), "%s", module0);
}

/* Stack n_stacks of t, packed as model/tasks.h keeps them. */
static void
stack_put(struct tasks *t, const char *const *funcs, const char *module0)
{
	static struct stack st;

	stack_set(&st, funcs, module0);
	tasks_stack_add(t, &st);
}

static void
task(struct tasks *t, int tid, const char *comm, const char *wchan, double since, bool before,
     int stack)
{
	struct blocked_task *b = &t->b[t->n_blocked++];

	memset(b, 0, sizeof(*b));
	b->tid = b->tgid = tid;
	snprintf(b->comm, sizeof(b->comm), "%s", comm);
	b->state = 'D';
	snprintf(b->wchan, sizeof(b->wchan), "%s", wchan);
	b->since = since;
	b->since_start = before;
	b->stack = stack;
	t->by_state['D']++;
}

/* Sample k, as the sampler would have made it. */
static void
make(struct sample *s, int k)
{
	static const char *const journal[] = { "jbd2_log_wait_commit", "ext4_sync_file",
					       "do_fsync", NULL };
	static const char *const vfork[] = { "kernel_clone", "__do_sys_vfork", NULL };
	const uint64_t *normal = k >= 3 && k <= 5 ? row_a : k == 6 ? row_b : k == 10 ? row_a :
	    row_base;
	struct tasks *t = &s->tasks;

	memset(s, 0, sizeof(*s));
	for (int src = 0; src < SRC_COUNT; src++)
		s->status[src].err = SRC_NOT_READ;
	s->wall = BASE + at[k];
	s->mono = 1000 + at[k];
	s->page_size = 4096;

	s->status[SRC_BUDDYINFO].err = 0;
	s->buddy.n_orders = 11;
	s->buddy.n_zones = 2;
	snprintf(s->buddy.zones[0].zone, NAME_LEN, "DMA32");
	memcpy(s->buddy.zones[0].free, row_dma32, sizeof(row_dma32));
	snprintf(s->buddy.zones[1].zone, NAME_LEN, "Normal");
	memcpy(s->buddy.zones[1].free, normal, sizeof(row_base));

	s->status[SRC_VMSTAT].err = 0;
	s->vm.n = 6;
	vm_set(&s->vm, 0, "nr_free_pages", 1000 + (uint64_t)k);
	vm_set(&s->vm, 1, "allocstall_normal", stall_normal[k]);
	vm_set(&s->vm, 2, "allocstall_movable", stall_movable[k]);
	vm_set(&s->vm, 3, "pgsteal_kswapd", pgsteal[k]);
	vm_set(&s->vm, 4, "pgscan_kswapd", pgscan[k]);
	vm_set(&s->vm, 5, "compact_stall", 0);

	/* Memory: 25% some, 10% full all along; io: never. */
	s->status[SRC_PSI_MEMORY].err = 0;
	s->psi[PSI_MEMORY].some = (struct psi_line){ true, psi_some[k], 0, 0,
						     (uint64_t)(at[k] * 250000) };
	s->psi[PSI_MEMORY].full = (struct psi_line){ true, k == 5 ? 777 : 0, 0, 0,
						     (uint64_t)(at[k] * 100000) };
	s->status[SRC_PSI_IO].err = 0;
	s->psi[PSI_IO].some = (struct psi_line){ true, 0, 0, 0, 5 };
	s->psi[PSI_IO].full = (struct psi_line){ true, 0, 0, 0, 5 };

	/* Blocked: a kworker already blocked at the start (no stack); a syncer
	 * 3 s, another for one tick, the first again for 1 s; a vfork parent
	 * whose stack is read one tick late. */
	s->status[SRC_TASKS].err = 0;
	t->total = 100;
	tasks_stacks_clear(t);
	stack_put(t, journal, "jbd2");
	stack_put(t, vfork, "");
	/* As root (no stack_err): the kworker woke before its stack was read. */
	if (k == 0) {
		task(t, 301, "kworker/0:1", "virtballoon_free_page_report", 990, true, -1);
		t->b[t->n_blocked - 1].stack_why = STACK_PENDING;
	}
	if (k >= 1 && k <= 4)
		task(t, 101, "syncer", "jbd2_log_wait_commit", 1001, false, 0);
	if (k == 2)
		task(t, 102, "syncer2", "jbd2_log_wait_commit", 1002, false, 0);
	if (k == 6 || k == 7)
		task(t, 101, "syncer", "jbd2_log_wait_commit", 1006, false, 0);
	if (k >= 8 && k <= 10)
		task(t, 201, "vforker", "kernel_clone", 1013, false, k == 8 ? -1 : 1);
	if (k == 8)
		t->b[t->n_blocked - 1].stack_why = STACK_PENDING;
}

static const char *
write_recording(void)
{
	static char path[300];
	static uint8_t buf[1 << 20];
	struct sample *s = calloc(1, sizeof(*s)), *prev = calloc(1, sizeof(*prev)), *tmp;
	struct rec_header h;
	struct rec_writer *w;
	char why[300], mark[400];

	snprintf(path, sizeof(path), "%s/hand.ptrec", dir);
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "handmade");
	snprintf(h.release, sizeof(h.release), "6.18.0-test");
	snprintf(h.machine, sizeof(h.machine), "x86_64");
	h.page_size = 4096;
	h.pageblock_order = 9;
	h.cpus = 2;
	h.mem_kb = 1000000;
	h.interval = 1;
	h.start = BASE;
	if (!s || !prev || !(w = rec_writer_open(path, &h, why, sizeof(why)))) {
		printf("Bail out! %s\n", s && prev ? why : "out of memory");
		exit(1);
	}
	for (int k = 0; k < N; k++) {
		bool key = k == 0 || k == 8;
		ssize_t len;

		make(s, k);
		if (k == 8)
			rec_writer_gap(w, BASE + 8, BASE + 12, 5);
		len = codec_encode(s, key ? NULL : prev, buf, sizeof(buf));
		if (len < 0 || rec_writer_sample(w, s->wall, key, buf, (size_t)len) < 0) {
			printf("Bail out! sample %d not written\n", k);
			exit(1);
		}
		if (k == 2)
			rec_writer_mark(w, BASE + 2.5, "mke2fs starts");
		if (k == 9) {
			memset(mark, 'x', sizeof(mark) - 1);
			mark[sizeof(mark) - 1] = '\0';
			memcpy(mark, "a mark longer than a line: ", 27);
			rec_writer_mark(w, BASE + 14.5, mark);
		}
		tmp = prev;
		prev = s;
		s = tmp;
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	free(s);
	free(prev);
	return path;
}

/* The report of samples from..to as text (malloc'd). */
static char *
report_text(const char *path, const char *name, size_t from, size_t to, const struct reasons *rs)
{
	struct feed *fd;
	struct report *rep;
	char why[300], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || !(fd = replay_feed_open(path, why, sizeof(why))) ||
	    !(rep = report_new(fd, rs, name))) {
		printf("Bail out! cannot report on %s\n", path);
		exit(1);
	}
	report_feed(rep, fd, from, to < feed_count(fd) ? to : feed_count(fd) - 1);
	report_print(rep, f);
	fclose(f);
	report_free(rep);
	feed_close(fd);
	return text;
}

static void
collapse(char *s)
{
	/* Blanks squeezed and leading ones dropped: table lines compare
	 * without their padding. */
	char *d = s;

	for (char *p = s; *p; p++)
		if (*p != ' ' || (d > s && d[-1] != ' '))
			*d++ = *p;
	*d = '\0';
}

/* The first line of text that starts with prefix, both collapsed; "". */
static const char *
line_of(const char *text, const char *prefix)
{
	static char line[300];
	char want[300];

	snprintf(want, sizeof(want), "%s", prefix);
	collapse(want);
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		collapse(line);
		if (strncmp(line, want, strlen(want)) == 0)
			return line;
		p += len + (p[len] == '\n');
	}
	return "";
}

/* The widest line, in bytes. */
static size_t
widest(const char *text)
{
	size_t w = 0;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");

		w = len > w ? len : w;
		p += len + (p[len] == '\n');
	}
	return w;
}

/* The report as TAP comments, to see what failed. */
static void
show(const char *text)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");

		printf("# %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

static void
check_line(const char *text, const char *prefix, const char *want, const char *what)
{
	tap_eq_str(line_of(text, prefix), want, "%s", what);
}

/* The report's text as one line: wrapping and padding squeezed out. */
static void
flatten(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == '\n')
			*p = ' ';
	collapse(s);
}

/*
 * Issue 12, item 15: six ways of blocking new in one sample (the journal
 * thread first, then the fsync waiting on it, and four more). The Events
 * list named only the first (jbd2); now each, four of them, and how many
 * more, and the count is of the ways.
 */
static void
check_many_ways(const struct reasons *rs)
{
	static const char *const commit[] = { "jbd2_journal_commit_transaction", "kjournald2",
					      "kthread", NULL };
	static const char *const fsync[] = { "jbd2_log_wait_commit", "ext4_sync_file",
					     "do_fsync", NULL };
	static const char *const other[4][2] = { { "wait_a", NULL }, { "wait_b", NULL },
						 { "wait_c", NULL }, { "wait_d", NULL } };
	static char path[300];
	static uint8_t buf[1 << 20];
	struct sample *s = calloc(2, sizeof(*s));
	struct rec_header h;
	struct rec_writer *w;
	char why[300], *text;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/ways.ptrec", dir);
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "handmade");
	h.page_size = 4096;
	h.interval = 1;
	h.start = BASE;
	if (!s || !(w = rec_writer_open(path, &h, why, sizeof(why)))) {
		printf("Bail out! %s\n", s ? why : "out of memory");
		exit(1);
	}
	for (int k = 0; k < 2; k++) {
		struct tasks *t = &s[k].tasks;

		for (int src = 0; src < SRC_COUNT; src++)
			s[k].status[src].err = SRC_NOT_READ;
		s[k].status[SRC_TASKS].err = 0;
		s[k].wall = BASE + k;
		s[k].mono = 1000 + k;
		s[k].page_size = 4096;
		t->total = 100;
		if (k == 0)
			continue;
		tasks_stacks_clear(t);
		stack_put(t, commit, "jbd2");
		stack_put(t, fsync, "jbd2");
		for (int i = 0; i < 4; i++)
			stack_put(t, other[i], "");
		task(t, 300, "jbd2/vda1-8", "kjournald2", 1000.5, false, 0);
		task(t, 400, "fsync-test", "jbd2_log_wait_commit", 1000.5, false, 1);
		task(t, 401, "fsync-test", "jbd2_log_wait_commit", 1000.5, false, 1);
		for (int i = 0; i < 4; i++)
			task(t, 500 + i, "other", "", 1000.5, false, 2 + i);
	}
	for (int k = 0; k < 2; k++) {
		len = codec_encode(&s[k], k ? &s[0] : NULL, buf, sizeof(buf));
		if (len < 0 || rec_writer_sample(w, s[k].wall, k == 0, buf, (size_t)len) < 0) {
			printf("Bail out! sample %d not written\n", k);
			exit(1);
		}
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	free(s);
	text = report_text(path, path, 0, 1, rs);
	flatten(text);
	tap_ok(strstr(text, "Events: 1 (0 memory pressure past 10%, 0 reclaim stalls beginning, "
			    "6 tasks blocked a new way)") != NULL,
	       "many ways: the count is of the ways blocked anew, 6");
	tap_ok(strstr(text, "22:13:21.000 jbd2/vda1-8 blocked: ") != NULL &&
	       strstr(text, "; fsync-test blocked: waiting for the ext4 journal to commit; "
		      "other blocked: ") != NULL,
	       "many ways: the journal thread and the fsync, both named");
	tap_ok(strstr(text, ", and 2 more blocked new ways") != NULL,
	       "many ways: four named, then how many more");
	if (tap_failed)
		show(text);
	free(text);
}

int
main(void)
{
	static struct reasons rs;
	char why[300], longname[301];
	const char *path;
	char *text;

	setenv("TZ", "UTC", 1);
	tzset();
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	if (reasons_load(&rs, DATADIR_SRC "/wait-reasons", "/nonexistent", why, sizeof(why)) < 0)
		printf("Bail out! %s\n", why);
	check_many_ways(&rs);
	path = write_recording();
	memset(longname, 'd', 300);
	longname[300] = '\0';
	memcpy(longname, "/a/path/longer/than/a/line/", 27);

	text = report_text(path, longname, 0, N - 1, &rs);
	tap_ok(widest(text) <= 78, "every line within 78 columns, with a long path and a long "
	       "mark (widest %zu)", widest(text));
	check_line(text, "Host:", "Host: handmade, Linux 6.18.0-test x86_64, 2 CPUs, 1000000 kB, "
		   "page size", "the host's facts, as dump --info says them");
	check_line(text, "Time:", "Time: 2023-11-14 22:13:20.000 to 22:13:56.000 (36s)",
		   "the time range, the date once");
	check_line(text, "Samples:", "Samples: 13, one every 1s", "the samples and the interval");
	check_line(text, "Gaps:", "Gaps: 22:13:28.000 to 22:13:32.000: 5 samples lost, the recorder fell", "the gap the recorder wrote down");
	check_line(text, "22:13:35.000 to", "22:13:35.000 to 22:13:55.000: no samples for 20s",
		   "a pause with no gap written down (the one around the gap is not repeated)");

	check_line(text, "  memory some", "memory some 25.00% 42.50% 22:13:23.000",
		   "PSI memory some: mean from the totals, peak avg10 and when");
	check_line(text, "  memory full", "memory full 10.00% 7.77% 22:13:25.000", "PSI memory full");
	check_line(text, "  io some", "io some 0.00% 0.00% -", "PSI io some: never, no time");

	check_line(text, "  pgscan_kswapd", "pgscan_kswapd pages 600 200/s 22:13:22.000",
		   "pgscan_kswapd: total across the gap, not across the reset; its peak rate");
	check_line(text, "  pgsteal_kswapd", "pgsteal_kswapd pages 300 100/s 22:13:22.000",
		   "pgsteal_kswapd likewise");
	check_line(text, "  allocstall", "allocstall stalls 6 3/s 22:13:24.000",
		   "allocstall: the per-zone counters summed; the first of two equal peaks");
	check_line(text, "  compact_stall", "compact_stall stalls 0 0/s -", "a counter that never moved");
	check_line(text, "  kswapd reclaim", "kswapd reclaim took 50.0% of the pages it scanned",
		   "kswapd efficiency from the totals");

	check_line(text, "  Node 0, zone Normal:", "Node 0, zone Normal: worst at 22:13:26.000: highest "
		   "free order 7, unusable", "Normal: the worst moment breaks the tie on order 7 "
		   "by the unusable index at 3");
	check_line(text, "    index 1.000", "index 1.000 at order 9, 0.668 at 3, 0.534 at 2",
		   "... its indices, the kernel's arithmetic");
	{
		const char *z = strstr(text, "zone Normal:");

		check_line(z ? z : "", "    start", "start 100 50 40 30 20 10 5 4 3 2 1",
			   "Normal: the buddyinfo row at the start");
		check_line(z ? z : "", "    worst", "worst 600 100 50 20 5 2 1 1 0 0 0",
			   "... at the worst moment");
		check_line(z ? z : "", "    end", "end 100 50 40 30 20 10 5 4 3 2 1", "... at the end");
	}
	check_line(text, "  Node 0, zone DMA32:", "Node 0, zone DMA32: worst at 22:13:20.000: highest "
		   "free order 10, unusable", "DMA32 never changed: its worst is the first moment");

	check_line(text, "Blocked tasks", "Blocked tasks (state D) by stack: 3 groups, 4 tasks, 16s "
		   "blocked in all", "blocked tasks: groups, distinct tasks, time");
	check_line(text, "      1      10s", "1 10s 10s+ other: virtio balloon: reporting free pages to the",
		   "the longest group first; blocked before the start: at least");
	check_line(text, "      2     4.0s", "2 4.0s 3.0s journal: waiting for the ext4 journal to "
		   "commit", "the journal group: two tasks, three spells, the longest 3 s");
	check_line(text, "        longest: syncer", "longest: syncer (tid 101), 3.0s until "
		   "22:13:24.000, in:", "... its longest task and when");
	check_line(text, "          jbd2_log_wait_commit", "jbd2_log_wait_commit [jbd2]",
		   "... and its stack, with the module");
	check_line(text, "      1     2.0s", "1 2.0s 2.0s vfork: parent waiting for its vfork child "
		   "to exec", "a stack read a tick late joins its stack's group");
	/* Issue 12, item 13: it said "(it needs root)" of a recording made as root. */
	tap_ok(strstr(text, "no kernel stack recorded: not read yet when sampled (a task that\n"
			    "          wakes within a tick never is); wchan virtballoon_free_page_report\n") != NULL &&
	       strstr(text, "needs root") == NULL,
	       "a group without a stack says why: not read before it woke, not root");

	check_line(text, "Events:", "Events: 7 (2 memory pressure past 10%, 2 reclaim stalls "
		   "beginning, 3 tasks", "events: what n/N in replay finds");
	check_line(text, "  22:13:22.000", "22:13:22.000 memory pressure past 10% (PSI some avg10 12.00%)",
		   "... memory pressure rising");
	check_line(text, "  22:13:24.000", "22:13:24.000 direct reclaim or compaction stalls begin",
		   "... stalls beginning");
	check_line(text, "  22:13:21.000", "22:13:21.000 syncer blocked: waiting for the ext4 journal to "
		   "commit", "... a task blocked a new way");
	check_line(text, "Marks:", "Marks: 2", "two marks");
	check_line(text, "  22:13:22.500  mke2fs", "22:13:22.500 mke2fs starts", "... with their times");
	check_line(text, "22:13:34.500 a mark longer", "22:13:34.500 a mark longer than a line:",
		   "... a long one wrapped at its blank");
	if (tap_failed)
		show(text);
	free(text);

	/* Samples 3 to 8 only: 22:13:23.000 to 22:13:33. */
	text = report_text(path, path, 3, 8, &rs);
	check_line(text, "Time:", "Time: 2023-11-14 22:13:23.000 to 22:13:33.000 (10s), of a recording "
		   "from", "narrowed: the range, and the recording's");
	check_line(text, "Samples:", "Samples: 6, one every 1s", "narrowed: 6 samples");
	check_line(text, "  pgscan_kswapd", "pgscan_kswapd pages 200 33/s 22:13:33.000",
		   "narrowed: the total and peak within the range (200 pages over the 6 s gap)");
	check_line(text, "  memory some", "memory some 25.00% 42.50% 22:13:23.000",
		   "narrowed: the peak on its first sample");
	check_line(text, "Gaps:", "Gaps: 22:13:28.000 to 22:13:32.000: 5 samples lost, the recorder fell", "narrowed: the gap inside the range");
	check_line(text, "Marks:", "Marks: none", "narrowed: the marks outside left out");
	check_line(text, "  Node 0, zone Normal:", "Node 0, zone Normal: worst at 22:13:26.000: highest "
		   "free order 7, unusable", "narrowed: the same worst moment");
	check_line(text, "Blocked tasks", "Blocked tasks (state D) by stack: 2 groups, 2 tasks, "
		   "4.0s blocked in all", "narrowed: the spells seen in the range (the vfork "
		   "parent's stack not read yet)");
	tap_ok(widest(text) <= 78, "narrowed: every line within 78 columns");
	free(text);

	/* The same samples to the end: the pause and the last mark are in. */
	text = report_text(path, path, 9, N - 1, &rs);
	check_line(text, "Gaps:", "Gaps: 22:13:35.000 to 22:13:55.000: no samples for 20s",
		   "from sample 9: only the pause");
	check_line(text, "Marks:", "Marks: 1", "from sample 9: the last mark");
	check_line(text, "  pgscan_kswapd", "pgscan_kswapd pages 100 100/s 22:13:35.000",
		   "from sample 9: the reset is the first sample, nothing lost");
	free(text);

	unlink(path);
	rmdir(dir);
	return tap_done();
}
