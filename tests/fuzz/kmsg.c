/*
 * The kernel log on any bytes: kmsg_record_parse() on one record, and the
 * source (records, continuation lines, events) on a stream of them. What
 * must hold: a record's text lies inside the input and unescapes to
 * nothing a terminal would act on; events are of known kinds with
 * terminated strings, never more than a sample holds; and a record that
 * is not the kernel's own (facility other than 0) never makes an event.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "source/kmsg-source.h"
#include "parse/kmsg.h"

static struct kmsg_sample out;

static void
check_events(const char *what)
{
	char brief[160];

	if (out.n < 0 || out.n > KMSG_MAX_EVENTS)
		fuzz_fail("kmsg %s: %d events", what, out.n);
	for (int i = 0; i < out.n; i++) {
		const struct kmsg_event *ev = &out.ev[i];

		if (ev->kind < 0 || ev->kind >= KMSG_KIND_COUNT)
			fuzz_fail("kmsg %s: event %d of kind %d", what, i, ev->kind);
		if (!memchr(ev->text, '\0', sizeof(ev->text)) ||
		    !memchr(ev->comm, '\0', sizeof(ev->comm)) ||
		    !memchr(ev->dev, '\0', sizeof(ev->dev)))
			fuzz_fail("kmsg %s: event %d has an unterminated string", what, i);
		if (kmsg_event_first_line(ev) > strlen(ev->text))
			fuzz_fail("kmsg %s: event %d's first line is longer than its text", what, i);
		if (ev->count < 1 || ((ev->has & KF_DEV) && !ev->dev[0]))
			fuzz_fail("kmsg %s: event %d: count %u, device \"%s\"", what, i, ev->count,
				  ev->dev);
		/* Repeats are counted, never two rows. */
		for (int j = 0; j < i; j++)
			if (kmsg_event_repeats(&out.ev[j], ev))
				fuzz_fail("kmsg %s: events %d and %d are one printed twice", what, j, i);
		kmsg_event_brief(ev, brief, sizeof(brief));
		if (!memchr(brief, '\0', sizeof(brief)))
			fuzz_fail("kmsg %s: event %d's brief is unterminated", what, i);
	}
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	struct kmsg_record rec;
	struct kmsg_source *ks;
	char text[512];
	size_t n;

	if (kmsg_record_parse((const char *)data, len, &rec, &err) == 0) {
		if (rec.text.s < (const char *)data || rec.text.s + rec.text.len > (const char *)data + len)
			fuzz_fail("kmsg: the text lies outside the record");
		if (rec.level < 0 || rec.level > 7)
			fuzz_fail("kmsg: level %d", rec.level);
		n = kmsg_unescape(rec.text, text, sizeof(text));
		if (n >= sizeof(text) || text[n] != '\0')
			fuzz_fail("kmsg: unescaped %zu bytes into %zu", n, sizeof(text));
		for (size_t i = 0; i < n; i++)
			if (((unsigned char)text[i] < ' ' && text[i] != '\n') || text[i] == 0x7f)
				fuzz_fail("kmsg: control byte 0x%02x left in the text", (unsigned char)text[i]);
		/* Not the kernel's own: never an event, whatever the text says. */
		if (rec.facility != 0) {
			memset(&out, 0, sizeof(out));
			ks = kmsg_source_open(NULL, NULL);
			kmsg_source_feed(ks, (const char *)data, len, &out);
			kmsg_source_flush(ks, &out);
			kmsg_source_close(ks);
			if (out.n != 0)
				fuzz_fail("kmsg: a record of facility %u made an event", rec.facility);
		}
	} else {
		fuzz_check_error("kmsg", &err, data, len);
	}

	/* The bytes as a stream of records, whole and then in two pieces. */
	memset(&out, 0, sizeof(out));
	ks = kmsg_source_open(NULL, NULL);
	kmsg_source_feed(ks, (const char *)data, len, &out);
	kmsg_source_flush(ks, &out);
	kmsg_source_close(ks);
	check_events("stream");
	memset(&out, 0, sizeof(out));
	ks = kmsg_source_open(NULL, NULL);
	kmsg_source_feed(ks, (const char *)data, len / 2, &out);
	kmsg_source_feed(ks, (const char *)data + len / 2, len - len / 2, &out);
	kmsg_source_flush(ks, &out);
	kmsg_source_close(ks);
	check_events("stream in two");
}

FUZZ_TARGET(kmsg, run, "tests/fixtures/kmsg")
