#include "source/kmsg-source.h"

#include "util/zero-map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A /dev/kmsg read must hold a whole record (the kernel's limit is 8 KiB
 * with its escapes); a file is read in the same buffer a line at a time. */
#define KMSG_BUF		16384
/* Reads per tick, so a flood of messages cannot hold the tick up. */
#define KMSG_READS_PER_TICK	4096

struct kmsg_source {
	int fd;
	int err;
	const struct kmsg_rules *rules;
	struct kmsg_rules builtin;
	char buf[KMSG_BUF];		/* bytes read, not yet taken as lines */
	size_t have;
	bool skipping;			/* in a line too long for buf: up to its end */
	/* The event being assembled. */
	bool open;
	bool fed;			/* it got a record since the last tick */
	struct kmsg_event cur;
	size_t cur_len;
	bool cur_has_caller;
	uint32_t cur_caller;
	uint64_t last_ts;
	/* Records seen, for lost ones (a gap in the kernel's numbers) and messages. */
	bool has_seq;
	uint64_t last_seq;
	uint64_t records;
	uint32_t bad;
	char bad_msg[160];
	char line[KMSG_TEXT_MAX];	/* one record's text, unescaped */
};

struct kmsg_source *
kmsg_source_open(const char *path, const struct kmsg_rules *rules)
{
	/* Mapped: its 34 KB are mostly room (the read buffer, the built-in
	 * rules where none are given), which calloc() could clear whole. */
	struct kmsg_source *ks = zero_map(sizeof(*ks));
	struct stat st;

	if (!ks)
		return NULL;
	if (!rules) {
		kmsg_rules_builtin(&ks->builtin);
		rules = &ks->builtin;
	}
	ks->rules = rules;
	ks->fd = -1;
	if (!path)
		return ks;
	if ((ks->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		ks->err = errno;
		return ks;
	}
	/* The device from now on: what the kernel said before pagetop started
	 * is not news. A file is read from its start. */
	if (fstat(ks->fd, &st) == 0 && S_ISCHR(st.st_mode))
		lseek(ks->fd, 0, SEEK_END);
	return ks;
}

void
kmsg_source_close(struct kmsg_source *ks)
{
	if (!ks)
		return;
	if (ks->fd >= 0)
		close(ks->fd);
	zero_unmap(ks, sizeof(*ks));
}

int
kmsg_source_err(const struct kmsg_source *ks)
{
	return ks->err;
}

uint32_t
kmsg_source_bad(const struct kmsg_source *ks, const char **first)
{
	if (first)
		*first = ks->bad_msg;
	return ks->bad;
}

bool
kmsg_source_add(struct kmsg_sample *out, const struct kmsg_event *ev)
{
	/* The newest first: a repeat is most often of the event just before
	 * it, or of the one before that (a block error, then its buffer's). */
	for (int i = out->n - 1; i >= 0; i--) {
		struct kmsg_event *e = &out->ev[i];

		if (kmsg_event_repeats(e, ev)) {
			uint32_t c = kmsg_event_count(e), more = kmsg_event_count(ev);

			e->count = c > UINT32_MAX - more ? UINT32_MAX : c + more;
			return true;
		}
	}
	if (out->n < KMSG_MAX_EVENTS)
		out->ev[out->n++] = *ev;
	else
		out->dropped++;
	return false;
}

static void
emit(struct kmsg_source *ks, struct kmsg_sample *out)
{
	if (!ks->open)
		return;
	ks->open = false;
	kmsg_source_add(out, &ks->cur);
}

/* Adds text to the event: a new line, or ('+' records of old kernels) the
 * rest of the last one. Whole lines only; what does not fit is counted. */
static void
append(struct kmsg_source *ks, const char *text, size_t n, bool same_line)
{
	struct kmsg_event *ev = &ks->cur;
	size_t need = n + (same_line ? 0 : 1);

	for (size_t i = 0; i < n; i++)
		ev->lines += text[i] == '\n';
	if (!same_line)
		ev->lines++;
	if (ev->truncated || ks->cur_len + need >= sizeof(ev->text)) {
		ev->truncated = true;
		return;
	}
	if (!same_line)
		ev->text[ks->cur_len++] = '\n';
	memcpy(ev->text + ks->cur_len, text, n);
	ks->cur_len += n;
	ev->text[ks->cur_len] = '\0';
	/* An event's first line in fragments: its fields are in the whole of it. */
	if (same_line && ev->lines == 1) {
		unsigned has = ev->has;

		ev->has = 0;
		kmsg_fields(ev->kind, ev->text, ks->cur_len, ev);
		ev->has |= has;
	}
}

static void
start(struct kmsg_source *ks, const struct kmsg_record *r, int kind, size_t n)
{
	struct kmsg_event *ev = &ks->cur;
	const char *nl = memchr(ks->line, '\n', n);

	memset(ev, 0, sizeof(*ev));
	ev->seq = r->seq;
	ev->ts_us = r->ts_us;
	ev->kind = (enum kmsg_kind)kind;
	ev->level = r->level;
	ev->count = 1;
	kmsg_fields(ev->kind, ks->line, nl ? (size_t)(nl - ks->line) : n, ev);
	memcpy(ev->text, ks->line, n + 1);
	ks->cur_len = n;
	ev->lines = 1;
	for (size_t i = 0; i < n; i++)
		ev->lines += ks->line[i] == '\n';
	ks->cur_has_caller = r->has_caller;
	ks->cur_caller = r->caller;
	ks->last_ts = r->ts_us;
	ks->open = true;
	ks->fed = true;
}

/* Is r the next line of the event being assembled? */
static bool
continues(const struct kmsg_source *ks, const struct kmsg_record *r)
{
	if (ks->cur_has_caller && (!r->has_caller || r->caller != ks->cur_caller))
		return false;
	return r->ts_us <= ks->last_ts || r->ts_us - ks->last_ts <= KMSG_CONT_GAP_US;
}

static void
take_record(struct kmsg_source *ks, const char *p, size_t len, struct kmsg_sample *out)
{
	struct kmsg_record r;
	struct parse_error perr;
	size_t n;
	int kind;

	ks->records++;
	if (kmsg_record_parse(p, len, &r, &perr) < 0) {
		if (ks->bad++ == 0)
			snprintf(ks->bad_msg, sizeof(ks->bad_msg), "record %llu: %s",
				 (unsigned long long)ks->records, perr.msg);
		return;
	}
	if (ks->has_seq && r.seq > ks->last_seq + 1)
		out->lost += (uint32_t)(r.seq - ks->last_seq - 1 > UINT32_MAX - out->lost ?
		    UINT32_MAX - out->lost : r.seq - ks->last_seq - 1);
	ks->has_seq = true;
	ks->last_seq = r.seq;
	/* Userspace wrote it (the kernel forces a facility other than 0 on
	 * what is written into /dev/kmsg): never an event, nor part of one. */
	if (r.facility != 0)
		return;
	n = kmsg_unescape(r.text, ks->line, sizeof(ks->line));
	kind = kmsg_rules_match(ks->rules, ks->line, n);
	if (ks->open && kind < 0 && continues(ks, &r)) {
		append(ks, ks->line, n, r.flag == '+');
		ks->last_ts = r.ts_us > ks->last_ts ? r.ts_us : ks->last_ts;
		ks->fed = true;
		return;
	}
	/* Another context's line in the middle of an event it names the caller of. */
	if (ks->open && kind < 0 && ks->cur_has_caller && r.has_caller &&
	    (r.ts_us <= ks->last_ts || r.ts_us - ks->last_ts <= KMSG_CONT_GAP_US))
		return;
	emit(ks, out);
	if (kind < 0)
		return;
	start(ks, &r, kind, n);
	if (!kmsg_kind_multiline(ks->cur.kind))
		emit(ks, out);
}

/* Takes every whole line in buf; keeps the rest at its start. */
static void
take_lines(struct kmsg_source *ks, struct kmsg_sample *out)
{
	size_t at = 0;
	const char *nl;

	while (at < ks->have && (nl = memchr(ks->buf + at, '\n', ks->have - at))) {
		size_t n = (size_t)(nl - (ks->buf + at));

		/* Dictionary lines (" KEY=value") say nothing an event needs. */
		if (ks->skipping)
			ks->skipping = false;
		else if (n > 0 && ks->buf[at] != ' ')
			take_record(ks, ks->buf + at, n, out);
		at += n + 1;
	}
	if (at == 0 && ks->have == sizeof(ks->buf)) {
		if (!ks->skipping && ks->bad++ == 0)
			snprintf(ks->bad_msg, sizeof(ks->bad_msg), "record %llu: longer than %d bytes",
				 (unsigned long long)ks->records + 1, KMSG_BUF);
		ks->skipping = true;
		ks->have = 0;
		return;
	}
	memmove(ks->buf, ks->buf + at, ks->have - at);
	ks->have -= at;
}

void
kmsg_source_feed(struct kmsg_source *ks, const char *p, size_t len, struct kmsg_sample *out)
{
	while (len > 0) {
		size_t room = sizeof(ks->buf) - ks->have, k = len < room ? len : room;

		memcpy(ks->buf + ks->have, p, k);
		ks->have += k;
		p += k;
		len -= k;
		take_lines(ks, out);
	}
}

void
kmsg_source_flush(struct kmsg_source *ks, struct kmsg_sample *out)
{
	if (ks->have > 0 && !ks->skipping && ks->buf[0] != ' ')
		take_record(ks, ks->buf, ks->have, out);
	ks->have = 0;
	ks->skipping = false;
	emit(ks, out);
}

void
kmsg_source_read(struct kmsg_source *ks, struct kmsg_sample *out)
{
	out->read = true;
	out->n = 0;
	out->lost = 0;
	out->dropped = 0;
	ks->fed = false;
	for (int k = 0; ks->fd >= 0 && k < KMSG_READS_PER_TICK; k++) {
		ssize_t n = read(ks->fd, ks->buf + ks->have, sizeof(ks->buf) - ks->have);

		if (n > 0) {
			ks->have += (size_t)n;
			take_lines(ks, out);
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			break;		/* nothing more now (a file's end, a FIFO without writer) */
		if (errno == EINTR || errno == EPIPE)
			continue;	/* EPIPE: records were overwritten; the gap counts them */
		ks->err = errno;	/* the log cannot be read any more */
		close(ks->fd);
		ks->fd = -1;
	}
	/* A whole tick without a line for it: the event is over. */
	if (ks->open && !ks->fed)
		emit(ks, out);
	out->err = ks->err;
}
