#include "output/export-write.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT_WRITE_BLOCK	(1u << 20)
#define EXPORT_WRITE_BLOCKS	4

/*
 * Blocks [tail, head) (mod EXPORT_WRITE_BLOCKS) are the writer's, in
 * order; block head is the one filling, used bytes of it. The writer
 * takes them under lock and writes them without.
 */
struct export_write {
	int fd;
	int err;		/* the first write's -errno; the writer's until joined */
	bool threaded, done;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned head, tail;
	size_t used;
	size_t len[EXPORT_WRITE_BLOCKS];
	char *block[EXPORT_WRITE_BLOCKS];
};

/* All n bytes at p to fd; after a failure, nothing more. */
static void
export_write_out(struct export_write *w, const char *p, size_t n)
{
	while (n > 0 && w->err == 0) {
		ssize_t k = write(w->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->err = k < 0 ? -errno : -EIO;
			break;
		}
		p += k;
		n -= (size_t)k;
	}
}

static void *
export_write_thread(void *arg)
{
	struct export_write *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		unsigned b;

		while (w->tail == w->head && !w->done)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->tail == w->head)
			break;
		b = w->tail % EXPORT_WRITE_BLOCKS;
		pthread_mutex_unlock(&w->lock);
		export_write_out(w, w->block[b], w->len[b]);
		pthread_mutex_lock(&w->lock);
		w->tail++;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct export_write *
export_write_new(int fd)
{
	struct export_write *w = calloc(1, sizeof(*w));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (!w)
		return NULL;
	w->fd = fd;
	for (int b = 0; b < EXPORT_WRITE_BLOCKS; b++)
		if (!(w->block[b] = malloc(EXPORT_WRITE_BLOCK))) {
			for (; b >= 0; b--)
				free(w->block[b]);
			free(w);
			return NULL;
		}
	/* One CPU: the thread would only take turns with the work. */
	if (cpus > 1 && pthread_mutex_init(&w->lock, NULL) == 0) {
		if (pthread_cond_init(&w->cond, NULL) != 0)
			pthread_mutex_destroy(&w->lock);
		else if (pthread_create(&w->th, NULL, export_write_thread, w) != 0) {
			pthread_cond_destroy(&w->cond);
			pthread_mutex_destroy(&w->lock);
		} else
			w->threaded = true;
	}
	return w;
}

/* The filling block is the writer's now; the next one is waited for. */
static void
export_write_hand(struct export_write *w)
{
	unsigned b = w->head % EXPORT_WRITE_BLOCKS;

	w->len[b] = w->used;
	w->used = 0;
	if (!w->threaded) {
		export_write_out(w, w->block[b], w->len[b]);
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->head++;
	pthread_cond_broadcast(&w->cond);
	while (w->head - w->tail == EXPORT_WRITE_BLOCKS)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void
export_write_put(struct export_write *w, const void *p, size_t n)
{
	const char *s = p;

	while (n > 0) {
		size_t k = EXPORT_WRITE_BLOCK - w->used;

		if (k > n)
			k = n;
		memcpy(w->block[w->head % EXPORT_WRITE_BLOCKS] + w->used, s, k);
		w->used += k;
		s += k;
		n -= k;
		if (w->used == EXPORT_WRITE_BLOCK)
			export_write_hand(w);
	}
}

int
export_write_end(struct export_write *w)
{
	int err;

	if (!w)
		return 0;
	if (w->used > 0)
		export_write_hand(w);
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->done = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->th, NULL);
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
	}
	err = w->err;
	for (int b = 0; b < EXPORT_WRITE_BLOCKS; b++)
		free(w->block[b]);
	free(w);
	return err;
}

static ssize_t
export_write_cookie(void *cookie, const char *p, size_t n)
{
	export_write_put(cookie, p, n);
	return (ssize_t)n;
}

FILE *
export_write_file(struct export_write *w)
{
	cookie_io_functions_t io = { .write = export_write_cookie };
	FILE *f = fopencookie(w, "w", io);

	if (f)
		setvbuf(f, NULL, _IONBF, 0);
	return f;
}
