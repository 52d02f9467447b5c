/* SIGINT, SIGTERM and SIGHUP as a request to stop, for the loops of the
 * dashboard, record and serve: each polls quit_asked() and ends cleanly
 * (a recording finished, the terminal restored). */
#ifndef PAGETOP_QUIT_H
#define PAGETOP_QUIT_H

#include <stdbool.h>

/* Catches the three signals from now on; poll() and sleeps return EINTR. */
void quit_catch(void);
bool quit_asked(void);

#endif
