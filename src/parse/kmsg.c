/*
 * /dev/kmsg records: the prefix, the text as it reads, and the fields of
 * the kernel messages that make events. The formats are the kernel's own:
 *
 *	mm/page_alloc.c warn_alloc():
 *	  "%s: page allocation failure: order:%u, mode:%#x(%pGg), nodemask=..."
 *	  ("page allocation failure. order:%d, mode:0x%x" before 3.x;
 *	  "%s: vmalloc error: size %lu, ..." for vmalloc)
 *	kernel/hung_task.c:
 *	  "INFO: task %s:%d blocked for more than %ld seconds."
 *	mm/oom_kill.c:
 *	  "%s invoked oom-killer: gfp_mask=%#x(%pGg), order=%d, oom_score_adj=%hd"
 *	  "%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB,
 *	   file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB ..."
 *	  "oom_reaper: reaped process %d (%s), now anon-rss:%lukB, ..."
 *	block/blk-core.c blk_print_req_error(), fs/buffer.c buffer_io_error():
 *	  "%s error, dev %s, sector %llu op 0x%x:(%s) flags 0x%x ..."
 *	  ("end_request: I/O error, dev %s, sector %llu" before 3.x,
 *	  "blk_update_request: ..." and "print_req_error: ..." in 4.x, 5.x)
 *	  "Buffer I/O error on dev %pg, logical block %llu%s"
 *	fs/jbd2/journal.c, fs/ext4/super.c __ext4_error():
 *	  "Aborting journal on device %s."
 *	  "JBD2: I/O error when updating journal superblock for %s."
 *	  "EXT4-fs error (device %s): %s:%d: comm %s: %pV"
 *
 * A command name may hold any character, ':' and '(' included, so each
 * field is found from the fixed words around it, never by splitting.
 */
#include "parse/kmsg.h"
#include "util/fmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[KMSG_KIND_COUNT] = {
	[KMSG_OTHER] = "other",
	[KMSG_ALLOC_FAILURE] = "alloc-failure",
	[KMSG_ALLOC_STALL] = "alloc-stall",
	[KMSG_HUNG_TASK] = "hung-task",
	[KMSG_OOM_INVOKED] = "oom-invoked",
	[KMSG_OOM_KILL] = "oom-kill",
	[KMSG_OOM_REAPED] = "oom-reaped",
	[KMSG_SWAP_ERROR] = "swap-error",
	[KMSG_IO_ERROR] = "io-error",
	[KMSG_LOCKUP] = "lockup",
	[KMSG_BAD_PAGE] = "bad-page",
	[KMSG_FS_ERROR] = "fs-error",
};

const char *
kmsg_kind_name(enum kmsg_kind kind)
{
	if ((int)kind < 0 || kind >= KMSG_KIND_COUNT)
		return "unknown";
	return kind_names[kind];
}

int
kmsg_kind_parse(const char *name, size_t len)
{
	for (int i = 0; i < KMSG_KIND_COUNT; i++)
		if (strlen(kind_names[i]) == len && memcmp(kind_names[i], name, len) == 0)
			return i;
	return -1;
}

bool
kmsg_kind_multiline(enum kmsg_kind kind)
{
	switch (kind) {
	case KMSG_ALLOC_FAILURE:
	case KMSG_ALLOC_STALL:
	case KMSG_HUNG_TASK:
	case KMSG_OOM_INVOKED:
	case KMSG_LOCKUP:
	case KMSG_BAD_PAGE:
		return true;
	default:
		return false;
	}
}

/* The next comma-separated field of the prefix. */
static bool
next_field(struct span *rest, struct span *f)
{
	const char *c;

	if (rest->len == 0 && rest->s == NULL)
		return false;
	c = memchr(rest->s, ',', rest->len);
	f->s = rest->s;
	if (c) {
		f->len = (size_t)(c - rest->s);
		rest->len -= f->len + 1;
		rest->s = c + 1;
	} else {
		f->len = rest->len;
		rest->s = NULL;
		rest->len = 0;
	}
	return true;
}

int
kmsg_record_parse(const char *buf, size_t len, struct kmsg_record *out,
		  struct parse_error *err)
{
	const char *nl = memchr(buf, '\n', len), *semi;
	size_t first = nl ? (size_t)(nl - buf) : len;
	struct span rest, f;
	uint64_t pri;

