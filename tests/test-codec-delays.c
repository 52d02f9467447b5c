/*
 * The DELAYS field (31): every figure of struct delays comes back equal
 * from the codec; a sample without delay accounting writes no field (an
 * older reader sees nothing new); damaged fields are refused, not read
 * out of bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/delays.h"
#include "model/sample.h"
#include "ptrec/codec.h"
#include "tap.h"

#define CAP	(1u << 20)

static uint8_t buf[CAP];

static struct sample *
new_sample(void)
{
	struct sample *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (int i = 0; i < SRC_COUNT; i++) {
		s->status[i].err = 2;	/* ENOENT: no chunks needed */
		snprintf(s->status[i].msg, sizeof(s->status[i].msg), "off");
	}
	return s;
}

/* Each number its own value, from v on. */
static void
fill(struct delays *dl, uint64_t v)
{
	memset(dl, 0, sizeof(*dl));
	dl->state = DELAYS_ON;
	snprintf(dl->why, sizeof(dl->why), "note %llu", (unsigned long long)v);
	dl->version = (uint32_t)v++;
	dl->kinds = (1u << DELAY_KIND_COUNT) - 1;
	dl->ran = (uint32_t)v++;
	dl->asked = (uint32_t)v++;
	dl->answered = (uint32_t)v++;
	dl->first_seen = (uint32_t)v++;
	dl->gone = (uint32_t)v++;
	for (int k = 0; k < DELAY_KIND_COUNT; k++) {
		dl->total_ns[k] = (v++) * 1000003u;
		dl->total_count[k] = v++;
	}
	dl->n_top = DELAYS_TOP_TASKS;
	for (int i = 0; i < DELAYS_TOP_TASKS; i++) {
		struct delay_task *t = &dl->top[i];

		t->tid = (int32_t)(v++ * (i & 1 ? 1 : -1));
		t->tgid = (int32_t)v++;
		snprintf(t->comm, sizeof(t->comm), "task\x1b[%d", i);
		for (int k = 0; k < DELAY_KIND_COUNT; k++) {
			t->ns[k] = (v++) << 20;
			t->count[k] = (uint32_t)v++;
		}
	}
}

int
main(void)
{
	struct sample *a = new_sample(), *d = new_sample();
	struct parse_error err = { 0 };
	ssize_t n, none;
	int bad = 0;

	none = codec_encode(a, NULL, buf, CAP);
	fill(&a->delays, 7);
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(n > none, "delays add a field (%zd bytes against %zd)", n, none);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, d, NULL, &err) == 0,
	    "and decode: %s", err.msg);
	tap_ok(memcmp(&a->delays, &d->delays, sizeof(a->delays)) == 0,
	    "every figure comes back equal");
	/* A delta sample: the field is whole again (a tick's own figures). */
	n = codec_encode(a, a, buf, CAP);
	memset(&d->delays, 0, sizeof(d->delays));
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, a, d, NULL, &err) == 0 &&
	    memcmp(&a->delays, &d->delays, sizeof(a->delays)) == 0,
	    "and in a delta sample: %s", err.msg);

	a->delays.state = DELAYS_OFF;
	snprintf(a->delays.why, sizeof(a->delays.why), "kernel.task_delayacct is 0");
	n = codec_encode(a, NULL, buf, CAP);
	tap_ok(n > 0 && codec_decode(buf, (size_t)n, NULL, d, NULL, &err) == 0 &&
	    d->delays.state == DELAYS_OFF && strcmp(d->delays.why, a->delays.why) == 0,
	    "off, with its why");
	memset(&a->delays, 0, sizeof(a->delays));
	tap_eq_int((int)codec_encode(a, NULL, buf, CAP), (int)none,
	    "none: not a byte more than a sample without them");

	/* Every cut of a sample with delays is refused or reads within the
	 * struct (ASan watches the bounds). */
	fill(&a->delays, 99);
	n = codec_encode(a, NULL, buf, CAP);
	for (ssize_t cut = none; cut < n; cut++) {
		if (codec_decode(buf, (size_t)cut, NULL, d, NULL, &err) == 0 &&
		    d->delays.n_top > DELAYS_TOP_TASKS)
			bad++;
	}
	tap_eq_int(bad, 0, "a field cut anywhere never holds more tasks than the struct");
	free(a);
	free(d);
	return tap_done();
}
