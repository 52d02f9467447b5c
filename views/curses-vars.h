/*
 * curses' variables (stdscr, COLS, LINES, acs_map), read where the curses
 * in use keeps them. The pagetop binary does not link ncurses: it loads it
 * with dlopen() when it drives a terminal (dashboard/curses-dl.c), so it
 * cannot name them and asks dlsym() where they are; the tests link ncurses
 * and give its own (dashboard/curses-linked.c). A file that uses them, or
 * a curses macro that does (erase(), refresh(), getch(), attrset(),
 * mvaddstr(), ACS_*), includes this instead of <curses.h>: a plain use
 * does not link into the binary ("undefined reference to `COLS'").
 */
#ifndef PAGETOP_CURSES_VARS_H
#define PAGETOP_CURSES_VARS_H

#include <curses.h>

#if NCURSES_REENTRANT
#error "a reentrant ncurses has functions for stdscr and COLS, not variables: build with ncursesw"
#endif

/* Their addresses (fields not named after them: those are macros here). */
struct curses_vars {
	WINDOW	**win;		/* stdscr */
	int	 *cols;		/* COLS */
	int	 *lines;	/* LINES */
	chtype	 *acs;		/* acs_map */
};

/* Set by draw_init() (views/draw.c), after the terminal is set up. */
extern struct curses_vars curses_vars;

#undef stdscr
#undef COLS
#undef LINES
#undef acs_map
#define stdscr	(*curses_vars.win)
#define COLS	(*curses_vars.cols)
#define LINES	(*curses_vars.lines)
#define acs_map	(curses_vars.acs)

#endif
