/*
 * Replay: the dashboard on a recording. The history holds the samples
 * decoded so far around the one shown; a seek decodes from the keyframe
 * before the target, with the samples before it so the charts have their
 * past. Play advances at the recorded pace times the speed.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dashboard/dashboard-int.h"
#include "util/arith.h"
#include "model/derive.h"
#include "views/draw.h"
#include "model/stall-events.h"

/* Replay: the recording's index of the entry shown. */
size_t
replay_shown(struct dashboard *d)
{
	return d->hist_base + (size_t)d->seq;
}

/* Decodes sample i into rp->cur (the shown one) with its groups. */
bool
replay_load(struct dashboard *d, size_t i)
{
	if (replay_seek(d->rp, i) < 0) {
		snprintf(d->message, sizeof(d->message), "%.250s", d->rp->error);
		return false;
	}
	task_groups_build(&d->rp->cur->tasks, d->rs, d->rp->cur->mono, d->groups);
	return true;
}

/* Pushes sample i, decoded, into the history. */
static bool
replay_push(struct dashboard *d, size_t i)
{
	if (!replay_load(d, i))
		return false;
	history_push(d->h, d->rp->cur, sample_has(d->rp->cur, SRC_TASKS) ? d->groups : NULL);
	events_push(d->ev, d->h->next - 1, d->rp->cur);
	dashboard_keep_status(d);
	return true;
}

/* Shows sample target with the samples before it in the history, so the
 * charts have their past. A damaged stretch is skipped over. */
static void
replay_goto(struct dashboard *d, size_t target)
{
	size_t start, cap = d->h->cap;

	if (d->n_rec == 0)
		return;
	if (target >= d->n_rec)
		target = d->n_rec - 1;
	start = target > REPLAY_BEFORE ? target - REPLAY_BEFORE : 0;
	if (target - start >= cap)
		start = target - cap + 1;
	history_reset(d->h);
	events_reset(d->ev);
	d->hist_base = start;
	for (size_t i = start; i <= target; i++)
		if (!replay_push(d, i)) {
			/* Keep the history's seqs in step with the recording's indices. */
			history_reset(d->h);
			events_reset(d->ev);
			d->hist_base = i + 1;
		}
	if (d->h->next == 0) {
		d->hist_base = target;
		d->seq = 0;
		return;
	}
	d->seq = d->h->next - 1;
	d->paused = true;
}

/* One sample forward: from the history if it holds it, else decoded. */
void
replay_forward(struct dashboard *d)
{
	size_t p = replay_shown(d);
	uint64_t first, last;

	if (p + 1 >= d->n_rec) {
		d->playing = false;
		return;
	}
	if (history_range(d->h, &first, &last) && d->seq < last) {
		d->seq++;
		return;
	}
	if (replay_push(d, p + 1))
		d->seq = d->h->next - 1;
	else
		replay_goto(d, p + 1);
}

static void
replay_back(struct dashboard *d)
{
	uint64_t first, last;
	size_t p = replay_shown(d);

	if (p == 0)
		return;
	if (history_range(d->h, &first, &last) && d->seq > first)
		d->seq--;
	else
		replay_goto(d, p - 1);
}

/* Is sample i (decoded in rp->cur, with i - 1 in rp->prev) worth stopping
 * at? A kernel log event, or what stall_events() finds: PSI memory rising
 * past 10%, reclaim stalls starting, a group of blocked tasks that was
 * not there before. m (NULL: none) spares matching every vmstat name of
 * every sample. */
static bool
replay_event(const struct sample *prev, const struct sample *cur, struct counters_map *m,
	     bool *stalling)
{
	struct counters p, c;
	int task;
	bool stall;

	if (m) {
		counters_from_vmstat_mapped(&prev->vm, m, &p);
		counters_from_vmstat_mapped(&cur->vm, m, &c);
	} else {
		counters_from_vmstat(&prev->vm, &p);
		counters_from_vmstat(&cur->vm, &c);
	}
	/* Called whatever the log says: it follows whether stalls go on. */
	stall = stall_events(prev, &p, cur, &c, stalling, &task) != 0;
	return stall || cur->kmsg.n > 0;
}

