/* The capture at an event in the text of a sample (model/capture.h):
 * what `dump` and `snapshot` print under "Capture at the event". */
#include "output/sample-text.h"

#include <time.h>

#include "model/capture.h"

void
sample_text_capture(FILE *f, const struct sample *s)
{
	const struct capture *c = &s->capture;
	char line[1024], when[32];
	time_t t = (time_t)c->wall;
	struct tm tm;

	if (s->n_capture <= 0)
		return;
	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&t, &tm));
	fprintf(f, "Capture at the event\n  %s\n", capture_title(c, line, sizeof(line)));
	fprintf(f, "  read at %s.%03d, capture %u of the run, %u events within the "
	    "floor not captured\n", when, (int)((c->wall - (double)t) * 1000), c->reads,
	    c->skipped);
	fprintf(f, "  verdict: %s\n", capture_verdict(c, line, sizeof(line)));
	for (int i = 0; i < c->n_zones && i < CAPTURE_ZONES; i++) {
		fprintf(f, "  %s\n", capture_zone_line(c, i, line, sizeof(line)));
		if (!(c->zones[i].has & CZ_PTI))
			continue;
		for (int ty = 0; ty < c->n_types && ty < MAX_MTYPES; ty++)
			fprintf(f, "    %s\n", capture_free_line(c, i, ty, line, sizeof(line)));
	}
	fprintf(f, "  (the blocked and stalled tasks of that instant are the sample's own)\n\n");
}
