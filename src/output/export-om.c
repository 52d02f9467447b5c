#include "output/export-om.h"
#include "output/openmetrics.h"
#include "util/wire.h"
#include "util/arith.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OM_BLOCK_BYTES	(4u << 20)	/* rows held in memory at once */

struct om_seg {
	off_t off;
	uint32_t len;
};

struct export_om {
	const struct metric_set *m;
	int S;			/* series */
	size_t R;		/* rows per block */
	int64_t *blk;		/* R rows of S values */
	size_t in_blk;
	uint8_t *enc;		/* one block, encoded column after column */
	struct om_seg *idx;	/* [block * S + series] */
	size_t n_blocks, cap_blocks;
	off_t end;
	int fd;
	int64_t *ts;		/* milliseconds since the epoch, per row */
	size_t n_rows, cap_rows;
};

struct export_om *
export_om_new(const struct metric_set *m, char *why, size_t size)
{
	struct export_om *x = calloc(1, sizeof(*x));
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (!x) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	x->m = m;
	x->fd = -1;
	x->S = metrics_n_series(m) > 0 ? metrics_n_series(m) : 1;
	x->R = OM_BLOCK_BYTES / ((size_t)x->S * sizeof(int64_t));
	if (x->R < 16)
		x->R = 16;
	if (!(x->blk = malloc(x->R * (size_t)x->S * sizeof(int64_t))) ||
	    !(x->enc = malloc(x->R * (size_t)x->S * VARINT_MAX))) {
		snprintf(why, size, "out of memory");
		export_om_free(x);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/pagetop-export.XXXXXX", dir && *dir ? dir : "/tmp");
	if ((x->fd = mkstemp(path)) < 0) {
		snprintf(why, size, "%s: %s", path, strerror(errno));
		export_om_free(x);
		return NULL;
	}
	unlink(path);
	return x;
}

void
export_om_free(struct export_om *x)
{
	if (!x)
		return;
	if (x->fd >= 0)
		close(x->fd);
	free(x->blk);
	free(x->enc);
	free(x->idx);
	free(x->ts);
	free(x);
}

/* Each column of the block: 0 for no value, else 1 + the zigzag of the
 * difference from the last value (metrics keeps values within 2^61). */
static int
om_flush(struct export_om *x, char *why, size_t size)
{
	size_t pos = 0, done = 0;

	if (x->in_blk == 0)
		return 0;
	if (x->n_blocks == x->cap_blocks) {
		size_t cap = x->cap_blocks ? x->cap_blocks * 2 : 16;
		struct om_seg *p = realloc(x->idx, cap * (size_t)x->S * sizeof(*p));

		if (!p) {
			snprintf(why, size, "out of memory");
			return -ENOMEM;
		}
		x->idx = p;
		x->cap_blocks = cap;
	}
	for (int s = 0; s < x->S; s++) {
		size_t start = pos;
		int64_t prev = 0;

		for (size_t r = 0; r < x->in_blk; r++) {
			int64_t v = x->blk[r * (size_t)x->S + (size_t)s];
			uint64_t d;

			if (v == METRIC_NONE) {
				x->enc[pos++] = 0;
				continue;
			}
			d = (uint64_t)v - (uint64_t)prev;
			pos += varint_put(x->enc + pos, zigzag((int64_t)d) + 1);
			prev = v;
		}
		x->idx[x->n_blocks * (size_t)x->S + (size_t)s] =
		    (struct om_seg){ x->end + (off_t)start, (uint32_t)(pos - start) };
	}
	while (done < pos) {
		ssize_t n = pwrite(x->fd, x->enc + done, pos - done, x->end + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, size, "temporary file: %s", n < 0 ? strerror(errno) : "short write");
			return n < 0 ? -errno : -EIO;
		}
		done += (size_t)n;
	}
	x->end += (off_t)pos;
	x->n_blocks++;
	x->in_blk = 0;
	return 0;
}

int
export_om_push(struct export_om *x, double wall, const int64_t *v, char *why, size_t size)
{
	if (x->n_rows == x->cap_rows) {
		size_t cap = x->cap_rows ? x->cap_rows * 2 : 4096;
		int64_t *p = realloc(x->ts, cap * sizeof(*p));

		if (!p) {
			snprintf(why, size, "out of memory");
			return -ENOMEM;
		}
		x->ts = p;
		x->cap_rows = cap;
	}
	x->ts[x->n_rows++] = arith_llround(wall * 1000);
	memcpy(x->blk + x->in_blk * (size_t)x->S, v, (size_t)metrics_n_series(x->m) * sizeof(*v));
	if (++x->in_blk == x->R)
		return om_flush(x, why, size);
	return 0;
}

