/* The dashboard: samples from a feed into the history, the current view
 * drawn; keys switch views, pause and step through the history, and on a
 * recording play, seek and jump to events. */
#ifndef PAGETOP_DASHBOARD_H
#define PAGETOP_DASHBOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/feed.h"

struct dashboard_opts {
	double history;		/* seconds of history kept */
	long iterations;	/* live: exit after this many samples; 0: until quit */
	bool ascii;		/* no UTF-8 glyphs */
	bool color;
	size_t start;		/* a recording: the sample shown first */
	const char *record;	/* live: record from the start to this file, or NULL */
	const char *cmdline;	/* how pagetop was started, for a recording's header */
	const char *note;	/* a first line for the status line, or NULL */
	/* A recording to show beside a recording, or NULL: its sample at
	 * the same moment plus compare_offset seconds (the same elapsed
	 * time from the start, or from a mark both have). */
	struct feed *compare;
	double compare_offset;
	const char *compare_name;
};

/* false, with one line on stderr, when stdin or stdout is not a terminal. */
bool dashboard_has_terminal(void);
/* Runs on feed f until quit; returns the exit status. f stays the caller's. */
int dashboard_run(const struct dashboard_opts *o, struct feed *f);

#endif
