/* Placeholder until the real source lands (being written now). */
#include "sensors.h"

#include <stdio.h>
#include <stdlib.h>

struct sensors_source {
	int unused;
};

struct sensors_source *
sensors_open(void)
{
	return calloc(1, sizeof(struct sensors_source));
}

void
sensors_close(struct sensors_source *src)
{
	free(src);
}

void
sensors_read(struct sensors_source *src, struct sensors *out)
{
	(void)src;
	out->n = 0;
	out->available = false;
	snprintf(out->why, sizeof(out->why), "not written yet");
}
