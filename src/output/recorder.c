/*
 * The recorder's queue and writer thread (see recorder.h).
 *
 * The queue is a ring of bytes: each entry is a struct entry followed by
 * the sample's bytes or the mark's text. Positions grow without wrapping
 * (64 bits) until the writer empties it, when both go back to 0; an
 * entry may straddle the ring's end. The pusher adds at the
 * tail and, when there is no room, drops whole entries at the head. The
 * writer takes the head entry out under the lock and then works without
 * it, so the lock is only ever held to copy one entry.
 *
 * Which samples can still be decoded: the writer, told that samples were
 * dropped, skips deltas until a keyframe and writes one GAP frame for all
 * of them. The pusher asks for a keyframe as soon as a sample at or after
 * the last keyframe it pushed was dropped (its deltas are now lost), so
 * that few are skipped.
 */

#include "output/recorder.h"
#include "util/clock.h"
#include "util/thread.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_DEFAULT	(1u << 20)	/* minutes of samples (deltas are 1-3 KB), touched only as deep as it fills */
#define FLUSH_DEFAULT	5.0

enum entry_kind { ENTRY_SAMPLE, ENTRY_MARK };

struct entry {
	uint32_t len;		/* bytes after the entry */
	uint8_t kind;
	bool keyframe;
	double wall;
	double mono;		/* when it was pushed */
};

struct recorder {
	struct rec_writer *w;
	/* A descriptor the thread makes its writer from: writing even the
	 * file's head to a pipe can block, and only the thread may wait. */
	int open_fd;
	char open_name[256];
	struct rec_header open_h;
	struct recorder_opts o;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint8_t *ebuf;		/* the writer's copy of one entry */

	/* The rest under lock. */
	uint8_t *ring;
	size_t cap;
	uint64_t head, tail;	/* positions; tail - head bytes queued */
	size_t queued;		/* samples */
	uint64_t last_key;	/* position of the last keyframe pushed */
	bool chain;		/* a delta pushed now could be decoded */
	int since_key;		/* samples pushed since it */
	uint64_t dropped;	/* samples, since the writer last looked */
	double drop_first, drop_last;
	double work_mono;	/* push time of what the writer works on */
	bool waiting, stopping;
	int result;		/* the writer's, once stopped */
	struct recorder_status st;

	/* The syncer: fdatasync(2) in a thread of its own, so that a slow
	 * sync (a journal commit waiting on other writers' data) never holds
	 * up the next chunk's write(2), which is what a killed recorder
	 * keeps. Started by the writer; the flags under lock. */
	pthread_t syncer;
	pthread_cond_t sync_wake;
	bool syncing;		/* the syncer runs (the writer's to read) */
	bool sync_asked, sync_quit;
	int sync_fd;
	int sync_err;		/* errno of a failed sync, not yet told */
};

static void
ring_write(struct recorder *rec, uint64_t pos, const void *src, size_t n)
{
	size_t at = (size_t)(pos % rec->cap);
	size_t first = rec->cap - at < n ? rec->cap - at : n;

	memcpy(rec->ring + at, src, first);
	memcpy(rec->ring, (const uint8_t *)src + first, n - first);
}

static void
ring_read(const struct recorder *rec, uint64_t pos, void *dst, size_t n)
{
	size_t at = (size_t)(pos % rec->cap);
	size_t first = rec->cap - at < n ? rec->cap - at : n;

	memcpy(dst, rec->ring + at, first);
	memcpy((uint8_t *)dst + first, rec->ring, n - first);
}

/* Counts a sample lost before the writer saw it. */
static void
lost(struct recorder *rec, double wall)
{
	if (rec->dropped++ == 0)
		rec->drop_first = wall;
	rec->drop_last = wall;
	rec->st.lost++;
}

static void
drop_oldest(struct recorder *rec)
{
	struct entry e;

	ring_read(rec, rec->head, &e, sizeof(e));
	if (e.kind == ENTRY_SAMPLE) {
		lost(rec, e.wall);
		rec->queued--;
		if (rec->head >= rec->last_key)
			rec->chain = false;
	} else
		rec->st.marks_lost++;
	rec->head += sizeof(e) + e.len;
}

