/* The live dashboard: samples on a timer into the history and draws the
 * current view; keys switch views, pause and step through the history. */
#ifndef PAGETOP_DASHBOARD_H
#define PAGETOP_DASHBOARD_H

#include <stdbool.h>

struct dashboard_opts {
	const char *root;	/* proc root */
	double delay;		/* seconds between samples */
	double pti_every;	/* seconds between pagetypeinfo reads */
	double history;		/* seconds of history kept */
	long iterations;	/* exit after this many samples; 0: run until quit */
	bool ascii;		/* no UTF-8 glyphs */
	bool color;
	const char *replay;	/* a recording to replay instead of sampling */
	const char *replay_at;	/* where the replay starts, "" or NULL: the start */
	const char *record;	/* record from the start to this file, or NULL */
	const char *kmsg;	/* the kernel log to read; NULL: /dev/kmsg on a real procfs */
};

/* Runs until quit; returns the exit status. */
int dashboard_run(const struct dashboard_opts *o);

#endif
