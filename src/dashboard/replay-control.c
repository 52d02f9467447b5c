/*
 * Replay control. The history holds the samples decoded so far around the
 * one shown; a seek decodes from the keyframe before the target, with the
 * samples before it so the charts have their past. Play advances at the
 * recorded pace times the speed. n and N search the recording in order
 * for the next moment of the kinds chosen (replay-events.c), ' and " for
 * the next mark.
 */
#include "dashboard/replay-control.h"
#include "dashboard/replay-events.h"
#include "util/arith.h"
#include "util/fmt.h"
#include "util/when.h"
#include "views/draw.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void
replay_control_init(struct replay_control *rc, struct feed *f, struct history *h,
		    struct events *ev)
{
	*rc = (struct replay_control){ .f = f, .h = h, .ev = ev, .n = feed_count(f), .speed = 1,
				  .kinds = REPLAY_STOP_DEFAULT };
}

size_t
replay_control_shown(const struct replay_control *rc)
{
	return rc->hist_base + (size_t)rc->seq;
}

/* Sample i into the feed's tick; a message when it cannot be decoded. */
static bool
replay_control_load(struct replay_control *rc, size_t i)
{
	if (feed_seek(rc->f, i) < 0) {
		snprintf(rc->message, sizeof(rc->message), "%.250s", rc->f->why);
		return false;
	}
	return true;
}

void
replay_control_load_shown(struct replay_control *rc)
{
	if (rc->f->at != replay_control_shown(rc))
		replay_control_load(rc, replay_control_shown(rc));
}

/* Pushes sample i, decoded, into the history. */
static bool
replay_control_push(struct replay_control *rc, size_t i)
{
	struct tick *t = &rc->f->tick;

	if (!replay_control_load(rc, i))
		return false;
	history_push(rc->h, t->s, tick_groups(t));
	events_push(rc->ev, rc->h->next - 1, t->s);
	return true;
}

/* A damaged stretch is skipped over. */
void
replay_control_goto(struct replay_control *rc, size_t target)
{
	size_t start, cap = rc->h->cap;

	if (rc->n == 0)
		return;
	if (target >= rc->n)
		target = rc->n - 1;
	start = target > REPLAY_BEFORE ? target - REPLAY_BEFORE : 0;
	if (target - start >= cap)
		start = target - cap + 1;
	history_reset(rc->h);
	events_reset(rc->ev);
	rc->hist_base = start;
	for (size_t i = start; i <= target; i++)
		if (!replay_control_push(rc, i)) {
			/* Keep the history's seqs in step with the recording's indices. */
			history_reset(rc->h);
			events_reset(rc->ev);
			rc->hist_base = i + 1;
		}
	if (rc->h->next == 0) {
		rc->hist_base = target;
		rc->seq = 0;
		return;
	}
	rc->seq = rc->h->next - 1;
}

/* One sample forward: from the history if it holds it, else decoded. */
static void
replay_control_forward(struct replay_control *rc)
{
	size_t p = replay_control_shown(rc);
	uint64_t first, last;

	if (p + 1 >= rc->n) {
		rc->playing = false;
		return;
	}
	if (history_range(rc->h, &first, &last) && rc->seq < last) {
		rc->seq++;
		return;
	}
	if (replay_control_push(rc, p + 1))
		rc->seq = rc->h->next - 1;
	else
		replay_control_goto(rc, p + 1);
}

void
replay_control_show(struct replay_control *rc, size_t target)
{
	uint64_t first, last;

	if (rc->n == 0 || target == replay_control_shown(rc))
		return;
	if (target >= rc->hist_base && history_range(rc->h, &first, &last) &&
	    target - rc->hist_base >= first && target - rc->hist_base <= last) {
		rc->seq = target - rc->hist_base;
		return;
	}
	if (target == replay_control_shown(rc) + 1)
		replay_control_forward(rc);
	else
		replay_control_goto(rc, target);
}

static void
replay_control_back(struct replay_control *rc)
{
	uint64_t first, last;
	size_t p = replay_control_shown(rc);

	if (p == 0)
		return;
	if (history_range(rc->h, &first, &last) && rc->seq > first)
		rc->seq--;
	else
		replay_control_goto(rc, p - 1);
}

double
replay_control_play(struct replay_control *rc)
{
	size_t p = replay_control_shown(rc);
	double dt = p + 1 < rc->n ? feed_time_of(rc->f, p + 1) - feed_time_of(rc->f, p) : 1;

	replay_control_forward(rc);
	return arith_min(arith_max(dt / rc->speed, 0.01), 5);
}

/* n, N, ' or ": to the stop found, saying what it is. */
static void
replay_control_stop(struct replay_control *rc, int ch)
{
	size_t at, p = replay_control_shown(rc);
	unsigned what = REPLAY_STOP_MARK;
	bool fwd = ch == 'n' || ch == '\'';

	rc->playing = false;
	if (ch == 'n' || ch == 'N')
		at = replay_events_find(rc->f, p, rc->n, rc->kinds, fwd ? 1 : -1, &what);
	else
		at = replay_events_mark(rc->f, p, fwd ? 1 : -1);
	/* The search moved the feed: back to the sample shown. */
	replay_control_load_shown(rc);
	if (at == SIZE_MAX) {
		snprintf(rc->message, sizeof(rc->message), "no %s %s", fwd ? "later" : "earlier",
			 ch == 'n' || ch == 'N' ? "event of the kinds f chose" : "mark");
		return;
	}
	replay_control_goto(rc, at);
	replay_events_describe(rc->f, at, what, rc->message, sizeof(rc->message));
}