/* Samples searched at a time going back: an event close by is found
 * without decoding from the start of a day's recording. */
#define EVENT_WINDOW	600

/* The next (dir 1) or previous (dir -1) event from the shown sample: a
 * mark, a gap, or what replay_event() finds. SIZE_MAX when none. */
static size_t
replay_find_event(struct dashboard *d, int dir)
{
	size_t p = replay_shown(d), best = SIZE_MAX, nm, ng, found = SIZE_MAX;
	const struct rec_mark *m = rec_reader_marks(d->rp->r, &nm);
	const struct rec_gap *g = rec_reader_gaps(d->rp->r, &ng);
	struct counters_map *map = malloc(sizeof(*map));
	bool stalling = false;

	if (map)
		counters_map_init(map);
	for (size_t k = 0; k < nm + ng; k++) {
		size_t at = k < nm ? m[k].sample : g[k - nm].sample;

		if (dir > 0 ? at > p && (best == SIZE_MAX || at < best) :
		    at < p && (best == SIZE_MAX || at > best))
			best = at;
	}
	/* Decode in order (cheap) over the stretch to search. */
	if (dir > 0) {
		size_t end = best == SIZE_MAX ? d->n_rec : best;

		for (size_t i = p; i < end && found == SIZE_MAX; i++) {
			if (replay_seek(d->rp, i) < 0)
				continue;
			if (i > p && d->rp->at == i &&
			    replay_event(d->rp->prev, d->rp->cur, map, &stalling))
				found = i;
		}
	} else {
		size_t from = best == SIZE_MAX ? 0 : best;

		/* A window at a time, from the shown sample back to from. Each
		 * is decoded from two samples early, as "stalls beginning"
		 * needs to know whether the sample before stalled. */
		for (size_t hi = p; hi > from + 1 && found == SIZE_MAX;) {
			size_t lo = hi - from > EVENT_WINDOW ? hi - EVENT_WINDOW : from + 1;
			size_t start = lo >= from + 2 ? lo - 2 : from;

			stalling = false;
			for (size_t i = start; i < hi; i++) {
				if (replay_seek(d->rp, i) < 0)
					continue;
				if (i > start && replay_event(d->rp->prev, d->rp->cur, map, &stalling) &&
				    i >= lo)
					found = i;
			}
			hi = lo;
		}
	}
	free(map);
	return found != SIZE_MAX ? found : best;
}

/* Stopped at a sample with kernel log events: the first, on the status line. */
static void
replay_say_kmsg(struct dashboard *d)
{
	const struct kmsg_sample *k = &d->rp->cur->kmsg;
	char brief[160];

	if (d->rp->at != replay_shown(d) || k->n == 0)
		return;
	kmsg_event_brief(&k->ev[0], brief, sizeof(brief));
	snprintf(d->message, sizeof(d->message), "kernel: %s %s%s (5 Events)",
		 kmsg_kind_name(k->ev[0].kind), brief, k->n > 1 ? " and more" : "");
}

/* Replay keys; false when the key is not one of them. */
bool
replay_key(struct dashboard *d, int ch)
{
	static const double speeds[] = { 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64 };
	int k = 0;
	size_t at;

	while (k < 8 && speeds[k] < d->speed)
		k++;
	switch (ch) {
	case ' ':
		d->playing = !d->playing;
		if (d->playing && replay_shown(d) + 1 >= d->n_rec)
			replay_goto(d, 0);
		return true;
	case KEY_LEFT:
		d->playing = false;
		replay_back(d);
		return true;
	case KEY_RIGHT:
		d->playing = false;
		replay_forward(d);
		return true;
	case KEY_HOME:
		replay_goto(d, 0);
		return true;
	case KEY_END:
		d->playing = false;
		replay_goto(d, d->n_rec - 1);
		return true;
	case '-':
	case '[':
		d->speed = speeds[k > 0 ? k - 1 : 0];
		return true;
	case '+':
	case '=':
	case ']':
		d->speed = speeds[k < 8 && speeds[k] <= d->speed ? k + 1 : k];
		return true;
	case 'g':
		d->prompt = 'g';
		d->prompt_text[0] = '\0';
		return true;
	case 'n':
	case 'N':
		d->playing = false;
		at = replay_find_event(d, ch == 'n' ? 1 : -1);
		if (at == SIZE_MAX) {
			snprintf(d->message, sizeof(d->message), "no %s event", ch == 'n' ? "later" :
				 "earlier");
		} else {
			replay_goto(d, at);
			replay_say_kmsg(d);
		}
		return true;
	}
	return false;
}

