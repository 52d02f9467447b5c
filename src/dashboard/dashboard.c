/*
 * The dashboard loop: one poll() waits for a key or the next tick. A tick
 * reads the sources into a sample (pagetypeinfo only every pti_every
 * seconds: it takes the zone lock), pushes it into the history and
 * redraws. Nothing is allocated once the loop runs.
 */
#include "dashboard/dashboard-int.h"
#include "util/clock.h"
#include "util/arith.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/derive.h"
#include "views/draw.h"
#include "util/duration.h"
#include "model/history.h"
#include "source/host-read.h"
#include "util/paths.h"
#include "source/marks.h"
#include "output/recording.h"
#include "source/replay.h"
#include "model/reasons.h"
#include "model/sample.h"
#include "source/libsensors.h"
#include "model/taskgroups.h"
#include "source/taskscan.h"
#include "views/view.h"

const struct view *const views[N_VIEWS] = {
	&view_overview,
	&view_fragmentation,
	&view_reclaim,
	&view_tasks,
	&view_events,
	&view_sensors,
	&view_help,
};

static volatile sig_atomic_t quit_signal;

static void
on_signal(int sig)
{
	quit_signal = sig;
}

void
dashboard_keep_status(struct dashboard *d)
{
	const struct sample *s = dashboard_sample_now(d);

	for (int i = 0; i < SRC_COUNT; i++)
		if (s->status[i].err != SRC_NOT_READ)
			d->status[i] = s->status[i];
}

/* The sources that are not files: sensors and the task scan. */
static void
dashboard_scan(struct dashboard *d)
{
	if (d->sensors)
		sensors_read(d->sensors, &d->s->sensors);
	if (d->ts) {
		taskscan_read(d->ts, d->s->mono, &d->s->tasks);
		d->s->status[SRC_TASKS].err = 0;
		task_groups_build(&d->s->tasks, d->rs, d->s->mono, d->groups);
	} else {
		d->s->status[SRC_TASKS].err = ENOENT;
	}
	if (d->kmsg)
		kmsg_source_read(d->kmsg, &d->s->kmsg);
}

static void
dashboard_sample(struct dashboard *d)
{
	unsigned mask = SRC_ALL;
	double t = clock_mono();

	if (d->ticks > 0 && t - d->last_pti < d->o->pti_every - 0.001)
		mask &= ~SRC_BIT(SRC_PAGETYPEINFO);
	else
		d->last_pti = t;
	sampler_read(&d->sp, d->s, mask);
	dashboard_scan(d);
	history_push(d->h, d->s, d->ts ? d->groups : NULL);
	events_push(d->ev, d->h->next - 1, d->s);
	dashboard_keep_status(d);
	/* The recorder's thread writes; this never waits on the disk. */
	if (recording_active(&d->rec))
		recording_push(&d->rec, d->s);
	d->ticks++;
}

/* "recording stopped: why (FILE)": the reason first, so that a long path
 * cut at the screen's edge does not hide it. err is "FILE: why" or other. */
static void
dashboard_rec_error(const char *path, const char *err, char *dst, size_t size)
{
	size_t n = strlen(path);

	if (n > 0 && strncmp(err, path, n) == 0 && strncmp(err + n, ": ", 2) == 0)
		snprintf(dst, size, "recording stopped: %.100s (%.120s)", err + n + 2, path);
	else
		snprintf(dst, size, "recording stopped: %.200s", err);
}

/* R: start or stop recording the live session (to path, or the default name). */
static void
dashboard_toggle_record(struct dashboard *d, const char *to)
{
	struct recorder_opts ro = { .flush_interval = 5 };
	char path[4096], why[512];

	if (recording_active(&d->rec)) {
		snprintf(path, sizeof(path), "%s", d->rec.path);
		if (recording_stop(&d->rec, why, sizeof(why)) < 0 && !strstr(why, "max size"))
			dashboard_rec_error(path, why, d->message, sizeof(d->message));
		else
			snprintf(d->message, sizeof(d->message), "recorded to %.200s", path);
		return;
	}
	if (to)
		snprintf(path, sizeof(path), "%s", to);
	else
		recording_default_path(&d->host, path, sizeof(path));
	if (recording_start(&d->rec, path, &d->host, d->s, d->o->delay, d->cmdline, &ro, why,
			    sizeof(why)) < 0) {
		snprintf(d->message, sizeof(d->message), "cannot record: %.200s", why);
		return;
	}
	recording_push(&d->rec, d->s);
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
	recording_mark(&d->rec, d->s->wall, text);
	snprintf(d->message, sizeof(d->message), "marked: %.200s", text);
}

