/*
 * The /metrics server: one poll() loop, one thread, no allocation per
 * scrape once its buffers have grown. A scrape gets the exposition of the
 * newest tick, rendered at most once per tick and format however many
 * scrapers ask, from a buffer that stays put while clients still read it.
 * Writes never block. Clients are bounded, and a slow or idle one cannot
 * keep a scrape out: a request head has SERVE_HEAD_TIMEOUT to arrive, one
 * address holds at most SERVE_MAX_PER_ADDR connections, and when the table
 * is full a connection still sending its head makes room: the oldest of
 * those that sent part of one, before any that sent nothing yet (a
 * scraper's head comes whole, if a moment after its connection).
 * The listen queue is as long as the kernel allows, for bursts that come
 * while the loop is descheduled.
 * Connections are taken a few at a time, with the requests of those
 * already in read between, so a burst cannot push out a scrape that came
 * just before it.
 */
#ifndef PAGETOP_SERVE_H
#define PAGETOP_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <poll.h>

#include "output/metrics.h"

#define SERVE_DEFAULT_LISTEN	"127.0.0.1:9782"
#define SERVE_MAX_CLIENTS	64
#define SERVE_MAX_PER_ADDR	48
#define SERVE_HEAD_TIMEOUT	2.0	/* seconds for a client to send its request */
#define SERVE_WRITE_TIMEOUT	30.0	/* ... and to take the response */
#define SERVE_LINGER		2.0	/* ... and to close after it */

struct serve;

/* Listens on spec ("127.0.0.1:9782", "[::1]:9782", "localhost:9782"; port
 * 0 takes a free one). The address bound goes into shown; *open is set
 * when it is every address of the box (0.0.0.0, [::]). NULL with why, and
 * *usage set when spec itself is wrong. */
struct serve *serve_open(const char *spec, char *shown, size_t shown_size, bool *open,
			 bool *usage, char *why, size_t size);
void serve_free(struct serve *sv);
/* What scrapes get from now on: the tick's metric set and input (kept,
 * not copied; valid until the next call). */
void serve_set(struct serve *sv, struct metric_set *m, const struct metrics_input *in);
/* Answers clients until mono time until, a signal, or revents on one of
 * the n descriptors of extra (a feed's: the caller hands them on). */
void serve_wait(struct serve *sv, double until, struct pollfd *extra, int n);

#endif
