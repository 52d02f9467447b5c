/* The /metrics server (serve.h): clients, the exposition buffers and the
 * listening socket. */
#include "output/serve.h"
#include "output/openmetrics.h"
#include "output/http.h"
#include "util/arith.h"
#include "util/clock.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SERVE_EXTRA_MAX	4	/* a feed's descriptors polled with the clients */
#define SERVE_REQUEST_MAX	8192

/* One rendered exposition; kept intact while users > 0 clients send it. */
struct expo {
	char *buf;
	size_t len, cap;
	enum metrics_format fmt;
	unsigned long tick;	/* the tick it renders; 0: none */
	int users;
};

enum client_state { CL_FREE, CL_READING, CL_WRITING, CL_LINGERING };

struct client {
	int fd;
	enum client_state state;
	struct sockaddr_storage peer;	/* for the limit per address */
	double since;			/* mono time accepted */
	double deadline;
	char req[SERVE_REQUEST_MAX];
	size_t req_len;
	char head[320];
	size_t head_len;
	const char *body;	/* the expo's buffer, or a static text */
	size_t body_len;
	size_t sent;		/* of head then body */
	struct expo *expo;	/* held while sending */
};

struct serve {
	int listen_fd;
	struct client *cl;		/* SERVE_MAX_CLIENTS */
	int n_clients;
	struct metric_set *m;
	const struct metrics_input *in;
	unsigned long tick;		/* serve_set() calls */
	/* One expo per client at most, plus the two being rendered. */
	struct expo *expos[SERVE_MAX_CLIENTS + 2];
};

/* The address, without the port: connections from one host count together. */
static bool
peer_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr, 16) == 0;
	return true;
}

static bool
addr_is_any(const struct sockaddr_storage *ss)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;

	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return ss->ss_family == AF_INET6 &&
	    memcmp(&((const struct sockaddr_in6 *)ss)->sin6_addr, &any6, sizeof(any6)) == 0;
}

/* A listening socket, or -1 with why; *usage when spec is not ADDR:PORT. */
static int
serve_listen(const char *spec, char *shown, size_t shown_size, bool *open, bool *usage,
	     char *why, size_t size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], port[16], h[NI_MAXHOST], p[NI_MAXSERV], *end;
	const char *colon = strrchr(spec, ':');
	size_t hl;
	long pn;
	int fd = -1, r, one = 1;

	*usage = true;
	if (!colon || colon == spec || strlen(colon + 1) == 0 || strlen(colon + 1) >= sizeof(port)) {
		snprintf(why, size, "--listen: '%s' is not ADDR:PORT (127.0.0.1:9782, [::1]:9782)",
			 spec);
		return -1;
	}
	/* getaddrinfo() takes 99999 as 34463: a port is 0 to 65535, digits only. */
	pn = strtol(colon + 1, &end, 10);
	if (*end || colon[1] < '0' || colon[1] > '9' || pn < 0 || pn > 65535) {
		snprintf(why, size, "--listen: '%s': the port is not 0 to 65535", spec);
		return -1;
	}
	hl = (size_t)(colon - spec);
	if (spec[0] == '[' && hl >= 2 && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		snprintf(why, size, "--listen: '%s': address too long", spec);
		return -1;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%s", colon + 1);
	if ((r = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(why, size, "--listen: %s: %s", spec, gai_strerror(r));
		*usage = false;
		return -1;
	}
	*usage = false;
	for (ai = res; ai; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				 ai->ai_protocol)) < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/*
		 * The longest queue the kernel allows (net.core.somaxconn): a
		 * connection that finds the queue full has its SYN dropped and
		 * comes again only a second later, so a burst of idle ones
		 * that arrives while this loop is descheduled would keep a
		 * scrape out. A queued connection costs nothing until it is.
		 */
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		r = errno;
		close(fd);
		fd = -1;
		errno = r;
	}
	if (fd < 0)
		snprintf(why, size, "%s:%s: %s", host, port, strerror(errno));
	freeaddrinfo(res);
	if (fd < 0)
		return -1;
	/* Port 0 takes a free one: say which. */
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), p, sizeof(p),
			NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
		snprintf(shown, shown_size, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", h, p);
		*open = addr_is_any(&ss);
	} else {
		snprintf(shown, shown_size, "%s", spec);
	}
	return fd;
}

