/*
 * libzstd for the pagetop binary alone, without linking it: only what
 * reads or writes a recording needs it, and a live dashboard, snapshot
 * and mark never do. Linked, it was mapped and relocated at every start:
 * 92 KB of the live dashboard's resident memory, which htop's has not.
 *
 * The first call of any function here dlopen()s it and resolves all of
 * them, once (pthread_once: the recorder's writer thread may be first);
 * if that fails, the contexts are not made (NULL) and zstd_dl_why() says
 * why, for recfile's one line. The prototypes are <zstd.h>'s, so a
 * definition here that does not match does not build, and a call to one
 * not here does not link. Tests link libzstd (zstd-linked.c).
 */
#include "config.h"

#include "ptrec/zstd-dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

/* X(return type, name, value when not loaded, parameters, arguments):
 * what src/ptrec calls of libzstd. */
#define ZSTD_DL_FUNCTIONS(X)						\
	X(ZSTD_CCtx *, ZSTD_createCCtx, NULL, (void), ())		\
	X(size_t, ZSTD_freeCCtx, 0, (ZSTD_CCtx *c), (c))		\
	X(size_t, ZSTD_CCtx_setParameter, ZSTD_DL_ERROR,		\
	    (ZSTD_CCtx *c, ZSTD_cParameter p, int v), (c, p, v))	\
	X(size_t, ZSTD_CCtx_reset, ZSTD_DL_ERROR,			\
	    (ZSTD_CCtx *c, ZSTD_ResetDirective r), (c, r))		\
	X(size_t, ZSTD_compressStream2, ZSTD_DL_ERROR,			\
	    (ZSTD_CCtx *c, ZSTD_outBuffer *o, ZSTD_inBuffer *i, ZSTD_EndDirective e), \
	    (c, o, i, e))						\
	X(size_t, ZSTD_CStreamOutSize, 0, (void), ())			\
	X(ZSTD_DCtx *, ZSTD_createDCtx, NULL, (void), ())		\
	X(size_t, ZSTD_freeDCtx, 0, (ZSTD_DCtx *d), (d))		\
	X(size_t, ZSTD_DCtx_setParameter, ZSTD_DL_ERROR,		\
	    (ZSTD_DCtx *d, ZSTD_dParameter p, int v), (d, p, v))	\
	X(size_t, ZSTD_DCtx_reset, ZSTD_DL_ERROR,			\
	    (ZSTD_DCtx *d, ZSTD_ResetDirective r), (d, r))		\
	X(size_t, ZSTD_decompressStream, ZSTD_DL_ERROR,			\
	    (ZSTD_DCtx *d, ZSTD_outBuffer *o, ZSTD_inBuffer *i), (d, o, i)) \
	X(unsigned long long, ZSTD_getFrameContentSize, ZSTD_CONTENTSIZE_ERROR, \
	    (const void *s, size_t n), (s, n))				\
	X(unsigned, ZSTD_isError, 1, (size_t r), (r))			\
	X(const char *, ZSTD_getErrorName, "libzstd not loaded", (size_t r), (r))

/* What a size_t call returns unloaded: an error, as ZSTD_isError() says. */
#define ZSTD_DL_ERROR	((size_t)-1)

static struct zstd_dl_fns {
#define X(ret, fn, fail, params, args)	ret (*fn) params;
	ZSTD_DL_FUNCTIONS(X)
#undef X
} zstd_dl;

static const struct {
	const char *name;
	size_t off;
} zstd_dl_syms[] = {
#define X(ret, fn, fail, params, args)	{ #fn, offsetof(struct zstd_dl_fns, fn) },
	ZSTD_DL_FUNCTIONS(X)
#undef X
};

static pthread_once_t zstd_dl_once = PTHREAD_ONCE_INIT;
static char zstd_dl_error[256];

static void
zstd_dl_load(void)
{
	struct zstd_dl_fns fns;
	void *h, *p;
	size_t i;

	if (!(h = dlopen(ZSTD_SONAME, RTLD_NOW | RTLD_LOCAL)))
		goto fail;
	for (i = 0; i < sizeof(zstd_dl_syms) / sizeof(zstd_dl_syms[0]); i++) {
		if (!(p = dlsym(h, zstd_dl_syms[i].name)))
			goto fail;
		memcpy((char *)&fns + zstd_dl_syms[i].off, &p, sizeof(p));
	}
	zstd_dl = fns;	/* all or none */
	return;
fail:
	snprintf(zstd_dl_error, sizeof(zstd_dl_error), "cannot load %s to read or write "
		 "recordings: %s", ZSTD_SONAME, dlerror());
	if (h)
		dlclose(h);
}

const char *
zstd_dl_why(void)
{
	pthread_once(&zstd_dl_once, zstd_dl_load);
	return zstd_dl_error[0] ? zstd_dl_error : NULL;
}

/* Defines libzstd's fn, forwarding to it; unloaded, fail. */
#define X(ret, fn, fail, params, args)					\
ret									\
fn params								\
{									\
	pthread_once(&zstd_dl_once, zstd_dl_load);			\
	return zstd_dl.fn ? (zstd_dl.fn) args : (fail);			\
}
ZSTD_DL_FUNCTIONS(X)
#undef X
