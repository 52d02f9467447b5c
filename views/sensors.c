/*
 * Sensors: every reading grouped under its chip, with its limits and a bar
 * of the value against the critical limit (or the high one). Sensors are
 * not history: this screen always shows the latest reading, also while
 * the other screens are paused on an older entry. With replay --compare,
 * a B column: the reading of the same chip and label in B's sample.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/sensors.h"
#include "util/arith.h"
#include "views/view.h"

#define LABEL_MAX	24	/* columns for a label; sensors.h keeps 31 */
#define VALUE_W		10	/* "1234.5 RPM" */
#define BAR_MIN		8
#define BAR_MAX		40

struct sensors_view {
	int top;		/* the first line of the list on screen */
};

/* Where the columns go for a given width; narrow screens drop the bar,
 * then the limits. Offsets are from ctx->x. */
struct sensors_layout {
	int label, label_w;
	int value;
	int b;			/* B's value (replay --compare); 0: none */
	bool limits;
	int high, crit;
	int bar, bar_w;		/* bar_w 0: no bar */
};

static const char *const sensors_help[] = {
	"Up Down    scroll the readings",
	"PgUp PgDn  scroll a page",
	"/          show only chips and labels containing the text",
	NULL
};

/* Columns taken by s: our text is one column a glyph. */
static int
sensors_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* draw_text() kept inside the view's area. */
static int __attribute__((format(printf, 6, 7)))
sensors_text(const struct view_ctx *ctx, int y, int x, int w, enum style st,
    const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int right = ctx->x + ctx->cols;

	if (y < ctx->y || y >= ctx->y + ctx->rows || x < ctx->x || x >= right || w <= 0)
		return 0;
	if (w > right - x)
		w = right - x;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(y, x, w, st, "%s", buf);
}

static void
sensors_layout(int cols, bool b, struct sensors_layout *l)
{
	int fixed;

	memset(l, 0, sizeof(*l));
	l->limits = cols >= 58 + (b ? 1 + VALUE_W : 0);
	fixed = 2 + 1 + VALUE_W + (b ? 1 + VALUE_W : 0);
	if (l->limits)
		fixed += 2 * (1 + VALUE_W);
	if (cols >= 66)
		fixed += 2 + BAR_MIN;
	l->label = 2;
	l->label_w = cols - fixed;
	if (l->label_w > LABEL_MAX)
		l->label_w = LABEL_MAX;
	if (l->label_w < 1)
		l->label_w = 1;
	l->value = l->label + l->label_w + 1;
	if (b)
		l->b = l->value + VALUE_W + 1;
	l->high = (b ? l->b : l->value) + VALUE_W + 1;
	l->crit = l->high + VALUE_W + 1;
	if (cols >= 66) {
		l->bar = (l->limits ? l->crit : b ? l->b : l->value) + VALUE_W + 2;
		l->bar_w = cols - l->bar;
		if (l->bar_w > BAR_MAX)
			l->bar_w = BAR_MAX;
	}
}

static void
sensors_fmt(enum sensor_kind kind, double v, char *dst, size_t size)
{
	if (isnan(v)) {
		snprintf(dst, size, "%s", draw_unknown());
		return;
	}
	switch (kind) {
	case SENSOR_TEMP:
		snprintf(dst, size, "%.1f%s", v, !draw_utf8() ? " C" : "\u00b0C");
		break;
	case SENSOR_FAN:
		snprintf(dst, size, "%.0f RPM", v);
		break;
	case SENSOR_VOLTAGE:
		snprintf(dst, size, "%.2f V", v);
		break;
	case SENSOR_POWER:
		snprintf(dst, size, fabs(v) < 10 ? "%.2f W" : "%.1f W", v);
		break;
	default:
		snprintf(dst, size, "%g", v);
		break;
	}
}

/* Good below the high limit, a warning from it (or from 90% of a lone
 * critical limit), bad from the critical one. */
static enum style
sensors_style(const struct sensor_reading *r)
{
	if (!r->valid)
		return ST_DIM;
	if (!isnan(r->crit) && r->value >= r->crit)
		return ST_BAD;
	if (!isnan(r->high) && r->value >= r->high)
		return ST_WARN;
	if (isnan(r->high) && !isnan(r->crit) && r->value >= 0.9 * r->crit)
		return ST_WARN;
	if (isnan(r->high) && isnan(r->crit))
		return ST_NORMAL;
	return ST_GOOD;
}

