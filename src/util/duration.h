/* Durations on the command line: "90", "90s", "5m", "1.5h", "2d". */
#ifndef PAGETOP_DURATION_H
#define PAGETOP_DURATION_H

/* Seconds in *out; 0, or -EINVAL for anything else (negative, empty,
 * unknown unit, trailing text). */
int duration_parse(const char *s, double *out);

#endif