/* Queues e and its bytes, dropping the oldest entries to make room. */
static bool
enqueue(struct recorder *rec, const struct entry *e, const void *bytes)
{
	size_t need = sizeof(*e) + e->len;

	if (need > rec->cap)
		return false;
	while (rec->cap - (rec->tail - rec->head) < need)
		drop_oldest(rec);
	ring_write(rec, rec->tail, e, sizeof(*e));
	ring_write(rec, rec->tail + sizeof(*e), bytes, e->len);
	rec->tail += need;
	if (rec->waiting)
		pthread_cond_signal(&rec->wake);
	return true;
}

bool
recorder_push(struct recorder *rec, double wall, bool keyframe,
    const uint8_t *bytes, size_t len)
{
	struct entry e;
	uint64_t pos;
	bool next_key;

	memset(&e, 0, sizeof(e));
	e.len = (uint32_t)len;
	e.kind = ENTRY_SAMPLE;
	e.keyframe = keyframe;
	e.wall = wall;
	e.mono = clock_mono();

	pthread_mutex_lock(&rec->lock);
	if (rec->st.stopped || rec->stopping) {
		pthread_mutex_unlock(&rec->lock);
		return false;
	}
	pos = rec->tail;
	if ((!keyframe && !rec->chain) || len > REC_SAMPLE_MAX ||
	    !enqueue(rec, &e, bytes)) {
		lost(rec, wall);	/* could never be decoded, or fit */
		rec->chain = false;
	} else {
		rec->queued++;
		if (keyframe) {
			rec->last_key = pos;
			rec->chain = true;
			rec->since_key = 0;
		}
		rec->since_key++;
	}
	next_key = !rec->chain || rec->since_key >= rec->o.keyframe_every;
	pthread_mutex_unlock(&rec->lock);
	return next_key;
}

void
recorder_mark(struct recorder *rec, double wall, const char *text)
{
	struct entry e;

	memset(&e, 0, sizeof(e));
	e.len = (uint32_t)strnlen(text, REC_MARK_MAX);
	e.kind = ENTRY_MARK;
	e.wall = wall;
	e.mono = clock_mono();
	pthread_mutex_lock(&rec->lock);
	if (!rec->st.stopped && !rec->stopping)
		enqueue(rec, &e, text);
	pthread_mutex_unlock(&rec->lock);
}

void
recorder_status(struct recorder *rec, struct recorder_status *st)
{
	struct entry e;
	double oldest = 0;

	pthread_mutex_lock(&rec->lock);
	*st = rec->st;
	st->queued = rec->queued;
	if (rec->head != rec->tail) {
		ring_read(rec, rec->head, &e, sizeof(e));
		oldest = e.mono;
	}
	if (rec->work_mono != 0 && (oldest == 0 || rec->work_mono < oldest))
		oldest = rec->work_mono;
	pthread_mutex_unlock(&rec->lock);
	st->behind = oldest != 0 ? clock_mono() - oldest : 0;
}

