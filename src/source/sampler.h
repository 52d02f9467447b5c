/* The kernel files of one proc root, held open and read each tick into a
 * sample: the only code that turns /proc files into struct sample. */
#ifndef PAGETOP_SAMPLER_H
#define PAGETOP_SAMPLER_H

#include "model/sample.h"
#include "source/procfs.h"

/* The open files of one proc root. */
struct sampler {
	struct procfs fs;
	struct procfs_file files[SRC_FILE_COUNT];
};

/* 0, or -errno when root is not a readable directory. */
int sampler_init(struct sampler *sp, const char *root);
void sampler_free(struct sampler *sp);
/* Reads the files in the mask into s; the others, and the sources that
 * are not files, are marked SRC_NOT_READ. Never fails as a whole: each
 * source has its status. */
void sampler_read(struct sampler *sp, struct sample *s, unsigned mask);

#endif
