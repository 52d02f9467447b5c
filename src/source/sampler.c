#include "source/sampler.h"
#include "util/clock.h"
#include "parse/uptime.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int
sampler_init(struct sampler *sp, const char *root)
{
	int r;

	memset(sp, 0, sizeof(*sp));
	for (int i = 0; i < SRC_FILE_COUNT; i++) {
		sp->files[i].rel = source_name(i);
		sp->files[i].fd = -1;
	}
	if ((r = procfs_init(&sp->fs, root)) < 0)
		return r;
	return 0;
}

void
sampler_free(struct sampler *sp)
{
	for (int i = 0; i < SRC_FILE_COUNT; i++)
		procfs_close_file(&sp->files[i]);
	procfs_free(&sp->fs);
}

static int
parse_source(enum source src, const char *buf, size_t len, struct sample *s,
	     struct parse_error *err)
{
	switch (src) {
	case SRC_BUDDYINFO:
		return buddyinfo_parse(buf, len, &s->buddy, err);
	case SRC_PAGETYPEINFO:
		return pagetypeinfo_parse(buf, len, &s->pti, err);
	case SRC_VMSTAT:
		return vmstat_parse(buf, len, &s->vm, err);
	case SRC_MEMINFO:
		return meminfo_parse(buf, len, &s->mem, err);
	case SRC_ZONEINFO:
		return zoneinfo_parse(buf, len, &s->zi, err);
	case SRC_PSI_CPU:
	case SRC_PSI_MEMORY:
	case SRC_PSI_IO:
	case SRC_PSI_IRQ:
		return psi_parse(buf, len, &s->psi[src - SRC_PSI_CPU], err);
	case SRC_UPTIME:
		return uptime_parse(buf, len, &s->uptime, err);
	case SRC_TASKS:
	case SRC_COUNT:
		break;
	}
	return -EINVAL;
}

void
sampler_read(struct sampler *sp, struct sample *s, unsigned mask)
{
	s->wall = clock_seconds(CLOCK_REALTIME);
	s->mono = clock_seconds(CLOCK_MONOTONIC);
	s->page_size = sysconf(_SC_PAGESIZE);
	for (int i = 0; i < SRC_COUNT; i++) {
		struct source_status *st = &s->status[i];
		struct parse_error perr = { 0, "" };
		ssize_t len;

		memset(st, 0, sizeof(*st));
		if (i >= SRC_FILE_COUNT || !(mask & SRC_BIT(i))) {
			st->err = SRC_NOT_READ;
			continue;
		}
		if ((len = procfs_read(&sp->fs, &sp->files[i])) < 0) {
			st->err = (int)-len;
			continue;
		}
		if (parse_source(i, sp->fs.buf, (size_t)len, s, &perr) < 0) {
			st->err = EINVAL;
			st->line = perr.line;
			snprintf(st->msg, sizeof(st->msg), "%s", perr.msg);
		}
	}
}
