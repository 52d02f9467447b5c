/*
 * pagetop serve: samples live and serves /metrics to Prometheus.
 *
 * One poll() loop, one thread: a tick samples (the files, the task scan)
 * and rebuilds the metric set; a scrape gets the exposition of the newest
 * sample, rendered at most once per tick and format however many scrapers
 * ask, from a buffer that stays put while clients still read it. A scrape
 * that arrives during a tick waits for that tick only (the task scan's
 * slow reads have their own thread). Writes never block; clients are few
 * and bounded, and one that stalls is dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/clock.h"
#include "util/arith.h"
#include "util/duration.h"
#include "output/http.h"
#include "output/metrics.h"
#include "source/live.h"

static int cmd_serve_exec(int, char **);

const struct cmd_entry cmd_serve_entry = {
	.name = "serve",
	.usage = "[--listen ADDR:PORT] [-d SECONDS] [-n N] [--pagetypeinfo-every SECONDS]\n"
		 "      [--proc-root DIR] [--kmsg PATH]",
	.summary = "sample live and serve /metrics to Prometheus (default 127.0.0.1:9782)",
	.exec = cmd_serve_exec,
};

#define SERVE_DEFAULT_LISTEN	"127.0.0.1:9782"
#define SERVE_MAX_CLIENTS	64
#define SERVE_REQUEST_MAX	8192
#define SERVE_READ_TIMEOUT	10.0	/* seconds for a client to send its request */
#define SERVE_WRITE_TIMEOUT	30.0	/* ... and to take the response */
#define SERVE_LINGER		2.0	/* ... and to close after it */

static volatile sig_atomic_t serve_quit;

static void
serve_on_signal(int sig)
{
	serve_quit = sig;
}

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
	struct feed *f;			/* the live tick */
	struct metric_set *m;
	struct metrics_input in;
	unsigned long tick;
	int listen_fd;
	struct client *cl;		/* SERVE_MAX_CLIENTS */
	int n_clients;
	/* One expo per client at most, plus the two being rendered. */
	struct expo *expos[SERVE_MAX_CLIENTS + 2];
};

/* "127.0.0.1:9782", "[::1]:9782", "localhost:9782": a listening socket;
 * -2 when spec is not of that form, -1 when it cannot be had. */
static int
serve_listen(const char *spec, char *shown, size_t shown_size, char *why, size_t size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], port[16], h[NI_MAXHOST], p[NI_MAXSERV];
	const char *colon = strrchr(spec, ':');
	size_t hl;
	int fd = -1, r, one = 1;

	if (!colon || colon == spec || strlen(colon + 1) == 0 || strlen(colon + 1) >= sizeof(port)) {
		snprintf(why, size, "--listen: '%s' is not ADDR:PORT (127.0.0.1:9782, [::1]:9782)",
			 spec);
		return -2;
	}
	hl = (size_t)(colon - spec);
	if (spec[0] == '[' && hl >= 2 && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		snprintf(why, size, "--listen: '%s': address too long", spec);
		return -2;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%s", colon + 1);
	if ((r = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(why, size, "--listen: %s: %s", spec, gai_strerror(r));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				 ai->ai_protocol)) < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0)
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
			NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		snprintf(shown, shown_size, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", h, p);
	else
		snprintf(shown, shown_size, "%s", spec);
	return fd;
}

static void
serve_tick(struct serve *sv)
{
	const struct tick *t = &sv->f->tick;

	feed_next(sv->f);
	sv->in = (struct metrics_input){
		.s = t->s,
		.pti = t->have_pti ? t->pti : NULL,
		.pti_wall = t->pti_wall,
		.groups = t->have_groups ? t->groups : NULL,
		.kmsg_total = t->s->kmsg.err ? NULL : tick_kmsg_total(t),
	};
	if (metrics_build(sv->m, &sv->in, ~0u) < 0)
		fprintf(stderr, "pagetop: serve: out of memory for the metrics\n");
	sv->tick++;
}

