/*
 * /proc/PID/task/TID/stack: one frame a line, innermost first, printed by
 * the kernel as "[<%p>] %pS" (2.6.29), "[<%pK>] %pB" (3.x to 4.14) and
 * "[<0>] %pB" (4.15 on):
 *
 *	[<ffffffff8118d164>] ext4_writepage+0x217/0x224
 *	[<0000000000000000>] sock_recvmsg+0x44/0x54
 *	[<0>] md_super_wait+0xa2/0xe0
 *	[<0>] raid1d+0x87/0x16f0 [raid1]
 *	[<0>] 0xffffffffc085d868
 *
 * The address between "[<" and ">]" is never used: it is hidden, hashed
 * or randomized. A symbol is "name+0xOFF/0xLEN" with an optional
 * " [module]" after it, or a bare "0x..." when kallsyms could not name the
 * address (BPF and ftrace trampolines, or heap garbage from an unreliable
 * unwinder); bare ones are kept as frames, named by that hex. Until about
 * 5.2 the list ended with the ULONG_MAX marker the unwinder stored,
 * "0xffffffffffffffff" (or "0xffffffff" on 32-bit) after any address: that
 * line is dropped wherever it appears.
 *
 * Names keep compiler suffixes (".constprop.0", ".isra.0", ".part.26",
 * ".cold"); whoever compares names strips them (stack_signature here,
 * reasons_match in reasons.c), so the frames show what the kernel printed.
 * A name longer than STACK_FUNC_LEN - 1 (long Rust symbols) is cut.
 *
 * Leading blanks and a CR before the newline are tolerated (copies from
 * mail and logs); anything else that is not a frame is -EINVAL, which also
 * catches most files cut in the middle of a line, since a named symbol
 * must end in "/0xLEN". The kernel prints at most 64 frames: lines after
 * the 64th are ignored unread.
 */

#include "parse/stack.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* At most this much of a bad line is quoted in a message. */
#define SHOWN_MAX 40

static int
shown(struct span s)
{
	return (int)(s.len < SHOWN_MAX ? s.len : SHOWN_MAX);
}

static bool
is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	    (ch >= 'A' && ch <= 'F');
}

/* Skips a run of hex digits at *i; how many there were. */
static size_t
skip_hex(struct span s, size_t *i)
{
	size_t start = *i;

	while (*i < s.len && is_hex(s.s[*i]))
		(*i)++;
	return *i - start;
}

/* "0x" and hex digits only, as %pB prints an address it cannot name. */
static bool
is_raw_address(struct span sym)
{
	size_t i = 2;

	if (!span_starts(sym, "0x"))
		return false;
	return skip_hex(sym, &i) > 0 && i == sym.len;
}

/* The ULONG_MAX end marker: "0x" and 8 or 16 'f's. */
static bool
is_end_marker(struct span sym)
{
	size_t i;

	if (sym.len != 2 + 16 && sym.len != 2 + 8)
		return false;
	for (i = 2; i < sym.len; i++) {
		if (sym.s[i] != 'f')
			return false;
	}
	return span_starts(sym, "0x");
}

/* "+0xOFF/0xLEN", the whole of off. */
static bool
is_offset(struct span off)
{
	size_t i = 3;

	if (!span_starts(off, "+0x"))
		return false;
	if (skip_hex(off, &i) == 0)
		return false;
	off.s += i;
	off.len -= i;
	if (!span_starts(off, "/0x"))
		return false;
	i = 3;
	return skip_hex(off, &i) > 0 && i == off.len;
}

/*
 * The " [module]" after a symbol, in rest. Kernels built to print build
 * ids write "[module buildid]": the first word is the module.
 */
static int
frame_module(struct span rest, int line, struct stack_frame *f,
    struct parse_error *err)
{
	struct span inside, w;

	rest = span_trim(rest);
	if (rest.len == 0)
		return 0;
	inside = rest;
	if (inside.s[0] != '[' || !span_chop(&inside, ']'))
		return parse_fail(err, line,
		    "expected \" [module]\" after the symbol, got \"%.*s\"",
		    shown(rest), rest.s);
	inside.s++;
	inside.len--;
	if (!span_next_word(&inside, &w))
		return parse_fail(err, line, "empty module name \"[]\"");
	if (span_has_control(w))
		return parse_fail(err, line,
		    "control character in the module name");
	if (memchr(w.s, ']', w.len) != NULL || memchr(w.s, '[', w.len) != NULL)
		return parse_fail(err, line, "bad module name in \"%.*s\"",
		    shown(rest), rest.s);
	span_copy(w, f->module, sizeof(f->module));
	return 0;
}

