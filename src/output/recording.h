/* Recording a session: each sample encoded against the previous one and
 * handed to the recorder thread, which never blocks the caller. Used by
 * `pagetop record` and by the dashboard's R key alike. */
#ifndef PAGETOP_RECORDING_H
#define PAGETOP_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/host.h"
#include "output/recorder.h"
#include "model/sample.h"

struct recording {
	struct recorder *rec;
	struct sample *prev;	/* the last sample pushed, for deltas */
	bool key_next;		/* the recorder wants a whole sample next */
	uint8_t *buf;
	size_t cap;
	char path[4096];
};

/* The default file name: pagetop-HOST-YYYYmmdd-HHMMSS.ptrec. */
void recording_default_path(const struct host *h, char *dst, size_t size);
/* Starts recording to path; the header takes the host's facts, those of
 * the first sample s and o->pti_every. 0, or -errno with why. */
int recording_start(struct recording *r, const char *path, const struct host *h,
		    const struct sample *s, double interval, const char *cmdline,
		    const struct recorder_opts *o, char *why, size_t size);
/* Encodes and queues s; never blocks, never allocates. */
void recording_push(struct recording *r, const struct sample *s);
void recording_mark(struct recording *r, double wall, const char *text);
void recording_status(struct recording *r, struct recorder_status *st);
/* Drains the queue, closes the file; 0 or -errno with why. */
int recording_stop(struct recording *r, char *why, size_t size);
/* The same, with what the file finally holds in final. */
int recording_finish(struct recording *r, struct recorder_status *final,
    char *why, size_t size);
bool recording_active(const struct recording *r);

#endif
