/*
 * Kernel log events: the /dev/kmsg record parser, the text as it reads, the
 * event table and its patterns, and the source that makes events of real
 * kernel messages (tests/fixtures/kmsg: this machine's own captures of a
 * hung task, a memcg OOM kill and a vmalloc failure on 6.18, and logs of
 * older kernels turned into /dev/kmsg records; SOURCES.md says which), fed
 * whole, in pieces of every size, cut at every byte, with userspace lines
 * and other callers' lines in the middle, over ticks through a pipe; the
 * block layer's, JBD2's and ext4's error lines of 2.6 to 6.18 (an ENOSPC
 * under a loop device captured here) with their devices; identical lines
 * within a second counted as one event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "source/kmsg-rules.h"
#include "source/kmsg-source.h"
#include "parse/kmsg.h"
#include "tap.h"

static struct kmsg_rules rules;
static struct kmsg_sample out;

static void
test_record(void)
{
	struct kmsg_record r;
	struct parse_error err;
	const char *l = "3,363,9774470393,-;INFO: task sh:30810 blocked for more than 2 seconds.";
	const char *d = "6,160,424069,-;pci_root PNP0A03:00: host bridge window\n SUBSYSTEM=acpi\n"
	    " DEVICE=+acpi:PNP0A03:00\n";
	static const char *const bad[] = {
		"no semicolon here", "x,1,2,-;a", "6,,2,-;a", "6,1,2,;a", "6,1;a", "6,1,2;a",
		"6,1,2,-,caller=Tx;a", "6,1,2,-,caller=C99999999999;a", "-6,1,2,-;a",
		"4294967296,1,2,-;a", "6,1,2,-;a\nnot a dictionary line", "6,1,2,-;a\n KEYnovalue",
		"", ";", "6,18446744073709551616,2,-;a",
	};

	tap_ok(kmsg_record_parse(l, strlen(l), &r, &err) == 0, "a hung-task record parses");
	tap_eq_int(r.facility, 0, "... facility 0: the kernel's");
	tap_eq_int(r.level, 3, "... level 3 (err)");
	tap_eq_u64(r.seq, 363, "... sequence number");
	tap_eq_u64(r.ts_us, 9774470393ULL, "... timestamp in microseconds");
	tap_eq_int(r.flag, '-', "... flag");
	tap_ok(r.text.len == strlen(l) - 19 && memcmp(r.text.s, l + 19, r.text.len) == 0,
	       "... text after the ';'");
	tap_ok(!r.has_caller, "... no caller");

	tap_ok(kmsg_record_parse("12,646,10345940648,-;vim: page allocation failure", 48, &r, &err) == 0 &&
	       r.facility == 1 && r.level == 4, "a line written from userspace: facility 1 (user)");
	tap_ok(kmsg_record_parse(d, strlen(d), &r, &err) == 0 && r.text.len == 39,
	       "dictionary lines after the text are taken and ignored");
	tap_ok(kmsg_record_parse("6,339,5140900,-,caller=T1234;x", 30, &r, &err) == 0 && r.has_caller &&
	       r.caller == 1234, "caller=T1234: a thread");
	tap_ok(kmsg_record_parse("6,339,5140900,-,caller=C3;x", 27, &r, &err) == 0 && r.has_caller &&
	       r.caller == (0x80000000u | 3), "caller=C3: a CPU");
	tap_ok(kmsg_record_parse("6,339,5140900,-,future=1;x", 26, &r, &err) == 0 && !r.has_caller,
	       "an unknown field of a later kernel is skipped");
	tap_ok(kmsg_record_parse("4,100,7,c;swapper/12: ", 22, &r, &err) == 0 && r.flag == 'c',
	       "an old kernel's fragment flag");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = kmsg_record_parse(bad[i], strlen(bad[i]), &r, &err);

		if (!tap_ok(rc == -EINVAL && err.msg[0], "malformed record %zu is refused: %s", i,
			    err.msg))
			printf("#   rc %d\n", rc);
	}
	kmsg_record_parse("6,1,2,-;a\nnot a dictionary line", 31, &r, &err);
	tap_eq_int(err.line, 2, "... the line that is wrong");
}

/* Each prefix of a record parses exactly when it reaches the ';'. */
static int
parse_ctx(const char *buf, size_t len, void *ctx)
{
	struct kmsg_record r;

	(void)ctx;
	return kmsg_record_parse(buf, len, &r, NULL);
}

static void
test_truncations(void)
{
	const char *l = "4,581,9841207300,-,caller=T1976;fdgrow: vmalloc error: size 249856";
	size_t semi = (size_t)(strchr(l, ';') - l), wrong = 0;

	for (size_t k = 0; k <= strlen(l); k++) {
		char *copy = malloc(k ? k : 1);
		struct kmsg_record r;

		memcpy(copy, l, k);
		if ((kmsg_record_parse(copy, k, &r, NULL) == 0) != (k > semi))
			wrong++;
		free(copy);
	}
	tap_eq_u64(wrong, 0, "every cut of a record: parses exactly when its ';' is in");
	{
		size_t len;
		char *buf = fixture_load("kmsg/vmalloc-failure-6.18-memcg.kmsg", &len);
		char *nl = memchr(buf, '\n', len);
		size_t ok = fixture_damage(buf, (size_t)(nl - buf), parse_ctx, NULL);

		tap_ok(ok > 0, "damaged copies of a real record: no read past the end (%zu parsed)", ok);
		free(buf);
	}
}

