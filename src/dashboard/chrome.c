/* The dashboard's chrome: the header (host, LIVE/PAUSED/REPLAY, interval,
 * REC, the uptime of the entry shown), the tabs and the status line
 * (prompts, messages, keys). */
#include "dashboard/dashboard-int.h"
#include "dashboard/replay-events.h"
#include "util/fmt.h"
#include "views/curses-vars.h"
#include "views/draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void
chrome_rec_error(const char *path, const char *err, char *dst, size_t size)
{
	size_t n = strlen(path);

	/* The reason first, so that a long path cut at the screen's edge
	 * does not hide it. */
	if (n > 0 && strncmp(err, path, n) == 0 && strncmp(err + n, ": ", 2) == 0)
		snprintf(dst, size, "recording stopped: %.100s (%.120s)", err + n + 2, path);
	else
		snprintf(dst, size, "recording stopped: %.200s", err);
}

/* replay --compare: B's time beside A's, or where B is not. */
static int
chrome_header_b(struct dashboard *d, int x)
{
	double wall = history_wall(d->hb, d->rcb->seq);
	char when[FMT_MOMENT_SIZE] = "?";

	if (d->b_where < 0)
		return draw_text(0, x, COLS - x, ST_DIM, " B not started ");
	if (d->b_where > 0)
		return draw_text(0, x, COLS - x, ST_DIM, " B ended ");
	if (!isnan(wall))
		fmt_moment(wall, FMT_CLOCK, when, sizeof(when));
	return draw_text(0, x, COLS - x, ST_HEAT3, " B %s ", when);
}

void
chrome_header(struct dashboard *d, uint64_t seq)
{
	double wall = history_wall(d->h, seq), uptime;
	char when[32] = "", up[32] = "", every[32];
	struct tm tm;
	time_t t;
	int x = 0;

	draw_clear_line(0, 0, COLS, ST_HEADER);
	if (!isnan(wall)) {
		t = (time_t)wall;
		strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&t, &tm));
	}
	x += draw_text(0, x, COLS - x, ST_HEADER, " pagetop  %s  %s ", d->f->host.hostname,
		       d->f->host.release);
	if (d->rc) {
		/* To the millisecond, as marks and dump name samples. */
		if (!isnan(wall))
			fmt_moment(wall, FMT_CLOCK, when, sizeof(when));
		x += draw_text(0, x, COLS - x, d->rc->playing ? ST_HEADER : ST_SELECTED,
			       " REPLAY %s x%g %s ", when, d->rc->speed, d->rc->playing ?
			       (draw_utf8() ? "\u25b6" : ">") : "paused");
		if (d->rcb)
			x += chrome_header_b(d, x);
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
	if (d->f->interval < 1)
		snprintf(every, sizeof(every), "%.2gs", d->f->interval);
	else
		fmt_duration(d->f->interval, every, sizeof(every));
	x += draw_text(0, x, COLS - x, ST_HEADER, " every %s ", every);
	/* Fast samples while a PSI trigger fires. */
	if (d->f->burst)
		x += draw_text(0, x, COLS - x, ST_BAD, " BURST %.2gs ", d->f->interval_now);
	if (recording_active(&d->rec)) {
		struct recorder_status rs;
		char sz[16];

		recording_status(&d->rec, &rs);
		fmt_kib(rs.size / 1024, sz, sizeof(sz));
		x += draw_text(0, x, COLS - x, rs.stopped ? ST_SELECTED : ST_BAD, " REC %s%s ", sz,
			       rs.stopped ? " STOPPED" : rs.lost ? " (lost some)" : "");
	}
	/* The uptime of the entry shown, so that it stands still while paused
	 * and steps with the entry. */
	uptime = history_uptime(d->h, seq);
	if (!isnan(uptime)) {
		fmt_duration(uptime, up, sizeof(up));
		x += draw_text(0, x, COLS - x, ST_HEADER, " up %s", up);
	}
	/* Last, so that it pushes nothing out: why no bursts can come. */
	if (d->f->burst_why[0])
		draw_text(0, x, COLS - x, ST_DIM, "  bursts off: %s", d->f->burst_why);
}

void
chrome_tabs(struct dashboard *d)
{
	int x = 0, wide = 0;

	/* A blank between tabs when they all fit with it (not at 80 columns). */
	for (int i = 0; i < VIEW_COUNT; i++)
		wide += (int)strlen(view_table[i]->title) + 5;
	draw_clear_line(1, 0, COLS, ST_NORMAL);
	for (int i = 0; i < VIEW_COUNT; i++) {
		d->tab_x[i] = x;
		x += draw_text(1, x, COLS - x, i == d->view ? ST_SELECTED : ST_NORMAL, " %c %s ",
			       view_table[i]->key, view_table[i]->title);
		if (wide <= COLS)
			x += draw_text(1, x, COLS - x, ST_NORMAL, " ");
	}
	d->tab_x[VIEW_COUNT] = x;
}

void
chrome_status(struct dashboard *d)
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
	if (d->prompt == 'f') {
		int x = draw_text(y, 0, COLS, ST_SELECTED, "n/N stop at:");

		for (int k = 0; k < REPLAY_STOP_KINDS; k++) {
			const char *name;
			unsigned bit = replay_events_kind(k, &name);

			x += draw_text(y, x, COLS - x, d->rc->kinds & bit ? ST_SELECTED : ST_DIM,
				       " %d %s%s", k + 1, d->rc->kinds & bit ? "+" : "-", name);
		}
		draw_text(y, x, COLS - x, ST_DIM, "  (digits toggle)");
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

			chrome_rec_error(d->rec.path, rs.error, msg, sizeof(msg));
			draw_text(y, 0, COLS, ST_BAD, "%s", msg);
			return;
		}
	}
	if (d->message[0]) {
		draw_text(y, 0, COLS, ST_WARN, "%s", d->message);
		return;
	}
	if (d->rc) {
		draw_text(y, 0, COLS, ST_DIM, "q quit  space %s  %s step  [ ] speed  g go to  "
			  "n/N/f event  '\" mark  ? help", d->rc->playing ? "pause" : "play",
			  draw_utf8() ? "\u2190\u2192" : "<- ->");
		return;
	}
	draw_text(y, 0, COLS, ST_DIM, "q quit  space %s  %s step  Home/End  / filter%s%s  ? help",
		  d->paused ? "resume" : "pause", draw_utf8() ? "\u2190\u2192" : "<- ->",
		  d->filter[0] ? ": " : "", d->filter);
}
