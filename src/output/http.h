/* The little of HTTP/1.1 that a /metrics endpoint needs: one request's
 * head parsed from a buffer, and which exposition format it accepts. */
#ifndef PAGETOP_HTTP_H
#define PAGETOP_HTTP_H

#include <stdbool.h>
#include <stddef.h>

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_OTHER };

struct http_request {
	enum http_method method;
	char path[256];		/* without the query string */
	bool openmetrics;	/* Accept names application/openmetrics-text (q > 0) */
};

/* 0 with out filled when buf holds a whole request head (up to the blank
 * line); -EAGAIN when more is needed; -EINVAL when it is not HTTP. */
int http_parse_request(const char *buf, size_t len, struct http_request *out);

#endif