static void
test_unescape(void)
{
	char dst[64];
	const char *in = "Mem-Info\\x0a active\\x09x\\x5cy \\x1b[31m\x01\x7f\xc3\xa9 \\x0";
	size_t n = kmsg_unescape((struct span){ in, strlen(in) }, dst, sizeof(dst));

	tap_eq_str(dst, "Mem-Info\n active x\\y \\x1b[31m???? \\x0",
		   "\\x0a a line break, \\x5c a backslash, other escapes kept, control bytes '?'");
	tap_eq_int(n, strlen(dst), "... the length written");
	n = kmsg_unescape((struct span){ "ab\\x1bcd", 8 }, dst, 5);
	tap_eq_str(dst, "ab", "an escape that does not fit whole is left out");
	n = kmsg_unescape((struct span){ "abcdef", 6 }, dst, 4);
	tap_eq_str(dst, "abc", "the text is cut to the buffer, NUL-terminated");
}

static void
test_glob(void)
{
	tap_ok(kmsg_glob("*: page allocation failure: order:*", "vim: page allocation failure: order:4", 37),
	       "glob: a command, then the words");
	tap_ok(kmsg_glob("*: page allocation failure: order:", "a: b: page allocation failure: order:4",
			 38), "glob: a command with ': ' in it");
	tap_ok(!kmsg_glob("INFO: task * blocked for more than", "INFO: task x:1 blocked for more", 31),
	       "glob: the text ends before the pattern");
	tap_ok(kmsg_glob("Killed process", "Killed process 1 (x)", 20), "glob: a prefix of the text");
	tap_ok(!kmsg_glob("Killed process", "Out of memory: Killed process 1", 31),
	       "glob: anchored at the start");
	tap_ok(kmsg_glob("a*b*c", "aXXbYYc", 7) && !kmsg_glob("a*b*c", "aXXbYY", 6),
	       "glob: two stars");
}

static void
test_rules(void)
{
	struct kmsg_rules rs = { 0 };
	struct parse_error err;
	char why[300];
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "oom-kil Killed process *\n", "unknown kind" },
		{ "oom-kill\n", "no pattern" },
		{ "oom-kill    **\n", "matches every message" },
		{ "oom-kill x123456789x123456789x123456789x123456789x123456789x123456789x123456789"
		  "x123456789x123456789x123456789\n", "longer than" },
	};
	char many[KMSG_MAX_RULES * 12 + 20] = "";

	tap_ok(kmsg_rules_load(&rules, DATADIR_SRC "/kmsg-events", NULL, why, sizeof(why)) == 0,
	       "data/kmsg-events loads: %s", why);
	tap_ok(rules.n >= 30, "... with its rules (%d)", rules.n);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rs.n = 0;
		tap_ok(kmsg_rules_parse(bad[i].text, strlen(bad[i].text), false, &rs, &err) == -EINVAL &&
		       strstr(err.msg, bad[i].msg) && err.line == 1, "a bad rule: %s", bad[i].msg);
	}
	for (int i = 0; i <= KMSG_MAX_RULES; i++)
		strcat(many, "other x*\n");
	rs.n = 0;
	tap_ok(kmsg_rules_parse(many, strlen(many), false, &rs, &err) == -EINVAL &&
	       err.line == KMSG_MAX_RULES + 1, "more than %d rules", KMSG_MAX_RULES);

	/* A missing table: the built-in rules, and why. */
	tap_ok(kmsg_rules_load(&rs, "/nonexistent/kmsg-events", NULL, why, sizeof(why)) == -ENOENT &&
	       strstr(why, "built-in") && rs.n >= 8, "a missing table: the built-in rules (%s)", why);
	tap_eq_int(kmsg_rules_match(&rs, "tail invoked oom-killer: gfp_mask=0xcc0", 39), KMSG_OOM_INVOKED,
		   "... which know an OOM");
	/* The user's rules come first. */
	{
		char path[] = "/tmp/pagetop-test-kmsg-XXXXXX";
		int fd = mkstemp(path);
		const char *mine = "# mine\nother INFO: task *\n";

		if (fd < 0 || write(fd, mine, strlen(mine)) != (ssize_t)strlen(mine))
			printf("Bail out! cannot write %s\n", path);
		close(fd);
		kmsg_rules_load(&rs, DATADIR_SRC "/kmsg-events", path, why, sizeof(why));
		tap_eq_int(kmsg_rules_match(&rs, "INFO: task a:1 blocked for more than 2 seconds.", 47),
			   KMSG_OTHER, "a user's rule wins over the table's");
		tap_ok(rs.r[0].user && !rs.r[1].user, "... it is first and marked the user's");
		unlink(path);
	}
}

/* A fixture's events, read whole and flushed. */
static void
events_of(const char *rel)
{
	size_t len;
	char *buf = fixture_load(rel, &len);
	struct kmsg_source *ks = kmsg_source_open(NULL, &rules);

	memset(&out, 0, sizeof(out));
	kmsg_source_feed(ks, buf, len, &out);
	kmsg_source_flush(ks, &out);
	tap_eq_int(kmsg_source_bad(ks, NULL), 0, "%s: every record parses", rel);
	kmsg_source_close(ks);
	free(buf);
}

