#include "source/replay.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/codec.h"

struct replay *
replay_open(const char *path, char *why, size_t size)
{
	struct replay *rp = calloc(1, sizeof(*rp));

	if (!rp || !(rp->cur = calloc(1, sizeof(*rp->cur))) ||
	    !(rp->prev = calloc(1, sizeof(*rp->prev))) || !(rp->cs = codec_stream_new())) {
		snprintf(why, size, "%s: out of memory", path);
		replay_close(rp);
		return NULL;
	}
	if (!(rp->r = rec_reader_open(path, why, size))) {
		replay_close(rp);
		return NULL;
	}
	/* Check every chunk now (a day's file in tens of ms) so damage is
	 * reported at once, not found on the way. */
	rec_reader_verify(rp->r);
	rp->at = SIZE_MAX;
	return rp;
}

void
replay_close(struct replay *rp)
{
	if (!rp)
		return;
	if (rp->r)
		rec_reader_close(rp->r);
	codec_stream_free(rp->cs);
	free(rp->cur);
	free(rp->prev);
	free(rp);
}

size_t
replay_count(const struct replay *rp)
{
	return rec_reader_count(rp->r);
}

/* Decodes sample i on top of cur, which must hold i - 1 (or nothing for a keyframe). */
static int
replay_next(struct replay *rp, size_t i)
{
	const uint8_t *bytes;
	size_t len;
	bool key;
	struct codec_stats st = { 0 };
	struct parse_error err = { 0, "" };
	struct sample *t;
	int r;

	if ((r = rec_reader_get(rp->r, i, &bytes, &len, &key)) < 0) {
		snprintf(rp->error, sizeof(rp->error), "%s", rec_reader_error(rp->r));
		rp->at = SIZE_MAX;
		return r;
	}
	rp->delta_chunks = 0;
	/* The previous sample becomes the base of the delta. */
	t = rp->prev;
	rp->prev = rp->cur;
	rp->cur = t;
	if (codec_decode_stream(rp->cs, bytes, len, key ? NULL : rp->prev, rp->cur, &st, &err) < 0) {
		snprintf(rp->error, sizeof(rp->error), "sample %zu: %s", i, err.msg);
		rp->at = SIZE_MAX;
		return -EINVAL;
	}
	rp->unknown_fields += st.unknown_fields;
	rp->delta_chunks = st.delta_chunks;
	rp->at = i;
	return 0;
}

int
replay_seek(struct replay *rp, size_t i)
{
	size_t k;
	int r;

	if (i >= replay_count(rp))
		return -ERANGE;
	if (rp->at == i)
		return 0;
	k = rec_reader_keyframe(rp->r, i);
	/* Carry on from where we are when that is on the way. */
	if (rp->at != SIZE_MAX && rp->at < i && rp->at >= k)
		k = rp->at + 1;
	rp->error[0] = '\0';
	for (size_t j = k; j <= i; j++)
		if ((r = replay_next(rp, j)) < 0)
			return r;
	return 0;
}

int
replay_report_damage(const struct replay *rp, const char *path, FILE *f)
{
	size_t nd;
	const struct rec_damage *dm = rec_reader_damage(rp->r, &nd);
	struct rec_info info;
	int lines = 0;

	rec_reader_info(rp->r, &info);
	/* An index that lies about its frames: say it was not used. */
	if (!info.indexed && strstr(info.why_scanned, "does not agree")) {
		fprintf(f, "pagetop: %s: %s: frames scanned instead\n", path, info.why_scanned);
		lines++;
	}
	for (size_t i = 0; i < nd; i++, lines++)
		fprintf(f, "pagetop: %s: damaged at byte %llu: %llu bytes skipped, %llu samples lost\n",
			path, (unsigned long long)dm[i].offset, (unsigned long long)dm[i].bytes,
			(unsigned long long)dm[i].lost);
	if (info.tail) {
		fprintf(f, "pagetop: %s: cut short: the last %llu bytes are an unfinished frame\n",
			path, (unsigned long long)info.tail);
		lines++;
	}
	return lines;
}

void
replay_host(const struct replay *rp, struct host *h)
{
	const struct rec_header *hd = rec_reader_header(rp->r);

	*h = (struct host){ .page_size = hd->page_size, .ncpus = hd->cpus, .nodes = hd->nodes,
			    .pageblock_order = hd->pageblock_order, .mem_kb = hd->mem_kb };
	snprintf(h->hostname, sizeof(h->hostname), "%s", hd->hostname);
	snprintf(h->release, sizeof(h->release), "%s", hd->release);
	snprintf(h->machine, sizeof(h->machine), "%s", hd->machine);
}

void
replay_host_facts(const struct replay *rp, char *dst, size_t size)
{
	struct host h;

	replay_host(rp, &h);
	host_facts(&h, dst, size);
}
