/*
 * The tick and the recording feed: what stays in force between reads
 * (the pagetypeinfo read and its time, each source's last status, the
 * kernel-log totals) is kept by tick_update(), and a recording reached by
 * a jump gives the same tick as one read in order.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/feed.h"
#include "model/tick.h"
#include "source/replay.h"
#include "tap.h"

#ifndef DATADIR_SRC
#define DATADIR_SRC "data"
#endif
#define RECORDING DATADIR_SRC "/sample-build-6.18.ptrec"

static void
test_in_force(void)
{
	struct sample *s = calloc(1, sizeof(*s));
	struct tick t;
	char why[300];
	int r;

	if (!s) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	r = tick_init(&t, why, sizeof(why));
	tap_ok(r != -ENOMEM, "tick_init: %s", r ? why : "the installed table");
	t.s = s;
	tap_ok(tick_kmsg_total(&t) == NULL, "no kernel log read yet: no totals");
	tap_eq_int(t.status[SRC_PAGETYPEINFO].err, SRC_NOT_READ, "no source read yet");

	/* A tick that reads pagetypeinfo. */
	for (int i = 0; i < SRC_COUNT; i++)
		s->status[i].err = 0;
	s->status[SRC_TASKS].err = ENOENT;	/* captured files: no task scan */
	s->wall = 100;
	s->pti.n_types = 1;
	s->kmsg.read = true;
	s->kmsg.n = 2;
	s->kmsg.ev[0].kind = KMSG_OOM_KILL;
	s->kmsg.ev[1].kind = KMSG_OOM_KILL;
	tick_update(&t);
	tap_ok(t.have_pti && t.pti_wall == 100 && t.pti->n_types == 1,
	       "a pagetypeinfo read is in force, with its time");
	tap_ok(tick_kmsg_total(&t) && tick_kmsg_total(&t)[KMSG_OOM_KILL] == 2,
	       "kernel events counted per kind");

	/* The next does not read it: the last read stays, and its status. */
	memset(&s->pti, 0, sizeof(s->pti));
	s->status[SRC_PAGETYPEINFO].err = SRC_NOT_READ;
	s->status[SRC_VMSTAT].err = ENOENT;
	s->wall = 101;
	s->kmsg.n = 1;
	tick_update(&t);
	tap_ok(t.have_pti && t.pti_wall == 100 && t.pti->n_types == 1,
	       "between reads, the last read and its time stay in force");
	tap_eq_int(t.status[SRC_PAGETYPEINFO].err, 0, "... and its status");
	tap_eq_int(t.status[SRC_VMSTAT].err, ENOENT, "a source read now gives its status now");
	tap_eq_u64(tick_kmsg_total(&t)[KMSG_OOM_KILL], 3, "kernel events add up");

	/* A read that fails ends what was in force. */
	s->status[SRC_PAGETYPEINFO].err = EACCES;
	tick_update(&t);
	tap_ok(!t.have_pti, "a failed read: no pagetypeinfo in force");
	tap_eq_int(t.status[SRC_PAGETYPEINFO].err, EACCES, "... and it says why");
	tap_ok(!t.have_groups, "no task scan in the sample: no groups");

	tick_reset(&t);
	tap_ok(!t.have_pti && !tick_kmsg_total(&t) && t.n == 0, "reset forgets what was in force");
	tick_free(&t);
	free(s);
}

/* What the tick holds of one sample, to compare two ways of reaching it. */
struct seen {
	double wall, pti_wall;
	bool have_pti, prev;
	int groups;
};

static struct seen
seen_of(struct tick *t)
{
	return (struct seen){ t->s->wall, t->have_pti ? t->pti_wall : 0, t->have_pti,
			      t->prev != NULL, tick_groups(t) ? tick_groups(t)->n : -1 };
}

static void
test_feed(void)
{
	struct feed *a, *b;
	struct seen *in_order;
	char why[300];
	size_t n, bad = 0, bad_prev = 0, nm;
	const struct feed_mark *m;
	int r;

	if (!(a = replay_feed_open(RECORDING, why, sizeof(why))) ||
	    !(b = replay_feed_open(RECORDING, why, sizeof(why)))) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	n = feed_count(a);
	tap_ok(n > 100, "the bundled recording has %zu samples", n);
	tap_ok(!a->live && a->interval > 0 && a->pti_every > 0,
	       "a recording's feed: not live, interval %g s, pagetypeinfo every %g s",
	       a->interval, a->pti_every);
	if (!(in_order = calloc(n, sizeof(*in_order)))) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (size_t i = 0; (r = feed_next(a)) == 0; i++)
		in_order[i] = seen_of(&a->tick);
	tap_eq_int(r, 1, "next() ends with 1 at the end of the recording");
	tap_eq_u64(a->at, n - 1, "... after the last sample");
	tap_ok(in_order[n - 1].have_pti && in_order[n - 1].pti_wall < in_order[n - 1].wall,
	       "the last sample has a pagetypeinfo read in force from before it");

	/* Every sample reached by a jump, backwards so none is in order. */
	for (size_t i = n; i-- > 0;) {
		struct seen s;

		if (feed_seek(b, i) < 0) {
			bad++;
			continue;
		}
		s = seen_of(&b->tick);
		if (s.wall != in_order[i].wall || s.have_pti != in_order[i].have_pti ||
		    s.pti_wall != in_order[i].pti_wall || s.groups != in_order[i].groups)
			bad++;
		if (i > 0 && !s.prev)
			bad_prev++;
	}
	tap_eq_u64(bad, 0, "a jump to each of the %zu samples gives the tick read in order "
		   "(time, pagetypeinfo in force and its time, task groups)", n);
	tap_eq_u64(bad_prev, 0, "... with the sample before it");

	m = feed_marks(a, &nm);
	bad = 0;
	for (size_t k = 1; k < nm; k++)
		if (m[k].sample < m[k - 1].sample)
			bad++;
	tap_eq_u64(bad, 0, "the feed's %zu marks and gaps come in sample order", nm);
	tap_eq_int(feed_seek(a, n), -ERANGE, "a seek past the end is -ERANGE");
	free(in_order);
	feed_close(a);
	feed_close(b);
}

int
main(void)
{
	test_in_force();
	test_feed();
	return tap_done();
}