static void
test_fixtures(void)
{
	const struct kmsg_event *e;

	events_of("kmsg/hung-task-6.18-fsfreeze.kmsg");
	tap_eq_int(out.n, 3, "hung task (6.18): three warnings, three events");
	for (int i = 0; i < out.n && i < 3; i++) {
		e = &out.ev[i];
		tap_ok(e->kind == KMSG_HUNG_TASK && strcmp(e->comm, "sh") == 0 && e->pid == 30810 &&
		       e->seconds == (uint32_t)(2 * (i + 1)) &&
		       (e->has & (KF_COMM | KF_PID | KF_SECONDS)) == (KF_COMM | KF_PID | KF_SECONDS),
		       "... %d: hung-task sh:30810 for %us", i, e->seconds);
		tap_eq_int(e->lines, 46, "... %d: the kernel's 46 lines, stack and registers", i);
	}
	e = &out.ev[0];
	{
		const char *want = "INFO: task sh:30810 blocked for more than 2 seconds.\n      Not tainted "
		    "6.18.44-fc-v669 #1\n\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables";

		tap_ok(strncmp(e->text, want, strlen(want)) == 0,
		       "... the text: the first line, then its continuation lines");
	}
	tap_ok(strstr(e->text, "\n percpu_rwsem_wait+0x15f/0x1d0\n") != NULL, "... with the stack");
	tap_ok(!e->truncated && strlen(e->text) == 1713 && strcmp(e->text + 1713 - 9, "\n </TASK>") == 0,
	       "... whole (1713 bytes), to its last line");
	tap_ok(e->seq == 363 && e->ts_us == 9774470393ULL && e->level == 3, "... its record number, "
	       "time and level");
	tap_ok(!strstr(out.ev[2].text, "EXT4-fs"), "a line 1.4 s after the last one is not part of it");

	events_of("kmsg/oom-memcg-6.18.kmsg");
	tap_eq_int(out.n, 2, "memcg OOM (6.18): invoked, then killed");
	e = &out.ev[0];
	tap_ok(e->kind == KMSG_OOM_INVOKED && strcmp(e->comm, "tail") == 0 && e->order == 0 &&
	       e->gfp == 0xcc0, "... oom-invoked by tail, order 0, gfp 0xcc0");
	tap_ok(strstr(e->text, "\nmemory: usage 65536kB, limit 65536kB, failcnt 19\n") &&
	       e->lines == 77, "... with the stack and the memcg's state (%u lines)", e->lines);
	e = &out.ev[1];
	tap_ok(e->kind == KMSG_OOM_KILL && strcmp(e->comm, "tail") == 0 && e->pid == 32464 &&
	       e->anon_kb == 65280 && e->file_kb == 1676 && e->shmem_kb == 0 && e->lines == 1 &&
	       (e->has & (KF_ANON | KF_FILE | KF_SHMEM)) == (KF_ANON | KF_FILE | KF_SHMEM),
	       "... oom-kill: tail:32464, anon-rss 65280 kB, file-rss 1676 kB, one line");

	events_of("kmsg/vmalloc-failure-6.18-memcg.kmsg");
	tap_eq_int(out.n, 1, "vmalloc failure (6.18): one event");
	e = &out.ev[0];
	tap_ok(e->kind == KMSG_ALLOC_FAILURE && strcmp(e->comm, "fdgrow") == 0 &&
	       e->gfp == 0x400cc2 && !(e->has & KF_ORDER) && e->lines == 71,
	       "... alloc-failure by fdgrow, gfp 0x400cc2, no order, %u lines (\\x0a breaks "
	       "counted)", e->lines);
	tap_ok(e->truncated && strlen(e->text) < KMSG_TEXT_MAX && strlen(e->text) > KMSG_TEXT_MAX - 400 &&
	       e->text[strlen(e->text) - 1] != '\n' && strstr(e->text, "\n warn_alloc+0x147/0x170\n"),
	       "... its 5.6 kB cut to the first %zu bytes, at a whole line", strlen(e->text));

	events_of("kmsg/alloc-failure-4.9-order10.kmsg");
	e = &out.ev[0];
	tap_ok(out.n == 1 && e->kind == KMSG_ALLOC_FAILURE && strcmp(e->comm, "xxxx") == 0 &&
	       e->order == 10 && e->gfp == 0x2084020 && e->lines == 26 && !e->truncated,
	       "4.9: order:10 GFP_ATOMIC failure with its 26 lines");
	tap_ok(strstr(e->text, "\nCPU: 0 PID: 179 Comm: AiApp") && strstr(e->text, "\nMem-Info:\n"),
	       "... CPU line and Mem-Info kept");

	events_of("kmsg/alloc-failure-3.18-order4.kmsg");
	e = &out.ev[0];
	tap_ok(out.n == 1 && strcmp(e->comm, "a.out") == 0 && e->order == 4 && e->gfp == 0x2080d0,
	       "3.18: a.out order:4 mode:0x2080d0");

	events_of("kmsg/alloc-failure-2.6.32-order1.kmsg");
	e = &out.ev[0];
	tap_ok(out.n == 1 && strcmp(e->comm, "glusterfsd") == 0 && e->order == 1 && e->gfp == 0x20,
	       "2.6.32: \"page allocation failure. order:1, mode:0x20\"");

	events_of("kmsg/oom-kill-5.x-global.kmsg");
	tap_eq_int(out.n, 4, "5.x global OOM: two kills, two reaps");
	tap_ok(out.ev[0].kind == KMSG_OOM_KILL && out.ev[0].pid == 15784 &&
	       strcmp(out.ev[0].comm, "python3") == 0 && out.ev[0].anon_kb == 4288 &&
	       out.ev[0].file_kb == 3028, "... python3:15784 killed");
	tap_ok(out.ev[1].kind == KMSG_OOM_REAPED && out.ev[1].pid == 15784 &&
	       strcmp(out.ev[1].comm, "python3") == 0, "... and reaped");
	tap_ok(strcmp(out.ev[2].comm, "(resolved)") == 0 && strcmp(out.ev[3].comm, "(resolved)") == 0,
	       "... a command named \"(resolved)\", parentheses and all");

	events_of("kmsg/oom-kill-old-formats.kmsg");
	tap_eq_int(out.n, 3, "older OOM lines: three kills (\"Kill process ... or sacrifice child\" is not one)");
	tap_ok(strcmp(out.ev[0].comm, "R") == 0 && out.ev[0].pid == 27438 && out.ev[0].anon_kb == 1041924,
	       "... \"Killed process 27438 (R) total-vm:...\"");
	tap_ok(strcmp(out.ev[1].comm, "node") == 0 && out.ev[1].pid == 799153,
	       "... \"Killed process 799153 (node), UID 1000, ...\"");
	tap_ok(strcmp(out.ev[2].comm, "mysqld") == 0 && out.ev[2].pid == 11726 &&
	       out.ev[2].file_kb == 768 && !(out.ev[2].has & KF_SHMEM),
	       "... \"Killed process 11726, UID 498, (mysqld) ...\", no shmem-rss");

	events_of("kmsg/userspace-injected-6.18.kmsg");
	tap_eq_int(out.n, 0, "lines written into /dev/kmsg from userspace (facility 1, 3): no event");
}

