/*
 * The blocked tasks' stacks as a sample keeps them (model/tasks.c):
 * packed one after another, each with its signature; read back whole,
 * found by their bytes, refused when the bytes or the slots run out.
 */
#include <stdio.h>
#include <string.h>

#include "model/tasks.h"
#include "parse/stack.h"
#include "tap.h"

static struct tasks t;
static struct stack st, back, last;

/* n frames named after seed, every other with a module. */
static void
make(struct stack *s, int n, int seed)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	for (int k = 0; k < n; k++) {
		snprintf(s->f[k].func, sizeof(s->f[k].func), "func_%d_%d.constprop.0", seed, k);
		if (k % 2)
			snprintf(s->f[k].module, sizeof(s->f[k].module), "mod%d", seed);
	}
}

int
main(void)
{
	size_t len, used = 0;
	const char *p;
	int i, n, full = -1;

	tasks_stacks_clear(&t);
	make(&st, 7, 1);
	tap_eq_int(tasks_stack_add(&t, &st), 0, "the first stack is stack 0");
	make(&st, 3, 2);
	tap_eq_int(tasks_stack_add(&t, &st), 1, "the second, stack 1");
	tap_ok(tasks_stack(&t, 1, &back) == &back && stack_equal(&back, &st),
	    "stack 1 reads back frame by frame, modules too");
	make(&st, 7, 1);
	tap_ok(stack_equal(tasks_stack(&t, 0, &back), &st) &&
	    tasks_stack_frames(&t, 0) == 7, "stack 0 too, with its 7 frames");
	tap_ok(tasks_stack_signature(&t, 0) == stack_signature(&st) &&
	    tasks_stack_signature(&t, 0) != tasks_stack_signature(&t, 1),
	    "each keeps its own stack_signature()");
	p = tasks_stack_packed(&t, 0, &len);
	tap_ok(p != NULL && stack_packed_signature(p, len) == stack_signature(&st),
	    "the packed bytes give the same signature unpacked");
	tap_eq_int(tasks_stack_find(&t, p, len, stack_signature(&st)), 0,
	    "found by its bytes");
	tap_eq_int(tasks_stack_find(&t, p, len - 1, stack_signature(&st)), -1,
	    "a byte short is another stack");
	tap_ok(tasks_stack(&t, 2, &back) == NULL && tasks_stack(&t, -1, &back) == NULL &&
	    tasks_stack_frames(&t, 5) == 0 && tasks_stack_signature(&t, 2) == 0,
	    "no stack 2 nor -1");
	memset(&st, 0, sizeof(st));
	tap_eq_int(tasks_stack_add(&t, &st), 2, "an empty stack is one too");
	tap_ok(tasks_stack(&t, 2, &back)->n == 0, "... of no frames");

	/* Stacks of 64 full frames until the bytes run out. */
	tasks_stacks_clear(&t);
	for (i = 0; i < TASKS_MAX_STACKS; i++) {
		make(&st, STACK_MAX_FRAMES, i);
		for (int k = 0; k < st.n; k++) {
			memset(st.f[k].func, 'a' + k % 26, STACK_FUNC_LEN - 1);
			st.f[k].func[STACK_FUNC_LEN - 1] = '\0';
		}
		snprintf(st.f[0].func, 8, "s%d", i);
		if (tasks_stack_add(&t, &st) < 0) {
			full = i;
			break;
		}
		last = st;
		tasks_stack_packed(&t, i, &len);
		used += len;
	}
	tap_ok(full > 0 && t.n_stacks == full && used <= TASKS_STACK_BYTES,
	    "large stacks: %d kept in %zu bytes, the next refused (%d bytes hold them)",
	    full, used, TASKS_STACK_BYTES);
	tap_ok(full > 0 && stack_equal(tasks_stack(&t, full - 1, &back), &last),
	    "the last one kept reads back whole");

	/* Small stacks until the slots run out. */
	tasks_stacks_clear(&t);
	for (i = 0, n = 0; i <= TASKS_MAX_STACKS; i++) {
		make(&st, 2, i);
		if (tasks_stack_add(&t, &st) >= 0)
			n++;
	}
	tap_ok(n == TASKS_MAX_STACKS && t.n_stacks == TASKS_MAX_STACKS,
	    "small stacks: %d kept, one more refused", n);
	make(&st, 2, TASKS_MAX_STACKS - 1);
	tap_ok(stack_equal(tasks_stack(&t, TASKS_MAX_STACKS - 1, &back), &st),
	    "the last slot reads back");
	return tap_done();
}
