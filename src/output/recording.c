#include "output/recording.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/sample-copy.h"
#include "ptrec/codec.h"
#include "config.h"

#define RECORDING_BUF	(2u << 20)	/* a whole sample with 256 stacks fits */
/* A keyframe (a whole sample) every 300 samples, 5 minutes at 1 s:
 * keyframes are most of a recording's size, and a seek decodes at most
 * this many samples (bench/replay.sh, session 8: 1.07 ms at 300 against
 * 0.38 at 150, #16 asks at most 2; 150 cost 3% more bytes, 100 9%).
 * Damage loses the samples up to the next keyframe. */
#define RECORDING_KEYFRAME_EVERY 300

void
recording_default_path(const struct host *h, char *dst, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	char when[32];

	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", localtime_r(&t, &tm));
	/* A proc root without sys/kernel/hostname names its host "?": not in a file name. */
	snprintf(dst, size, "pagetop-%s-%s.ptrec",
		 h->hostname[0] && strcmp(h->hostname, "?") != 0 ? h->hostname : "host", when);
}

static void
read_boot_id(char *dst, size_t size)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, dst, size - 1);
	close(fd);
	if (n > 0) {
		dst[n] = '\0';
		dst[strcspn(dst, "\n")] = '\0';
	}
}

int
recording_start(struct recording *r, const char *path, const struct host *h,
		const struct sample *s, double interval, const char *cmdline,
		const struct recorder_opts *o, char *why, size_t size)
{
	struct rec_header hd;
	uint64_t v;
	int nodes = 0;

	memset(r, 0, sizeof(*r));
	rec_header_init(&hd);
	snprintf(hd.hostname, sizeof(hd.hostname), "%s", h->hostname);
	snprintf(hd.release, sizeof(hd.release), "%s", h->release);
	snprintf(hd.machine, sizeof(hd.machine), "%s", h->machine);
	snprintf(hd.version, sizeof(hd.version), "%s", PACKAGE_VERSION);
	snprintf(hd.cmdline, sizeof(hd.cmdline), "%s", cmdline);
	read_boot_id(hd.boot_id, sizeof(hd.boot_id));
	hd.page_size = h->page_size;
	hd.cpus = h->ncpus;
	hd.interval = interval;
	hd.start = s->wall;
	if (sample_has(s, SRC_PAGETYPEINFO))
		hd.pageblock_order = s->pti.pageblock_order;
	if (sample_has(s, SRC_MEMINFO) && meminfo_get(&s->mem, "MemTotal", &v))
		hd.mem_kb = (int64_t)v;
	for (int z = 0; sample_has(s, SRC_BUDDYINFO) && z < s->buddy.n_zones; z++)
		if (s->buddy.zones[z].node + 1 > nodes)
			nodes = s->buddy.zones[z].node + 1;
	if (nodes)
		hd.nodes = nodes;
	if (!(r->prev = calloc(1, sizeof(*r->prev))) || !(r->buf = malloc(RECORDING_BUF))) {
		snprintf(why, size, "%s: out of memory", path);
		goto fail;
	}
	r->cap = RECORDING_BUF;
	{
		struct recorder_opts ro = *o;
		int fd = strcmp(path, "-") == 0 ? dup(STDOUT_FILENO) : -1;

		if (ro.keyframe_every <= 0)
			ro.keyframe_every = RECORDING_KEYFRAME_EVERY;
		/* "-" is standard output, and a FIFO is written as it is
		 * (recorder_start decides on what it opened), for
		 * `pagetop record -o - | ssh box 'cat > file'`. */
		if (fd < 0 && strcmp(path, "-") == 0) {
			snprintf(why, size, "standard output: %s", strerror(errno));
			goto fail;
		}
		if (fd >= 0 ? !(r->rec = recorder_start_fd(fd, path, &hd, &ro, why, size)) :
		    !(r->rec = recorder_start(path, &hd, &ro, why, size)))
			goto fail;
	}
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->key_next = true;
	return 0;
fail:
	free(r->prev);
	free(r->buf);
	memset(r, 0, sizeof(*r));
	return -EIO;
}

bool
recording_active(const struct recording *r)
{
	return r->rec != NULL;
}

void
recording_push(struct recording *r, const struct sample *s)
{
	ssize_t len;

	if (!r->rec)
		return;
	len = codec_encode(s, r->key_next ? NULL : r->prev, r->buf, r->cap);
	if (len < 0)
		return;		/* cannot happen within the caps; nothing to record */
	r->key_next = recorder_push(r->rec, s->wall, r->key_next, r->buf, (size_t)len);
	sample_copy(r->prev, s);	/* only the pages s has written */
}

void
recording_mark(struct recording *r, double wall, const char *text)
{
	if (r->rec)
		recorder_mark(r->rec, wall, text);
}

void
recording_status(struct recording *r, struct recorder_status *st)
{
	memset(st, 0, sizeof(*st));
	if (r->rec)
		recorder_status(r->rec, st);
}

int
recording_stop(struct recording *r, char *why, size_t size)
{
	return recording_finish(r, NULL, why, size);
}

int
recording_finish(struct recording *r, struct recorder_status *final, char *why,
    size_t size)
{
	int ret = 0;

	if (final != NULL)
		memset(final, 0, sizeof(*final));
	if (r->rec)
		ret = recorder_finish(r->rec, final, why, size);
	free(r->prev);
	free(r->buf);
	memset(r, 0, sizeof(*r));
	return ret;
}
