/*
 * Why libzstd could not be loaded: the binary loads it when it first
 * reads or writes a recording (zstd-dl.c), so a live dashboard, snapshot
 * and mark never map it; the tests link it (zstd-linked.c).
 */
#ifndef PAGETOP_ZSTD_DL_H
#define PAGETOP_ZSTD_DL_H

/* "cannot load libzstd.so.1: ..." once a load failed; else NULL. */
const char *zstd_dl_why(void);

#endif