/* The first fixture cut at every byte: exactly the complete headers are events. */
static void
test_every_cut(void)
{
	size_t len, wrong = 0, sizes_wrong = 0;
	char *buf = fixture_load("kmsg/hung-task-6.18-fsfreeze.kmsg", &len);
	struct kmsg_sample whole;

	for (size_t cut = 0; cut <= len; cut++) {
		struct kmsg_source *ks = kmsg_source_open(NULL, &rules);
		char *copy = malloc(cut ? cut : 1);
		int want = 0;

		memcpy(copy, buf, cut);
		/* The rule matches once "blocked for more than " is in. */
		for (const char *p = copy; (p = memmem(p, cut - (size_t)(p - copy), "blocked for more than ",
						       22)); p++)
			want++;
		memset(&out, 0, sizeof(out));
		kmsg_source_feed(ks, copy, cut, &out);
		kmsg_source_flush(ks, &out);
		wrong += out.n != want;
		kmsg_source_close(ks);
		free(copy);
	}
	tap_eq_u64(wrong, 0, "cut at each of %zu bytes: an event for each whole first line", len + 1);

	/* In pieces of every size: the same events. */
	events_of("kmsg/hung-task-6.18-fsfreeze.kmsg");
	whole = out;
	for (size_t step = 1; step <= 300; step++) {
		struct kmsg_source *ks = kmsg_source_open(NULL, &rules);

		memset(&out, 0, sizeof(out));
		for (size_t at = 0; at < len; at += step)
			kmsg_source_feed(ks, buf + at, len - at < step ? len - at : step, &out);
		kmsg_source_flush(ks, &out);
		if (out.n != whole.n)
			sizes_wrong++;
		for (int i = 0; i < out.n && i < whole.n; i++)
			if (strcmp(out.ev[i].text, whole.ev[i].text) != 0 || out.ev[i].lines != whole.ev[i].lines)
				sizes_wrong++;
		kmsg_source_close(ks);
	}
	tap_eq_u64(sizes_wrong, 0, "fed in pieces of 1 to 300 bytes: the same events, the same text");
	free(buf);
}

static void
feed_str(struct kmsg_source *ks, const char *s)
{
	kmsg_source_feed(ks, s, strlen(s), &out);
}

