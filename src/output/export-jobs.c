#include "output/export-jobs.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Chunk k fills slot k % n_slots; there is one slot more than workers, so
 * a worker that finishes starts its next chunk while the oldest is
 * written. A slot is free once written.
 */
enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_DONE };

struct slot {
	enum slot_state state;
	size_t chunk;
	char *buf;
	size_t len, cap;
	bool nomem;		/* a put that did not fit: the chunk is lost */
	struct export_tally tally;
};

struct pool;

struct worker {
	struct pool *p;
	int w;
	pthread_t th;
	bool started;
	struct slot *slot;	/* the one it fills */
	FILE *out;		/* into slot */
};

struct pool {
	const struct export_jobs_ops *ops;
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next_lo, to;	/* the next chunk's first sample; the end */
	size_t next_chunk;	/* the next chunk's number */
	bool stop;		/* a write failed: no more chunks */
	int n_slots;
	struct slot *slots;
};

static ssize_t
slot_put(void *cookie, const char *p, size_t n)
{
	struct slot *s = ((struct worker *)cookie)->slot;

	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 1u << 20;
		char *b;

		while (cap < s->len + n)
			cap *= 2;
		if (!(b = realloc(s->buf, cap))) {
			s->nomem = true;
			return (ssize_t)n;
		}
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return (ssize_t)n;
}

static void *
worker_run(void *arg)
{
	struct worker *wk = arg;
	struct pool *p = wk->p;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct slot *s;
		size_t lo, hi;

		/* The next chunk, once its slot is free. */
		while (!p->stop && p->next_lo < p->to &&
		       p->slots[p->next_chunk % (size_t)p->n_slots].state != SLOT_FREE)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop || p->next_lo >= p->to)
			break;
		s = &p->slots[p->next_chunk % (size_t)p->n_slots];
		lo = p->next_lo;
		hi = p->ops->end(p->arg, lo, p->to);
		if (hi <= lo || hi > p->to)
			hi = p->to;
		s->state = SLOT_FILLING;
		s->chunk = p->next_chunk++;
		p->next_lo = hi;
		pthread_mutex_unlock(&p->lock);

		s->len = 0;
		s->nomem = false;
		memset(&s->tally, 0, sizeof(s->tally));
		wk->slot = s;
		p->ops->chunk(p->arg, wk->w, lo, hi, wk->out, &s->tally);
		fflush(wk->out);

		pthread_mutex_lock(&p->lock);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* All n bytes at b to fd: 0, or -errno. */
static int
write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static void
tally_add(struct export_tally *t, const struct export_tally *c)
{
	if (c->unread && !t->unread)
		memcpy(t->first_why, c->first_why, sizeof(t->first_why));
	t->read += c->read;
	t->unread += c->unread;
}

/* Writes the chunks in order as they are done, until the last or a
 * failure: 0, or -errno. */
static int
pool_write(struct pool *p, int fd, struct export_tally *t)
{
	int err = 0;

	pthread_mutex_lock(&p->lock);
	for (size_t k = 0;; k++) {
		struct slot *s = &p->slots[k % (size_t)p->n_slots];

		while (!(s->state == SLOT_DONE && s->chunk == k) &&
		       !(p->next_lo >= p->to && k == p->next_chunk))
			pthread_cond_wait(&p->cond, &p->lock);
		if (s->state != SLOT_DONE || s->chunk != k)
			break;
		pthread_mutex_unlock(&p->lock);
		err = s->nomem ? -ENOMEM : write_all(fd, s->buf, s->len);
		if (!err)
			tally_add(t, &s->tally);
		pthread_mutex_lock(&p->lock);
		s->state = SLOT_FREE;
		if (err)
			p->stop = true;
		pthread_cond_broadcast(&p->cond);
		if (err)
			break;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

int
export_jobs_run(int jobs, size_t from, size_t to, const struct export_jobs_ops *ops,
		void *arg, int fd, struct export_tally *t)
{
	cookie_io_functions_t io = { .write = slot_put };
	struct pool p = { .ops = ops, .arg = arg, .next_lo = from, .to = to,
			  .n_slots = jobs + 1 };
	struct worker *wk = calloc((size_t)jobs, sizeof(*wk));
	int err = 1, started = 0;

	p.slots = calloc((size_t)p.n_slots, sizeof(*p.slots));
	if (!wk || !p.slots || pthread_mutex_init(&p.lock, NULL) != 0)
		goto out;
	if (pthread_cond_init(&p.cond, NULL) != 0) {
		pthread_mutex_destroy(&p.lock);
		goto out;
	}
	for (int w = 0; w < jobs; w++) {
		wk[w] = (struct worker){ .p = &p, .w = w };
		if (!(wk[w].out = fopencookie(&wk[w], "w", io)))
			goto stop;
		setvbuf(wk[w].out, NULL, _IONBF, 0);
	}
	/* Nothing is written until a worker starts: a pool that cannot
	 * start at all leaves the export to the caller. */
	for (int w = 0; w < jobs; w++) {
		if (pthread_create(&wk[w].th, NULL, worker_run, &wk[w]) != 0)
			break;
		wk[w].started = true;
		started++;
	}
	if (started > 0)
		err = pool_write(&p, fd, t);
stop:
	pthread_mutex_lock(&p.lock);
	p.stop = true;
	pthread_cond_broadcast(&p.cond);
	pthread_mutex_unlock(&p.lock);
	for (int w = 0; w < jobs; w++) {
		if (wk[w].started)
			pthread_join(wk[w].th, NULL);
		if (wk[w].out)
			fclose(wk[w].out);
	}
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
out:
	for (int i = 0; p.slots && i < p.n_slots; i++)
		free(p.slots[i].buf);
	free(p.slots);
	free(wk);
	return err;
}
