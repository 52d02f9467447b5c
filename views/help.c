/* Help: every key, the dashboard's own and each screen's. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "views/view.h"

static const char *const global_help[] = {
	"1-6, Tab    switch screen (or click its tab); e the Events screen",
	"space       pause / resume the live view (sampling goes on)",
	"Left/Right  step one sample back / forward (pauses)",
	"Home        the oldest sample in the history",
	"End         back to the newest sample, live",
	"/           filter what the screen lists (zones, rows); Esc clears",
	"R           start / stop recording the live session (REC in the header)",
	"m           put a mark (a short text) into the recording",
	"            replay: space play/pause, [ ] or - + speed (x0.25 to x64),",
	"            g go to a time (14:03:10, +5m, -30s), n/N next/previous event of",
	"            the kinds f toggles (marks, kernel log, stalls, PSI past 10%, new",
	"            task groups: off at first, gaps); ' and \" next/previous mark",
	"?, h, F1    this help; again or Esc to go back",
	"q, F10      quit (so do Ctrl-C, SIGTERM and SIGHUP)",
	NULL
};

static const struct view *const screens[] = {
	&view_overview, &view_fragmentation, &view_reclaim, &view_tasks, &view_events,
	&view_sensors, NULL
};

/* What the kernel probes add to the screens. */
static const char *const probes_help[] = {
	"BPF on tracepoints, read once a tick (root: CAP_BPF, CAP_PERFMON)",
	"Overview     time stalled in direct reclaim and compaction per second",
	"Reclaim      per stall kind: count, p50, p99, max this tick; a latency",
	"             histogram of the window (64 ticks); throttling by reason,",
	"             kswapd awake time, writes from reclaim",
	"Fragmentation  fallbacks per order and per asked -> taken migratetype",
	"Tasks        tasks that stalled in reclaim or compaction (they run, in",
	"             R) and short D sleeps by stack, with their wait reason",
	"Off, each panel says why in one line; a probe that did not attach is named",
	NULL
};

struct help_state {
	int top;		/* first line shown */
};

/* Line i of the help text; true for titles. NULL past the end. */
static const char *
help_line(int i, bool *title)
{
	*title = i == 0;
	if (i == 0)
		return "Keys";
	i--;
	for (int k = 0; global_help[k]; k++, i--)
		if (i == 0)
			return global_help[k];
	for (int s = 0; screens[s]; s++) {
		if (!screens[s]->help)
			continue;
		if (i-- == 0)
			return "";
		if (i-- == 0) {
			*title = true;
			return screens[s]->title;
		}
		for (int k = 0; screens[s]->help[k]; k++, i--)
			if (i == 0)
				return screens[s]->help[k];
	}
	if (i-- == 0)
		return "";
	if (i-- == 0) {
		*title = true;
		return "Kernel probes";
	}
	for (int k = 0; probes_help[k]; k++, i--)
		if (i == 0)
			return probes_help[k];
	return NULL;
}

static int
help_count(void)
{
	bool t;
	int n = 0;

	while (help_line(n, &t))
		n++;
	return n;
}

static void
help_draw(const struct view_ctx *ctx, void *state)
{
	struct help_state *st = state;
	int n = help_count();
	bool title;

	if (st->top > n - ctx->rows)
		st->top = n - ctx->rows > 0 ? n - ctx->rows : 0;
	for (int r = 0; r < ctx->rows; r++) {
		const char *line = help_line(st->top + r, &title);

		if (!line)
			break;
		if (title)
			view_title(ctx->y + r, ctx->x, ctx->cols, line);
		else
			draw_text(ctx->y + r, ctx->x + 2, ctx->cols - 2, ST_NORMAL, "%s", line);
	}
	if (st->top + ctx->rows < n)
		draw_text(ctx->y + ctx->rows - 1, ctx->x + ctx->cols - 16, 16, ST_DIM,
			  " more: Down/PgDn");
}

static bool
help_key(const struct view_ctx *ctx, void *state, int key)
{
	struct help_state *st = state;

	switch (key) {
	case KEY_DOWN:
		st->top++;
		return true;
	case KEY_UP:
		if (st->top > 0)
			st->top--;
		return true;
	case KEY_NPAGE:
		st->top += ctx->rows - 1;
		return true;
	case KEY_PPAGE:
		st->top = st->top > ctx->rows - 1 ? st->top - (ctx->rows - 1) : 0;
		return true;
	}
	return false;
}

const struct view view_help = {
	.name = "help",
	.title = "Help",
	.key = '?',
	.draw = help_draw,
	.handle_key = help_key,
	.state_size = sizeof(struct help_state),
};
