#include "output/http.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The end of the head: after "\r\n\r\n" (or a bare "\n\n"), or NULL. */
static const char *
head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return buf + i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return buf + i + 3;
	}
	return NULL;
}

/*
 * Does an Accept value take OpenMetrics? Each comma-separated media range
 * may carry ";q=0" to refuse it; Prometheus sends
 * "application/openmetrics-text;version=1.0.0,...,text/plain;version=0.0.4;q=0.5,...".
 */
static bool
accepts_openmetrics(const char *v, const char *end)
{
	static const char om[] = "application/openmetrics-text";

	while (v < end) {
		const char *comma = memchr(v, ',', (size_t)(end - v)), *stop = comma ? comma : end;

		while (v < stop && (*v == ' ' || *v == '\t'))
			v++;
		if ((size_t)(stop - v) >= sizeof(om) - 1 && strncasecmp(v, om, sizeof(om) - 1) == 0) {
			const char *q = v;
			bool refused = false;

			/* A parameter q=0 (or 0.0...) refuses it. */
			while ((q = memchr(q, ';', (size_t)(stop - q))) != NULL) {
				q++;
				while (q < stop && *q == ' ')
					q++;
				if (stop - q >= 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
					refused = strtod(q + 2, NULL) <= 0;
			}
			if (!refused)
				return true;
		}
		v = stop + (stop < end);
	}
	return false;
}

int
http_parse_request(const char *buf, size_t len, struct http_request *out)
{
	const char *end = head_end(buf, len), *p = buf, *sp, *line;
	size_t n;

	memset(out, 0, sizeof(*out));
	/* Browsers and curl never send them, but RFC 9112 allows blank lines first. */
	while (p < buf + len && (*p == '\r' || *p == '\n'))
		p++;
	if (!end) {
		/* Reject what cannot become HTTP early: a request line starts with a token. */
		for (const char *c = p; c < buf + len && *c != ' '; c++)
			if (*c < 'A' || *c > 'Z')
				return -EINVAL;
		return -EAGAIN;
	}
	if (!(sp = memchr(p, ' ', (size_t)(end - p))))
		return -EINVAL;
	n = (size_t)(sp - p);
	out->method = n == 3 && memcmp(p, "GET", 3) == 0 ? HTTP_GET :
	    n == 4 && memcmp(p, "HEAD", 4) == 0 ? HTTP_HEAD : HTTP_OTHER;
	p = sp + 1;
	if (!(sp = memchr(p, ' ', (size_t)(end - p))) || sp == p)
		return -EINVAL;
	n = strcspn(p, "? \r\n");
	if (n > (size_t)(sp - p))
		n = (size_t)(sp - p);
	if (n >= sizeof(out->path))
		n = sizeof(out->path) - 1;
	memcpy(out->path, p, n);
	out->path[n] = '\0';
	if ((size_t)(end - sp) < 9 || strncmp(sp + 1, "HTTP/1.", 7) != 0)
		return -EINVAL;
	/* Header lines: only Accept matters. */
	for (line = memchr(sp, '\n', (size_t)(end - sp)); line && line + 1 < end;
	     line = memchr(line + 1, '\n', (size_t)(end - line - 1))) {
		const char *h = line + 1, *eol = memchr(h, '\n', (size_t)(end - h));

		if (!eol)
			break;
		if (eol - h > 7 && strncasecmp(h, "Accept:", 7) == 0)
			out->openmetrics |= accepts_openmetrics(h + 7, eol);
	}
	return 0;
}