static void
wait_until(struct recorder *rec, double due)
{
	struct timespec ts;
	double now = clock_mono();

	rec->waiting = true;
	if (due == 0)
		pthread_cond_wait(&rec->wake, &rec->lock);
	else if (due > now) {
		ts.tv_sec = (time_t)due;
		ts.tv_nsec = (long)((due - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&rec->wake, &rec->lock, &ts);
	}
	rec->waiting = false;
}

/* The samples lost since the last one written, for one GAP frame. */
struct gap {
	uint64_t lost;
	double first, last;
};

static void
gap_add(struct gap *g, uint64_t n, double first, double last)
{
	if (g->lost == 0)
		g->first = first;
	g->last = last;
	g->lost += n;
}

/* Writes one entry taken from the queue; *skipped if it was a delta that
 * cannot be decoded. *due: when to flush (0: nothing to flush). */
static int
write_entry(struct recorder *rec, const struct entry *e, struct gap *g,
    bool *skipped, double *due)
{
	int r = 0;

	*skipped = false;
	if (e->kind == ENTRY_MARK) {
		rec->ebuf[e->len] = '\0';
		return rec_writer_mark(rec->w, e->wall, (char *)rec->ebuf);
	}
	if (g->lost > 0 && !e->keyframe) {
		gap_add(g, 1, e->wall, e->wall);
		*skipped = true;
		return 0;
	}
	if (g->lost > 0) {
		r = rec_writer_gap(rec->w, g->first, g->last, g->lost);
		g->lost = 0;
	}
	if (r == 0)
		r = rec_writer_sample(rec->w, e->wall, e->keyframe, rec->ebuf,
		    e->len);
	if (r == -EINVAL) {	/* a delta the writer cannot take */
		gap_add(g, 1, e->wall, e->wall);
		*skipped = true;
		return 0;
	}
	/* A tenth early, so that what was pushed an interval ago is out
	 * even counting the time the write takes. The first sample goes
	 * out at once: a recorder killed in its first seconds keeps it. */
	if (r == 0 && *due == 0)
		*due = rec_writer_samples(rec->w) == 0 ? e->mono :
		    e->mono + 0.9 * rec->o.flush_interval;
	return r;
}

static void *
recorder_syncer(void *arg)
{
	struct recorder *rec = arg;
	int e;

	/* Its signals are blocked, as its maker's. */
	pthread_mutex_lock(&rec->lock);
	for (;;) {
		while (!rec->sync_asked && !rec->sync_quit)
			pthread_cond_wait(&rec->sync_wake, &rec->lock);
		if (!rec->sync_asked)
			break;
		rec->sync_asked = false;
		pthread_mutex_unlock(&rec->lock);
		e = fdatasync(rec->sync_fd) != 0 && errno != EINVAL ? errno : 0;
		pthread_mutex_lock(&rec->lock);
		if (e != 0 && rec->sync_err == 0)
			rec->sync_err = e;
	}
	pthread_mutex_unlock(&rec->lock);
	return NULL;
}

/* Without a thread for it, the writer syncs itself. */
static void
syncer_start(struct recorder *rec)
{
	if (rec->o.no_sync || (rec->sync_fd = rec_writer_sync_fd(rec->w)) < 0)
		return;
	pthread_cond_init(&rec->sync_wake, NULL);
	if (thread_start(&rec->syncer, recorder_syncer, rec) == 0)
		rec->syncing = true;
	else
		pthread_cond_destroy(&rec->sync_wake);
}

/* Asks for a sync of what was flushed; a failure is told a flush later. */
static int
syncer_ask(struct recorder *rec)
{
	int e;

	if (!rec->syncing)
		return rec_writer_sync(rec->w);
	pthread_mutex_lock(&rec->lock);
	e = rec->sync_err;
	rec->sync_err = 0;
	rec->sync_asked = true;
	pthread_cond_signal(&rec->sync_wake);
	pthread_mutex_unlock(&rec->lock);
	return e != 0 ? rec_writer_sync_failed(rec->w, e) : 0;
}

/* Waits out a sync under way; returns a failure not yet told. */
static int
syncer_stop(struct recorder *rec)
{
	if (!rec->syncing)
		return 0;
	pthread_mutex_lock(&rec->lock);
	rec->sync_quit = true;
	pthread_cond_signal(&rec->sync_wake);
	pthread_mutex_unlock(&rec->lock);
	pthread_join(rec->syncer, NULL);
	pthread_cond_destroy(&rec->sync_wake);
	rec->syncing = false;
	return rec->sync_err;
}

static void *
recorder_main(void *arg)
{
	struct recorder *rec = arg;
	struct gap g = { 0, 0, 0 };
	struct entry e;
	sigset_t all;
	char msg[sizeof(rec->st.error)];
	uint64_t written;
	size_t pending;
	double due = 0;
	bool have, skipped;
	int r = 0, serr;

	/* Signals are for the main thread; a reader of a pipe that went
	 * away makes write(2) fail with EPIPE here instead of a SIGPIPE. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);

	if (rec->w == NULL) {
		struct rec_writer *w = rec_writer_fdopen(rec->open_fd, rec->open_name,
		    &rec->open_h, msg, sizeof(msg));

		pthread_mutex_lock(&rec->lock);
		if (w == NULL) {
			rec->result = -EIO;
			rec->st.stopped = true;
			rec->st.err = EIO;
			snprintf(rec->st.error, sizeof(rec->st.error), "%s", msg);
			pthread_mutex_unlock(&rec->lock);
			return NULL;
		}
		rec->w = w;
		if (rec->o.max_size > 0)
			rec_writer_set_limit(w, rec->o.max_size);
		pthread_mutex_unlock(&rec->lock);
	}
	syncer_start(rec);

	pthread_mutex_lock(&rec->lock);
	for (;;) {
		while (rec->head == rec->tail && !rec->stopping &&
		    (due == 0 || clock_mono() < due))
			wait_until(rec, due);
		if (rec->dropped > 0) {
			gap_add(&g, rec->dropped, rec->drop_first,
			    rec->drop_last);
			rec->dropped = 0;
		}
		if ((have = rec->head != rec->tail)) {
			ring_read(rec, rec->head, &e, sizeof(e));
			ring_read(rec, rec->head + sizeof(e), rec->ebuf, e.len);
			rec->head += sizeof(e) + e.len;
			if (e.kind == ENTRY_SAMPLE)
				rec->queued--;
			/* Emptied: the next entry goes at the ring's start
			 * again, so that only as much of it is touched as was
			 * ever queued at once. The last keyframe is behind
			 * the head, as it was. */
			if (rec->head == rec->tail)
				rec->head = rec->tail = rec->last_key = 0;
			rec->work_mono = e.mono;
		} else if (rec->stopping)
			break;
		else
			rec->work_mono = due - 0.9 * rec->o.flush_interval;
		pthread_mutex_unlock(&rec->lock);

		skipped = false;
		if (have)
			r = write_entry(rec, &e, &g, &skipped, &due);
		if (r == 0 && due != 0 && clock_mono() >= due) {
			r = rec_writer_flush(rec->w);
			if (r == 0 && !rec->o.no_sync)
				r = syncer_ask(rec);
			due = 0;
		}

		pthread_mutex_lock(&rec->lock);
		rec->work_mono = 0;
		if (skipped)
			rec->st.lost++;
		rec->st.size = rec_writer_size(rec->w);
		rec->st.samples = rec_writer_samples(rec->w);
		if (r != 0)
			break;
	}
	pthread_mutex_unlock(&rec->lock);

	/* A sync under way ends first; its failure is the file's. */
	if ((serr = syncer_stop(rec)) != 0 && r == 0)
		r = rec_writer_sync_failed(rec->w, serr);
	/* Lost at the very end, with no keyframe after: still say so. */
	if (r == 0 && g.lost > 0)
		r = rec_writer_gap(rec->w, g.first, g.last, g.lost);
	/* Closing after an error keeps the file as it was: valid up to the
	 * last whole frame. The samples of the open chunk are written by the
	 * close when it succeeds. */
	written = rec_writer_samples(rec->w);
	pending = rec_writer_pending(rec->w);
	r = rec_writer_close(rec->w, msg, sizeof(msg));
	rec->w = NULL;

	pthread_mutex_lock(&rec->lock);
	rec->result = r;
	rec->st.samples = written + (r == 0 ? pending : 0);
	if (r != 0) {
		rec->st.stopped = true;
		rec->st.err = -r;
		snprintf(rec->st.error, sizeof(rec->st.error), "%s", msg);
		rec->head = rec->tail;
		rec->queued = 0;
	}
	pthread_mutex_unlock(&rec->lock);
	return NULL;
}