/* The exposition of this tick in fmt, rendered now unless it already is. */
static struct expo *
serve_expo(struct serve *sv, enum metrics_format fmt)
{
	struct expo *e = NULL;
	size_t need;
	int k;

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
	need = metrics_render(sv->m, &sv->in, fmt, e->buf, e->cap);
	if (need >= e->cap) {
		size_t cap = need + need / 4 + 4096;
		char *p = realloc(e->buf, cap);

		if (!p)
			return NULL;
		e->buf = p;
		e->cap = cap;
		need = metrics_render(sv->m, &sv->in, fmt, e->buf, e->cap);
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
client_respond(struct serve *sv, struct client *c, const char *status, const char *type,
	       const char *extra, const char *body, size_t body_len, bool head_only)
{
	c->head_len = (size_t)snprintf(c->head, sizeof(c->head),
				       "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
				       "%sConnection: close\r\n\r\n", status, type, body_len, extra);
	c->body = head_only ? NULL : body;
	c->body_len = head_only ? 0 : body_len;
	c->sent = 0;
	c->state = CL_WRITING;
	c->deadline = clock_mono() + SERVE_WRITE_TIMEOUT;
	(void)sv;
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
		client_respond(sv, c, r == -EAGAIN ? "431 Request Header Fields Too Large" :
			       "400 Bad Request", text, "", bad, sizeof(bad) - 1, false);
		return;
	}
	if (rq.method == HTTP_OTHER) {
		client_respond(sv, c, "405 Method Not Allowed", text, "Allow: GET, HEAD\r\n",
			       not_allowed, sizeof(not_allowed) - 1, false);
		return;
	}
	if (strcmp(rq.path, "/metrics") != 0) {
		client_respond(sv, c, "404 Not Found", text, "", not_found, sizeof(not_found) - 1,
			       rq.method == HTTP_HEAD);
		return;
	}
	if (!(e = serve_expo(sv, rq.openmetrics ? METRICS_OPENMETRICS : METRICS_TEXT))) {
		client_respond(sv, c, "503 Service Unavailable", text, "", "out of memory\n", 14,
			       rq.method == HTTP_HEAD);
		return;
	}
	e->users++;
	c->expo = e;
	client_respond(sv, c, "200 OK", rq.openmetrics ?
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

static void
serve_accept(struct serve *sv)
{
	while (sv->n_clients < SERVE_MAX_CLIENTS) {
		int fd = accept4(sv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *c = NULL;

		if (fd < 0)
			return;
		for (int i = 0; i < SERVE_MAX_CLIENTS && !c; i++)
			if (sv->cl[i].state == CL_FREE)
				c = &sv->cl[i];
		c->fd = fd;
		c->state = CL_READING;
		c->req_len = 0;
		c->expo = NULL;
		c->deadline = clock_mono() + SERVE_READ_TIMEOUT;
		sv->n_clients++;
	}
}

/* Waits for clients until the next tick (at mono time next) or a signal. */
static void
serve_wait(struct serve *sv, double next)
{
	struct pollfd pfd[SERVE_MAX_CLIENTS + 1];
	struct client *who[SERVE_MAX_CLIENTS + 1];
	double now = clock_mono(), until = next;
	int n = 0, timeout;

	if (sv->n_clients < SERVE_MAX_CLIENTS) {
		pfd[n] = (struct pollfd){ .fd = sv->listen_fd, .events = POLLIN };
		who[n++] = NULL;
	}
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
	timeout = until <= now ? 0 : (int)arith_ceil((until - now) * 1000);
	if (poll(pfd, (nfds_t)n, timeout) <= 0)
		return;
	for (int i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (!who[i])
			serve_accept(sv);
		else if (who[i]->state == CL_WRITING)
			client_write(sv, who[i]);
		else
			client_read(sv, who[i]);
		/* A response written at once needs no second poll. */
		if (who[i] && who[i]->state == CL_WRITING)
			client_write(sv, who[i]);
	}
}

static void
serve_free(struct serve *sv)
{
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
	metrics_free(sv->m);
	free(sv->cl);
	feed_close(sv->f);
}

static int
cmd_serve_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "pagetypeinfo-every", required_argument, NULL, 'P' },
		{ "proc-root", required_argument, NULL, 'r' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts lo = { .root = "/proc", .interval = 1, .pti_every = LIVE_PTI_EVERY };
	const char *listen_spec = SERVE_DEFAULT_LISTEN;
	double next;
	long iterations = 0;
	struct serve sv = { .listen_fd = -1 };
	struct sigaction sa;
	char why[512], shown[300], *end;
	int c, status = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:d:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			listen_spec = optarg;
			break;
		case 'd':
			if (duration_parse(optarg, &lo.interval) < 0 || lo.interval < 0.1) {
				fprintf(stderr, "pagetop: -d: '%s' is not 0.1 seconds or more\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			iterations = strtol(optarg, &end, 10);
			if (*end || iterations <= 0) {
				fprintf(stderr, "pagetop: -n: '%s' is not a positive count\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			if (duration_parse(optarg, &lo.pti_every) < 0 || lo.pti_every < 0.1) {
				fprintf(stderr, "pagetop: --pagetypeinfo-every: '%s' is not 0.1 seconds "
					"or more\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			lo.root = optarg;
			break;
		case 'k':
			lo.kmsg = optarg;
			break;
		case 'h':
			printf("usage: pagetop serve %s\n", cmd_serve_entry.usage);
			return 0;
		default:
			fprintf(stderr, "usage: pagetop serve %s\n", cmd_serve_entry.usage);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pagetop: serve: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!(sv.f = live_open(&lo, why, sizeof(why)))) {
		fprintf(stderr, "pagetop: %s\n", why);
		return 1;
	}
	/* A malformed table is bad input: said, and nothing served. */
	if (sv.f->note[0])
		cmd_print_lines(stderr, sv.f->note);
	if (sv.f->note_err == EINVAL)
		goto out;
	if (!(sv.cl = calloc(SERVE_MAX_CLIENTS, sizeof(*sv.cl))) || !(sv.m = metrics_new())) {
		fprintf(stderr, "pagetop: out of memory\n");
		goto out;
	}
	if ((sv.listen_fd = serve_listen(listen_spec, shown, sizeof(shown), why, sizeof(why))) < 0) {
		fprintf(stderr, "pagetop: serve: %s\n", why);
		if (sv.listen_fd == -2)
			status = EXIT_USAGE;
		sv.listen_fd = -1;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = serve_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	serve_tick(&sv);
	fprintf(stderr, "pagetop: serving http://%s/metrics, sampling %s every %gs\n", shown,
		lo.root, lo.interval);
	next = clock_mono() + lo.interval;
	while (!serve_quit) {
		if (clock_mono() >= next) {
			if (iterations && (long)sv.tick >= iterations)
				break;
			serve_tick(&sv);
			next += lo.interval;
			if (next < clock_mono())
				next = clock_mono() + lo.interval;	/* stalled: no catching up */
			continue;
		}
		serve_wait(&sv, next);
	}
	status = 0;
out:
	serve_free(&sv);
	return status;
}