	memset(out, 0, sizeof(*out));
	if (err)
		memset(err, 0, sizeof(*err));
	if (len == 0)
		return parse_fail(err, 0, "empty");
	if (!(semi = memchr(buf, ';', first)))
		return parse_fail(err, 1, "no ';' after the prefix");
	rest = (struct span){ buf, (size_t)(semi - buf) };
	if (!next_field(&rest, &f) || span_to_u64(f, &pri) != 0 || pri > UINT32_MAX)
		return parse_fail(err, 1, "priority \"%.*s\" is not a number", (int)(f.len < 16 ? f.len : 16),
				  f.s);
	out->facility = (unsigned)(pri >> 3);
	out->level = (int)(pri & 7);
	if (!next_field(&rest, &f) || span_to_u64(f, &out->seq) != 0)
		return parse_fail(err, 1, "no sequence number after the priority");
	if (!next_field(&rest, &f) || span_to_u64(f, &out->ts_us) != 0)
		return parse_fail(err, 1, "no timestamp after the sequence number");
	if (!next_field(&rest, &f) || f.len == 0)
		return parse_fail(err, 1, "no flags after the timestamp");
	out->flag = f.s[0];
	/* Fields the kernel added later; the caller's id is the one used. */
	while (next_field(&rest, &f)) {
		uint64_t id;

		if (!span_starts(f, "caller=") || f.len < 9 || (f.s[7] != 'T' && f.s[7] != 'C'))
			continue;
		if (span_to_u64((struct span){ f.s + 8, f.len - 8 }, &id) != 0 || id > 0x7fffffff)
			return parse_fail(err, 1, "caller \"%.*s\" is not T<id> or C<cpu>",
					  (int)(f.len < 24 ? f.len : 24), f.s);
		out->has_caller = true;
		out->caller = (uint32_t)id | (f.s[7] == 'C' ? 0x80000000u : 0);
	}
	out->text = (struct span){ semi + 1, first - (size_t)(semi + 1 - buf) };
	/* What follows the text can only be dictionary lines, each " KEY=value". */
	for (size_t at = first + 1, line = 2; at < len; line++) {
		const char *e = memchr(buf + at, '\n', len - at);
		size_t n = e ? (size_t)(e - (buf + at)) : len - at;

		if (buf[at] != ' ' || !memchr(buf + at, '=', n))
			return parse_fail(err, (int)line, "not a dictionary line (\" KEY=value\")");
		at += n + 1;
	}
	return 0;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t
kmsg_unescape(struct span text, char *dst, size_t size)
{
	size_t o = 0;

	if (size == 0)
		return 0;
	for (size_t i = 0; i < text.len && o + 1 < size; i++) {
		unsigned char c = (unsigned char)text.s[i];

		if (c == '\\' && i + 3 < text.len && text.s[i + 1] == 'x' &&
		    hex_digit(text.s[i + 2]) >= 0 && hex_digit(text.s[i + 3]) >= 0) {
			int v = hex_digit(text.s[i + 2]) * 16 + hex_digit(text.s[i + 3]);

			if (v == '\n' || v == '\\' || v == '\t') {
				dst[o++] = v == '\t' ? ' ' : (char)v;
				i += 3;
				continue;
			}
			/* Another escape stays as the kernel wrote it, whole or not at all. */
			if (o + 4 >= size)
				break;
			memcpy(dst + o, text.s + i, 4);
			o += 4;
			i += 3;
			continue;
		}
		dst[o++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	dst[o] = '\0';
	return o;
}

/*
 * Field helpers over one line (not NUL-terminated).
 */

/* Where lit starts in s[0..n), or NULL. */
static const char *
find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, k) == 0)
			return s + i;
	return NULL;
}

/* The last c in s[0..n), or NULL. */
static const char *
find_last(const char *s, size_t n, char c)
{
	while (n-- > 0)
		if (s[n] == c)
			return s + n;
	return NULL;
}

