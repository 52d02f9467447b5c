/* Marks from scripts: each running recorder (or dashboard) listens on a
 * unix datagram socket in a directory of the user's own; `pagetop mark
 * TEXT` sends the text to every one there. */
#ifndef PAGETOP_MARKS_H
#define PAGETOP_MARKS_H

#include <stddef.h>

#define MARK_TEXT_MAX 255

/* A non-blocking socket, or -1 with why; its path goes into path. */
int marks_listen(char *path, size_t pathlen, char *why, size_t whylen);
/* One waiting mark into text: 1, or 0 when none waits. */
int marks_receive(int fd, char *text, size_t size);
void marks_close(int fd, const char *path);
/* Sends text, cut to MARK_TEXT_MAX bytes on a UTF-8 character boundary,
 * to every listener that is recording (a dashboard that is not is left
 * out): how many got it, or -1 with why (none recording, or the directory
 * is another user's or cannot be read). */
int marks_send(const char *text, char *why, size_t whylen);

#endif