/* The entry on screen: the newest, or the pinned one while paused. */
static uint64_t
dashboard_shown(struct dashboard *d)
{
	uint64_t first, last;

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

static void
draw_header(struct dashboard *d, uint64_t seq)
{
	double wall = history_wall(d->h, seq);
	char when[32] = "", up[32] = "", every[32];
	struct tm tm;
	time_t t;
	int x = 0;

	draw_clear_line(0, 0, COLS, ST_HEADER);
	if (!isnan(wall)) {
		t = (time_t)wall;
		strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&t, &tm));
	}
	x += draw_text(0, x, COLS - x, ST_HEADER, " pagetop  %s  %s ", d->host.hostname,
		       d->host.release);
	if (d->rp) {
		x += draw_text(0, x, COLS - x, d->playing ? ST_HEADER : ST_SELECTED, " REPLAY %s x%g %s ",
			       when, d->speed, d->playing ? (draw_utf8() ? "\u25b6" : ">") : "paused");
	} else if (d->paused) {
		uint64_t first, last;
		double newest;

		history_range(d->h, &first, &last);
		newest = history_wall(d->h, last);
		x += draw_text(0, x, COLS - x, ST_SELECTED, " PAUSED %s (-%.0fs) ", when,
			       !isnan(newest) && !isnan(wall) ? newest - wall : 0.0);
	} else {
		x += draw_text(0, x, COLS - x, ST_HEADER, " LIVE %s ", when);
	}
	{
		double iv = d->rp ? rec_reader_header(d->rp->r)->interval : d->o->delay;

		if (iv < 1)
			snprintf(every, sizeof(every), "%.2gs", iv);
		else
			fmt_duration(iv, every, sizeof(every));
	}
	x += draw_text(0, x, COLS - x, ST_HEADER, " every %s ", every);
	if (recording_active(&d->rec)) {
		struct recorder_status rs;
		char sz[16];

		recording_status(&d->rec, &rs);
		fmt_kib(rs.size / 1024, sz, sizeof(sz));
		x += draw_text(0, x, COLS - x, rs.stopped ? ST_SELECTED : ST_BAD, " REC %s%s ", sz,
			       rs.stopped ? " STOPPED" : rs.lost ? " (lost some)" : "");
	}
	if (sample_has(dashboard_sample_now(d), SRC_UPTIME)) {
		fmt_duration(dashboard_sample_now(d)->uptime, up, sizeof(up));
		draw_text(0, x, COLS - x, ST_HEADER, " up %s", up);
	}
}

static void
draw_tabs(struct dashboard *d)
{
	int x = 0, wide = 0;

	/* A blank between tabs when they all fit with it (not at 80 columns). */
	for (int i = 0; i < N_VIEWS; i++)
		wide += (int)strlen(views[i]->title) + 5;
	draw_clear_line(1, 0, COLS, ST_NORMAL);
	for (int i = 0; i < N_VIEWS; i++) {
		d->tab_x[i] = x;
		x += draw_text(1, x, COLS - x, i == d->view ? ST_SELECTED : ST_NORMAL, " %c %s ",
			       views[i]->key, views[i]->title);
		if (wide <= COLS)
			x += draw_text(1, x, COLS - x, ST_NORMAL, " ");
	}
	d->tab_x[N_VIEWS] = x;
}