/* Decimal digits at p (with a '-' when sign), up to end. */
static bool
number_at(const char *p, const char *end, bool sign, long long *out)
{
	bool neg = false;
	unsigned long long v = 0;
	const char *start;

	if (sign && p < end && *p == '-') {
		neg = true;
		p++;
	}
	start = p;
	while (p < end && *p >= '0' && *p <= '9' && v <= 0x7fffffffffffffffULL / 10 - 1)
		v = v * 10 + (unsigned long long)(*p++ - '0');
	if (p == start)
		return false;
	*out = neg ? -(long long)v : (long long)v;
	return true;
}

/* The number right after key in the line. */
static bool
number_after(const char *s, size_t n, const char *key, bool sign, long long *out)
{
	const char *p = find(s, n, key);

	return p && number_at(p + strlen(key), s + n, sign, out);
}

/* "0x" and hex digits right after key. */
static bool
hex_after(const char *s, size_t n, const char *key, uint32_t *out)
{
	const char *p = find(s, n, key), *end = s + n;
	unsigned long long v = 0;
	int d;

	if (!p)
		return false;
	p += strlen(key);
	if (end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || hex_digit(p[2]) < 0)
		return false;
	for (p += 2; p < end && (d = hex_digit(*p)) >= 0; p++)
		if ((v = v * 16 + (unsigned)d) > UINT32_MAX)
			return false;
	*out = (uint32_t)v;
	return true;
}

static void
set_comm(struct kmsg_event *ev, const char *p, size_t n)
{
	while (n > 0 && p[0] == ' ') {
		p++;
		n--;
	}
	while (n > 0 && p[n - 1] == ' ')
		n--;
	if (n == 0)
		return;
	if (n >= sizeof(ev->comm))
		n = sizeof(ev->comm) - 1;
	memcpy(ev->comm, p, n);
	ev->comm[n] = '\0';
	ev->has |= KF_COMM;
}

static void
set_int(struct kmsg_event *ev, unsigned bit, int *dst, long long v)
{
	if (v < -2147483647LL || v > 2147483647LL)
		return;
	*dst = (int)v;
	ev->has |= bit;
}

/* "COMM:PID" ending at end (the pid after the last ':'). */
static void
comm_colon_pid(struct kmsg_event *ev, const char *p, const char *end)
{
	const char *colon = end > p ? find_last(p, (size_t)(end - p), ':') : NULL;
	long long v;

	if (!colon)
		return;
	if (number_at(colon + 1, end, false, &v))
		set_int(ev, KF_PID, &ev->pid, v);
	set_comm(ev, p, (size_t)(colon - p));
}

/* "... process PID (COMM) ..." of the OOM killer and the reaper; the
 * command ends at the last ')' before the words after it. */
static void
fields_process(const char *s, size_t n, struct kmsg_event *ev)
{
	const char *p = find(s, n, "process "), *end = s + n, *open, *close, *stop;
	long long v;

	if (!p)
		return;
	p += strlen("process ");
	if (number_at(p, end, false, &v))
		set_int(ev, KF_PID, &ev->pid, v);
	if ((open = memchr(p, '(', (size_t)(end - p)))) {
		stop = find(open, (size_t)(end - open), " total-vm:");
		if (!stop)
			stop = find(open, (size_t)(end - open), ", now ");
		if (!stop)
			stop = find(open, (size_t)(end - open), " score ");
		if (!stop)
			stop = end;
		if ((close = find_last(open + 1, (size_t)(stop - open - 1), ')')))
			set_comm(ev, open + 1, (size_t)(close - open - 1));
	}
	if (number_after(s, n, "anon-rss:", false, &v)) {
		ev->anon_kb = (uint64_t)v;
		ev->has |= KF_ANON;
	}
	if (number_after(s, n, "file-rss:", false, &v)) {
		ev->file_kb = (uint64_t)v;
		ev->has |= KF_FILE;
	}
	if (number_after(s, n, "shmem-rss:", false, &v)) {
		ev->shmem_kb = (uint64_t)v;
		ev->has |= KF_SHMEM;
	}
}

