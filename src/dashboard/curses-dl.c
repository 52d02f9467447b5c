/*
 * ncurses for the pagetop binary alone, without linking it: only the
 * dashboard and replay drive a terminal, and record, report, export,
 * dump and serve never do. Linked, libncursesw and libtinfo were mapped
 * and relocated at every start: 0.25 MB of record's resident memory.
 *
 *	the library's calls		here, forwarded to ncurses, which
 *	  (terminal.c, dashboard.c,	  curses_load() dlopen()s and
 *	  views/draw.c)			  resolves all at once, or fails
 *	curses' variables		  dlsym()ed: views/curses-vars.h
 *
 * Tests link ncurses itself (Makefile.am: this file is the binary's only;
 * theirs is curses-linked.c), so both ways are built and run. The
 * prototypes are <curses.h>'s, so a definition here that does not match
 * does not build, and a call to one not here does not link.
 */
#include "config.h"

#include "dashboard/curses-dl.h"
#include "views/curses-vars.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/*
 * X(return type, name, value when not loaded, parameters, arguments):
 * what the binary calls of ncurses, from `nm -D --undefined-only pagetop`
 * when it linked it. Names are parenthesized below: some may be macros.
 */
#define CURSES_DL_FUNCTIONS(X)						\
	X(int, cbreak, ERR, (void), ())					\
	X(int, curs_set, ERR, (int v), (v))				\
	X(int, endwin, ERR, (void), ())					\
	X(int, getmouse, ERR, (MEVENT *e), (e))				\
	X(bool, has_colors, FALSE, (void), ())				\
	X(int, init_pair, ERR,						\
	    (NCURSES_PAIRS_T p, NCURSES_COLOR_T f, NCURSES_COLOR_T b), (p, f, b)) \
	X(int, keypad, ERR, (WINDOW *w, bool on), (w, on))		\
	X(mmask_t, mousemask, 0, (mmask_t m, mmask_t *old), (m, old))	\
	X(SCREEN *, newterm, NULL,					\
	    (const char *type, FILE *out, FILE *in), (type, out, in))	\
	X(int, nodelay, ERR, (WINDOW *w, bool on), (w, on))		\
	X(int, noecho, ERR, (void), ())					\
	X(int, nonl, ERR, (void), ())					\
	X(int, set_escdelay, ERR, (int ms), (ms))			\
	X(int, start_color, ERR, (void), ())				\
	X(int, use_default_colors, ERR, (void), ())			\
	X(int, waddnstr, ERR, (WINDOW *w, const char *s, int n), (w, s, n)) \
	X(int, wattrset, ERR, (WINDOW *w, int a), (w, a))		\
	X(int, wclear, ERR, (WINDOW *w), (w))				\
	X(int, werase, ERR, (WINDOW *w), (w))				\
	X(int, wgetch, ERR, (WINDOW *w), (w))				\
	X(int, whline, ERR, (WINDOW *w, chtype c, int n), (w, c, n))	\
	X(int, wmove, ERR, (WINDOW *w, int y, int x), (w, y, x))	\
	X(int, wrefresh, ERR, (WINDOW *w), (w))

/* ncurses' functions, all set or all NULL. */
static struct curses_dl_fns {
#define X(ret, fn, fail, params, args)	ret (*fn) params;
	CURSES_DL_FUNCTIONS(X)
#undef X
	void (*delscreen)(SCREEN *);
} curses_dl;

static const struct {
	const char *name;
	size_t off;
} curses_dl_syms[] = {
#define X(ret, fn, fail, params, args)	{ #fn, offsetof(struct curses_dl_fns, fn) },
	CURSES_DL_FUNCTIONS(X)
#undef X
	{ "delscreen", offsetof(struct curses_dl_fns, delscreen) },
};

static const char *const curses_dl_vars[] = { "stdscr", "COLS", "LINES", "acs_map" };

static void *curses_dl_handle;
static void *curses_dl_var[4];

static int
curses_dl_fail(void *h, char *why, size_t size)
{
	snprintf(why, size, "cannot load %s to drive the terminal: %s", CURSES_SONAME,
		 dlerror());
	memset(&curses_dl, 0, sizeof(curses_dl));
	if (h)
		dlclose(h);
	return -ELIBACC;
}

int
curses_load(struct curses_vars *v, char *why, size_t size)
{
	void *h, *p;
	size_t i;

	if (!curses_dl_handle) {
		if (!(h = dlopen(CURSES_SONAME, RTLD_NOW | RTLD_LOCAL)))
			return curses_dl_fail(NULL, why, size);
		for (i = 0; i < sizeof(curses_dl_syms) / sizeof(curses_dl_syms[0]); i++) {
			if (!(p = dlsym(h, curses_dl_syms[i].name)))
				return curses_dl_fail(h, why, size);
			memcpy((char *)&curses_dl + curses_dl_syms[i].off, &p, sizeof(p));
		}
		for (i = 0; i < sizeof(curses_dl_vars) / sizeof(curses_dl_vars[0]); i++)
			if (!(curses_dl_var[i] = dlsym(h, curses_dl_vars[i])))
				return curses_dl_fail(h, why, size);
		curses_dl_handle = h;
	}
	v->win = curses_dl_var[0];
	v->cols = curses_dl_var[1];
	v->lines = curses_dl_var[2];
	v->acs = curses_dl_var[3];
	return 0;
}

/* Defines ncurses' fn, forwarding to it; before curses_load(), fail. */
#define X(ret, fn, fail, params, args)					\
ret									\
(fn) params								\
{									\
	return curses_dl.fn ? (curses_dl.fn) args : (fail);		\
}
CURSES_DL_FUNCTIONS(X)
#undef X

void
(delscreen)(SCREEN *s)
{
	if (curses_dl.delscreen)
		curses_dl.delscreen(s);
}