static void
test_assembly(void)
{
	struct kmsg_source *ks;
	const char *first;
	uint32_t nbad;

	/* Userspace lines in the middle of a real event: neither events nor its lines. */
	ks = kmsg_source_open(NULL, &rules);
	memset(&out, 0, sizeof(out));
	feed_str(ks, "3,363,9774470393,-;INFO: task sh:30810 blocked for more than 2 seconds.\n"
		 "12,364,9774470400,-;vim: page allocation failure: order:4, mode:0x40dc0\n"
		 "12,365,9774470410,-;INFO: task evil:666 blocked for more than 999 seconds.\n"
		 "8,366,9774470420,-;Out of memory: Killed process 1 (init) total-vm:1kB\n"
		 "3,367,9774471808,-;      Not tainted 6.18.44-fc-v669 #1\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].lines == 2 && !strstr(out.ev[0].text, "vim") &&
	       !strstr(out.ev[0].text, "evil") && !strstr(out.ev[0].text, "init"),
	       "injected lines inside a kernel event: not events, not in its text");
	kmsg_source_close(ks);

	/* With caller ids: another task's lines are not the event's. */
	ks = kmsg_source_open(NULL, &rules);
	memset(&out, 0, sizeof(out));
	feed_str(ks, "4,10,1000,-,caller=T5;vim: page allocation failure: order:4, mode:0x40dc0\n"
		 "6,11,1001,-,caller=T9;e1000e: eth0 NIC Link is Up\n"
		 "4,12,1002,-,caller=T5;CPU: 1 PID: 5 Comm: vim\n"
		 "4,13,1003,-,caller=T5;Call Trace:\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].lines == 3 && !strstr(out.ev[0].text, "e1000e") &&
	       out.ev[0].pid == 0 && strcmp(out.ev[0].comm, "vim") == 0,
	       "caller=T5's event keeps T5's lines only");
	kmsg_source_close(ks);

	/* A line 2 s later is not a continuation; an old kernel's '+' fragment is. */
	ks = kmsg_source_open(NULL, &rules);
	memset(&out, 0, sizeof(out));
	feed_str(ks, "4,10,1000000,c;vim: page allocation failure: order:4\n"
		 "4,11,1000010,+;, mode:0x40dc0\n"
		 "4,12,3000010,-;much later\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].lines == 1 && out.ev[0].gfp == 0x40dc0 &&
	       strcmp(out.ev[0].text, "vim: page allocation failure: order:4, mode:0x40dc0") == 0,
	       "a '+' fragment completes the first line (and its fields); 2 s later is another story");
	kmsg_source_close(ks);

	/* More than KMSG_MAX_EVENTS at once: the rest counted; a gap: lost records. */
	ks = kmsg_source_open(NULL, &rules);
	memset(&out, 0, sizeof(out));
	for (int i = 0; i < KMSG_MAX_EVENTS + 4; i++) {
		char l[128];

		snprintf(l, sizeof(l), "3,%d,%d,-;Out of memory: Killed process %d (x) total-vm:1kB\n",
			 100 + i + (i >= 10 ? 7 : 0), 1000 + i, i);
		feed_str(ks, l);
	}
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == KMSG_MAX_EVENTS && out.dropped == 4, "%d events in one tick: %d kept, 4 counted",
	       KMSG_MAX_EVENTS + 4, KMSG_MAX_EVENTS);
	tap_eq_int(out.lost, 7, "a gap of 7 in the record numbers: 7 records lost");
	kmsg_source_close(ks);

	/* Damage: a line too long and a line that is no record; the rest goes on. */
	ks = kmsg_source_open(NULL, &rules);
	memset(&out, 0, sizeof(out));
	{
		char *big = malloc(40000);

		memset(big, 'a', 39999);
		big[39999] = '\n';
		kmsg_source_feed(ks, big, 40000, &out);
		free(big);
	}
	feed_str(ks, "garbage\n3,1,2,-;Killed process 5 (y) total-vm:1kB\n");
	kmsg_source_flush(ks, &out);
	nbad = kmsg_source_bad(ks, &first);
	tap_ok(nbad == 2 && strstr(first, "longer than") && out.n == 1 &&
	       out.ev[0].pid == 5, "a 40 kB line and garbage: counted (%s), the next record read", first);
	kmsg_source_close(ks);
}

/* One event of out by its first line's start, or NULL. */
static const struct kmsg_event *
event_starting(const char *start)
{
	for (int i = 0; i < out.n; i++)
		if (strncmp(out.ev[i].text, start, strlen(start)) == 0)
			return &out.ev[i];
	return NULL;
}

