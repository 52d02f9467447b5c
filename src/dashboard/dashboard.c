/*
 * The dashboard shell: one run function for a live feed and a recording
 * alike. One poll() waits for a key, a mark from `pagetop mark` or the
 * next tick. Live, a tick takes the feed's next sample into the history
 * (and the recording, when R records) and redraws; on a recording, the
 * replay control moves and the shell redraws. Nothing is allocated once
 * the loop runs.
 */
#include "dashboard/dashboard-int.h"
#include "dashboard/replay-events.h"
#include "util/arith.h"
#include "util/clock.h"
#include "util/quit.h"
#include "util/zero-map.h"
#include "views/curses-vars.h"
#include "views/draw.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A burst's first sample comes no sooner than the shortest interval
 * after the last (a trigger may fire just after a sample). */
#define DASHBOARD_BURST_SOONEST	0.1
#define HELP_VIEW	(VIEW_COUNT - 1)

bool
dashboard_has_terminal(void)
{
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return true;
	fprintf(stderr, "pagetop: the dashboard needs a terminal; without one, use "
		"'pagetop snapshot' for one reading or 'pagetop record' to record\n");
	return false;
}

/* Live: the feed's next sample into the history and the recording. */
static void
dashboard_sample(struct dashboard *d)
{
	struct tick *t = &d->f->tick;

	feed_next(d->f);
	history_push(d->h, t->s, tick_groups(t));
	events_push(d->ev, d->h->next - 1, t->s);
	/* The recorder's thread writes; this never waits on the disk. */
	if (recording_active(&d->rec))
		recording_push(&d->rec, t->s);
	d->ticks++;
}

/* Whether `pagetop mark` counts this dashboard: not recording, a mark
 * would be lost, so the sender is told there is none. */
static void
dashboard_marks_taking(struct dashboard *d, bool on)
{
	feed_marks_taken(d->f, on);
}

/* R: start or stop recording the live session (to path, or the default name). */
static void
dashboard_toggle_record(struct dashboard *d, const char *to)
{
	struct recorder_opts ro = { .flush_interval = 5, .pti_every = d->f->pti_every };
	char path[4096], why[512];
	int r;

	if (recording_active(&d->rec)) {
		snprintf(path, sizeof(path), "%s", d->rec.path);
		if ((r = recording_stop(&d->rec, why, sizeof(why))) < 0 && r != -EFBIG)
			chrome_rec_error(path, why, d->message, sizeof(d->message));
		else
			snprintf(d->message, sizeof(d->message), "recorded to %.200s", path);
		dashboard_marks_taking(d, false);
		return;
	}
	if (to)
		snprintf(path, sizeof(path), "%s", to);
	else
		recording_default_path(&d->f->host, path, sizeof(path));
	if (recording_start(&d->rec, path, &d->f->host, d->f->tick.s, d->f->interval,
			    d->o->cmdline ? d->o->cmdline : "", &ro, why, sizeof(why)) < 0) {
		snprintf(d->message, sizeof(d->message), "cannot record: %.200s", why);
		return;
	}
	recording_push(&d->rec, d->f->tick.s);
	dashboard_marks_taking(d, true);
	snprintf(d->message, sizeof(d->message), "recording to %.200s (R stops)", path);
}

/* A mark, typed with m or sent by `pagetop mark`: into the recording. */
static void
dashboard_mark(struct dashboard *d, const char *text)
{
	if (!recording_active(&d->rec)) {
		snprintf(d->message, sizeof(d->message), "not recording: R starts a recording, "
			 "then m marks it");
		return;
	}
	recording_mark(&d->rec, d->f->tick.s->wall, text);
	snprintf(d->message, sizeof(d->message), "marked: %.200s", text);
}

uint64_t
dashboard_shown(struct dashboard *d)
{
	uint64_t first, last;

	if (d->rc)
		return d->rc->seq;
	if (!history_range(d->h, &first, &last))
		return 0;
	if (!d->paused)
		return last;
	if (d->seq < first)
		d->seq = first;
	if (d->seq > last)
		d->seq = last;
	return d->seq;
}

/* What a view reads of feed f with history h (and replay control rc, or
 * NULL live) at entry seq. */
static void
dashboard_ctx_of(struct dashboard *d, struct feed *f, struct history *h,
		 struct replay_control *rc, struct events *ev, uint64_t seq,
		 struct hist_entry *shown, struct view_ctx *ctx)
{
	struct tick *t = &f->tick;
	const struct sample *s;
	uint64_t first, last = 0;

