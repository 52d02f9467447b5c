/*
 * Kernel stack ids to names (source/probes-syms.c) over a made-up
 * kallsyms: a new stack is named in one pass; a later stack made of
 * addresses already named needs no pass; one with a new address waits for
 * the next pass, which comes after half a second, then after twice as
 * long each time up to 30 s; the probe's own frames
 * are dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/probes-syms.h"
#include "tap.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t bpf_prog_run\n"
	"ffffffff81002000 T __schedule\n"
	"ffffffff81003000 T schedule\n"
	"ffffffff81004000 T io_schedule\n"
	"ffffffff81005000 T folio_wait_bit_common\n"
	"ffffffff81006000 T filemap_fault\n"
	"ffffffff81007000 d some_data\n"
	"ffffffff81008000 T jbd2_log_wait_commit\t[jbd2]\n"
	"ffffffff81009000 T ext4_sync_file\n";

int
main(void)
{
	char path[] = "/tmp/test-probes-syms.XXXXXX";
	int fd = mkstemp(path);
	struct probes_syms *s;
	struct probe_dstack d;
	const uint64_t a[] = { 0xffffffff81001010, 0xffffffff81002020, 0xffffffff81004040,
			       0xffffffff81005050, 0xffffffff81006060 };
	const uint64_t b[] = { 0xffffffff81002020, 0xffffffff81004040, 0xffffffff81006060 };
	const uint64_t c[] = { 0xffffffff81002020, 0xffffffff81008080, 0xffffffff81009090 };
	const uint64_t e[] = { 0xffffffff80000010, 0xffffffff81009090 };
	const uint64_t f[] = { 0xffffffff80000010, 0xffffffff80000020, 0xffffffff80000030 };
	const uint64_t g[] = { 0xffffffff80000040, 0xffffffff80000050, 0xffffffff80000060 };

	if (fd < 0 || write(fd, kallsyms, sizeof(kallsyms) - 1) != (ssize_t)sizeof(kallsyms) - 1) {
		printf("Bail out! cannot write %s\n", path);
		return 1;
	}
	close(fd);
	if (!(s = probes_syms_new(path))) {
		printf("Bail out! out of memory\n");
		return 1;
	}
	tap_eq_int(probes_syms_get(s, 1, a, 5, &d), -1, "a new stack is queued");
	probes_syms_resolve(s);
	tap_eq_int((int)probes_syms_passes(s), 1, "... and named in one pass");
	tap_eq_int(probes_syms_get(s, 1, a, 5, &d), 3, "... without the probe's and scheduler's frames");
	tap_ok(d.stack.n == 3 && strcmp(d.stack.func[0], "io_schedule") == 0 &&
	    strcmp(d.stack.func[1], "folio_wait_bit_common") == 0 &&
	    strcmp(d.stack.func[2], "filemap_fault") == 0,
	    "... innermost first: %s, %s, %s", d.stack.func[0], d.stack.func[1], d.stack.func[2]);
	tap_eq_int(probes_syms_get(s, 2, b, 3, &d), 2,
	    "another stack of addresses already named: named at once");
	tap_eq_int((int)probes_syms_passes(s), 1, "... with no pass over kallsyms");
	tap_eq_int(probes_syms_get(s, 3, c, 3, &d), -1, "a stack with new addresses is queued");
	probes_syms_resolve(s);
	tap_eq_int((int)probes_syms_passes(s), 1, "... and no second pass within half a second");
	tap_eq_int(probes_syms_get(s, 3, c, 3, &d), -1, "... so it is still not known");
	tap_eq_int(d.stack.n, 0, "... and shows no frames rather than wrong ones");

	/* The next pass names it, with a stack of an address kallsyms has
	 * no symbol below (kept as "0x..."); both then come from the cache
	 * as they were named. */
	usleep(600 * 1000);
	tap_eq_int(probes_syms_get(s, 3, c, 3, &d), -1, "after half a second: queued again");
	tap_eq_int(probes_syms_get(s, 4, e, 2, &d), -1, "... with another stack");
	probes_syms_resolve(s);
	tap_eq_int((int)probes_syms_passes(s), 2, "... named in the second pass");
	for (int round = 0; round < 2; round++) {
		tap_ok(probes_syms_get(s, 3, c, 3, &d) == 2 &&
		    strcmp(d.stack.func[0], "jbd2_log_wait_commit") == 0 &&
		    strcmp(d.stack.func[1], "ext4_sync_file") == 0,
		    "stack 3 %s: %s, %s", round ? "again" : "named", d.stack.func[0], d.stack.func[1]);
		tap_ok(probes_syms_get(s, 4, e, 2, &d) == 2 &&
		    strcmp(d.stack.func[0], "0xffffffff80000010") == 0 &&
		    strcmp(d.stack.func[1], "ext4_sync_file") == 0,
		    "stack 4 %s: %s, %s", round ? "again" : "named", d.stack.func[0], d.stack.func[1]);
	}
	tap_eq_int((int)probes_syms_passes(s), 2, "... from the cache, with no pass");
	probes_syms_free(s);

	/* A pool of 120 bytes: the first stack's names (72 bytes with its
	 * addresses') leave no room for the next one's three "0x..." names
	 * (57): the addresses are forgotten and the cached stack's three
	 * names moved down (48), so both stay named; a third stack finds the
	 * two stacks' names alone too many and every stack is forgotten. */
	if (!(s = probes_syms_new(path))) {
		printf("Bail out! out of memory\n");
		return 1;
	}
	probes_syms_set_pool(s, 120);
	tap_eq_int(probes_syms_get(s, 1, a, 5, &d), -1, "a small pool: a stack queued");
	tap_eq_int(probes_syms_get(s, 5, f, 3, &d), -1, "... and one of names kallsyms lacks");
	probes_syms_resolve(s);
	tap_ok(probes_syms_get(s, 1, a, 5, &d) == 3 && strcmp(d.stack.func[0], "io_schedule") == 0 &&
	    strcmp(d.stack.func[1], "folio_wait_bit_common") == 0 &&
	    strcmp(d.stack.func[2], "filemap_fault") == 0,
	    "the pool full: the first stack's names moved, still named (%s, %s, %s)",
	    d.stack.func[0], d.stack.func[1], d.stack.func[2]);
	tap_ok(probes_syms_get(s, 5, f, 3, &d) == 3 && strcmp(d.stack.func[0], "0xffffffff80000010") == 0 &&
	    strcmp(d.stack.func[2], "0xffffffff80000030") == 0, "... and the second (%s ... %s)",
	    d.stack.func[0], d.stack.func[2]);
	tap_eq_int(probes_syms_get(s, 6, g, 3, &d), -1, "a third stack is queued");
	usleep(600 * 1000);
	probes_syms_resolve(s);
	tap_ok(probes_syms_get(s, 6, g, 3, &d) == 3 && strcmp(d.stack.func[1], "0xffffffff80000050") == 0,
	    "... named in a pool the two stacks' names filled: %s", d.stack.func[1]);
	tap_eq_int(probes_syms_get(s, 1, a, 5, &d), -1, "... which forgot them");
	tap_eq_int((int)probes_syms_passes(s), 2, "two passes in all");
	probes_syms_free(s);
	unlink(path);
	return tap_done();
}
