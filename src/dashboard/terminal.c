/* The terminal: curses set up for the dashboard (keys without delay,
 * the mouse on the tabs, colours unless NO_COLOR), and the signals that
 * ask it to quit. */
#include "dashboard/dashboard-int.h"
#include "views/draw.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t terminal_signal;

static void
terminal_on_signal(int sig)
{
	terminal_signal = sig;
}

bool
terminal_quit(void)
{
	return terminal_signal != 0;
}

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
	struct sigaction sa;
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

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = terminal_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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
