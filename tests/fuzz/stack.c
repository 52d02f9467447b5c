/*
 * stack_parse on any bytes (a /proc/PID/task/TID/stack). What parses has
 * at most 64 frames with names that are strings, reads the same with a
 * '\n' after it, prints one line a frame in `dump` (src/sample-proc.c),
 * and, written back as "[<0>] func+0x1/0x2 [module]"
 * (the printer leaves the offsets out, which the parser requires), parses
 * to the same frames and signature. What does not parse is no frames and
 * says which line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model/sample.h"
#include "parse/stack.h"

static struct sample s;
static struct stack again;

static int
differs(const struct stack *a, const struct stack *b)
{
	if (a->n != b->n)
		return 0;
	for (int k = 0; k < a->n; k++)
		if (strcmp(a->f[k].func, b->f[k].func) != 0 ||
		    strcmp(a->f[k].module, b->f[k].module) != 0)
			return k;
	return -1;
}

static char *
render(const struct stack *st, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	for (int k = 0; k < st->n; k++)
		fprintf(f, "[<0>] %s+0x1/0x2%s%s%s\n", st->f[k].func, st->f[k].module[0] ? " [" : "",
			st->f[k].module, st->f[k].module[0] ? "]" : "");
	fclose(f);
	return out;
}

/* Through the dump printer, as one blocked task: a header and a line a frame. */
static void
check_printed(const struct stack *st)
{
	struct tasks *t = &s.tasks;
	char *text;
	size_t n;
	int lines = 0;

	t->n_blocked = 1;
	tasks_stacks_clear(t);
	if (tasks_stack_add(t, st) != 0)
		fuzz_fail("stack: %d frames do not fit a sample's stacks", st->n);
	t->b[0] = (struct blocked_task){ .tid = 1, .tgid = 1, .comm = "fuzz", .state = 'D',
					 .stack = 0 };
	text = fuzz_print_proc(&s, SRC_TASKS, &n);
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	if (lines != 1 + st->n || strncmp(text, "== 1 (fuzz) D", 13) != 0)
		fuzz_fail("stack: %d frames printed in %d lines:\n%s", st->n, lines, text);
	free(text);
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	static struct stack parsed;
	struct stack *st = &parsed;
	char packed[STACK_PACKED_MAX];
	size_t plen;
	char *text;
	size_t n;
	int r = stack_parse((const char *)data, len, st, &err), r2, k;

	text = fuzz_with_newline(data, len);
	r2 = stack_parse(text, len + 1, &again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("stack: %d, but %d with a '\\n' after", r, r2);
	if (r != 0) {
		if (r != -EINVAL || st->n != 0)
			fuzz_fail("stack: returned %d with %d frames", r, st->n);
		fuzz_check_error("stack", &err, data, len);
		return;
	}
	if (st->n < 0 || st->n > STACK_MAX_FRAMES)
		fuzz_fail("stack: %d frames", st->n);
	for (k = 0; k < st->n; k++) {
		fuzz_check_name("stack func", st->f[k].func, STACK_FUNC_LEN);
		fuzz_check_name("stack module", st->f[k].module, STACK_MODULE_LEN);
		if (st->f[k].func[0] == '\0')
			fuzz_fail("stack: frame %d has no name", k);
	}
	if ((k = differs(st, &again)) >= 0)
		fuzz_fail("stack: frame %d differs with a '\\n' after", k);
	check_printed(st);
	/* Packed as a sample keeps it: the same frames and signature. */
	plen = stack_pack(st, packed, sizeof(packed));
	if (plen == 0 && st->n > 0)
		fuzz_fail("stack: %d frames do not pack into %zu bytes", st->n, sizeof(packed));
	if (stack_packed_signature(packed, plen) != stack_signature(st) ||
	    stack_packed_frames(packed, plen) != st->n)
		fuzz_fail("stack: packed, another signature or frame count");
	stack_unpack(packed, plen, &again);
	if ((k = differs(st, &again)) >= 0)
		fuzz_fail("stack: packed and back, frame %d differs", k);

	text = render(st, &n);
	if (stack_parse(text, n, &again, &err) != 0)
		fuzz_fail("stack: written back, line %d does not parse: %s\n%s", err.line, err.msg,
			  text);
	if ((k = differs(st, &again)) >= 0 || stack_signature(st) != stack_signature(&again))
		fuzz_fail("stack: written back, frame %d parses different:\n%s", k, text);
	free(text);
}

FUZZ_TARGET(stack, run, "tests/fixtures/proc/stack")