	history_range(h, &first, &last);
	/* A recording holds every sample whole: the one shown is the latest. */
	if (rc) {
		replay_control_load_shown(rc);
		last = rc->seq;
	}
	s = t->s;
	*ctx = (struct view_ctx){
		.h = h,
		.seq = seq,
		.paused = rc ? !rc->playing : d->paused,
		.status = t->status,
		.sensors = s->sensors.available || s->sensors.n || s->sensors.why[0] ?
		    &s->sensors : NULL,
		.tasks = t->have_groups ? &s->tasks : NULL,
		.groups = tick_groups(t),
		.events = ev,
		.kmsg = &s->kmsg,
		.delays = &s->delays,
		.latest = last,
		.now = s->mono,
		.pti_every = f->pti_every,
		.page_size = f->host.page_size > 0 ? f->host.page_size : 4096,
		.filter = d->filter,
		.y = 2,
		.x = 0,
		/* A recording has its timeline above the status line. */
		.rows = LINES - (rc ? 4 : 3),
		.cols = COLS,
	};
	ctx->e = history_entry(h, ctx->seq, shown) ? shown : NULL;
}

/* replay --compare: B to the moment of A's sample shown, plus the offset;
 * before B's start or past its end, B's first or last and b_where says
 * which. */
static void
dashboard_compare_sync(struct dashboard *d)
{
	struct feed *b = d->o->compare;
	size_t nb = d->rcb->n;
	double w = feed_time_of(d->f, replay_control_shown(d->rc)) + d->o->compare_offset;
	double iv = b->interval > 0 ? b->interval : 1;
	size_t target;

	d->b_where = 0;
	if (isnan(w))
		return;		/* a sample without a time: B stays */
	if (w < feed_time_of(b, 0) - 0.0005) {
		d->b_where = -1;
		target = 0;
	} else {
		/* To the millisecond, as times are printed and typed. */
		target = feed_find(b, w + 0.0005);
		if (target + 1 >= nb && w > feed_time_of(b, nb - 1) + iv)
			d->b_where = 1;
	}
	replay_control_show(d->rcb, target);
}

/* What a view gets to read, for drawing and for keys alike. */
static void
dashboard_ctx(struct dashboard *d, struct view_ctx *ctx)
{
	if (d->rcb) {
		dashboard_compare_sync(d);
		dashboard_ctx_of(d, d->o->compare, d->hb, d->rcb, d->evb, d->rcb->seq, &d->shown_b,
				 &d->ctx_b);
	}
	/* A last, so that the feeds' ticks hold what each shows. */
	dashboard_ctx_of(d, d->f, d->h, d->rc, d->ev, dashboard_shown(d), &d->shown, ctx);
	ctx->b = d->rcb && d->b_where == 0 ? &d->ctx_b : NULL;
}

static void
dashboard_draw(struct dashboard *d)
{
	struct view_ctx ctx;

	dashboard_ctx(d, &ctx);
	erase();
	chrome_header(d, ctx.seq);
	chrome_tabs(d);
	if (ctx.rows > 0)
		view_table[d->view]->draw(&ctx, d->state[d->view]);
	if (d->rc)
		replay_control_timeline(d->rc, LINES - 2, COLS);
	chrome_status(d);
	refresh();
}

static void
dashboard_show_view(struct dashboard *d, int v)
{
	if (v == d->view)
		return;
	if (v == HELP_VIEW)
		d->prev_view = d->view;
	d->view = v;
}

static void
dashboard_step(struct dashboard *d, int64_t by)
{
	uint64_t first, last, cur;

	if (!history_range(d->h, &first, &last))
		return;
	cur = dashboard_shown(d);
	d->paused = true;
	if (by < 0 && cur - first < (uint64_t)-by)
		d->seq = first;
	else if (by > 0 && last - cur < (uint64_t)by)
		d->seq = last;
	else
		d->seq = cur + (uint64_t)by;
}

/* The f prompt: digits toggle the kinds n and N stop at; anything else
 * leaves it. */
static void
dashboard_kinds_key(struct dashboard *d, int ch)
{
	unsigned bit = ch >= '1' && ch <= '9' ? replay_events_kind(ch - '1', NULL) : 0;

	if (bit) {
		d->rc->kinds ^= bit;
		return;
	}
	d->prompt = 0;
	if (!d->rc->kinds)
		snprintf(d->message, sizeof(d->message), "n and N stop at nothing now (f chooses)");
}

