/* The terminal: curses set up for the dashboard (keys without delay,
 * the mouse on the tabs, colours unless NO_COLOR), and the signals that
 * ask it to quit. */
#include "dashboard/dashboard-int.h"
#include "util/quit.h"
#include "views/draw.h"

#include <curses.h>
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
	struct draw_opts dopts;
	SCREEN *scr;

	setlocale(LC_CTYPE, "");
	dopts.utf8 = !o->ascii && terminal_utf8();
	dopts.color = o->color && !getenv("NO_COLOR");
	if (!(scr = newterm(NULL, stdout, stdin))) {
		snprintf(err, size, "pagetop: cannot drive the terminal (TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		return NULL;
	}
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	draw_init(&dopts);

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