struct serve *
serve_open(const char *spec, char *shown, size_t shown_size, bool *open, bool *usage,
	   char *why, size_t size)
{
	struct serve *sv = calloc(1, sizeof(*sv));

	*open = false;
	*usage = false;
	if (!sv || !(sv->cl = calloc(SERVE_MAX_CLIENTS, sizeof(*sv->cl)))) {
		snprintf(why, size, "out of memory");
		free(sv);
		return NULL;
	}
	sv->listen_fd = -1;
	if ((sv->listen_fd = serve_listen(spec, shown, shown_size, open, usage, why, size)) < 0) {
		serve_free(sv);
		return NULL;
	}
	return sv;
}

void
serve_set(struct serve *sv, struct metric_set *m, const struct metrics_input *in)
{
	sv->m = m;
	sv->in = in;
	sv->tick++;
}

/* The exposition of this tick in fmt, rendered now unless it already is. */
static struct expo *
serve_expo(struct serve *sv, enum metrics_format fmt)
{
	struct expo *e = NULL;
	size_t need;
	int k;

	if (!sv->m)
		return NULL;
	for (k = 0; k < SERVE_MAX_CLIENTS + 2 && sv->expos[k]; k++)
		if (sv->expos[k]->fmt == fmt && sv->expos[k]->tick == sv->tick)
			return sv->expos[k];
	/* A free buffer, the one of this format first: it has the size. */
	for (k = 0; k < SERVE_MAX_CLIENTS + 2 && sv->expos[k]; k++)
		if (sv->expos[k]->users == 0 && (!e || sv->expos[k]->fmt == fmt))
			e = sv->expos[k];
	if (!e) {
		if (k == SERVE_MAX_CLIENTS + 2 || !(e = calloc(1, sizeof(*e))))
			return NULL;
		sv->expos[k] = e;
	}
	e->fmt = fmt;
	e->tick = 0;
	need = metrics_render(sv->m, sv->in, fmt, e->buf, e->cap);
	if (need >= e->cap) {
		size_t cap = need + need / 4 + 4096;
		char *p = realloc(e->buf, cap);

		if (!p)
			return NULL;
		e->buf = p;
		e->cap = cap;
		need = metrics_render(sv->m, sv->in, fmt, e->buf, e->cap);
	}
	e->len = need;
	e->tick = sv->tick;
	return e;
}

static void
client_close(struct serve *sv, struct client *c)
{
	if (c->expo)
		c->expo->users--;
	c->expo = NULL;
	close(c->fd);
	c->fd = -1;
	c->state = CL_FREE;
	sv->n_clients--;
}

static void
client_respond(struct client *c, const char *status, const char *type, const char *extra,
	       const char *body, size_t body_len, bool head_only)
{
	c->head_len = (size_t)snprintf(c->head, sizeof(c->head),
				       "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
				       "%sConnection: close\r\n\r\n", status, type, body_len, extra);
	c->body = head_only ? NULL : body;
	c->body_len = head_only ? 0 : body_len;
	c->sent = 0;
	c->state = CL_WRITING;
	c->deadline = clock_mono() + SERVE_WRITE_TIMEOUT;
}