static struct recorder *
recorder_make(struct rec_writer *w, const struct recorder_opts *o, char *why,
    size_t whylen, int fd, const char *name, const struct rec_header *h)
{
	struct recorder *rec;
	pthread_condattr_t ca;

	if ((rec = calloc(1, sizeof(*rec))) == NULL)
		goto fail;
	rec->open_fd = fd;
	if (w == NULL) {
		snprintf(rec->open_name, sizeof(rec->open_name), "%s", name);
		rec->open_h = *h;
	}
	if (o != NULL)
		rec->o = *o;
	if (!(rec->o.flush_interval > 0))
		rec->o.flush_interval = FLUSH_DEFAULT;
	if (rec->o.queue_size == 0)
		rec->o.queue_size = QUEUE_DEFAULT;
	if (rec->o.keyframe_every <= 0)
		rec->o.keyframe_every = REC_KEYFRAME_EVERY;
	rec->cap = rec->o.queue_size;
	if ((rec->ring = malloc(rec->cap)) == NULL ||
	    (rec->ebuf = malloc(rec->cap + 1)) == NULL)
		goto fail;
	rec->w = w;
	if (w != NULL && rec->o.max_size > 0)
		rec_writer_set_limit(w, rec->o.max_size);

	pthread_mutex_init(&rec->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&rec->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (thread_start(&rec->thread, recorder_main, rec) != 0) {
		pthread_cond_destroy(&rec->wake);
		pthread_mutex_destroy(&rec->lock);
		goto fail;
	}
	return rec;

fail:
	if (why != NULL && whylen > 0)
		snprintf(why, whylen, "cannot start the recorder: out of "
		    "memory or threads");
	if (w != NULL)
		rec_writer_close(w, NULL, 0);
	if (rec != NULL) {
		free(rec->ring);
		free(rec->ebuf);
		free(rec);
	}
	return NULL;
}

static struct recorder *
recorder_new(struct rec_writer *w, const struct recorder_opts *o, char *why,
    size_t whylen)
{
	return recorder_make(w, o, why, whylen, -1, NULL, NULL);
}

/* The thread opens the writer on fd itself. */
static struct recorder *
recorder_new_fd(int fd, const char *name, const struct rec_header *h,
    const struct recorder_opts *o, char *why, size_t whylen)
{
	struct recorder *rec = recorder_make(NULL, o, why, whylen, fd, name, h);

	if (rec == NULL)
		close(fd);
	return rec;
}

/* h, with the pagetypeinfo interval of o when h has none: into buf if
 * that changes it. */
static const struct rec_header *
header_with(struct rec_header *buf, const struct rec_header *h,
    const struct recorder_opts *o)
{
	if (o == NULL || !(o->pti_every > 0) || (h != NULL && h->pti_every > 0))
		return h;
	if (h != NULL)
		*buf = *h;
	else
		rec_header_init(buf);
	buf->pti_every = o->pti_every;
	return buf;
}

/* Opens path once, never following a symlink, and decides on what was
 * opened: a file it created, or a FIFO that was there. A stat() before
 * the open would let another user swap the name in between. */
static int
open_output(const char *path, bool *created, char *why, size_t whylen)
{
	struct stat st;
	int fd, flags;

	*created = false;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd >= 0) {
		*created = true;
		return fd;
	}
	if (errno != EEXIST)
		goto fail;
	/* Never waits for a reader: that is the writer thread's job. */
	if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY |
	    O_CLOEXEC)) < 0) {
		if (errno == ELOOP) {
			snprintf(why, whylen, "%s: a symbolic link (not "
			    "followed: name the file itself)", path);
			return -1;
		}
		if (errno == ENXIO) {
			snprintf(why, whylen, "%s: a FIFO nobody reads", path);
			return -1;
		}
		goto fail;
	}
	if (fstat(fd, &st) != 0) {
		close(fd);
		goto fail;
	}
	if (!S_ISFIFO(st.st_mode)) {
		close(fd);
		snprintf(why, whylen, "%s: already exists (a recording is "
		    "never overwritten)", path);
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1) {
		close(fd);
		goto fail;
	}
	return fd;
