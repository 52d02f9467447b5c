/* Drawing helpers shared by the screens: text clipped to the screen or a
 * panel and wrapped, numbers in a few characters, sparklines and level
 * glyphs with an ASCII fallback, colours that fall back to attributes
 * without colour (NO_COLOR, --no-color). */
#ifndef PAGETOP_DRAW_H
#define PAGETOP_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/fmt.h"

enum style {
	ST_NORMAL,
	ST_HEADER,	/* the header line */
	ST_TITLE,	/* panel titles */
	ST_DIM,		/* labels, zero values */
	ST_GOOD,
	ST_WARN,
	ST_BAD,
	ST_SELECTED,
	ST_HEAT1,	/* heat levels, coolest to hottest */
	ST_HEAT2,
	ST_HEAT3,
	ST_HEAT4,
	ST_HEAT5,
	ST_COUNT
};

struct curses_vars;

struct draw_opts {
	bool utf8;
	bool color;
	const struct curses_vars *vars;	/* where curses keeps stdscr, COLS, LINES */
};

/* Call after newterm(), before anything uses stdscr: keeps opts->vars
 * (views/curses-vars.h) and sets up colour pairs when opts->color. */
void draw_init(const struct draw_opts *opts);
int draw_attr(enum style st);
/* printf at (y, x), clipped to width w; returns the columns written. */
int draw_text(int y, int x, int w, enum style st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fills the rest of line y from x with blanks in style st. */
void draw_clear_line(int y, int x, int w, enum style st);

/* A panel's part of the screen: its corner and size. */
struct draw_area {
	int y, x, rows, cols;
};
/* draw_text clipped to area a as well as to the screen; row and col count
 * from a's corner. Returns the columns written. */
int draw_area_text(const struct draw_area *a, int row, int col, int w, enum style st,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* text word-wrapped (text_wrap) in w columns over at most rows lines of a;
 * returns the lines used. */
int draw_wrapped(const struct draw_area *a, int row, int col, int w, int rows, enum style st,
		 const char *text);
/* The columns v takes in decimal. */
int draw_uint_width(uint64_t v);

/* A level glyph for frac in 0..1: "▁".."█", or " .:-=+*#" in ASCII. */
const char *draw_level_glyph(double frac);
/* w glyphs for the last w values (NAN shown blank), scaled to max (or the
 * largest value when max <= 0). */
void draw_spark(int y, int x, int w, const double *v, int n, double max, enum style st);
/* Heat style for a count against the largest count on screen (log scale). */
enum style draw_heat_style(uint64_t v, uint64_t max);

/* Whether block glyphs and rules are drawn (a UTF-8 locale, no --ascii). */
bool draw_utf8(void);
/* One key typed into a one-line text field (filter, mark, time). */
enum edit_result { EDIT_MORE, EDIT_DONE, EDIT_CANCEL };
enum edit_result draw_edit_key(char *text, size_t size, int key);

/* The en dash (or "-") used for unknown values. */
const char *draw_unknown(void);

#endif
