/*
 * mkrec-tasks OUT [FROM]: a recording of 30 samples at 1 s from 1.7e9 with what
 * replay's stops are tested on, at known moments:
 *   marks "one" at +4.5 s (its first sample at or after it: 5), "two" at
 *   +12 s (12) and "three" at +20.3 s (21);
 *   three tasks blocked in new ways at sample 8, or FROM (an ext4 journal commit,
 *   writeback, a vfork), and a fourth way at sample 17 (a page lock);
 *   a gap of 3 samples lost before sample 25;
 *   a sensor, coretemp-isa-0000 "Package id 0", at 40 + FROM + i degrees
 *   in sample i, and a fan only when FROM is 8;
 *   delay accounting on, FROM ms of reclaim delay over 5 tasks each tick.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/stack.h"
#include "ptrec/codec.h"
#include "ptrec/recfile.h"

#define START	1.7e9

static const char *const stacks[] = {
	"[<0>] jbd2_log_wait_commit+0xb8/0x120\n[<0>] ext4_sync_file+0x1a0/0x380\n",
	"[<0>] balance_dirty_pages+0x2d0/0xd90\n[<0>] generic_perform_write+0x140/0x200\n",
	"[<0>] wait_for_vfork_done+0x30/0x50\n[<0>] kernel_clone+0x1a0/0x3c0\n",
	"[<0>] folio_wait_bit_common+0x12d/0x350\n[<0>] filemap_fault+0x5b0/0x9c0\n",
};

/* Blocked task k (stack k) into s. */
static void
block(struct sample *s, int k)
{
	struct tasks *t = &s->tasks;
	struct blocked_task *b = &t->b[t->n_blocked++];
	struct parse_error err;
	static struct stack st;

	stack_parse(stacks[k], strlen(stacks[k]), &st, &err);
	*b = (struct blocked_task){ .tid = 100 + k, .tgid = 100 + k, .state = 'D',
				    .stack = tasks_stack_add(t, &st), .since = 100 };
	snprintf(b->comm, sizeof(b->comm), "task%d", k);
	t->by_state['D']++;
	t->total = 10;
}

int
main(int argc, char **argv)
{
	struct rec_header h;
	struct rec_writer *w;
	struct sample *s;
	static uint8_t buf[1 << 20];
	char why[300];
	int from;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mkrec-tasks OUT [FROM]\n");
		return 2;
	}
	from = argc == 3 ? atoi(argv[2]) : 8;
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "mkrec");
	h.interval = 1;
	h.start = START;
	if (!(s = calloc(1, sizeof(*s))) || !(w = rec_writer_open(argv[1], &h, why, sizeof(why)))) {
		fprintf(stderr, "mkrec-tasks: %s\n", s ? why : "out of memory");
		return 1;
	}
	for (int i = 0; i < 30; i++) {
		ssize_t n;

		memset(&s->tasks, 0, sizeof(s->tasks));
		s->tasks.total = 10;
		if (i >= from)
			for (int k = 0; k < 3; k++)
				block(s, k);
		if (i >= 17)
			block(s, 3);
		s->sensors = (struct sensors){ .available = true, .n = from == 8 ? 2 : 1 };
		s->sensors.r[0] = (struct sensor_reading){ .chip = "coretemp-isa-0000",
			.label = "Package id 0", .kind = SENSOR_TEMP, .valid = true,
			.value = 40 + from + i, .high = 80, .crit = 100 };
		s->sensors.r[1] = (struct sensor_reading){ .chip = "nct6775-isa-0290",
			.label = "fan1", .kind = SENSOR_FAN, .valid = true, .value = 1200,
			.high = NAN, .crit = NAN };
		s->delays = (struct delays){ .state = DELAYS_ON, .ran = 5, .asked = 5,
					     .answered = 5 };
		s->delays.total_ns[DELAY_RECLAIM] = (uint64_t)from * 1000000;
		s->delays.total_count[DELAY_RECLAIM] = 1;
		s->wall = START + i;
		s->mono = 100 + i;
		if ((i == 5 && rec_writer_mark(w, START + 4.5, "one") < 0) ||
		    (i == 12 && rec_writer_mark(w, START + 12, "two") < 0) ||
		    (i == 21 && rec_writer_mark(w, START + 20.3, "three") < 0) ||
		    (i == 25 && rec_writer_gap(w, START + 22.2, START + 24.6, 3) < 0)) {
			fprintf(stderr, "mkrec-tasks: %s\n", rec_writer_error(w));
			return 1;
		}
		n = codec_encode(s, NULL, buf, sizeof(buf));
		if (n < 0 || rec_writer_sample(w, s->wall, true, buf, (size_t)n) < 0) {
			fprintf(stderr, "mkrec-tasks: sample %d: %s\n", i, rec_writer_error(w));
			return 1;
		}
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		fprintf(stderr, "mkrec-tasks: %s\n", why);
		return 1;
	}
	free(s);
	return 0;
}
