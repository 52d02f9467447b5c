/*
 * The recording reader: opening (the file head, then the index, or a scan
 * when there is none to use), the lists it built, and samples on demand.
 * A sample is read by decompressing its chunk after those before it back
 * to its keyframe chunk; reading in order decodes each chunk once. A chunk
 * found damaged then joins the damage list with the samples it loses.
 */

#include "ptrec/recfile-int.h"
#include "ptrec/zstd-dl.h"
#include "util/wire.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>


struct rec_reader *
rec_reader_open(const char *path, char *why, size_t whylen)
{
	struct rec_reader *r;
	const uint8_t *head = NULL;
	struct stat st;
	char eb[128];
	size_t n;
	int fd, e;

	/* Non-blocking: a FIFO must be refused, not waited on. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) <
	    0 || fstat(fd, &st) != 0) {
		recfile_say(why, whylen, "%s: %s", path,
		    recfile_errstr(errno, eb, sizeof(eb)));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		recfile_say(why, whylen, "%s: not a regular file (a recording "
		    "cannot be read from a %s)", path, S_ISFIFO(st.st_mode) ?
		    "FIFO or pipe" : S_ISDIR(st.st_mode) ? "directory" :
		    "device or socket");
		close(fd);
		return NULL;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(path)) == NULL ||
	    (r->dctx = ZSTD_createDCtx()) == NULL ||
	    !recfile_times_init(r)) {
		if (zstd_dl_why())
			recfile_say(why, whylen, "%s: %s", path, zstd_dl_why());
		else
			recfile_say(why, whylen, "%s: out of memory", path);
		goto fail;
	}
	r->fd = fd;
	r->dec = -1;
	r->info.size = (uint64_t)st.st_size;
	rec_header_init(&r->hdr);
	ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, ZSTD_WINDOW_MAX);

	n = r->info.size < HEAD_LEN ? (size_t)r->info.size : HEAD_LEN;
	if (n > 0 && (head = recfile_window(r, 0, n, n)) == NULL) {
		recfile_say(why, whylen, "%s: %s", path,
		    recfile_errstr(r->rerr, eb, sizeof(eb)));
		goto fail;
	}
	if (!recfile_head_decode(head, n, path, &r->info.major,
	    &r->info.minor, why, whylen))
		goto fail;

	if ((e = recfile_index_load(r)) > 0)
		e = recfile_scan(r);
	if (e < 0) {
		recfile_say(why, whylen, "%s: %s", path,
		    recfile_errstr(-e, eb, sizeof(eb)));
		goto fail;
	}
	return r;

fail:
	if (r != NULL)
		r->fd = -1;
	rec_reader_close(r);
	close(fd);
	return NULL;
}

void
rec_reader_close(struct rec_reader *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	free(r->chunks);
	recfile_times_free(r);
	free(r->marks);
	free(r->gaps);
	free(r->damage);
	free(r->win);
	free(r->dbuf);
	free(r->recs);
	free(r->name);
	free(r);
}

const struct rec_header *
rec_reader_header(const struct rec_reader *r)
{
	return &r->hdr;
}

void
rec_reader_info(const struct rec_reader *r, struct rec_info *info)
{
	*info = r->info;
}

size_t
rec_reader_count(const struct rec_reader *r)
{
	return r->count;
}

/* The chunk holding sample i (< count). */
static size_t
chunk_of(const struct rec_reader *r, size_t i)
{
	size_t lo = 0, hi = r->nchunks, mid;
	const struct chunk *c;

	if (r->dec >= 0) {
		c = &r->chunks[r->dec];
		if (i >= c->first && i < c->first + c->count)
			return (size_t)r->dec;
		if ((size_t)r->dec + 1 < r->nchunks && i >= c[1].first &&
		    i < c[1].first + c[1].count)
			return (size_t)r->dec + 1;
	}
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->chunks[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t
rec_reader_keyframe(const struct rec_reader *r, size_t i)
{
	if (i >= r->count)
		return 0;
	return r->chunks[r->chunks[chunk_of(r, i)].key].first;
}

/* Marks chunk c damaged: it and the rest of its zstd frame are lost. */
static int
chunk_damaged(struct rec_reader *r, size_t c, const char *what)
{
	struct chunk *ch = &r->chunks[c];
	size_t e, last;

	for (e = c + 1; e < r->nchunks && !r->chunks[e].keyframe; e++)
		continue;
	last = (e < r->nchunks ? r->chunks[e].first : r->count) - 1;
	ch->bad = true;
	r->dec = -1;
	recfile_damage_add(r, ch->off, ch->len, last + 1 - ch->first);
	snprintf(r->error, sizeof(r->error), "%s: the chunk at byte %llu %s: "
	    "samples %zu to %zu cannot be read", r->name,
	    (unsigned long long)ch->off, what, (size_t)ch->first, last);
	return -EIO;
}

/* Decompresses chunk c into dbuf, after c - 1 unless c starts its frame. */
static int
chunk_decode(struct rec_reader *r, size_t c)
{
	struct chunk *ch = &r->chunks[c];
	struct chunk_body b;
	struct frame f;
	ZSTD_inBuffer in;
	ZSTD_outBuffer out;
	const uint8_t *p, *end;
	uint64_t n;
	size_t z, j, k;
	char eb[128];
	int st;

	if ((st = recfile_frame_at(r, ch->off, &f, DECODE_AHEAD)) ==
	    FRAME_ERR) {
		snprintf(r->error, sizeof(r->error), "%s: %s", r->name,
		    recfile_errstr(r->rerr, eb, sizeof(eb)));
		return -r->rerr;
	}
	if (st != FRAME_OK || f.type != FT_CHUNK ||
	    FRAME_HEAD + f.len != ch->len ||
	    !recfile_chunk_parse(r->info.major, f.p, f.len, &b) ||
	    b.count != ch->count)
		return chunk_damaged(r, c, "fails its check");

	if (c == ch->key) {
		unsigned long long dec = ZSTD_getFrameContentSize(b.z, b.zlen);

		/* A size is declared only when the zstd frame was written in
		 * one piece, this chunk: it may say no more than the cap. */
		if (dec == ZSTD_CONTENTSIZE_ERROR)
			return chunk_damaged(r, c, "does not start a zstd frame");
		if (dec != ZSTD_CONTENTSIZE_UNKNOWN && dec > CHUNK_DEC_MAX) {
			snprintf(eb, sizeof(eb), "says it expands to %llu "
			    "bytes, over the %u a chunk may", dec,
			    CHUNK_DEC_MAX);
			return chunk_damaged(r, c, eb);
		}
		ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	}
	in.src = b.z;
	in.size = b.zlen;
	in.pos = 0;
	r->dlen = 0;
	for (;;) {
		/* Never more than the cap, whatever the data says. */
		if (r->dlen == r->dcap && (r->dcap >= CHUNK_DEC_MAX ||
		    !recfile_grow(&r->dbuf, &r->dcap,
		    r->dcap ? r->dcap + 1 : 65536, 1)))
			return chunk_damaged(r, c, "expands past the "
			    "4 MiB a chunk may");
		out.dst = r->dbuf;
		out.size = r->dcap;
		out.pos = r->dlen;
		z = ZSTD_decompressStream(r->dctx, &out, &in);
		r->dlen = out.pos;
		if (ZSTD_isError(z))
			return chunk_damaged(r, c, ZSTD_getErrorName(z));
		if (in.pos == in.size && out.pos < out.size)
			break;
	}

	if (!recfile_grow(&r->recs, &r->recs_cap, ch->count, sizeof(*r->recs)))
		return chunk_damaged(r, c, "is too big for memory");
	p = r->dbuf;
	end = r->dbuf + r->dlen;
	for (j = 0; j < ch->count; j++) {
		if ((k = varint_get_bounded(p, end, &n)) == 0 || n > REC_SAMPLE_MAX ||
		    (uint64_t)(end - p - k) < n + 1)
			break;
		p += k;
		r->recs[j].off = (size_t)(p - r->dbuf);
		r->recs[j].len = (size_t)n;
		p += 1 + n;
	}
	if (j < ch->count || p != end)
		return chunk_damaged(r, c, "does not hold its samples");
	return 0;
}

int
rec_reader_get(struct rec_reader *r, size_t i, const uint8_t **bytes,
    size_t *len, bool *keyframe)
{
	const struct record *rec;
	struct chunk *ch;
	size_t c, j, from;
	int e;

	if (i >= r->count) {
		snprintf(r->error, sizeof(r->error),
		    "%s: no sample %zu (%zu in all)", r->name, i, r->count);
		return -ERANGE;
	}
	c = chunk_of(r, i);
	ch = &r->chunks[c];
	if (r->dec < 0 || (size_t)r->dec != c) {
		for (j = ch->key; j <= c; j++) {
			if (r->chunks[j].bad) {
				snprintf(r->error, sizeof(r->error),
				    "%s: sample %zu needs the damaged chunk "
				    "at byte %llu", r->name, i,
				    (unsigned long long)r->chunks[j].off);
				return -EIO;
			}
		}
		from = ch->key;
		if (r->dec >= 0 && (size_t)r->dec + 1 == c && !ch->keyframe &&
		    r->chunks[r->dec].key == ch->key)
			from = c;
		r->dec = -1;
		for (j = from; j <= c; j++)
			if ((e = chunk_decode(r, j)) != 0)
				return e;
		r->dec = (long)c;
	}
	rec = &r->recs[i - ch->first];
	*bytes = r->dbuf + rec->off + 1;
	*len = rec->len;
	if (keyframe != NULL)
		*keyframe = r->dbuf[rec->off] & SAMPLE_KEYFRAME;
	return 0;
}

const char *
rec_reader_error(const struct rec_reader *r)
{
	return r->error;
}

int
rec_reader_verify(struct rec_reader *r)
{
	struct frame f;
	size_t c;
	int st, bad = 0;

	for (c = 0; c < r->nchunks; c++) {
		if (r->chunks[c].bad) {
			bad++;
			continue;
		}
		if ((st = recfile_frame_at(r, r->chunks[c].off, &f, WINDOW)) ==
		    FRAME_ERR)
			return -r->rerr;
		if (st != FRAME_OK || f.type != FT_CHUNK ||
		    FRAME_HEAD + f.len != r->chunks[c].len) {
			chunk_damaged(r, c, "fails its check");
			bad++;
		}
	}
	return bad;
}

const struct rec_mark *
rec_reader_marks(const struct rec_reader *r, size_t *n)
{
	*n = r->nmarks;
	return r->marks;
}

const struct rec_gap *
rec_reader_gaps(const struct rec_reader *r, size_t *n)
{
	*n = r->ngaps;
	return r->gaps;
}

const struct rec_damage *
rec_reader_damage(const struct rec_reader *r, size_t *n)
{
	*n = r->ndamage;
	return r->damage;
}

static int
damage_cmp(const void *a, const void *b)
{
	const struct rec_damage *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int
rec_reader_damage_merge(struct rec_reader *r, const struct rec_reader *src)
{
	for (size_t i = 0; i < src->ndamage; i++) {
		const struct rec_damage *d = &src->damage[i];
		size_t k = 0;

		while (k < r->ndamage && r->damage[k].offset != d->offset)
			k++;
		if (k == r->ndamage &&
		    !recfile_damage_add(r, d->offset, d->bytes, d->lost))
			return -ENOMEM;
	}
	if (r->ndamage > 1)
		qsort(r->damage, r->ndamage, sizeof(*r->damage), damage_cmp);
	return 0;
}