/* Each I/O and filesystem error line: its kind, device and command. */
static void
test_io_fs_errors(void)
{
	static const struct {
		const char *text;
		enum kmsg_kind kind;
		const char *dev, *comm;
	} lines[] = {
		/* block/blk-core.c, 6.x and 5.x, 4.x, 3.x */
		{ "I/O error, dev sda, sector 2048 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 2",
		  KMSG_IO_ERROR, "sda", NULL },
		{ "critical space allocation error, dev loop0, sector 40962 op 0x1:(WRITE) flags 0x4800 "
		  "phys_seg 20 prio class 2", KMSG_IO_ERROR, "loop0", NULL },
		{ "timeout error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0",
		  KMSG_IO_ERROR, "nvme0n1", NULL },
		{ "blk_update_request: I/O error, dev sdb, sector 12345 op 0x1:(WRITE) flags 0x800 "
		  "phys_seg 1 prio class 0", KMSG_IO_ERROR, "sdb", NULL },
		{ "blk_update_request: critical medium error, dev sdd, sector 9876543", KMSG_IO_ERROR,
		  "sdd", NULL },
		{ "print_req_error: I/O error, dev sdc, sector 26624", KMSG_IO_ERROR, "sdc", NULL },
		{ "end_request: I/O error, dev sdb, sector 543345847", KMSG_IO_ERROR, "sdb", NULL },
		{ "end_request: critical target error, dev sda, sector 153801552", KMSG_IO_ERROR, "sda",
		  NULL },
		/* fs/buffer.c, fs/iomap, ext4's end_bio */
		{ "Buffer I/O error on dev sde3, logical block 1, lost async page write", KMSG_IO_ERROR,
		  "sde3", NULL },
		{ "Buffer I/O error on device loop0, logical block 20481", KMSG_IO_ERROR, "loop0", NULL },
		{ "lost page write due to I/O error on md0", KMSG_IO_ERROR, "md0", NULL },
		{ "sde4: writeback error on inode 4240163, offset 0, sector 47427584", KMSG_IO_ERROR,
		  "sde4", NULL },
		{ "EXT4-fs warning (device loop0): ext4_end_bio:368: I/O error 3 writing to inode 12 "
		  "starting block 21761)", KMSG_IO_ERROR, "loop0", NULL },
		/* fs/jbd2 */
		{ "Aborting journal on device sda1-8.", KMSG_FS_ERROR, "sda1-8", NULL },
		{ "JBD2: I/O error when updating journal superblock for sde2-8.", KMSG_FS_ERROR, "sde2-8",
		  NULL },
		{ "JBD2: I/O error detected when updating journal superblock for sdb1-8.", KMSG_FS_ERROR,
		  "sdb1-8", NULL },
		{ "JBD2: Error -5 detected when updating journal superblock for dm-0-8.", KMSG_FS_ERROR,
		  "dm-0-8", NULL },
		{ "JBD2: Detected IO errors while flushing file data on dm-0-8", KMSG_FS_ERROR, "dm-0-8",
		  NULL },
		{ "JBD2: Detected IO errors -5 while flushing file data on vda-8", KMSG_FS_ERROR, "vda-8",
		  NULL },
		{ "JBD2: IO error reading journal superblock", KMSG_FS_ERROR, NULL, NULL },
		/* fs/ext4 */
		{ "EXT4-fs error (device loop0): ext4_journal_check_start:87: comm touch: Detected "
		  "aborted journal", KMSG_FS_ERROR, "loop0", "touch" },
		{ "EXT4-fs error (device dm-0) in ext4_iomap_alloc:3320: IO failure", KMSG_FS_ERROR,
		  "dm-0", NULL },
		{ "EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: comm ls: reading "
		  "directory lblock 0", KMSG_FS_ERROR, "sda1", "ls" },
		{ "EXT4-fs (loop0): Remounting filesystem read-only", KMSG_FS_ERROR, "loop0", NULL },
		{ "EXT4-fs (dm-0): I/O error while writing superblock", KMSG_FS_ERROR, "dm-0", NULL },
		/* Not errors */
		{ "EXT4-fs (loop0): mounted filesystem c724b589 r/w with ordered data mode.", -1, NULL,
		  NULL },
		{ "JBD2: Invalid checksum recovering block 1 in log", -1, NULL, NULL },
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct kmsg_event e;
		int kind = kmsg_rules_match(&rules, lines[i].text, strlen(lines[i].text));
		bool ok;

		memset(&e, 0, sizeof(e));
		if (kind >= 0)
			kmsg_fields((enum kmsg_kind)kind, lines[i].text, strlen(lines[i].text), &e);
		ok = kind == (int)lines[i].kind &&
		    (lines[i].dev ? (e.has & KF_DEV) && strcmp(e.dev, lines[i].dev) == 0 :
				    !(e.has & KF_DEV)) &&
		    (lines[i].comm ? (e.has & KF_COMM) && strcmp(e.comm, lines[i].comm) == 0 :
				     !(e.has & KF_COMM));
		if (!tap_ok(ok, "%s%s%s: \"%.40s\"", kind >= 0 ? kmsg_kind_name(kind) : "no event",
			    lines[i].dev ? " on " : "", lines[i].dev ? lines[i].dev : "", lines[i].text))
			printf("#   kind %d, dev \"%s\" (has %#x), comm \"%s\"\n", kind, e.dev, e.has, e.comm);
	}
	tap_eq_str(kmsg_kind_name(KMSG_FS_ERROR), "fs-error", "the new kind's name");
	tap_eq_int(kmsg_kind_parse("fs-error", 8), KMSG_FS_ERROR, "... and back");
	tap_eq_int(KMSG_FS_ERROR, 11, "... number 11, after the kinds there were (recorded)");
	{
		struct kmsg_rules rs = { 0 };

		kmsg_rules_builtin(&rs);
		tap_ok(kmsg_rules_match(&rs, "Aborting journal on device sda1-8.", 34) == KMSG_FS_ERROR &&
		       kmsg_rules_match(&rs, "I/O error, dev sda, sector 8 op 0x1:(WRITE)", 43) ==
			   KMSG_IO_ERROR, "the built-in rules know a journal abort and a block error");
	}

	/* Captured here: ext4 on a loop device over a full tmpfs. */
	events_of("kmsg/ext4-enospc-6.18-loop.kmsg");
	{
		const struct kmsg_event *e = event_starting("EXT4-fs (loop0): failed to convert");

		tap_eq_int(out.n, KMSG_MAX_EVENTS, "6.18 ENOSPC under a loop: %d events kept", KMSG_MAX_EVENTS);
		tap_ok(e && e->kind == KMSG_FS_ERROR && e->count == 7 && e->level == 0 &&
		       strcmp(e->dev, "loop0") == 0 && e->seq == 3800,
		       "... its 7 identical \"failed to convert\" lines in 52 ms: one fs-error on loop0, "
		       "count 7, the first's record");
		tap_eq_int(out.dropped, 15, "... the 15 other events past them counted as dropped");
		e = event_starting("critical space allocation error, dev loop0, sector 40962");
		tap_ok(e && e->kind == KMSG_IO_ERROR && e->count == 1 && strcmp(e->dev, "loop0") == 0,
		       "... the block layer's ENOSPC: io-error on loop0");
	}
	{
		size_t len;
		char *buf = fixture_load("kmsg/ext4-enospc-6.18-loop.kmsg", &len);
		const char *from = strstr(buf, "3,3824,");
		struct kmsg_source *ks = kmsg_source_open(NULL, &rules);
		const struct kmsg_event *e;

		memset(&out, 0, sizeof(out));
		kmsg_source_feed(ks, from, len - (size_t)(from - buf), &out);
		kmsg_source_flush(ks, &out);
		tap_eq_int(out.n, 3, "... then: the abort, the touch, the remount (not the unmount)");
		e = &out.ev[0];
		tap_ok(e->kind == KMSG_FS_ERROR && strcmp(e->dev, "loop0-8") == 0 && e->level == 3,
		       "... \"Aborting journal on device loop0-8.\": fs-error on loop0-8");
		e = &out.ev[1];
		tap_ok(e->kind == KMSG_FS_ERROR && strcmp(e->dev, "loop0") == 0 &&
		       strcmp(e->comm, "touch") == 0, "... EXT4-fs error: loop0, by touch");
		kmsg_source_close(ks);
		free(buf);
	}

	events_of("kmsg/io-fs-errors-old-formats.kmsg");
	{
		int io = 0, fs = 0;

		for (int i = 0; i < out.n; i++) {
			io += out.ev[i].kind == KMSG_IO_ERROR;
			fs += out.ev[i].kind == KMSG_FS_ERROR;
		}
		/* A repeat of an event not kept is not kept either: 28 lines, 12 dropped. */
		tap_ok(out.n == 16 && out.dropped == 12, "2.6 to 6.x error lines: %d events, %u past 16",
		       out.n, out.dropped);
		tap_ok(io == 8 && fs == 8, "... the first 16: 8 io-error, 8 fs-error (%d, %d)", io, fs);
	}
	/* The last seven lines alone: interleaved repeats, then one 2 s later. */
	{
		size_t len;
		char *buf = fixture_load("kmsg/io-fs-errors-old-formats.kmsg", &len);
		const char *from = strstr(buf, "3,1222,");
		struct kmsg_source *ks = kmsg_source_open(NULL, &rules);

		memset(&out, 0, sizeof(out));
		kmsg_source_feed(ks, from, len - (size_t)(from - buf), &out);
		kmsg_source_flush(ks, &out);
		tap_ok(out.n == 3 && out.ev[0].count == 3 && out.ev[1].count == 3 && out.ev[2].count == 1 &&
		       out.ev[0].kind == KMSG_IO_ERROR && strcmp(out.ev[0].dev, "mmcblk0") == 0 &&
		       strcmp(out.ev[1].dev, "mmcblk0p3") == 0 && out.ev[2].seq == 1228,
		       "a block error and its buffer's, each 3 times between the other: 2 events of 3; "
		       "the same 2 s later: another");
		kmsg_source_close(ks);
		free(buf);
	}
}

