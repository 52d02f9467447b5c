/* Marks from scripts: each running recorder (or dashboard) listens on a
 * unix datagram socket in a directory of the user's own; `pagetop mark
 * TEXT` sends the text to every one there. */
#ifndef PAGETOP_MARKS_H
#define PAGETOP_MARKS_H

#include <stdbool.h>
#include <stddef.h>

#define MARK_TEXT_MAX 255

/*
 * Whether a listener takes marks is said by its socket's mode, which its
 * process keeps: MARKS_TAKING (writable by its owner) while it records,
 * MARKS_NOT_TAKING while it does not (a dashboard before R: a mark sent to
 * it would be lost). A recorder keeps the first; the dashboard says, through
 * its feed (feed_marks_taken), as R starts and stops recording. marks_send()
 * reads the mode, not what the process has open.
 */
#define MARKS_TAKING		0600
#define MARKS_NOT_TAKING	0400

/* A non-blocking socket, MARKS_TAKING, or -1 with why; its path goes into
 * path. */
int marks_listen(char *path, size_t pathlen, char *why, size_t whylen);
/* One waiting mark into text: 1, or 0 when none waits. */
int marks_receive(int fd, char *text, size_t size);
void marks_close(int fd, const char *path);
/* Says whether the listener at path takes marks (its mode): 0 or -errno. */
int marks_taking(const char *path, bool on);
/* Sends text, cut to MARK_TEXT_MAX bytes on a UTF-8 character boundary,
 * to every listener that takes marks (a dashboard that is not recording
 * is left out): how many got it, or -1 with why (none recording, or the directory
 * is another user's or cannot be read). */
int marks_send(const char *text, char *why, size_t whylen);

#endif