static void
client_request(struct serve *sv, struct client *c)
{
	static const char not_found[] = "pagetop serves /metrics only\n";
	static const char bad[] = "bad request\n";
	static const char not_allowed[] = "GET or HEAD only\n";
	static const char text[] = "text/plain; charset=utf-8";
	struct http_request rq;
	struct expo *e;
	int r = http_parse_request(c->req, c->req_len, &rq);

	if (r == -EAGAIN && c->req_len < sizeof(c->req))
		return;
	if (r < 0) {
		client_respond(c, r == -EAGAIN ? "431 Request Header Fields Too Large" :
			       "400 Bad Request", text, "", bad, sizeof(bad) - 1, false);
		return;
	}
	if (rq.method == HTTP_OTHER) {
		client_respond(c, "405 Method Not Allowed", text, "Allow: GET, HEAD\r\n",
			       not_allowed, sizeof(not_allowed) - 1, false);
		return;
	}
	if (strcmp(rq.path, "/metrics") != 0) {
		client_respond(c, "404 Not Found", text, "", not_found, sizeof(not_found) - 1,
			       rq.method == HTTP_HEAD);
		return;
	}
	if (!(e = serve_expo(sv, rq.openmetrics ? METRICS_OPENMETRICS : METRICS_TEXT))) {
		client_respond(c, "503 Service Unavailable", text, "", "out of memory\n", 14,
			       rq.method == HTTP_HEAD);
		return;
	}
	e->users++;
	c->expo = e;
	client_respond(c, "200 OK", rq.openmetrics ?
		       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		       "text/plain; version=0.0.4; charset=utf-8", "", e->buf, e->len,
		       rq.method == HTTP_HEAD);
}

static void
client_read(struct serve *sv, struct client *c)
{
	ssize_t n;

	if (c->state == CL_LINGERING) {
		char scratch[512];

		/* After the response: wait for the client's close, so ours is no reset. */
		while ((n = recv(c->fd, scratch, sizeof(scratch), 0)) > 0)
			;
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			client_close(sv, c);
		return;
	}
	n = recv(c->fd, c->req + c->req_len, sizeof(c->req) - c->req_len, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		client_close(sv, c);
		return;
	}
	if (n > 0) {
		c->req_len += (size_t)n;
		client_request(sv, c);
	}
}

static void
client_write(struct serve *sv, struct client *c)
{
	while (c->sent < c->head_len + c->body_len) {
		const char *p = c->sent < c->head_len ? c->head + c->sent :
		    c->body + (c->sent - c->head_len);
		size_t left = c->sent < c->head_len ? c->head_len - c->sent :
		    c->body_len - (c->sent - c->head_len);
		ssize_t n = send(c->fd, p, left, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			client_close(sv, c);
			return;
		}
		c->sent += (size_t)n;
	}
	if (c->expo)
		c->expo->users--;
	c->expo = NULL;
	shutdown(c->fd, SHUT_WR);
	c->state = CL_LINGERING;
	c->deadline = clock_mono() + SERVE_LINGER;
}

/*
 * Which of two connections to give up first: one lingering after its
 * answer, then one that has sent part of a head (a slow client's mark),
 * then one that has sent nothing yet; the oldest within each. A scrape
 * sends its head at once, so a flood of slow heads from its own address
 * takes each other's places before the scrape's, even when the scrape's
 * head comes a little after its connection (a loaded scraper).
 */
static int
client_rank(const struct client *c)
{
	if (c->state == CL_LINGERING)
		return 0;
	return c->req_len > 0 ? 1 : 2;
}

static bool
client_before(const struct client *a, const struct client *b)
{
	int ra = client_rank(a), rb = client_rank(b);

	return ra < rb || (ra == rb && a->since < b->since);
}

/*
 * The connection to give up for a new one from peer: when peer already
 * holds SERVE_MAX_PER_ADDR, one of its own; when the table is full, one of
 * all (client_before() says which). Only a connection still sending its
 * head (or lingering after its answer) is given up, never one being
 * answered. NULL: none.
 */
static struct client *
serve_victim(struct serve *sv, const struct sockaddr_storage *peer)
{
	struct client *first = NULL, *own = NULL;
	int from_peer = 0;

	for (int i = 0; i < SERVE_MAX_CLIENTS; i++) {
		struct client *c = &sv->cl[i];
		bool same;

		if (c->state == CL_FREE)
			continue;
		same = peer_same(&c->peer, peer);
		from_peer += same;
		if (c->state == CL_WRITING)
			continue;
		if (!first || client_before(c, first))
			first = c;
		if (same && (!own || client_before(c, own)))
			own = c;
	}
	if (from_peer >= SERVE_MAX_PER_ADDR)
		return own;
	return sv->n_clients >= SERVE_MAX_CLIENTS ? first : NULL;
}

