/* /proc/PID/task/TID/stack: a blocked task's kernel stack, innermost first. */
#ifndef PAGETOP_STACK_H
#define PAGETOP_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "util/text.h"

#define STACK_MAX_FRAMES	64	/* the kernel prints at most 64 */
#define STACK_FUNC_LEN		64
#define STACK_MODULE_LEN	56	/* MODULE_NAME_LEN */

struct stack_frame {
	char func[STACK_FUNC_LEN];	/* "jbd2_log_wait_commit", suffixes such as
					 * ".constprop.0" kept; "0xffffffffc085d868"
					 * when the kernel could not name it */
	char module[STACK_MODULE_LEN];	/* "jbd2" from " [jbd2]", "" for the core kernel */
};

struct stack {
	int n;
	struct stack_frame f[STACK_MAX_FRAMES];
};

/*
 * Every era's lines: "[<ffffffff81234567>] func+0x12/0x40", "[<0>] func+...",
 * "[<0000000000000000>] ...", " [module]" suffixes, bare "0x..." symbols;
 * the old ULONG_MAX end marker ("[<ffffffffffffffff>] 0xffffffffffffffff",
 * "[<ffffffff>] 0xffffffff") is dropped. An empty buffer is an empty stack
 * (a running task). -EINVAL with err naming the line for anything else.
 */
int stack_parse(const char *buf, size_t len, struct stack *out, struct parse_error *err);

/*
 * A stack in few bytes, for caches: "func\tmodule\n" a frame (no tab
 * without a module). A struct stack is 7.5 KB whatever its depth; packed,
 * a stack of 20 frames takes about 500. Returns the length, or 0 when it
 * does not fit in size (then nothing useful is in dst).
 */
size_t stack_pack(const struct stack *st, char *dst, size_t size);
/* Back from stack_pack()'s bytes. */
void stack_unpack(const char *src, size_t len, struct stack *st);
/* The most stack_pack() writes: every frame with both names full. */
#define STACK_PACKED_MAX	(STACK_MAX_FRAMES * (STACK_FUNC_LEN + STACK_MODULE_LEN))
/* stack_signature() and the frame count of packed bytes, unpacking none. */
unsigned long stack_packed_signature(const char *src, size_t len);
int stack_packed_frames(const char *src, size_t len);

/* The same frames, function and module, in the same order. */
bool stack_equal(const struct stack *a, const struct stack *b);

/* A hash of the function names, for grouping tasks blocked the same way. */
unsigned long stack_signature(const struct stack *st);

#endif