/* Keys while typing the time to go to. */
void
replay_prompt_key(struct dashboard *d, int ch)
{
	enum edit_result r = draw_edit_key(d->prompt_text, sizeof(d->prompt_text), ch);
	double t, base;

	if (r == EDIT_MORE)
		return;
	d->prompt = 0;
	if (r == EDIT_CANCEL)
		return;
	base = history_wall(d->h, d->seq);
	t = replay_parse_time(d->rp, d->prompt_text, isnan(base) ? 0 : base);
	if (isnan(t))
		snprintf(d->message, sizeof(d->message), "not a time: '%.60s' (14:03:10, "
			 "2026-11-30 14:03:10, +5m, -30s)", d->prompt_text);
	else
		replay_goto(d, rec_reader_find(d->rp->r, t));
}

/* The line above the status line: where we are, marks (|) and gaps (!). */
void
draw_timeline(struct dashboard *d, int y)
{
	size_t nm, ng, p = replay_shown(d);
	const struct rec_mark *m = rec_reader_marks(d->rp->r, &nm);
	const struct rec_gap *g = rec_reader_gaps(d->rp->r, &ng);
	double t0 = d->n_rec ? rec_reader_time(d->rp->r, 0) : 0;
	double t1 = d->n_rec ? rec_reader_time(d->rp->r, d->n_rec - 1) : 0;
	char a[24], b[24];
	int w;

	fmt_duration(d->n_rec ? rec_reader_time(d->rp->r, p) - t0 : 0, a, sizeof(a));
	fmt_duration(t1 - t0, b, sizeof(b));
	draw_clear_line(y, 0, COLS, ST_NORMAL);
	w = COLS - (int)strlen(a) - (int)strlen(b) - 6;
	if (w < 10 || d->n_rec == 0)
		return;
	draw_text(y, 0, COLS, ST_DIM, "[");
	for (int x = 0; x < w; x++)
		draw_text(y, 1 + x, 1, ST_DIM, draw_utf8() ? "\u2500" : "-");
	for (size_t k = 0; k < ng; k++)
		draw_text(y, 1 + (int)((double)g[k].sample * (w - 1) / (double)(d->n_rec > 1 ? d->n_rec - 1 : 1)),
			  1, ST_BAD, "!");
	for (size_t k = 0; k < nm; k++)
		draw_text(y, 1 + (int)((double)m[k].sample * (w - 1) / (double)(d->n_rec > 1 ? d->n_rec - 1 : 1)),
			  1, ST_WARN, "|");
	draw_text(y, 1 + (int)((double)p * (w - 1) / (double)(d->n_rec > 1 ? d->n_rec - 1 : 1)), 1,
		  ST_SELECTED, "%s", draw_utf8() ? "\u25c6" : "*");
	draw_text(y, 1 + w, COLS, ST_DIM, "] %s / %s", a, b);
}

