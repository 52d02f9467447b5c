/* A small streaming JSON writer: keys, commas and escaping, nothing else. */
#ifndef PAGETOP_JSON_H
#define PAGETOP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16
/* A document is built here and written when complete (or this is full). */
#define JSON_BUF_SIZE 16384

struct counters_map;

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	/* For a writer of many samples alike (export): the reclaim counters
	 * are found through it, not by name at every sample. NULL by
	 * json_init; set it after. */
	struct counters_map *counters;
	size_t len;
	char buf[JSON_BUF_SIZE];
};

void json_init(struct json *j, FILE *f);
/* Writes out what is held: a document is written once complete (depth 0),
 * so this is only for one left open. */
void json_flush(struct json *j);
/* key is NULL for array elements and the top level. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_str(struct json *j, const char *key, const char *s);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/* A fixed-point value printed exactly: 1234 with scale 100 is 12.34,
 * -1000 with scale 1000 is -1.000; scale is a power of ten, with as
 * many decimals as it has zeros. */
void json_fixed(struct json *j, const char *key, long long v, int scale);
/* A double with the given number of decimals (for times). */
void json_double(struct json *j, const char *key, double v, int decimals);

#endif
