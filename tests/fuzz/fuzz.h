/*
 * Fuzz targets: one file per parser, each a function from any bytes to
 * nothing that calls fuzz_fail() when an invariant breaks (a count past
 * its cap, a printed form that does not parse back the same). The same
 * file is built two ways:
 *
 *  - by `make fuzz` with clang and -fsanitize=fuzzer (tests/fuzz/fuzz.mk),
 *    one program per target, run by libFuzzer from a copy of its seeds;
 *  - by `make check` into tests/test-fuzz, which runs every target on its
 *    seeds and on the inputs in tests/fuzz/regress/TARGET/ (what a fuzzer
 *    once found), one test point each.
 *
 * A new target is one file here and one line in FUZZ_TARGETS in
 * Makefile.am; for a kernel log parser, say:
 *
 *	static void
 *	run(const uint8_t *data, size_t len)
 *	{
 *		... kmsg_parse() on data, then fuzz_fail() on what must not be ...
 *	}
 *
 *	FUZZ_TARGET(kmsg, run, "tests/fixtures/proc/kmsg")
 */
#ifndef PAGETOP_FUZZ_H
#define PAGETOP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

/* Hands one seed input to whoever collects them; name is for messages. */
typedef void fuzz_emit_fn(const char *name, const uint8_t *data, size_t len, void *ctx);

struct fuzz_target {
	const char *name;
	void (*run)(const uint8_t *data, size_t len);
	/* Seeds: files or directories (every file in them), relative to the
	 * top of the source tree; NULL-terminated. */
	const char *const *seeds;
	/* Seeds made at run time (e.g. from recordings), or NULL. */
	void (*make_seeds)(fuzz_emit_fn *emit, void *ctx);
	struct fuzz_target *next;
};

void fuzz_register(struct fuzz_target *t);
/* Every target linked in, in no particular order. */
struct fuzz_target *fuzz_targets(void);

/*
 * FUZZ_TARGET(name, run, seed...): registers the file's target (at start-up,
 * so that make check links them all in one program). Keep the run
 * function's large state static: a struct sample is 700 KB.
 * FUZZ_TARGET_MADE(name, run, make): its seeds are made by make(emit, ctx).
 */
#define FUZZ_TARGET_(name_, run_, make_, ...)					\
	static const char *const fuzz_seeds_##name_[] = { __VA_ARGS__ };	\
	static struct fuzz_target fuzz_target_##name_ = {			\
		#name_, run_, fuzz_seeds_##name_, make_, NULL };		\
	static void __attribute__((constructor))				\
	fuzz_register_##name_(void)						\
	{									\
		fuzz_register(&fuzz_target_##name_);				\
	}
#define FUZZ_TARGET(name_, run_, ...) FUZZ_TARGET_(name_, run_, NULL, __VA_ARGS__, NULL)
#define FUZZ_TARGET_MADE(name_, run_, make_) FUZZ_TARGET_(name_, run_, make_, NULL)

/* An invariant broke: says which and aborts, so libFuzzer keeps the input. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The top of the source tree (PAGETOP_SRCDIR in the environment overrides
 * the one compiled in), and a path under it. */
const char *fuzz_srcdir(void);
void fuzz_path(char *dst, size_t size, const char *rel);

/* Common checks. A name array holds a C string; a parse error's message
 * is one and its line is within the input (0: not about one line). */
void fuzz_check_name(const char *what, const char *s, size_t size);
void fuzz_check_error(const char *what, const struct parse_error *err, const uint8_t *data,
		      size_t len);
/* Lines in data as a text cursor counts them. */
int fuzz_lines(const uint8_t *data, size_t len);

/* The bytes and a '\n' after them, in a buffer of its own (free it): a
 * line-based parser must read the same from both. */
char *fuzz_with_newline(const uint8_t *data, size_t len);

/* Source src of s as sample_proc_print() prints it (the kernel's format),
 * malloc'd; *len is set. */
struct sample;
char *fuzz_print_proc(const struct sample *s, int src, size_t *len);
/* Whether a name prints as itself: the printers escape controls and
 * invalid UTF-8 (text_escape), and such a name does not parse back. */
bool fuzz_plain(const char *name);

/* Hands the file at rel (under the top of the source tree), or each file
 * in that directory, to emit; -1 if one could not be read. */
int fuzz_emit_path(const char *rel, fuzz_emit_fn *emit, void *ctx);

/* Hands every seed of t to emit: its files, the ones it makes, and the
 * inputs in tests/fuzz/regress/NAME/. -1 if a file could not be read. */
int fuzz_seeds(const struct fuzz_target *t, fuzz_emit_fn *emit, void *ctx);

#endif