/* Identical lines within a second are one event with a count. */
static void
test_merge(void)
{
	struct kmsg_source *ks = kmsg_source_open(NULL, &rules);
	char l[200], b[160];

	memset(&out, 0, sizeof(out));
	for (int i = 0; i < 50; i++) {
		snprintf(l, sizeof(l), "3,%d,%d,-;Buffer I/O error on dev sdb1, logical block 0, async "
			 "page read\n", 500 + i, 7000000 + i * 19000);
		feed_str(ks, l);
	}
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].count == 50 && out.ev[0].seq == 500 &&
	       out.ev[0].ts_us == 7000000 && out.dropped == 0,
	       "50 identical lines in 0.93 s: one event, count 50, the first's record and time");
	kmsg_event_brief(&out.ev[0], b, sizeof(b));
	tap_eq_str(b, "Buffer I/O error on dev sdb1, logical block 0, async page read (50 times)",
		   "... its brief says how many times");
	kmsg_event_brief(&out.ev[0], b, 24);
	tap_eq_str(b, "Buffer I/O e (50 times)", "... in a short brief too, the text cut first");

	memset(&out, 0, sizeof(out));
	feed_str(ks, "3,600,20000000,-;Aborting journal on device sda1-8.\n"
		 "3,601,22000000,-;Aborting journal on device sda1-8.\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 2 && out.ev[0].count == 1 && out.ev[1].count == 1,
	       "the same line 2 s apart: two events");

	memset(&out, 0, sizeof(out));
	feed_str(ks, "3,700,30000000,-;Buffer I/O error on dev sdb1, logical block 0, async page read\n"
		 "3,701,30000100,-;Buffer I/O error on dev sdb1, logical block 1, async page read\n"
		 "3,702,30000200,-;Buffer I/O error on dev sdb2, logical block 0, async page read\n"
		 "6,703,30000300,-;Buffer I/O error on dev sdb1, logical block 0, async page read\n"
		 "3,704,31000000,-;Buffer I/O error on dev sdb1, logical block 0, async page read\n"
		 "3,705,31000001,-;Buffer I/O error on dev sdb1, logical block 0, async page read\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 4 && out.ev[0].count == 3 && out.ev[1].count == 1 && out.ev[2].count == 1 &&
	       out.ev[3].count == 1 && out.ev[3].seq == 705,
	       "different lines are never one; 1 s after the first still is, 1 s and 1 us is not");
	/* (the level-6 line counts as the same: the kernel's text and kind are) */

	/* A hung task's whole message repeated: merged only when all its lines are the same. */
	memset(&out, 0, sizeof(out));
	feed_str(ks, "3,800,40000000,-;INFO: task sh:1 blocked for more than 2 seconds.\n"
		 "3,801,40000001,-;Call Trace:\n"
		 "3,802,40000002,-;INFO: task sh:1 blocked for more than 2 seconds.\n"
		 "3,803,40000003,-;Call Trace:\n"
		 "3,804,40000004,-;INFO: task sh:1 blocked for more than 2 seconds.\n"
		 "3,805,40000005,-;Call Trace: other\n");
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == 2 && out.ev[0].count == 2 && out.ev[1].count == 1,
	       "a message of several lines: the same whole text merged, another not");

	/* A full tick still counts repeats of the events it holds. */
	memset(&out, 0, sizeof(out));
	for (int i = 0; i < KMSG_MAX_EVENTS + 3; i++) {
		snprintf(l, sizeof(l), "3,%d,%d,-;I/O error, dev sda, sector %d\n", 900 + i,
			 50000000 + i, i < KMSG_MAX_EVENTS ? i : 0);
		feed_str(ks, l);
	}
	kmsg_source_flush(ks, &out);
	tap_ok(out.n == KMSG_MAX_EVENTS && out.dropped == 0 && out.ev[0].count == 4,
	       "a tick of %d events: a repeat of one of them is counted, not dropped", KMSG_MAX_EVENTS);
	kmsg_source_close(ks);

	{
		struct kmsg_sample k = { 0 };
		struct kmsg_event e = { .kind = KMSG_IO_ERROR, .ts_us = 5, .count = 3, .text = "x" };

		tap_ok(!kmsg_source_add(&k, &e) && kmsg_source_add(&k, &e) && k.n == 1 &&
		       k.ev[0].count == 6, "adding a counted event adds its count");
		e.count = 0;
		tap_ok(kmsg_source_add(&k, &e) && k.ev[0].count == 7 && kmsg_event_count(&e) == 1,
		       "count 0 (an event from elsewhere) is once");
	}
}