/* The dashboard on a recording. */
int
dashboard_replay_run(struct dashboard *d)
{
	const struct dashboard_opts *o = d->o;
	const struct rec_header *hd;
	struct rec_info info;
	SCREEN *scr = NULL;
	char err[600] = "";
	size_t cap, start = 0;
	double iv;
	int status = 1;

	if (!(d->rp = replay_open(o->replay, err, sizeof(err)))) {
		fprintf(stderr, "pagetop: %s\n", err);
		return 1;
	}
	err[0] = '\0';
	d->n_rec = replay_count(d->rp);
	if (d->n_rec == 0) {
		fprintf(stderr, "pagetop: %s: no samples to replay\n", o->replay);
		replay_close(d->rp);
		return 1;
	}
	hd = rec_reader_header(d->rp->r);
	snprintf(d->host.hostname, sizeof(d->host.hostname), "%s", hd->hostname);
	snprintf(d->host.release, sizeof(d->host.release), "%s", hd->release);
	d->host.page_size = hd->page_size > 0 ? hd->page_size : 4096;
	d->speed = 1;
	if (o->replay_at && *o->replay_at) {
		double t = replay_parse_time(d->rp, o->replay_at, rec_reader_time(d->rp->r, 0));

		if (isnan(t)) {
			fprintf(stderr, "pagetop: --at: '%s' is not a time (14:03:10, "
				"\"2026-11-30 14:03:10\", +5m)\n", o->replay_at);
			replay_close(d->rp);
			return EXIT_USAGE_DASHBOARD;
		}
		start = rec_reader_find(d->rp->r, t);
	}
	if (!(d->rs = calloc(1, sizeof(*d->rs))) || !(d->groups = calloc(1, sizeof(*d->groups))) ||
	    !(d->ev = events_new(EVENTS_KEPT)))
		goto nomem;
	dashboard_load_reasons(d);
	/* The shape (zones, orders) comes from the recording's first sample. */
	if (replay_seek(d->rp, 0) < 0 && replay_seek(d->rp, rec_reader_keyframe(d->rp->r,
	    d->n_rec - 1)) < 0) {
		fprintf(stderr, "pagetop: %s: %s\n", o->replay, d->rp->error);
		goto fail;
	}
	iv = hd->interval > 0 ? hd->interval : 1;
	cap = (size_t)arith_ceil(o->history / iv) + 1;
	if (cap < REPLAY_BEFORE + 2)
		cap = REPLAY_BEFORE + 2;
	if (cap > MAX_HISTORY)
		cap = MAX_HISTORY;
	if (!(d->h = history_new(cap, (size_t)arith_ceil(o->history / 10) + 2, d->rp->cur)))
		goto nomem;
	for (int i = 0; i < N_VIEWS; i++)
		if (views[i]->state_size && !(d->state[i] = calloc(1, views[i]->state_size)))
			goto nomem;
	rec_reader_info(d->rp->r, &info);
	replay_goto(d, start);
	{
		size_t nd;
		const struct rec_damage *dm = rec_reader_damage(d->rp->r, &nd);

		if (nd)
			snprintf(d->message, sizeof(d->message), "%.100s: damaged at byte %llu: %llu "
				 "bytes skipped, %llu samples lost%s", o->replay,
				 (unsigned long long)dm[0].offset, (unsigned long long)dm[0].bytes,
				 (unsigned long long)dm[0].lost, nd > 1 ? " (and more: dump --info)" : "");
		else if (!info.indexed && !d->message[0])
			snprintf(d->message, sizeof(d->message), "%.120s was not closed properly: %.100s",
				 o->replay, info.why_scanned);
	}
	if (!(scr = dashboard_terminal(o, err, sizeof(err))))
		goto fail;
	status = dashboard_loop(d);
	if (status)
		snprintf(err, sizeof(err), "pagetop: waiting for input: %s", strerror(errno));
	goto fail;
nomem:
	snprintf(err, sizeof(err), "pagetop: out of memory");
fail:
	if (scr) {
		endwin();
		delscreen(scr);
	}
	if (err[0])
		fprintf(stderr, "%s\n", err);
	for (int i = 0; i < N_VIEWS; i++)
		free(d->state[i]);
	history_free(d->h);
	events_free(d->ev);
	free(d->rs);
	free(d->groups);
	replay_close(d->rp);
	return err[0] ? 1 : status;
}
