/*
 * curses for the dashboard: loaded when a terminal is driven, and where
 * its variables are. Two definitions, one linked into each program:
 * curses-dl.c into the binary alone (it loads ncurses with dlopen(), so
 * record, report, export and serve never map it), curses-linked.c in the
 * library for the tests, which link ncurses. The binary's object comes
 * before libpagetop.a on the link line, so the library's is never pulled.
 */
#ifndef PAGETOP_CURSES_DL_H
#define PAGETOP_CURSES_DL_H

#include <stddef.h>

struct curses_vars;

/* Loads curses (once) and says where its variables are: 0, or -ELIBACC
 * with why (naming the library and dlerror()'s reason). */
int curses_load(struct curses_vars *v, char *why, size_t size);

#endif