/* Writes out buf when it cannot take len more bytes. */
static char *
om_room(char *buf, size_t cap, size_t *used, size_t len, FILE *out)
{
	if (*used + len > cap) {
		fwrite(buf, 1, *used, out);
		*used = 0;
	}
	return buf + *used;
}

#define OM_TS_LEN	24	/* "1764477551.123" and its length byte */

int
export_om_write(struct export_om *x, FILE *out, char *why, size_t size)
{
	const struct metric_set *m = x->m;
	uint8_t *seg = NULL;
	char *buf = NULL, *ts = NULL, name[512], *p;
	size_t cap = 1u << 16, used = 0;
	int r = 0, name_len;

	if ((r = om_flush(x, why, size)) < 0)
		return r;
	if (!(seg = malloc(x->R * VARINT_MAX)) || !(buf = malloc(cap)) ||
	    !(ts = malloc(x->n_rows * OM_TS_LEN + 1))) {
		snprintf(why, size, "out of memory");
		r = -ENOMEM;
		goto out;
	}
	/* Seconds with milliseconds, as OpenMetrics timestamps are; each is
	 * written once per series, so formatted once. */
	for (size_t i = 0; i < x->n_rows; i++)
		ts[i * OM_TS_LEN] = (char)metrics_format_value(x->ts[i], 3, ts + i * OM_TS_LEN + 1);
	for (int f = 0; f < metrics_n_families(m); f++) {
		const struct metric_family *fa = metrics_family(m, f);
		int hl = metrics_format_header(m, f, METRICS_OPENMETRICS, name, sizeof(name));

		if (hl < 0 || (size_t)hl >= sizeof(name))
			hl = 0;

		p = om_room(buf, cap, &used, (size_t)hl, out);
		memcpy(p, name, (size_t)hl);
		used += (size_t)hl;
		for (int s = fa->first; s < fa->first + fa->n; s++) {
			if (metrics_series(m, s)->where & METRIC_ONLY_CSV)
				continue;
			name_len = metrics_format_name(m, s, name, sizeof(name));
			if (name_len <= 0 || (size_t)name_len >= sizeof(name))
				continue;
			for (size_t b = 0; b < x->n_blocks; b++) {
				struct om_seg sg = x->idx[b * (size_t)x->S + (size_t)s];
				size_t rows = b + 1 < x->n_blocks ? x->R : x->n_rows - b * x->R, at = 0;
				int64_t v = 0;
				ssize_t n = pread(x->fd, seg, sg.len, sg.off);

				if (n != (ssize_t)sg.len) {
					snprintf(why, size, "temporary file: %s",
						 n < 0 ? strerror(errno) : "short read");
					r = -EIO;
					goto out;
				}
				for (size_t row = 0; row < rows && at < sg.len; row++) {
					const char *t = ts + (b * x->R + row) * OM_TS_LEN;
					uint64_t z;
					size_t k = varint_get_bounded(seg + at, seg + sg.len, &z);

					if (k == 0)
						break;
					at += k;
					if (z == 0)
						continue;
					v = (int64_t)((uint64_t)v + (uint64_t)unzigzag(z - 1));
					/* name{labels} value timestamp */
					p = om_room(buf, cap, &used, (size_t)name_len + 1 +
						    OPENMETRICS_VALUE_MAX + OM_TS_LEN, out);
					used += openmetrics_put_sample(p, name, (size_t)name_len,
						v, metrics_series(m, s)->decimals, t + 1, (size_t)t[0]);
				}
			}
		}
	}
	p = om_room(buf, cap, &used, strlen(OPENMETRICS_EOF), out);
	memcpy(p, OPENMETRICS_EOF, strlen(OPENMETRICS_EOF));
	fwrite(buf, 1, used + strlen(OPENMETRICS_EOF), out);
	if (fflush(out) != 0 || ferror(out)) {
		snprintf(why, size, "writing the output: %s", strerror(errno));
		r = -EIO;
	}
out:
	free(seg);
	free(buf);
	free(ts);
	return r;
}