fail:
	snprintf(why, whylen, "%s: %s", path, strerror(errno));
	return -1;
}

struct recorder *
recorder_start(const char *path, const struct rec_header *h,
    const struct recorder_opts *o, char *why, size_t whylen)
{
	struct rec_header hd;
	struct rec_writer *w;
	struct recorder *rec;
	bool created;
	int fd;

	if ((fd = open_output(path, &created, why, whylen)) < 0)
		return NULL;
	if (!created)
		return recorder_new_fd(fd, path, header_with(&hd, h, o), o, why,
		    whylen);
	if ((w = rec_writer_fdopen(fd, path, header_with(&hd, h, o), why,
	    whylen)) == NULL ||
	    (rec = recorder_new(w, o, why, whylen)) == NULL) {
		unlink(path);	/* ours, and empty */
		return NULL;
	}
	return rec;
}

struct recorder *
recorder_start_fd(int fd, const char *name, const struct rec_header *h,
    const struct recorder_opts *o, char *why, size_t whylen)
{
	struct rec_header hd;

	return recorder_new_fd(fd, name, header_with(&hd, h, o), o, why,
	    whylen);
}

int
recorder_stop(struct recorder *rec, char *why, size_t whylen)
{
	return recorder_finish(rec, NULL, why, whylen);
}

int
recorder_finish(struct recorder *rec, struct recorder_status *final, char *why,
    size_t whylen)
{
	int r;

	pthread_mutex_lock(&rec->lock);
	rec->stopping = true;
	pthread_cond_signal(&rec->wake);
	pthread_mutex_unlock(&rec->lock);
	pthread_join(rec->thread, NULL);

	r = rec->result;
	if (why != NULL && whylen > 0)
		snprintf(why, whylen, "%s", rec->st.error);
	/* The writer has ended: what it counted is what the file holds. */
	if (final != NULL)
		recorder_status(rec, final);
	pthread_cond_destroy(&rec->wake);
	pthread_mutex_destroy(&rec->lock);
	free(rec->ring);
	free(rec->ebuf);
	free(rec);
	return r;
}