/* Connections taken in one go, before the requests of those in are read. */
#define SERVE_ACCEPT_BATCH	8

static void
serve_accept(struct serve *sv)
{
	for (int k = 0; k < SERVE_ACCEPT_BATCH; k++) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		int fd = accept4(sv->listen_fd, (struct sockaddr *)&peer, &pl,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *c = NULL;

		if (fd < 0)
			return;
		if ((c = serve_victim(sv, &peer)))
			client_close(sv, c);
		if (sv->n_clients >= SERVE_MAX_CLIENTS) {
			close(fd);	/* every slot is answering: the scraper retries */
			continue;
		}
		for (int i = 0; i < SERVE_MAX_CLIENTS; i++)
			if (sv->cl[i].state == CL_FREE) {
				c = &sv->cl[i];
				break;
			}
		c->fd = fd;
		c->peer = peer;
		c->state = CL_READING;
		c->req_len = 0;
		c->expo = NULL;
		c->since = clock_mono();
		c->deadline = c->since + SERVE_HEAD_TIMEOUT;
		sv->n_clients++;
	}
}

void
serve_wait(struct serve *sv, double next, struct pollfd *extra, int n_extra)
{
	struct pollfd pfd[SERVE_MAX_CLIENTS + 1 + SERVE_EXTRA_MAX];
	struct client *who[SERVE_MAX_CLIENTS + 1];
	double now = clock_mono(), until = next;
	int n = 0, timeout;

	/* Always listening: a new connection may take an idle one's place. */
	pfd[n] = (struct pollfd){ .fd = sv->listen_fd, .events = POLLIN };
	who[n++] = NULL;
	for (int i = 0; i < SERVE_MAX_CLIENTS; i++) {
		struct client *c = &sv->cl[i];

		if (c->state == CL_FREE)
			continue;
		if (c->deadline <= now) {
			client_close(sv, c);
			continue;
		}
		if (c->deadline < until)
			until = c->deadline;
		pfd[n] = (struct pollfd){ .fd = c->fd,
			.events = c->state == CL_WRITING ? POLLOUT : POLLIN };
		who[n++] = c;
	}
	/* The feed's descriptors last: a trigger that fires ends the wait. */
	if (n_extra > SERVE_EXTRA_MAX)
		n_extra = SERVE_EXTRA_MAX;
	for (int i = 0; i < n_extra; i++) {
		extra[i].revents = 0;
		pfd[n + i] = extra[i];
	}
	timeout = until <= now ? 0 : (int)arith_ceil((until - now) * 1000);
	if (poll(pfd, (nfds_t)(n + n_extra), timeout) <= 0)
		return;
	for (int i = 0; i < n_extra; i++)
		extra[i].revents = pfd[n + i].revents;
	/* Clients first: a connection accepted now may close one of them. */
	for (int i = 1; i < n; i++) {
		if (!pfd[i].revents || who[i]->state == CL_FREE)
			continue;
		if (who[i]->state == CL_WRITING)
			client_write(sv, who[i]);
		else
			client_read(sv, who[i]);
		/* A response written at once needs no second poll. */
		if (who[i]->state == CL_WRITING)
			client_write(sv, who[i]);
	}
	if (pfd[0].revents)
		serve_accept(sv);
}

void
serve_free(struct serve *sv)
{
	if (!sv)
		return;
	if (sv->cl)
		for (int i = 0; i < SERVE_MAX_CLIENTS; i++)
			if (sv->cl[i].state != CL_FREE)
				close(sv->cl[i].fd);
	for (int k = 0; k < SERVE_MAX_CLIENTS + 2 && sv->expos[k]; k++) {
		free(sv->expos[k]->buf);
		free(sv->expos[k]);
	}
	if (sv->listen_fd >= 0)
		close(sv->listen_fd);
	free(sv->cl);
	free(sv);
}
