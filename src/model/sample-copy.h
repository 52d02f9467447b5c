/*
 * One sample into another, byte for byte as memcpy would, without
 * touching the pages of dst that would only get zeros over zeros.
 */
#ifndef PAGETOP_SAMPLE_COPY_H
#define PAGETOP_SAMPLE_COPY_H

#include "model/sample.h"

void sample_copy(struct sample *dst, const struct sample *src);
/* The same for size bytes of any part of one (the probes' cumulative
 * figures, mostly zeros on a quiet machine). */
void sample_copy_bytes(void *dst, const void *src, size_t size);

#endif
