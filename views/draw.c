#include "views/draw.h"
#include "util/arith.h"
#include "util/fmt.h"
#include "util/text.h"
#include "views/curses-vars.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static struct draw_opts draw_opts = { false, false, NULL };
struct curses_vars curses_vars;

void
draw_init(const struct draw_opts *opts)
{
	static const short pairs[ST_COUNT][2] = {
		[ST_HEADER] = { COLOR_BLACK, COLOR_CYAN },
		[ST_TITLE] = { COLOR_CYAN, -1 },
		[ST_DIM] = { COLOR_BLUE, -1 },
		[ST_GOOD] = { COLOR_GREEN, -1 },
		[ST_WARN] = { COLOR_YELLOW, -1 },
		[ST_BAD] = { COLOR_RED, -1 },
		[ST_SELECTED] = { COLOR_BLACK, COLOR_YELLOW },
		[ST_HEAT1] = { COLOR_BLUE, -1 },
		[ST_HEAT2] = { COLOR_CYAN, -1 },
		[ST_HEAT3] = { COLOR_GREEN, -1 },
		[ST_HEAT4] = { COLOR_YELLOW, -1 },
		[ST_HEAT5] = { COLOR_RED, -1 },
	};

	draw_opts = *opts;
	curses_vars = *opts->vars;
	fmt_set_utf8(opts->utf8);
	if (!draw_opts.color || !has_colors()) {
		draw_opts.color = false;
		return;
	}
	start_color();
	use_default_colors();
	for (int i = 1; i < ST_COUNT; i++)
		init_pair((short)i, pairs[i][0], pairs[i][1]);
}

int
draw_attr(enum style st)
{
	if (draw_opts.color) {
		int a = st == ST_NORMAL ? A_NORMAL : (int)COLOR_PAIR(st);

		if (st == ST_TITLE || st == ST_BAD || st == ST_HEAT5)
			a |= A_BOLD;
		return a;
	}
	/* Without colour: keep what carries meaning. */
	switch (st) {
	case ST_HEADER:
	case ST_SELECTED:
		return A_REVERSE;
	case ST_TITLE:
	case ST_BAD:
	case ST_HEAT5:
		return A_BOLD;
	case ST_WARN:
	case ST_HEAT4:
		return A_UNDERLINE;
	default:
		return A_NORMAL;
	}
}

/*
 * The one way text reaches the screen: every view draws through here, so
 * a name from the machine or a file (a task's, a zone's, a kernel log
 * line, a mark) has its controls escaped (text_escape) before the terminal
 * sees it, whichever view shows it.
 */
int
draw_text(int y, int x, int w, enum style st, const char *fmt, ...)
{
	char buf[512], shown[TEXT_ESCAPED_SIZE(sizeof(buf))];
	const unsigned char *p = (const unsigned char *)shown;
	size_t bytes = 0, len;
	va_list ap;
	int n = 0;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	len = text_escape(shown, sizeof(shown), buf, strlen(buf));
	attrset(draw_attr(st));
	/* mvaddnstr counts bytes; count columns for UTF-8 (our text is 1
	 * column a glyph; after text_escape every character is whole). */
	while (bytes < len && n < w) {
		size_t step = 1;

		if (p[bytes] >= 0xf0)
			step = 4;
		else if (p[bytes] >= 0xe0)
			step = 3;
		else if (p[bytes] >= 0xc0)
			step = 2;
		bytes += step;
		n++;
	}
	mvaddnstr(y, x, shown, (int)bytes);
	attrset(A_NORMAL);
	return n;
}

void
draw_clear_line(int y, int x, int w, enum style st)
{
	if (y < 0 || y >= LINES)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset(draw_attr(st));
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

int
draw_area_text(const struct draw_area *a, int row, int col, int w, enum style st, const char *fmt,
	       ...)
{
	char buf[512];
	va_list ap;

	if (row < 0 || row >= a->rows || col < 0 || col >= a->cols || w <= 0)
		return 0;
	if (w > a->cols - col)
		w = a->cols - col;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(a->y + row, a->x + col, w, st, "%s", buf);
}

int
draw_wrapped(const struct draw_area *a, int row, int col, int w, int rows, enum style st,
	     const char *text)
{
	int used = 0;
	size_t n, next;

	while (*text && used < rows && w > 0) {
		n = text_wrap(text, (size_t)w, &next, NULL);
		draw_area_text(a, row + used++, col, w, st, "%.*s", (int)n, text);
		text += next;
	}
	return used;
}

int
draw_uint_width(uint64_t v)
{
	char buf[24];

	return snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
}

enum edit_result
draw_edit_key(char *text, size_t size, int key)
{
	size_t n = strlen(text);

	if (key == '\n' || key == '\r' || key == KEY_ENTER)
		return EDIT_DONE;
	if (key == 27)
		return EDIT_CANCEL;
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n)
			text[n - 1] = '\0';
	} else if (key >= 0x20 && key < 0x7f && n + 1 < size) {
		text[n] = (char)key;
		text[n + 1] = '\0';
	}
	return EDIT_MORE;
}

bool
draw_utf8(void)
{
	return draw_opts.utf8;
}

const char *
draw_unknown(void)
{
	return fmt_unknown();
}

const char *
draw_level_glyph(double frac)
{
	static const char *const blocks[] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"
	};
	static const char *const ascii[] = { " ", ".", ":", "-", "=", "+", "*", "#", "@" };
	int i;

	if (isnan(frac) || frac <= 0)
		return " ";
	i = 1 + (int)(frac * 7.999);
	if (i > 8)
		i = 8;
	return draw_opts.utf8 ? blocks[i] : ascii[i];
}

void
draw_spark(int y, int x, int w, const double *v, int n, double max, enum style st)
{
	int first = n > w ? n - w : 0;

	if (max <= 0) {
		for (int i = first; i < n; i++)
			if (!isnan(v[i]) && v[i] > max)
				max = v[i];
	}
	attrset(draw_attr(st));
	for (int i = first, col = x + (w - (n - first)); i < n; i++, col++) {
		double f = max > 0 && !isnan(v[i]) ? v[i] / max : 0;

		/* Any non-zero value shows at least the lowest block. */
		if (!isnan(v[i]) && v[i] > 0 && f < 0.01)
			f = 0.01;
		if (col >= 0 && col < COLS)
			mvaddstr(y, col, draw_level_glyph(f));
	}
	attrset(A_NORMAL);
}

enum style
draw_heat_style(uint64_t v, uint64_t max)
{
	double f;

	if (v == 0 || max == 0)
		return ST_DIM;
	f = arith_log_share((double)v, (double)max);
	return f < 0.2 ? ST_HEAT1 : f < 0.4 ? ST_HEAT2 : f < 0.6 ? ST_HEAT3 :
	    f < 0.8 ? ST_HEAT4 : ST_HEAT5;
}

