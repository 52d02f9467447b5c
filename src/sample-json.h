/* A sample as one JSON object: the shape of `pagetop snapshot --json`. */
#ifndef PAGETOP_SAMPLE_JSON_H
#define PAGETOP_SAMPLE_JSON_H

#include "json.h"
#include "sample.h"

void sample_json(struct json *j, const struct sample *s);

#endif