/* A figure right-aligned in VALUE_W columns from x. */
static void
sensors_figure(const struct view_ctx *ctx, int y, int x, enum style st,
    enum sensor_kind kind, double v)
{
	char buf[32];
	int pad;

	sensors_fmt(kind, v, buf, sizeof(buf));
	pad = VALUE_W - sensors_width(buf);
	sensors_text(ctx, y, x + (pad > 0 ? pad : 0), VALUE_W, st, "%s", buf);
}

/* The value against crit (or high), with a tick where high is. */
static void
sensors_bar(const struct view_ctx *ctx, int y, int x, int w,
    const struct sensor_reading *r, enum style st)
{
	double ref = !isnan(r->crit) ? r->crit : r->high;
	double frac;
	int fill, mark = -1;
	bool ascii = !draw_utf8();

	if (w <= 0 || !r->valid || isnan(ref) || ref <= 0)
		return;
	frac = r->value / ref;
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	fill = (int)arith_llround(frac * w);
	if (!isnan(r->high) && !isnan(r->crit) && r->high < r->crit)
		mark = (int)(r->high / r->crit * w);
	for (int i = 0; i < w; i++) {
		if (i < fill)
			sensors_text(ctx, y, x + i, 1, st, "%s", ascii ? "#" : "\u2588");
		else if (i == mark)
			sensors_text(ctx, y, x + i, 1, ST_WARN, "%s", ascii ? "|" : "\u2502");
		else
			sensors_text(ctx, y, x + i, 1, ST_DIM, "%s", ascii ? "." : "\u00b7");
	}
}

/* B's reading of the same chip and label, or NULL. */
static const struct sensor_reading *
sensors_in_b(const struct view_ctx *ctx, const struct sensor_reading *r)
{
	const struct sensors *s = ctx->b ? ctx->b->sensors : NULL;

	for (int i = 0; s && i < s->n; i++)
		if (strcmp(s->r[i].chip, r->chip) == 0 && strcmp(s->r[i].label, r->label) == 0)
			return &s->r[i];
	return NULL;
}

static void
sensors_row(const struct view_ctx *ctx, const struct sensors_layout *l, int y,
    const struct sensor_reading *r)
{
	int x = ctx->x;
	enum style st = sensors_style(r);

	sensors_text(ctx, y, x + l->label, l->label_w, r->valid ? ST_NORMAL : ST_DIM,
	    "%s", r->label);
	sensors_figure(ctx, y, x + l->value, st, r->kind, r->value);
	if (l->b) {
		const struct sensor_reading *rb = sensors_in_b(ctx, r);

		if (rb && rb->valid)
			sensors_figure(ctx, y, x + l->b, ST_HEAT3, rb->kind, rb->value);
		else
			sensors_text(ctx, y, x + l->b + VALUE_W - 1, 1, ST_DIM, "-");
	}
	if (l->limits) {
		if (!isnan(r->high))
			sensors_figure(ctx, y, x + l->high, ST_DIM, r->kind, r->high);
		if (!isnan(r->crit))
			sensors_figure(ctx, y, x + l->crit, ST_DIM, r->kind, r->crit);
	}
	if (l->bar_w > 0)
		sensors_bar(ctx, y, x + l->bar, l->bar_w, r, st);
}

static bool
sensors_shown(const struct view_ctx *ctx, const struct sensor_reading *r)
{
	const char *f = ctx->filter;

	return !f || !f[0] || strcasestr(r->chip, f) || strcasestr(r->label, f);
}

/* Lines of the list: a line per chip, then one per reading under it. */
static int
sensors_lines(const struct view_ctx *ctx, const struct sensors *s)
{
	const char *chip = NULL;
	int n = 0;

	for (int i = 0; i < s->n; i++) {
		if (!sensors_shown(ctx, &s->r[i]))
			continue;
		if (!chip || strcmp(chip, s->r[i].chip) != 0)
			n++;
		chip = s->r[i].chip;
		n++;
	}
	return n;
}

/* One or two lines near the middle, for when there is nothing to list. */
static void
sensors_message(const struct view_ctx *ctx, const char *line, const char *hint)
{
	int y = ctx->y + 1 + (ctx->rows - 1) / 3, x;

	x = ctx->x + (ctx->cols - sensors_width(line)) / 2;
	sensors_text(ctx, y, x < ctx->x ? ctx->x : x, ctx->cols, ST_NORMAL, "%s", line);
	if (!hint)
		return;
	x = ctx->x + (ctx->cols - sensors_width(hint)) / 2;
	sensors_text(ctx, y + 1, x < ctx->x ? ctx->x : x, ctx->cols, ST_DIM, "%s", hint);
}

