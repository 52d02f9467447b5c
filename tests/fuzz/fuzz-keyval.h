/*
 * The body of the meminfo and vmstat targets, both "name value" files read
 * by one line loop (src/parse/keyval.c): what parses keeps its count within
 * the cap and its names strings, reads the same with a '\n' after it, and
 * prints (src/output/sample-proc.c) to text that parses back to the same
 * entries; an input with nothing taken says which line was wrong. Each
 * target file describes its parser in a struct keyval_fuzz and calls
 * keyval_fuzz_run(); the body is static here, as every target is built
 * into a program of its own by `make fuzz`.
 */
#ifndef PAGETOP_FUZZ_KEYVAL_H
#define PAGETOP_FUZZ_KEYVAL_H

#include <errno.h>
#include <stdlib.h>

#include "fuzz.h"
#include "model/sample.h"

struct keyval_fuzz {
	const char *file;	/* "meminfo", for messages */
	const char *item;	/* what an entry is called: "key" */
	int src;		/* the source printed back, SRC_MEMINFO */
	int cap;		/* entries at most, MAX_MEMINFO */
	/* The parser, into its part of s. */
	int (*parse)(const char *buf, size_t len, struct sample *s, struct parse_error *err);
	/* The entries parse() kept in s, and in *skipped the lines it passed over. */
	int (*count)(const struct sample *s, int *skipped);
	/* -1 when a and b hold the same entries, else the first that differs
	 * (0 when their counts do). */
	int (*differs)(const struct sample *a, const struct sample *b);
	/* fuzz_fail()s when entry i of s is not a name the parser may keep. */
	void (*check)(const struct sample *s, int i);
};

/* Large: kept static, as fuzz.h asks. */
static struct sample keyval_s, keyval_again;

static void
keyval_fuzz_run(const struct keyval_fuzz *t, const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	char *text;
	size_t n;
	int r = t->parse((const char *)data, len, &keyval_s, &err), r2, i, count, skipped, skipped2;

	text = fuzz_with_newline(data, len);
	r2 = t->parse(text, len + 1, &keyval_again, NULL);
	free(text);
	if (r2 != r)
		fuzz_fail("%s: %d, but %d with a '\\n' after", t->file, r, r2);
	if (r != 0) {
		if (r != -EINVAL)
			fuzz_fail("%s: returned %d", t->file, r);
		fuzz_check_error(t->file, &err, data, len);
		return;
	}
	count = t->count(&keyval_s, &skipped);
	if (count < 1 || count > t->cap || skipped < 0 || count + skipped > fuzz_lines(data, len))
		fuzz_fail("%s: %d %ss, %d skipped, of %d lines", t->file, count, t->item, skipped,
			  fuzz_lines(data, len));
	for (i = 0; i < count; i++)
		t->check(&keyval_s, i);
	t->count(&keyval_again, &skipped2);
	if ((i = t->differs(&keyval_s, &keyval_again)) >= 0 || skipped2 != skipped)
		fuzz_fail("%s: %s %d differs with a '\\n' after", t->file, t->item, i);

	text = fuzz_print_proc(&keyval_s, t->src, &n);
	r = t->parse(text, n, &keyval_again, &err);
	t->count(&keyval_again, &skipped2);
	if (r != 0 || skipped2 != 0)
		fuzz_fail("%s: printed, does not parse back whole: line %d: %s", t->file, err.line,
			  err.msg);
	if ((i = t->differs(&keyval_s, &keyval_again)) >= 0)
		fuzz_fail("%s: printed, %s %d parses back different", t->file, t->item, i);
	free(text);
}

#endif
