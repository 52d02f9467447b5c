#include "util/duration.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int
duration_parse(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || strchr("+-", *s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
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
	*out = v;
	return 0;
}