bool
replay_control_key(struct replay_control *rc, int ch)
{
	static const double speeds[] = { 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64 };
	int k = 0;

	while (k < 8 && speeds[k] < rc->speed)
		k++;
	switch (ch) {
	case ' ':
		rc->playing = !rc->playing;
		if (rc->playing && replay_control_shown(rc) + 1 >= rc->n)
			replay_control_goto(rc, 0);
		return true;
	case KEY_LEFT:
		rc->playing = false;
		replay_control_back(rc);
		return true;
	case KEY_RIGHT:
		rc->playing = false;
		replay_control_forward(rc);
		return true;
	case KEY_HOME:
		replay_control_goto(rc, 0);
		return true;
	case KEY_END:
		rc->playing = false;
		replay_control_goto(rc, rc->n - 1);
		return true;
	case '-':
	case '[':
		rc->speed = speeds[k > 0 ? k - 1 : 0];
		return true;
	case '+':
	case '=':
	case ']':
		rc->speed = speeds[k < 8 && speeds[k] <= rc->speed ? k + 1 : k];
		return true;
	case 'n':
	case 'N':
	case '\'':
	case '"':
		replay_control_stop(rc, ch);
		return true;
	}
	return false;
}

/* Mark i of the feed's marks (its gaps skipped), for util/when.h. */
static bool
replay_control_mark(const void *ctx, size_t i, struct when_mark *m)
{
	size_t n, k = 0;
	const struct feed_mark *fm = feed_marks(ctx, &n);

	for (size_t j = 0; j < n; j++)
		if (fm[j].kind == FEED_MARK && k++ == i) {
			*m = (struct when_mark){ fm[j].wall, fm[j].sample, fm[j].text };
			return true;
		}
	return false;
}

static size_t
replay_control_find(const void *ctx, double t)
{
	return feed_find(ctx, t);
}

void
replay_control_go(struct replay_control *rc, const char *text)
{
	struct when_span span;
	char why[WHEN_WHY_MAX];
	double t;

	if (rc->n == 0)
		return;
	span = (struct when_span){
		.first = feed_time_of(rc->f, 0), .last = feed_time_of(rc->f, rc->n - 1),
		.count = rc->n, .mark = replay_control_mark, .find = replay_control_find,
		.ctx = rc->f,
	};
	if (when_parse(text, &span, &t, why, sizeof(why)) < 0)
		snprintf(rc->message, sizeof(rc->message), "%s", why);
	else
		replay_control_goto(rc, when_pick(&span, t));
}

/* The column of sample i on a line of w. */
static int
replay_control_x(const struct replay_control *rc, size_t i, int w)
{
	return 1 + (int)((double)i * (w - 1) / (double)(rc->n > 1 ? rc->n - 1 : 1));
}

/* Did samples come faster than the recording's interval in [lo, hi]?
 * More samples than the stretch's time holds at the interval: a burst
 * of a few fast samples shows in a column of thousands. */
static bool
replay_control_burst_in(const struct replay_control *rc, size_t lo, size_t hi)
{
	double iv = rc->f->interval, span;

	if (hi <= lo || !(iv > 0))
		return false;
	span = feed_time_of(rc->f, hi) - feed_time_of(rc->f, lo);
	if (hi - lo < 8)	/* a few: each one's interval */
		for (size_t i = lo; i < hi; i++)
			if (feed_time_of(rc->f, i + 1) - feed_time_of(rc->f, i) <
			    FEED_BURST_SHARE * iv)
				return true;
	return (double)(hi - lo) > span / iv + 2.5;
}

void
replay_control_timeline(const struct replay_control *rc, int y, int cols)
{
	size_t nm, p = replay_control_shown(rc);
	const struct feed_mark *m = feed_marks(rc->f, &nm);
	double t0 = rc->n ? feed_time_of(rc->f, 0) : 0;
	double t1 = rc->n ? feed_time_of(rc->f, rc->n - 1) : 0;
	char a[24], b[24];
	int w;

	fmt_duration(rc->n ? feed_time_of(rc->f, p) - t0 : 0, a, sizeof(a));
	fmt_duration(t1 - t0, b, sizeof(b));
	draw_clear_line(y, 0, cols, ST_NORMAL);
	w = cols - (int)strlen(a) - (int)strlen(b) - 6;
	if (w < 10 || rc->n == 0)
		return;
	draw_text(y, 0, cols, ST_DIM, "[");
	/* Columns of fast samples (bursts) as =, each column the samples
	 * whose position falls in it. */
	for (size_t x = 0, lo = 0; x < (size_t)w; x++) {
		size_t hi = rc->n > 1 ? (size_t)((double)(x + 1) * (double)(rc->n - 1) /
						 (double)(w > 1 ? w - 1 : 1)) : 0;

		if (hi >= rc->n)
			hi = rc->n - 1;
		if (hi >= lo && replay_control_burst_in(rc, lo > 0 ? lo - 1 : 0, hi))
			draw_text(y, 1 + (int)x, 1, ST_WARN, draw_utf8() ? "\u2550" : "=");
		else
			draw_text(y, 1 + (int)x, 1, ST_DIM, draw_utf8() ? "\u2500" : "-");
		if (hi + 1 > lo)
			lo = hi + 1;
	}
	/* Gaps first, so that a mark at the same place shows. */
	for (size_t k = 0; k < nm; k++)
		if (m[k].kind == FEED_GAP)
			draw_text(y, replay_control_x(rc, m[k].sample, w), 1, ST_BAD, "!");
	for (size_t k = 0; k < nm; k++)
		if (m[k].kind == FEED_MARK)
			draw_text(y, replay_control_x(rc, m[k].sample, w), 1, ST_WARN, "|");
	draw_text(y, replay_control_x(rc, p, w), 1, ST_SELECTED, "%s", draw_utf8() ? "\u25c6" : "*");
	draw_text(y, 1 + w, cols, ST_DIM, "] %s / %s", a, b);
}