static void
fields_alloc(const char *s, size_t n, struct kmsg_event *ev)
{
	static const char *const anchors[] = {
		": page allocation failure", ": page allocation stalls for",
		": vmalloc error:", ": vmalloc: allocation failure",
	};
	long long v;

	for (size_t i = 0; i < sizeof(anchors) / sizeof(anchors[0]); i++) {
		const char *a = find(s, n, anchors[i]);

		if (a) {
			set_comm(ev, s, (size_t)(a - s));
			break;
		}
	}
	if (number_after(s, n, "order:", false, &v) || number_after(s, n, "page order ", false, &v))
		set_int(ev, KF_ORDER, &ev->order, v);
	if (hex_after(s, n, "mode:", &ev->gfp) || hex_after(s, n, "gfp=", &ev->gfp))
		ev->has |= KF_GFP;
}

/* The device an I/O or filesystem error names: after the first of the
 * kernel's words for it that the line has, up to ',', ')', ':' or a space,
 * without a last '.' ("on device sda1-8."). */
static void
fields_dev(const char *s, size_t n, struct kmsg_event *ev)
{
	static const char *const before[] = {
		"(device ", "-fs (", ", dev ", "end_request: dev ", " on device ", " on dev ",
		" data on ", "superblock for ", "I/O error on ",
	};
	const char *end = s + n, *p = NULL, *q;
	size_t k;

	for (size_t i = 0; !p && i < sizeof(before) / sizeof(before[0]); i++)
		if ((p = find(s, n, before[i])))
			p += strlen(before[i]);
	/* iomap: "sde4: writeback error on inode 4240163, ..." */
	if (!p && (q = find(s, n, ": writeback error on inode ")))
		p = s, end = q;
	if (!p)
		return;
	for (q = p; q < end && *q != ',' && *q != ')' && *q != ':' && *q != ' '; q++)
		;
	k = (size_t)(q - p);
	if (k > 0 && p[k - 1] == '.')
		k--;
	if (k == 0 || k >= sizeof(ev->dev))
		return;
	memcpy(ev->dev, p, k);
	ev->dev[k] = '\0';
	ev->has |= KF_DEV;
}

void
kmsg_fields(enum kmsg_kind kind, const char *s, size_t n, struct kmsg_event *ev)
{
	const char *p, *q, *end = s + n;
	long long v;

	switch (kind) {
	case KMSG_ALLOC_FAILURE:
	case KMSG_ALLOC_STALL:
		fields_alloc(s, n, ev);
		break;
	case KMSG_HUNG_TASK:
		/* The name starts after "task ": "task  blocked" has none. */
		if ((p = find(s, n, "task ")) &&
		    (q = find(p + strlen("task "), (size_t)(end - p) - strlen("task "),
			      " blocked for more than "))) {
			comm_colon_pid(ev, p + strlen("task "), q);
			if (number_at(q + strlen(" blocked for more than "), end, false, &v) &&
			    v <= UINT32_MAX) {
				ev->seconds = (uint32_t)v;
				ev->has |= KF_SECONDS;
			}
		}
		break;
	case KMSG_OOM_INVOKED:
		if ((p = find(s, n, " invoked oom-killer")))
			set_comm(ev, s, (size_t)(p - s));
		if (hex_after(s, n, "gfp_mask=", &ev->gfp))
			ev->has |= KF_GFP;
		if (number_after(s, n, "order=", true, &v))
			set_int(ev, KF_ORDER, &ev->order, v);
		break;
	case KMSG_OOM_KILL:
	case KMSG_OOM_REAPED:
		fields_process(s, n, ev);
		break;
	case KMSG_LOCKUP:
		if (number_after(s, n, "stuck for ", false, &v) && v <= UINT32_MAX) {
			ev->seconds = (uint32_t)v;
			ev->has |= KF_SECONDS;
		}
		/* "... stuck for 22s! [kswapd0:98]" */
		if ((q = find_last(s, n, ']')) && (p = find_last(s, (size_t)(q - s), '[')))
			comm_colon_pid(ev, p + 1, q);
		break;
	case KMSG_IO_ERROR:
	case KMSG_FS_ERROR:
		fields_dev(s, n, ev);
		/* ext4: "...: comm touch: Detected aborted journal" */
		if ((p = find(s, n, ": comm ")) &&
		    (q = find(p + strlen(": comm "), (size_t)(end - p) - strlen(": comm "), ": ")))
			set_comm(ev, p + strlen(": comm "), (size_t)(q - p) - strlen(": comm "));
		break;
	case KMSG_BAD_PAGE:
		if ((p = find(s, n, " in process "))) {
			p += strlen(" in process ");
			q = find(p, (size_t)(end - p), "  pfn:");
			set_comm(ev, p, (size_t)((q ? q : end) - p));
		}
		break;
	default:
		break;
	}
}