static void
draw_status(struct dashboard *d)
{
	int y = LINES - 1;

	draw_clear_line(y, 0, COLS, ST_NORMAL);
	if (d->filtering) {
		draw_text(y, 0, COLS, ST_SELECTED, "filter: %s_", d->filter);
		draw_text(y, (int)strlen(d->filter) + 9, COLS, ST_DIM,
			  "  Enter keep  Esc clear");
		return;
	}
	if (d->prompt == 'm') {
		draw_text(y, 0, COLS, ST_SELECTED, "mark: %s_", d->prompt_text);
		draw_text(y, (int)strlen(d->prompt_text) + 7, COLS, ST_DIM, "  Enter mark, Esc cancel");
		return;
	}
	if (d->prompt == 'g') {
		draw_text(y, 0, COLS, ST_SELECTED, "go to: %s_", d->prompt_text);
		draw_text(y, (int)strlen(d->prompt_text) + 8, COLS, ST_DIM,
			  "  14:03:10, 2026-11-30 14:03:10, +5m, -30s; Enter go, Esc cancel");
		return;
	}
	/* Before any message: "recording to FILE" must not outlive the recording. */
	if (recording_active(&d->rec)) {
		struct recorder_status rs;

		recording_status(&d->rec, &rs);
		if (rs.stopped) {
			char msg[sizeof(d->message)];

			dashboard_rec_error(d->rec.path, rs.error, msg, sizeof(msg));
			draw_text(y, 0, COLS, ST_BAD, "%s", msg);
			return;
		}
	}
	if (d->message[0]) {
		draw_text(y, 0, COLS, ST_WARN, "%s", d->message);
		return;
	}
	if (d->rp) {
		draw_text(y, 0, COLS, ST_DIM, "q quit  space %s  %s step  [ ] speed  g go to  "
			  "n/N next/prev event  ? help", d->playing ? "pause" : "play",
			  draw_utf8() ? "\u2190\u2192" : "<- ->");
		return;
	}
	draw_text(y, 0, COLS, ST_DIM, "q quit  space %s  %s step  Home/End  / filter%s%s  ? help",
		  d->paused ? "resume" : "pause", draw_utf8() ? "\u2190\u2192" : "<- ->", d->filter[0] ? ": " : "", d->filter);
}

/* What a view gets to read, for drawing and for keys alike. */
static void
dashboard_ctx(struct dashboard *d, struct view_ctx *ctx)
{
	uint64_t first, last = 0;

	history_range(d->h, &first, &last);
	if (d->rp) {
		/* A recording holds every sample whole: the one shown is the latest. */
		struct sample *cur;

		if (d->rp->at != replay_shown(d))
			replay_load(d, replay_shown(d));
		cur = d->rp->cur;
		*ctx = (struct view_ctx){
			.h = d->h, .seq = dashboard_shown(d), .paused = !d->playing,
			.tasks = sample_has(cur, SRC_TASKS) ? &cur->tasks : NULL,
			.groups = d->groups, .latest = dashboard_shown(d), .now = cur->mono,
			.events = d->ev, .kmsg = &cur->kmsg,
			.status = d->status,
			.sensors = cur->sensors.available || cur->sensors.n ? &cur->sensors : NULL,
			.pti_every = 10, .page_size = d->host.page_size, .filter = d->filter,
			.y = 2, .x = 0, .rows = LINES - 4, .cols = COLS,
		};
		ctx->e = history_entry(d->h, ctx->seq, &d->shown) ? &d->shown : NULL;
		return;
	}
	*ctx = (struct view_ctx){
		.h = d->h,
		.seq = dashboard_shown(d),
		.tasks = d->ts ? &d->s->tasks : NULL,
		.groups = d->groups,
		.events = d->ev,
		.kmsg = &d->s->kmsg,
		.latest = last,
		.now = d->s->mono,
		.paused = d->paused,
		.status = d->status,
		.sensors = d->sensors ? &d->s->sensors : NULL,
		.pti_every = d->o->pti_every,
		.page_size = d->host.page_size,
		.filter = d->filter,
		.y = 2,
		.x = 0,
		.rows = LINES - 3,
		.cols = COLS,
	};
	ctx->e = history_entry(d->h, ctx->seq, &d->shown) ? &d->shown : NULL;
}

