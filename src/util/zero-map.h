/*
 * Room that is mostly unused, mapped: its pages are the kernel's zero
 * page until written. calloc() may hand out reused heap memory, which it
 * clears whole, so that every page of a large, sparse block is resident.
 */
#ifndef PAGETOP_ZERO_MAP_H
#define PAGETOP_ZERO_MAP_H

#include <stddef.h>

/* size bytes of zeros, or NULL. */
void *zero_map(size_t size);
/* Gives back what zero_map(size) returned (NULL: nothing). */
void zero_unmap(void *m, size_t size);

/* Zeroed room of size bytes, or NULL: calloc()ed under a page, where a
 * page of its own would cost more than clearing it, mapped from a page
 * up. zero_room_free() takes the same size. */
void *zero_room(size_t size);
void zero_room_free(void *m, size_t size);

#endif
