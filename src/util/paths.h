/* Where pagetop finds its data files and the user's own. */
#ifndef PAGETOP_PATHS_H
#define PAGETOP_PATHS_H

#include <stddef.h>

/* The installed file NAME of data/: $PAGETOP_DATADIR/NAME when set; else
 * data/NAME beside the running binary (a build tree, so `./pagetop` works
 * before `make install`); else PKGDATADIR/NAME. */
void paths_data(const char *name, char *dst, size_t size);
/* The user's file: $XDG_CONFIG_HOME/pagetop/NAME, else ~/.config/pagetop/NAME. */
void paths_config(const char *name, char *dst, size_t size);

#endif
