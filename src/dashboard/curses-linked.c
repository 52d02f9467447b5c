/*
 * curses_load() for the programs that link ncurses (the tests, the fuzz
 * targets): nothing to load, and its variables are its own. The binary
 * has curses-dl.c's instead (curses-dl.h says why this one is not used).
 */
#include "dashboard/curses-dl.h"
#include "views/curses-vars.h"

/* The names themselves, not curses-vars.h's ways to them. */
#undef stdscr
#undef COLS
#undef LINES
#undef acs_map

int
curses_load(struct curses_vars *v, char *why, size_t size)
{
	(void)why;
	(void)size;
	v->win = &stdscr;
	v->cols = &COLS;
	v->lines = &LINES;
	v->acs = acs_map;
	return 0;
}
