/* Durations on the command line: a decimal number and a unit (duration.h). */
#include "util/duration.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int
duration_parse(const char *s, double *out)
{
	const char *p = s;
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	/* A decimal number ("1.5", ".5", "1e3"): strtod alone would also
	 * take " 5", "0x10", "inf" and "nan". */
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (p == s || (p == s + 1 && *s == '.'))
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;

		if (*q == '+' || *q == '-')
			q++;
		if (*q >= '0' && *q <= '9') {
			while (*q >= '0' && *q <= '9')
				q++;
			p = q;
		}
	}
	v = strtod(s, &end);
	if (end != p)
		return -EINVAL;
	if (*end == '\0' || strcmp(end, "s") == 0)
		;
	else if (strcmp(end, "ms") == 0)
		v /= 1000;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		v *= 60;
	else if (strcmp(end, "h") == 0)
		v *= 3600;
	else if (strcmp(end, "d") == 0)
		v *= 86400;
	else
		return -EINVAL;
	if (!isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}