/* Keys while typing a filter, a mark or a time, or choosing kinds. */
static void
dashboard_edit_key(struct dashboard *d, int ch)
{
	enum edit_result r;

	if (d->filtering) {
		r = draw_edit_key(d->filter, sizeof(d->filter), ch);
		if (r == EDIT_CANCEL)
			d->filter[0] = '\0';
		if (r != EDIT_MORE)
			d->filtering = false;
		return;
	}
	if (d->prompt == 'f') {
		dashboard_kinds_key(d, ch);
		return;
	}
	r = draw_edit_key(d->prompt_text, sizeof(d->prompt_text), ch);
	if (r == EDIT_MORE)
		return;
	if (r == EDIT_DONE && d->prompt == 'm')
		dashboard_mark(d, d->prompt_text);
	if (r == EDIT_DONE && d->prompt == 'g' && d->rc)
		replay_control_go(d->rc, d->prompt_text);
	d->prompt = 0;
}

/* The keys of the live view: pause and step through the history. */
static bool
dashboard_live_key(struct dashboard *d, const struct view_ctx *ctx, int ch)
{
	switch (ch) {
	case ' ':
		d->paused = !d->paused;
		if (d->paused)
			d->seq = ctx->seq;
		return true;
	case KEY_LEFT:
		dashboard_step(d, -1);
		return true;
	case KEY_RIGHT:
		dashboard_step(d, 1);
		return true;
	case KEY_HOME:
		dashboard_step(d, INT64_MIN / 2);
		return true;
	case KEY_END:
		d->paused = false;
		return true;
	case 'R':
		dashboard_toggle_record(d, NULL);
		return true;
	case 'm':
		d->prompt = 'm';
		d->prompt_text[0] = '\0';
		return true;
	}
	return false;
}

/* false when the key asks to quit. */
static bool
dashboard_key(struct dashboard *d, int ch)
{
	struct view_ctx ctx;

	dashboard_ctx(d, &ctx);
	d->message[0] = '\0';
	if (d->filtering || d->prompt) {
		dashboard_edit_key(d, ch);
		return true;
	}
	if (view_table[d->view]->handle_key &&
	    view_table[d->view]->handle_key(&ctx, d->state[d->view], ch))
		return true;
	if (d->rc) {
		d->rc->message[0] = '\0';
		if (replay_control_key(d->rc, ch))
			return true;
		if (ch == 'g' || ch == 'f') {
			d->prompt = ch;
			d->prompt_text[0] = '\0';
			return true;
		}
		if (ch == 'R') {
			snprintf(d->message, sizeof(d->message), "R records a live session: this "
				 "is a recording already");
			return true;
		}
		if (ch == 'm') {
			snprintf(d->message, sizeof(d->message), "m marks a recording as it is "
				 "made: live, or with pagetop mark");
			return true;
		}
	} else if (dashboard_live_key(d, &ctx, ch)) {
		return true;
	}
	switch (ch) {
	case 'q':
	case KEY_F(10):
		return false;
	case '/':
		d->filtering = true;
		return true;
	case 27:
		d->filter[0] = '\0';
		if (d->view == HELP_VIEW)
			d->view = d->prev_view;
		return true;
	case '?':
	case 'h':
	case KEY_F(1):
		if (d->view == HELP_VIEW)
			d->view = d->prev_view;
		else
			dashboard_show_view(d, HELP_VIEW);
		return true;
	case '\t':
		dashboard_show_view(d, (d->view + 1) % VIEW_COUNT);
		return true;
	case KEY_BTAB:
		dashboard_show_view(d, (d->view + VIEW_COUNT - 1) % VIEW_COUNT);
		return true;
	case KEY_RESIZE:
		clear();
		return true;
	case KEY_MOUSE: {
		MEVENT ev;

		if (getmouse(&ev) == OK && ev.y == 1)
			for (int i = 0; i < VIEW_COUNT; i++)
				if (ev.x >= d->tab_x[i] && ev.x < d->tab_x[i + 1])
					dashboard_show_view(d, i);
		return true;
	}
	default:
		for (int i = 0; i < VIEW_COUNT; i++)
			if (view_table[i]->key == ch ||
			    (view_table[i]->alt_key && view_table[i]->alt_key == ch)) {
				dashboard_show_view(d, i);
				return true;
			}
		snprintf(d->message, sizeof(d->message), "unknown key (? for help)");
		return true;
	}
}