static void
dashboard_draw(struct dashboard *d)
{
	struct view_ctx ctx;

	dashboard_ctx(d, &ctx);
	erase();
	draw_header(d, ctx.seq);
	draw_tabs(d);
	if (ctx.rows > 0)
		views[d->view]->draw(&ctx, d->state[d->view]);
	if (d->rp)
		draw_timeline(d, LINES - 2);
	draw_status(d);
	refresh();
}

static void
dashboard_show_view(struct dashboard *d, int v)
{
	if (v == d->view)
		return;
	if (views[v] == &view_help)
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

/* Keys while typing a filter: Enter keeps it, Esc clears it. */
static void
dashboard_filter_key(struct dashboard *d, int ch)
{
	switch (draw_edit_key(d->filter, sizeof(d->filter), ch)) {
	case EDIT_CANCEL:
		d->filter[0] = '\0';
		/* FALLTHROUGH */
	case EDIT_DONE:
		d->filtering = false;
		break;
	case EDIT_MORE:
		break;
	}
}

/* false when the key asks to quit. */
static bool
dashboard_key(struct dashboard *d, int ch)
{
	struct view_ctx ctx;

	dashboard_ctx(d, &ctx);
	d->message[0] = '\0';
	if (d->filtering) {
		dashboard_filter_key(d, ch);
		return true;
	}
	if (d->prompt == 'g') {
		replay_prompt_key(d, ch);
		return true;
	}
	if (d->prompt == 'm') {
		enum edit_result r = draw_edit_key(d->prompt_text, sizeof(d->prompt_text), ch);

		if (r != EDIT_MORE)
			d->prompt = 0;
		if (r == EDIT_DONE)
			dashboard_mark(d, d->prompt_text);
		return true;
	}
	if (views[d->view]->handle_key &&
	    views[d->view]->handle_key(&ctx, d->state[d->view], ch))
		return true;
	if (d->rp && replay_key(d, ch))
		return true;
	switch (ch) {
	case 'q':
	case KEY_F(10):
		return false;
	case ' ':
		d->paused = !d->paused;
		if (d->paused)
			d->seq = ctx.seq;
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
	case '/':
		d->filtering = true;
		return true;
	case 'R':
		if (!d->rp)
			dashboard_toggle_record(d, NULL);
		return true;
	case 'm':
		if (!d->rp) {
			d->prompt = 'm';
			d->prompt_text[0] = '\0';
		}
		return true;
	case 27:
		d->filter[0] = '\0';
		if (views[d->view] == &view_help)
			d->view = d->prev_view;
		return true;
	case '?':
	case 'h':
	case KEY_F(1):
		if (views[d->view] == &view_help)
			d->view = d->prev_view;
		else
			dashboard_show_view(d, N_VIEWS - 1);
		return true;
	case '\t':
		dashboard_show_view(d, (d->view + 1) % N_VIEWS);
		return true;
	case KEY_BTAB:
		dashboard_show_view(d, (d->view + N_VIEWS - 1) % N_VIEWS);
		return true;
	case KEY_RESIZE:
		clear();
		return true;
	case KEY_MOUSE: {
		MEVENT ev;

		if (getmouse(&ev) == OK && ev.y == 1)
			for (int i = 0; i < N_VIEWS; i++)
				if (ev.x >= d->tab_x[i] && ev.x < d->tab_x[i + 1])
					dashboard_show_view(d, i);
		return true;
	}
	default:
		for (int i = 0; i < N_VIEWS; i++)
			if (views[i]->key == ch || (views[i]->alt_key && views[i]->alt_key == ch)) {
				dashboard_show_view(d, i);
				return true;
			}
		snprintf(d->message, sizeof(d->message), "unknown key (? for help)");
		return true;
	}
}

int
dashboard_loop(struct dashboard *d)
{
	struct pollfd pfd[2] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = d->mark_fd, .events = POLLIN },
	};
	bool redraw = true;
	char mtext[MARK_TEXT_MAX + 1];

	d->next_tick = clock_mono() + d->o->delay;
	while (!quit_signal) {
		double t = clock_mono();
		int wait_ms, ch;

		if (d->rp) {
			/* Replay: the next sample after its recorded interval, sped up. */
			if (!d->playing) {
				d->next_tick = t + 3600;
			} else if (t >= d->next_tick) {
				size_t p = replay_shown(d);
				double dt = p + 1 < d->n_rec ? rec_reader_time(d->rp->r, p + 1) -
				    rec_reader_time(d->rp->r, p) : 1;

				replay_forward(d);
				d->next_tick = t + arith_min(arith_max(dt / d->speed, 0.01), 5);
				redraw = true;
			} else if (d->next_tick > t + 5) {
				d->next_tick = t;
			}
		} else if (t >= d->next_tick) {
			dashboard_sample(d);
			/* After a stall, start the beat afresh rather than catch up. */
			d->next_tick += d->o->delay;
			if (d->next_tick < t)
				d->next_tick = t + d->o->delay;
			redraw = true;
			if (d->o->iterations && d->ticks >= d->o->iterations) {
				dashboard_draw(d);
				return 0;
			}
		}
		if (redraw) {
			dashboard_draw(d);
			redraw = false;
		}
		wait_ms = (int)arith_ceil((d->next_tick - clock_mono()) * 1000);
		pfd[0].revents = 0;
		if (poll(pfd, d->mark_fd >= 0 ? 2 : 1, wait_ms < 0 ? 0 : wait_ms) < 0 &&
		    errno != EINTR)
			return 1;
		/* The terminal went away (its emulator died without a SIGHUP
		 * reaching us): quit rather than spin on a dead descriptor. */
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return 0;
		while (marks_receive(d->mark_fd, mtext, sizeof(mtext))) {
			dashboard_mark(d, mtext);
			redraw = true;
		}
		while ((ch = getch()) != ERR) {
			if (!dashboard_key(d, ch))
				return 0;
			redraw = true;
			if (d->rp && d->playing && d->next_tick > clock_mono() + 5)
				d->next_tick = clock_mono();
		}
	}
	return 0;
}

