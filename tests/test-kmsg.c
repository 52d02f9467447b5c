/*
 * Kernel log events: the /dev/kmsg record parser, the text as it reads, the
 * event table and its patterns, and the source that makes events of real
 * kernel messages (tests/fixtures/kmsg: this machine's own captures of a
 * hung task, a memcg OOM kill and a vmalloc failure on 6.18, and logs of
 * older kernels turned into /dev/kmsg records; SOURCES.md says which), fed
 * whole, in pieces of every size, cut at every byte, with userspace lines
 * and other callers' lines in the middle, over ticks through a pipe.
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
	test_ticks();
	test_brief();
	return tap_done();
}