/* The next tick is due: live, sample; a recording, play on. */
static bool
dashboard_tick(struct dashboard *d, double t)
{
	if (d->rc) {
		if (!d->rc->playing) {
			d->next_tick = t + 3600;
		} else if (t >= d->next_tick) {
			d->next_tick = t + replay_control_play(d->rc);
			return true;
		} else if (d->next_tick > t + 5) {
			d->next_tick = t;
		}
		return false;
	}
	if (t < d->next_tick)
		return false;
	dashboard_sample(d);
	/* This clock, not the sample's: a replay's samples keep theirs. */
	d->next_tick = feed_next_due(d->f, d->next_tick, clock_mono());
	return true;
}

static int
dashboard_run_loop(struct dashboard *d, const sigset_t *waiting)
{
	struct pollfd pfd[1 + FEED_POLL_MAX] = { { .fd = STDIN_FILENO, .events = POLLIN } };
	int nfd = 1 + feed_pollfds(d->f, pfd + 1, FEED_POLL_MAX);
	bool redraw = true;
	char mtext[PROMPT_MAX + 1];
	d->next_tick = clock_mono() + d->f->interval;
	while (!quit_asked()) {
		int wait_ms, ch;

		if (dashboard_tick(d, clock_mono())) {
			redraw = true;
			if (!d->rc && d->o->iterations && d->ticks >= d->o->iterations) {
				dashboard_draw(d);
				return 0;
			}
		}
		if (d->rc && d->rc->message[0]) {
			snprintf(d->message, sizeof(d->message), "%s", d->rc->message);
			d->rc->message[0] = '\0';
		}
		if (redraw) {
			dashboard_draw(d);
			redraw = false;
		}
		wait_ms = (int)arith_ceil((d->next_tick - clock_mono()) * 1000);
		if (wait_ms < 0)
			wait_ms = 0;
		for (int i = 0; i < nfd; i++)
			pfd[i].revents = 0;
		if (ppoll(pfd, (nfds_t)nfd,
			  &(struct timespec){ wait_ms / 1000, (wait_ms % 1000) * 1000000L },
			  waiting) < 0 && errno != EINTR)
			return 1;
		/* The terminal went away (its emulator died without a SIGHUP
		 * reaching us): quit rather than spin on a dead descriptor. */
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return 0;
		/* A PSI trigger fired: the burst's first sample now. */
		if (feed_polled(d->f, pfd + 1, nfd - 1) && !d->rc)
			d->next_tick = arith_max(clock_mono(), d->f->tick.s->mono +
						 DASHBOARD_BURST_SOONEST);
		while (feed_mark_receive(d->f, mtext, sizeof(mtext))) {
			dashboard_mark(d, mtext);
			redraw = true;
		}
		while ((ch = getch()) != ERR) {
			if (!dashboard_key(d, ch))
				return 0;
			redraw = true;
			if (d->rc && d->rc->playing && d->next_tick > clock_mono() + 5)
				d->next_tick = clock_mono();
		}
		if (d->rc && d->rc->message[0])
			redraw = true;
	}
	return 0;
}

/* A resize or a quit signal that lands while drawing would wait for the
 * next tick (an hour at -d 1h): keep them blocked outside the wait, and
 * let ppoll() take them in atomically. */