static bool
locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Takes the terminal: curses, colours, keys, signals. NULL with err. */
SCREEN *
dashboard_terminal(const struct dashboard_opts *o, char *err, size_t size)
{
	struct draw_opts dopts;
	struct sigaction sa;
	SCREEN *scr;

	setlocale(LC_CTYPE, "");
	dopts.utf8 = !o->ascii && locale_is_utf8();
	dopts.color = o->color && !getenv("NO_COLOR");
	if (!(scr = newterm(NULL, stdout, stdin))) {
		snprintf(err, size, "pagetop: cannot drive the terminal (TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		return NULL;
	}
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	draw_init(&dopts);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return scr;
}

void
dashboard_load_reasons(struct dashboard *d)
{
	char sys[4096], user[4096], why[512];

	paths_data("wait-reasons", sys, sizeof(sys));
	paths_config("wait-reasons", user, sizeof(user));
	if (reasons_load(d->rs, sys, user, why, sizeof(why)) < 0)
		snprintf(d->message, sizeof(d->message), "%.250s", why);
}

/* The kernel log event table; why it is not the installed one on the status line. */
static void
dashboard_load_kmsg_rules(struct dashboard *d)
{
	char why[512];

	if (kmsg_rules_load_installed(d->kmsg_rules, why, sizeof(why)) < 0 && !d->message[0])
		snprintf(d->message, sizeof(d->message), "%.250s", why);
}

int
dashboard_run(const struct dashboard_opts *o)
{
	struct dashboard d = { .o = o, .view = 0, .mark_fd = -1 };
	SCREEN *scr = NULL;
	size_t cap;
	int r, status = 1;
	char err[320] = "";

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pagetop: the dashboard needs a terminal; without one, use "
			"'pagetop snapshot' for one reading or 'pagetop record' to record\n");
		return 1;
	}
	if (o->replay)
		return dashboard_replay_run(&d);
	if ((r = sampler_init(&d.sp, o->root)) < 0) {
		fprintf(stderr, "pagetop: %s: %s\n", o->root, strerror(-r));
		return 1;
	}
	host_read(&d.host, o->root);
	if (!(d.s = calloc(1, sizeof(*d.s)))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	/* Sensors belong to this machine: a proc root of captured files has none. */
	if (strcmp(o->root, "/proc") == 0 && !(d.sensors = sensors_open())) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	if (!(d.rs = calloc(1, sizeof(*d.rs))) || !(d.groups = calloc(1, sizeof(*d.groups)))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	dashboard_load_reasons(&d);
	/* The kernel log is this machine's: read on a real procfs, or where asked. */
	if (!(d.kmsg_rules = calloc(1, sizeof(*d.kmsg_rules))) || !(d.ev = events_new(EVENTS_KEPT))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	dashboard_load_kmsg_rules(&d);
	if ((o->kmsg || d.sp.fs.is_procfs) &&
	    !(d.kmsg = kmsg_source_open(o->kmsg ? o->kmsg : KMSG_DEVICE, d.kmsg_rules))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	/* Tasks are scanned on a real procfs only: captured files have none. */
	if (d.sp.fs.is_procfs && !(d.ts = taskscan_new(o->root))) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	d.last_pti = clock_mono();
	sampler_read(&d.sp, d.s, SRC_ALL);
	dashboard_scan(&d);
	cap = (size_t)arith_ceil(o->history / o->delay) + 1;
	if (cap > MAX_HISTORY)
		cap = MAX_HISTORY;
	if (!(d.h = history_new(cap, (size_t)arith_ceil(o->history / o->pti_every) + 2, d.s))) {
		fprintf(stderr, "pagetop: out of memory for %zu entries of history\n", cap);
		goto out;
	}
	history_push(d.h, d.s, d.ts ? d.groups : NULL);
	events_push(d.ev, d.h->next - 1, d.s);
	dashboard_keep_status(&d);
	d.ticks = 1;
	for (int i = 0; i < N_VIEWS; i++)
		if (views[i]->state_size && !(d.state[i] = calloc(1, views[i]->state_size))) {
			fprintf(stderr, "pagetop: out of memory\n");
			goto out;
		}

	/* `pagetop mark` reaches this dashboard too; without the socket, no marks from scripts. */
	{
		char why[300];
		FILE *f = fopen("/proc/self/cmdline", "r");
		size_t n = f ? fread(d.cmdline, 1, sizeof(d.cmdline) - 1, f) : 0;

		if (f)
			fclose(f);
		for (size_t i = 0; i + 1 < n; i++)
			if (d.cmdline[i] == '\0')
				d.cmdline[i] = ' ';

		d.mark_fd = marks_listen(d.mark_path, sizeof(d.mark_path), why, sizeof(why));
	}
	if (o->record) {
		dashboard_toggle_record(&d, o->record);
		if (!recording_active(&d.rec)) {
			snprintf(err, sizeof(err), "pagetop: %.250s", d.message);
			goto out;
		}
	}
	if (!(scr = dashboard_terminal(o, err, sizeof(err))))
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
	/* The terminal is restored before anything is printed. */
	if (scr) {
		endwin();
		delscreen(scr);
	}
	if (err[0])
		fprintf(stderr, "%s\n", err);
	if (recording_active(&d.rec)) {
		char why[512], path[4096];

		snprintf(path, sizeof(path), "%s", d.rec.path);
		fprintf(stderr, "pagetop: finishing the recording %s\n", path);
		if (recording_stop(&d.rec, why, sizeof(why)) < 0 && !strstr(why, "max size"))
			fprintf(stderr, "pagetop: %s\n", why);
	}
	marks_close(d.mark_fd, d.mark_path);
	for (int i = 0; i < N_VIEWS; i++)
		free(d.state[i]);
	history_free(d.h);
	events_free(d.ev);
	kmsg_source_close(d.kmsg);
	free(d.kmsg_rules);
	if (d.ts)
		taskscan_free(d.ts);
	free(d.rs);
	free(d.groups);
	if (d.sensors)
		sensors_close(d.sensors);
	free(d.s);
	sampler_free(&d.sp);
	/* q, SIGINT, SIGTERM and SIGHUP are all a clean quit. */
	return err[0] ? 1 : status;
}
