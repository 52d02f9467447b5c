/* Durations on the command line: "90", "90s", "500ms", "5m", "1.5h", "2d". */
#ifndef PAGETOP_DURATION_H
#define PAGETOP_DURATION_H

/* Seconds in *out, finite and 0 or more; 0, or -EINVAL for anything else
 * (a sign, an empty string, a space, hex, inf, nan, an unknown unit,
 * trailing text, or too large to be finite: "1e308d"). Ranges are the caller's
 * (cmd/cmd-opts.h). */
int duration_parse(const char *s, double *out);

#endif