size_t
kmsg_event_first_line(const struct kmsg_event *ev)
{
	const char *nl = memchr(ev->text, '\n', strnlen(ev->text, sizeof(ev->text)));

	return nl ? (size_t)(nl - ev->text) : strnlen(ev->text, sizeof(ev->text));
}

void
kmsg_event_brief(const struct kmsg_event *ev, char *dst, size_t size)
{
	char a[16], f[16];
	size_t n = 0;

#define ADD(...) do { if (n < size) n += (size_t)snprintf(dst + n, size - n, __VA_ARGS__); } while (0)
	if (size == 0)
		return;
	dst[0] = '\0';
	/* The kernel's words say it best: the device and what failed on it. */
	if (ev->kind == KMSG_IO_ERROR || ev->kind == KMSG_FS_ERROR)
		goto first_line;
	if (ev->has & KF_COMM)
		ADD("%s", ev->comm);
	if (ev->has & KF_PID)
		ADD("%s%d", ev->has & KF_COMM ? ":" : "pid ", ev->pid);
	switch (ev->kind) {
	case KMSG_HUNG_TASK:
		if (ev->has & KF_SECONDS)
			ADD(" blocked %us", ev->seconds);
		break;
	case KMSG_LOCKUP:
		if (ev->has & KF_SECONDS)
			ADD(" stuck %us", ev->seconds);
		break;
	case KMSG_OOM_KILL:
		if (ev->has & (KF_ANON | KF_FILE)) {
			fmt_kib(ev->anon_kb, a, sizeof(a));
			fmt_kib(ev->file_kb, f, sizeof(f));
			ADD(" anon %s file %s", a, f);
		}
		break;
	default:
		if (ev->has & KF_ORDER)
			ADD(" order:%d", ev->order);
		if (ev->has & KF_GFP)
			ADD(" mode:%#x", ev->gfp);
		break;
	}
#undef ADD
	if (dst[0] == ' ')
		memmove(dst, dst + 1, strlen(dst));
first_line:
	if (dst[0] == '\0' || ev->has == 0)
		snprintf(dst, size, "%.*s", (int)kmsg_event_first_line(ev), ev->text);
	if (kmsg_event_count(ev) > 1) {
		char times[32];
		size_t k = (size_t)snprintf(times, sizeof(times), " (%u times)", kmsg_event_count(ev));
		size_t at = strlen(dst);

		/* The count stays whole: it cuts the text short rather than be cut. */
		if (k + 1 > size)
			return;
		if (at + k + 1 > size)
			at = size - k - 1;
		memcpy(dst + at, times, k + 1);
	}
}

uint32_t
kmsg_event_count(const struct kmsg_event *ev)
{
	return ev->count ? ev->count : 1;
}

bool
kmsg_event_repeats(const struct kmsg_event *a, const struct kmsg_event *b)
{
	return a->kind == b->kind && b->ts_us >= a->ts_us && b->ts_us - a->ts_us <= KMSG_MERGE_US &&
	    a->truncated == b->truncated && a->lines == b->lines && strcmp(a->text, b->text) == 0;
}

double
kmsg_event_wall(const struct kmsg_event *ev, double sample_wall, double sample_mono)
{
	double t = (double)ev->ts_us / 1e6;

	if (!(t > sample_mono - 86400 && t < sample_mono + 60))
		return sample_wall;
	return sample_wall - (sample_mono - t);
}

void
kmsg_reason(int err, char *dst, size_t size)
{
	switch (err) {
	case 0:
		snprintf(dst, size, "ok");
		break;
	case EPERM:
	case EACCES:
		snprintf(dst, size, "permission denied: needs root (or sysctl kernel.dmesg_restrict=0)");
		break;
	case ENOENT:
		snprintf(dst, size, "not present");
		break;
	default:
		snprintf(dst, size, "%s", strerror(err));
		break;
	}
}
