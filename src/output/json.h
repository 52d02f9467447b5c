/* A small streaming JSON writer: keys, commas and escaping, nothing else. */
#ifndef PAGETOP_JSON_H
#define PAGETOP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16
/* A document is built here and written when complete (or this is full). */
#define JSON_BUF_SIZE 16384

struct sample_json_memo;

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	/* For a writer of many samples alike (export): what the samples
	 * before left (output/sample-json.h). NULL by json_init; set it
	 * after. */
	struct sample_json_memo *memo;
	unsigned long flushes;	/* times buf went out */
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

/*
 * An object of named numbers written as the one before it was: a run of
 * members whose names and values are those of the same members then is
 * that text again, copied whole (export: most counters do not move from
 * one sample to the next). Each member is an entry of an array: its name
 * NUL-terminated in its first key_size bytes, then its uint64_t value.
 */
struct json_members {
	int n, cap;		/* members held (their text and bytes); room */
	size_t key_size;
	size_t size;		/* room for text */
	char *text;		/* the members' text, as last written */
	size_t *at;		/* where each member's text starts; at[n]: the end */
	size_t *key_len;	/* of each member's text, its comma, name and colon */
	unsigned char *held;	/* each member's bytes, key_size + 8 */
	/* Set by the caller before a write: the names are those of the
	 * members held, in order (a recording's delta read in order), so
	 * only the values are compared. */
	bool names_held;
};

/*
 * A piece of a document (a member or an element, whole) that is the same
 * text whenever what it is written from is the same bytes: held with
 * them, and copied when they come again.
 */
#define JSON_PIECE_IN	256
#define JSON_PIECE_TEXT	1024
struct json_piece {
	bool held;
	size_t in_len, len;
	size_t start;		/* while written: where it starts */
	unsigned long flushes;
	unsigned char in[JSON_PIECE_IN];
	char text[JSON_PIECE_TEXT];
};

/* Whether the piece written from the n bytes at in is pc's text (then
 * written: the caller writes nothing). If not, the caller writes it,
 * then calls json_piece_end(). */
bool json_piece_hit(struct json *j, struct json_piece *pc, const void *in, size_t n);
void json_piece_end(struct json *j, struct json_piece *pc);

/* Room for cap members. 0, or -ENOMEM. */
int json_members_init(struct json_members *mm, int cap, size_t key_size);
void json_members_free(struct json_members *mm);
/* The object key of the n members at e, stride bytes apart, through mm.
 * Whether their names are all those of the members held before. */
bool json_members_u64(struct json *j, const char *key, struct json_members *mm, const void *e,
		      size_t stride, int n);

#endif