static int
dashboard_loop(struct dashboard *d)
{
	static const int sigs[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP };
	sigset_t block, old, waiting;
	int rc;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	waiting = old;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigdelset(&waiting, sigs[i]);
	rc = dashboard_run_loop(d, &waiting);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* replay --compare: B's own history (its shape is its own), events and
 * replay control, at the start. */
static int
dashboard_start_compare(struct dashboard *d, size_t cap, char *err, size_t size)
{
	struct feed *b = d->o->compare;
	size_t n = feed_count(b);

	if (feed_seek(b, 0) < 0 && (n < 2 || feed_seek(b, n - 1) < 0)) {
		snprintf(err, size, "pagetop: %s", b->why);
		return -1;
	}
	if (!(d->evb = events_new(EVENTS_KEPT)) ||
	    !(d->hb = history_new(cap, (size_t)arith_ceil(d->o->history / b->pti_every) + 2,
				  b->tick.s)) ||
	    !(d->rcb = calloc(1, sizeof(*d->rcb)))) {
		snprintf(err, size, "pagetop: out of memory for the second recording's history");
		return -1;
	}
	history_set_reasons(d->hb, b->tick.rs);
	replay_control_init(d->rcb, b, d->hb, d->evb);
	replay_control_goto(d->rcb, 0);
	dashboard_compare_sync(d);
	return 0;
}

/* The first sample, the history sized for it, and the view states. */
static int
dashboard_start(struct dashboard *d, char *err, size_t size)
{
	const struct dashboard_opts *o = d->o;
	struct feed *f = d->f;
	double iv = f->interval > 0 ? f->interval : 1;
	size_t cap = (size_t)arith_ceil(o->history / iv) + 1;
	size_t n = feed_count(f);

	if (!f->live) {
		/* The shape (zones, orders) comes from a sample that decodes. */
		if (feed_seek(f, 0) < 0 && (n < 2 || feed_seek(f, n - 1) < 0)) {
			snprintf(err, size, "pagetop: %s", f->why);
			return -1;
		}
		if (cap < REPLAY_BEFORE + 2)
			cap = REPLAY_BEFORE + 2;
	} else {
		feed_next(f);
	}
	if (cap > MAX_HISTORY)
		cap = MAX_HISTORY;
	if (!(d->ev = events_new(EVENTS_KEPT)) ||
	    !(d->h = history_new(cap, (size_t)arith_ceil(o->history / f->pti_every) + 2, f->tick.s))) {
		snprintf(err, size, "pagetop: out of memory for %zu entries of history", cap);
		return -1;
	}
	/* D stacks from the probes get the wait reasons blocked tasks get. */
	history_set_reasons(d->h, f->tick.rs);
	for (int i = 0; i < VIEW_COUNT; i++)
		if (view_table[i]->state_size &&
		    !(d->state[i] = zero_room(view_table[i]->state_size))) {
			snprintf(err, size, "pagetop: out of memory");
			return -1;
		}
	if (f->live) {
		/* Not recording yet: --record or R says otherwise. */
		dashboard_marks_taking(d, false);
		history_push(d->h, f->tick.s, tick_groups(&f->tick));
		events_push(d->ev, d->h->next - 1, f->tick.s);
		d->ticks = 1;
		return 0;
	}
	if (!(d->rc = calloc(1, sizeof(*d->rc)))) {
		snprintf(err, size, "pagetop: out of memory");
		return -1;
	}
	replay_control_init(d->rc, f, d->h, d->ev);
	replay_control_goto(d->rc, o->start);
	return o->compare ? dashboard_start_compare(d, cap, err, size) : 0;
}

int
dashboard_run(const struct dashboard_opts *o, struct feed *f)
{
	struct dashboard d = { .o = o, .f = f };
	struct screen *scr = NULL;
	int status = 1;
	char err[600] = "";

	/* The first line of what the feed noted (a wait-reason table that
	 * would not load), unless the caller has one that matters more. */
	snprintf(d.message, sizeof(d.message), "%.*s", (int)strcspn(f->note, "\n"), f->note);
	if (dashboard_start(&d, err, sizeof(err)) < 0)
		goto out;
	if (d.rc && d.rc->message[0])
		snprintf(d.message, sizeof(d.message), "%s", d.rc->message);
	if (o->note && o->note[0])
		snprintf(d.message, sizeof(d.message), "%s", o->note);
	if (o->record) {
		dashboard_toggle_record(&d, o->record);
		if (!recording_active(&d.rec)) {
			snprintf(err, sizeof(err), "pagetop: %.250s", d.message);
			goto out;
		}
	}
	if (!(scr = terminal_open(o, err, sizeof(err))))
		goto out;
	if (o->iterations == 1) {
		dashboard_draw(&d);
		status = 0;
	} else {
		status = dashboard_loop(&d);
	}
	if (status)
		snprintf(err, sizeof(err), "pagetop: waiting for input: %s", strerror(errno));
out:
	terminal_close(scr);
	if (err[0])
		fprintf(stderr, "%s\n", err);
	if (recording_active(&d.rec)) {
		char why[512];
		int r;

		fprintf(stderr, "pagetop: finishing the recording %s\n", d.rec.path);
		if ((r = recording_stop(&d.rec, why, sizeof(why))) < 0 && r != -EFBIG)
			fprintf(stderr, "pagetop: %s\n", why);
	}
	for (int i = 0; i < VIEW_COUNT; i++)
		zero_room_free(d.state[i], view_table[i]->state_size);
	free(d.rc);
	free(d.rcb);
	history_free(d.h);
	history_free(d.hb);
	events_free(d.ev);
	events_free(d.evb);
	/* q, SIGINT, SIGTERM and SIGHUP are all a clean quit. */
	return err[0] ? 1 : status;
}