/* One trimmed, non-empty line into f; *end is set for the end marker. */
static int
stack_frame_parse(struct span s, int line, struct stack_frame *f,
    bool *end, struct parse_error *err)
{
	struct span rest, sym, name, off;
	const char *plus;
	size_t i = 2, n;

	*end = false;
	f->func[0] = '\0';
	f->module[0] = '\0';
	if (!span_starts(s, "[<"))
		return parse_fail(err, line,
		    "expected \"[<address>] symbol\", got \"%.*s\"", shown(s),
		    s.s);
	n = skip_hex(s, &i);
	if (n == 0 || n > 16 || i + 2 > s.len || s.s[i] != '>' ||
	    s.s[i + 1] != ']')
		return parse_fail(err, line, "bad address in \"%.*s\"",
		    shown(s), s.s);
	rest = (struct span){ s.s + i + 2, s.len - i - 2 };
	if (!span_next_word(&rest, &sym))
		return parse_fail(err, line, "no symbol after the address");
	if (span_has_control(sym))
		return parse_fail(err, line, "control character in the symbol");

	if (is_raw_address(sym)) {
		if (is_end_marker(sym)) {
			*end = true;
			return 0;
		}
		span_copy(sym, f->func, sizeof(f->func));
		return frame_module(rest, line, f, err);
	}

	plus = memchr(sym.s, '+', sym.len);
	if (plus == NULL || plus == sym.s)
		return parse_fail(err, line,
		    "expected \"name+0xOFF/0xLEN\" or \"0xADDRESS\", got \"%.*s\"",
		    shown(sym), sym.s);
	name = (struct span){ sym.s, (size_t)(plus - sym.s) };
	off = (struct span){ plus, sym.len - name.len };
	if (!is_offset(off))
		return parse_fail(err, line,
		    "bad offset \"%.*s\" (expected +0xOFF/0xLEN)", shown(off),
		    off.s);
	span_copy(name, f->func, sizeof(f->func));
	return frame_module(rest, line, f, err);
}

int
stack_parse(const char *buf, size_t len, struct stack *out,
    struct parse_error *err)
{
	struct text_cursor c;
	struct span line;
	bool end;

	out->n = 0;
	if (err != NULL)
		memset(err, 0, sizeof(*err));

	text_cursor_init(&c, buf, len);
	while (out->n < STACK_MAX_FRAMES && text_next_line(&c, &line)) {
		line = span_trim(line);
		if (line.len == 0)
			continue;
		if (stack_frame_parse(line, c.line, &out->f[out->n], &end,
		    err) != 0) {
			/* Half a stack would be matched as a whole one. */
			out->n = 0;
			return -EINVAL;
		}
		if (!end)
			out->n++;
	}
	return 0;
}

/*
 * FNV-1a over each name without its compiler suffix, so that the same
 * code path hashes alike across builds. Unnamed frames hash alike too:
 * their hex is a trampoline or a stale heap address that differs between
 * tasks blocked the same way.
 */
unsigned long
stack_signature(const struct stack *st)
{
	uint64_t h = 14695981039346656037ULL;
	const char *func;
	size_t i, n;
	int k;

	for (k = 0; k < st->n && k < STACK_MAX_FRAMES; k++) {
		func = st->f[k].func;
		if (strncmp(func, "0x", 2) == 0)
			n = 2;
		else
			n = strcspn(func, ".");
		for (i = 0; i < n; i++) {
			h ^= (unsigned char)func[i];
			h *= 1099511628211ULL;
		}
		/* A separator, so "ab","c" and "a","bc" differ. */
		h ^= 0xff;
		h *= 1099511628211ULL;
	}
	return (unsigned long)h;
}

size_t
stack_pack(const struct stack *st, char *dst, size_t size)
{
	size_t n = 0;

	for (int k = 0; k < st->n && k < STACK_MAX_FRAMES; k++) {
		const struct stack_frame *f = &st->f[k];
		size_t lf = strnlen(f->func, STACK_FUNC_LEN - 1);
		size_t lm = strnlen(f->module, STACK_MODULE_LEN - 1);

		if (n + lf + (lm ? lm + 1 : 0) + 1 > size)
			return 0;
		memcpy(dst + n, f->func, lf);
		n += lf;
		if (lm) {
			dst[n++] = '\t';
			memcpy(dst + n, f->module, lm);
			n += lm;
		}
		dst[n++] = '\n';
	}
	return n;
}

void
stack_unpack(const char *src, size_t len, struct stack *st)
{
	size_t i = 0;

	st->n = 0;
	while (i < len && st->n < STACK_MAX_FRAMES) {
		struct stack_frame *f = &st->f[st->n++];
		size_t end = i, tab;

		while (end < len && src[end] != '\n')
			end++;
		for (tab = i; tab < end && src[tab] != '\t'; tab++)
			;
		snprintf(f->func, sizeof(f->func), "%.*s", (int)(tab - i), src + i);
		if (tab < end)
			snprintf(f->module, sizeof(f->module), "%.*s", (int)(end - tab - 1), src + tab + 1);
		else
			f->module[0] = '\0';
		i = end + 1;
	}
}

bool
stack_equal(const struct stack *a, const struct stack *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strncmp(a->f[i].func, b->f[i].func, STACK_FUNC_LEN) != 0 ||
		    strncmp(a->f[i].module, b->f[i].module, STACK_MODULE_LEN) != 0)
			return false;
	return true;
}

/* As stack_signature() hashes a frame's func: to its first '.', or "0x". */
unsigned long
stack_packed_signature(const char *src, size_t len)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i = 0, end, n, k;
	int frames = 0;

	while (i < len && frames++ < STACK_MAX_FRAMES) {
		for (end = i; end < len && src[end] != '\n'; end++)
			;
		for (n = i; n < end && src[n] != '\t' && src[n] != '.'; n++)
			;
		if (end - i >= 2 && src[i] == '0' && src[i + 1] == 'x')
			n = i + 2;
		for (k = i; k < n && k - i < STACK_FUNC_LEN - 1; k++) {
			h ^= (unsigned char)src[k];
			h *= 1099511628211ULL;
		}
		h ^= 0xff;
		h *= 1099511628211ULL;
		i = end + 1;
	}
	return (unsigned long)h;
}

int
stack_packed_frames(const char *src, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len && n < STACK_MAX_FRAMES; i++)
		if (src[i] == '\n' || i + 1 == len)
			n++;
	return n;
}