static void
sensors_draw(const struct view_ctx *ctx, void *state)
{
	struct sensors_view *v = state;
	const struct sensors *s = ctx->sensors;
	struct sensors_layout l;
	const char *chip = NULL;
	char note[64] = "", buf[96];
	int y = ctx->y, list, total, line = 0, top;

	view_title(y, ctx->x, ctx->cols, "Sensors");
	if (!s) {
		sensors_message(ctx, "Sensors are read only on the live system.",
		    "There are none in a --proc-root directory of captured files.");
		return;
	}
	if (!s->available) {
		sensors_message(ctx, s->why, "Run 'sensors' (lm-sensors) to see more.");
		return;
	}
	if (s->n == 0) {
		sensors_message(ctx, s->why,
		    "sensors-detect (lm-sensors) may find chips whose driver is not loaded.");
		return;
	}
	if ((total = sensors_lines(ctx, s)) == 0) {
		snprintf(buf, sizeof(buf), "No chip or label contains \"%s\".", ctx->filter);
		sensors_message(ctx, buf, "Esc clears the filter.");
		return;
	}

	/* Keep the scroll position inside the list as it and the screen change. */
	list = ctx->rows - 2;
	top = v ? v->top : 0;
	if (top > total - list)
		top = total - list;
	if (top < 0)
		top = 0;
	if (v)
		v->top = top;

	if (total > list && list > 0)
		snprintf(note, sizeof(note), " %d-%d of %d ", top + 1,
		    top + list < total ? top + list : total, total);
	if (ctx->paused)
		snprintf(buf, sizeof(buf), " latest, not paused %s", note);
	else
		snprintf(buf, sizeof(buf), "%s", note);
	if (buf[0] && ctx->cols > sensors_width(buf) + 12)
		sensors_text(ctx, y, ctx->x + ctx->cols - sensors_width(buf) - 1,
		    sensors_width(buf), ST_DIM, "%s", buf);
	y++;

	sensors_layout(ctx->cols, ctx->b && ctx->b->sensors, &l);
	sensors_text(ctx, y, ctx->x + l.label, l.label_w, ST_DIM, "Sensor");
	sensors_text(ctx, y, ctx->x + l.value + VALUE_W - 5, 5, ST_DIM, "Value");
	if (l.b)
		sensors_text(ctx, y, ctx->x + l.b + VALUE_W - 1, 1, ST_DIM, "B");
	if (l.limits) {
		sensors_text(ctx, y, ctx->x + l.high + VALUE_W - 4, 4, ST_DIM, "High");
		sensors_text(ctx, y, ctx->x + l.crit + VALUE_W - 4, 4, ST_DIM, "Crit");
	}
	if (l.bar_w > 0)
		sensors_text(ctx, y, ctx->x + l.bar, l.bar_w, ST_DIM, "of crit (or high)");
	y++;

	for (int i = 0; i < s->n && y < ctx->y + ctx->rows; i++) {
		const struct sensor_reading *r = &s->r[i];

		if (!sensors_shown(ctx, r))
			continue;
		if (!chip || strcmp(chip, r->chip) != 0) {
			if (line++ >= top)
				sensors_text(ctx, y++, ctx->x, ctx->cols, ST_TITLE, "%s", r->chip);
		}
		chip = r->chip;
		if (y >= ctx->y + ctx->rows)
			break;
		if (line++ >= top)
			sensors_row(ctx, &l, y++, r);
	}
}

static bool
sensors_key(const struct view_ctx *ctx, void *state, int key)
{
	struct sensors_view *v = state;
	int page = ctx->rows - 3 > 1 ? ctx->rows - 3 : 1;

	if (!v)
		return false;
	/* The far end is clamped when drawing: only draw knows the list. */
	switch (key) {
	case KEY_UP:
		v->top--;
		break;
	case KEY_DOWN:
		v->top++;
		break;
	case KEY_PPAGE:
		v->top -= page;
		break;
	case KEY_NPAGE:
		v->top += page;
		break;
	default:
		return false;
	}
	if (v->top < 0)
		v->top = 0;
	return true;
}

const struct view view_sensors = {
	.name = "sensors",
	.title = "Sensors",
	.key = '6',
	.draw = sensors_draw,
	.handle_key = sensors_key,
	.state_size = sizeof(struct sensors_view),
	.help = sensors_help,
};
