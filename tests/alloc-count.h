/*
 * Counting allocations, for tests that check a path allocates nothing.
 * glibc lets a program replace malloc; these forward to glibc's own
 * allocator, so memory from either side can be freed by the other. Not
 * under AddressSanitizer, which replaces malloc itself: there
 * COUNT_ALLOCS stays undefined and the checks are skipped.
 *
 * It defines functions: include it in one file of a test program only.
 */
#ifndef PAGETOP_ALLOC_COUNT_H
#define PAGETOP_ALLOC_COUNT_H

#include <stddef.h>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define COUNT_ALLOCS 1
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

/* The calling thread's: a worker's allocations (the task scan's libproc2
 * reader) are not the code under test's. */
static _Thread_local long allocs;
/* Set: the calling thread's allocations fail, as out of memory. */
static _Thread_local int allocs_fail;

void *
malloc(size_t n)
{
	allocs++;
	return allocs_fail ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	allocs++;
	return allocs_fail ? NULL : __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	allocs++;
	return allocs_fail ? NULL : __libc_realloc(p, n);
}
#endif

#endif
