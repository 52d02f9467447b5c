/*
 * The blocked tasks' distinct stacks, packed one after another in
 * struct tasks (model/tasks.h): a sample holds up to 64 and most hold
 * none or a few, so a decoded sample touches only the bytes its stacks
 * take, not 64 structs of 7.5 KB.
 */
#include "model/tasks.h"

#include <string.h>

const char *
tasks_stack_packed(const struct tasks *t, int i, size_t *len)
{
	if (i < 0 || i >= t->n_stacks || i >= TASKS_MAX_STACKS) {
		*len = 0;
		return NULL;
	}
	*len = t->stack_at[i + 1] - t->stack_at[i];
	return t->stack_bytes + t->stack_at[i];
}

const struct stack *
tasks_stack(const struct tasks *t, int i, struct stack *scratch)
{
	size_t len;
	const char *p = tasks_stack_packed(t, i, &len);

	if (p == NULL)
		return NULL;
	stack_unpack(p, len, scratch);
	return scratch;
}

unsigned long
tasks_stack_signature(const struct tasks *t, int i)
{
	return i >= 0 && i < t->n_stacks && i < TASKS_MAX_STACKS ? t->stack_sig[i] : 0;
}

int
tasks_stack_frames(const struct tasks *t, int i)
{
	size_t len;
	const char *p = tasks_stack_packed(t, i, &len);

	return p != NULL ? stack_packed_frames(p, len) : 0;
}

void
tasks_stacks_clear(struct tasks *t)
{
	t->n_stacks = 0;
	t->stack_at[0] = 0;
	t->stacks_lost = 0;
}

int
tasks_stack_add_packed(struct tasks *t, const char *src, size_t len,
    unsigned long sig)
{
	int i = t->n_stacks;
	uint32_t at;

	if (i < 0 || i >= TASKS_MAX_STACKS)
		return -1;
	at = i == 0 ? 0 : t->stack_at[i];
	if (len > TASKS_STACK_BYTES - at)
		return -1;
	memcpy(t->stack_bytes + at, src, len);
	t->stack_at[i] = at;
	t->stack_at[i + 1] = at + (uint32_t)len;
	t->stack_sig[i] = sig;
	t->n_stacks = i + 1;
	return i;
}

int
tasks_stack_add(struct tasks *t, const struct stack *st)
{
	int i = t->n_stacks;
	uint32_t at;
	size_t len;

	if (i < 0 || i >= TASKS_MAX_STACKS)
		return -1;
	at = i == 0 ? 0 : t->stack_at[i];
	/* Packed in place: 0 is an empty stack or one that does not fit. */
	len = stack_pack(st, t->stack_bytes + at, TASKS_STACK_BYTES - at);
	if (len == 0 && st->n > 0)
		return -1;
	t->stack_at[i] = at;
	t->stack_at[i + 1] = at + (uint32_t)len;
	t->stack_sig[i] = stack_signature(st);
	t->n_stacks = i + 1;
	return i;
}

int
tasks_stack_find(const struct tasks *t, const char *src, size_t len,
    unsigned long sig)
{
	size_t l;
	const char *p;

	for (int k = 0; k < t->n_stacks && k < TASKS_MAX_STACKS; k++) {
		if (t->stack_sig[k] != sig)
			continue;
		p = tasks_stack_packed(t, k, &l);
		if (l == len && memcmp(p, src, len) == 0)
			return k;
	}
	return -1;
}
