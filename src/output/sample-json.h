/* A sample as one JSON object: the shape of `pagetop snapshot --json`. */
#ifndef PAGETOP_SAMPLE_JSON_H
#define PAGETOP_SAMPLE_JSON_H

#include "output/json.h"
#include "model/sample.h"
#include "model/taskgroups.h"

/* groups: the blocked tasks of s grouped (their category and reason), or
 * NULL to leave those out. */
void sample_json(struct json *j, const struct sample *s, const struct task_groups *groups);

#endif
