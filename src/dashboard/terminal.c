/* The terminal: curses loaded (curses-dl.h) and set up for the
 * dashboard (keys without delay, the mouse on the tabs, colours unless
 * NO_COLOR), and the signals that ask it to quit. */
#include "dashboard/curses-dl.h"
#include "dashboard/dashboard-int.h"
#include "util/quit.h"
#include "views/curses-vars.h"
#include "views/draw.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
terminal_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

struct screen *
terminal_open(const struct dashboard_opts *o, char *err, size_t size)
{
	struct curses_vars vars;
	struct draw_opts dopts;
	char why[400];
	SCREEN *scr;

	/* Nothing is done to the terminal until curses is there whole. */
	if (curses_load(&vars, why, sizeof(why)) < 0) {
		snprintf(err, size, "pagetop: %s", why);
		return NULL;
	}
	setlocale(LC_CTYPE, "");
	dopts.utf8 = !o->ascii && terminal_utf8();
	dopts.color = o->color && !getenv("NO_COLOR");
	dopts.vars = &vars;
	if (!(scr = newterm(NULL, stdout, stdin))) {
		snprintf(err, size, "pagetop: cannot drive the terminal (TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		return NULL;
	}
	draw_init(&dopts);
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);

	quit_catch();
	return scr;
}

/* The terminal is given back before anything is printed. */
void
terminal_close(struct screen *scr)
{
	if (!scr)
		return;
	endwin();
	delscreen(scr);
}
