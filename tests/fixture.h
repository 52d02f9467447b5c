/* Loads test fixtures from tests/fixtures (FIXTURES in the environment
 * overrides the directory, for out-of-tree builds). */
#ifndef PAGETOP_FIXTURE_H
#define PAGETOP_FIXTURE_H

#include <stddef.h>

/* The whole file at FIXTURES/rel, malloc'd and NUL-terminated (the NUL is
 * not counted in *len); exits the test with a "Bail out!" if unreadable. */
char *fixture_load(const char *rel, size_t *len);
/* Every regular file in FIXTURES/dir, sorted; NULL-terminated list of
 * "dir/name" strings, malloc'd. */
char **fixture_list(const char *dir);
void fixture_list_free(char **list);
/* Runs parse(buf, len) on every prefix of buf and on copies with bytes
 * flipped, each in a buffer of exactly that size so ASan sees any read
 * past the end. Returns how many calls returned 0. */
size_t fixture_damage(const char *buf, size_t len,
		      int (*parse)(const char *buf, size_t len, void *ctx), void *ctx);

#endif