/* Ticks through a pipe, as the dashboard reads /dev/kmsg. */
static void
test_ticks(void)
{
	int p[2];
	char path[64];
	struct kmsg_source *ks;
	const char *a = "4,10,1000,-;vim: page allocation failure: order:4, mode:0x40dc0\n"
	    "4,11,1001,-;CPU: 1 PID: 5 Comm: vim\n";
	const char *b = "4,12,1002,-;Call Trace:\n";
	const char *c = "3,13,900000000,-;Out of memory: Killed process 7 (z) total-vm:1kB\n";

	if (pipe(p) < 0) {
		printf("Bail out! pipe\n");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	ks = kmsg_source_open(path, &rules);
	memset(&out, 0, sizeof(out));
	kmsg_source_read(ks, &out);
	tap_ok(out.read && out.err == 0 && out.n == 0, "a pipe with nothing in it: read, no event, no wait");
	if (write(p[1], a, strlen(a)) < 0 || write(p[1], b, 10) < 0)
		printf("# write failed\n");
	kmsg_source_read(ks, &out);
	tap_eq_int(out.n, 0, "an event's first lines: not complete on this tick");
	if (write(p[1], b + 10, strlen(b) - 10) < 0)
		printf("# write failed\n");
	kmsg_source_read(ks, &out);
	tap_eq_int(out.n, 0, "... a line came on the next tick (cut in two by the reads): still not");
	kmsg_source_read(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].lines == 3, "... a tick without a line for it: complete, 3 lines");
	if (write(p[1], c, strlen(c)) < 0)
		printf("# write failed\n");
	kmsg_source_read(ks, &out);
	tap_ok(out.n == 1 && out.ev[0].kind == KMSG_OOM_KILL, "a one-line kind: complete on its tick");
	kmsg_source_close(ks);
	close(p[0]);
	close(p[1]);

	ks = kmsg_source_open("/nonexistent/kmsg", &rules);
	kmsg_source_read(ks, &out);
	tap_ok(out.read && out.err == ENOENT && out.n == 0, "a log that cannot be opened: read, with why");
	kmsg_source_close(ks);
}

static void
test_brief(void)
{
	struct kmsg_event e = { .kind = KMSG_HUNG_TASK, .has = KF_COMM | KF_PID | KF_SECONDS,
				.comm = "sh", .pid = 30810, .seconds = 120 };
	char b[128];
	char why[128];

	kmsg_event_brief(&e, b, sizeof(b));
	tap_eq_str(b, "sh:30810 blocked 120s", "brief: a hung task");
	e = (struct kmsg_event){ .kind = KMSG_ALLOC_FAILURE, .has = KF_COMM | KF_ORDER | KF_GFP,
				 .comm = "vim", .order = 4, .gfp = 0x40dc0 };
	kmsg_event_brief(&e, b, sizeof(b));
	tap_eq_str(b, "vim order:4 mode:0x40dc0", "brief: an allocation failure");
	e = (struct kmsg_event){ .kind = KMSG_OOM_KILL, .has = KF_COMM | KF_PID | KF_ANON | KF_FILE,
				 .comm = "tail", .pid = 32464, .anon_kb = 65280, .file_kb = 1676 };
	kmsg_event_brief(&e, b, sizeof(b));
	tap_eq_str(b, "tail:32464 anon 63.8M file 1.6M", "brief: an OOM kill");
	e = (struct kmsg_event){ .kind = KMSG_IO_ERROR, .text = "I/O error, dev vda, sector 8\nmore" };
	kmsg_event_brief(&e, b, sizeof(b));
	tap_eq_str(b, "I/O error, dev vda, sector 8", "brief: no fields: the first line");
	e.ts_us = 100000000;
	tap_ok(kmsg_event_wall(&e, 5000.0, 101.0) == 4999.0, "an event's wall time from the sample's clocks");
	tap_ok(kmsg_event_wall(&e, 5000.0, 900000.0) == 5000.0, "... from another boot: the sample's time");
	kmsg_reason(EPERM, why, sizeof(why));
	tap_ok(strstr(why, "needs root") && strstr(why, "dmesg_restrict"), "EPERM: %s", why);
}

int
main(void)
{
	test_record();
	test_truncations();
	test_unescape();
	test_glob();
	test_rules();
	test_fixtures();
	test_every_cut();
	test_assembly();
	test_io_fs_errors();
	test_merge();
	test_ticks();
	test_brief();
	return tap_done();
}
