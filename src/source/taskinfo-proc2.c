/*
 * A blocked task's command line and user through libproc2, for the /proc
 * scan (taskinfo.c says why it is loaded with dlopen(), and when). Only
 * the worker calls these: libproc2's pids_info and its user-name cache
 * are not shared.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libproc2/pids.h>

#include "source/taskinfo-int.h"

/* What libproc2 is asked for, in this order (see PIDS_VAL in taskinfo_proc2_read). Without
 * PIDS_CMD, an empty command line comes back as "[(null)]". */
enum { ITEM_PID, ITEM_CMDLINE, ITEM_EUSER, ITEM_CMD };
static enum pids_item pids_items[] = {
	PIDS_ID_PID, PIDS_CMDLINE, PIDS_ID_EUSER, PIDS_CMD
};

/* The libproc2 calls we make, set once by proc2_load(). */
static struct {
	int (*pids_new)(struct pids_info **info, enum pids_item *items, int numitems);
	struct pids_fetch *(*pids_select)(struct pids_info *info, unsigned *these,
					  int numthese, enum pids_select_type which);
	int (*pids_unref)(struct pids_info **info);
} proc2;
static pthread_once_t proc2_once = PTHREAD_ONCE_INIT;
static bool proc2_loaded;

static void
proc2_load(void)
{
	void *dl = dlopen(PROC2_SONAME, RTLD_NOW | RTLD_LOCAL);
	void *a, *b, *c;

	if (dl == NULL)
		return;
	a = dlsym(dl, "procps_pids_new");
	b = dlsym(dl, "procps_pids_select");
	c = dlsym(dl, "procps_pids_unref");
	if (a == NULL || b == NULL || c == NULL) {
		dlclose(dl);
		return;
	}
	/* POSIX guarantees a function pointer survives this round trip. */
	memcpy(&proc2.pids_new, &a, sizeof(a));
	memcpy(&proc2.pids_select, &b, sizeof(b));
	memcpy(&proc2.pids_unref, &c, sizeof(c));
	proc2_loaded = true;	/* and never unloaded */
}

/* On the worker: libproc2 set up, once; ti->pids stays NULL if it cannot. */
void
taskinfo_proc2_setup(struct taskinfo *ti)
{
	static pthread_mutex_t setup = PTHREAD_MUTEX_INITIALIZER;

	ti->pids_tried = true;
	pthread_once(&proc2_once, proc2_load);
	if (!proc2_loaded)
		return;
	/* Its first use sets up globals: two workers at once (two scanners,
	 * as in the tests) must not race there. */
	pthread_mutex_lock(&setup);
	if (proc2.pids_new(&ti->pids, pids_items,
	    (int)(sizeof(pids_items) / sizeof(pids_items[0]))) < 0)
		ti->pids = NULL;
	pthread_mutex_unlock(&setup);
}

/* Through libproc2: an empty command line (a zombie) comes back as
 * "[comm]". */
void
taskinfo_proc2_read(struct taskinfo *ti, int tgid)
{
	struct pids_fetch *f;
	struct pids_stack *s;
	const char *str;
	unsigned pid = (unsigned)tgid;

	f = proc2.pids_select(ti->pids, &pid, 1, PIDS_SELECT_PID);
	if (f == NULL || f->counts->total < 1)
		return;
	s = f->stacks[0];
	if ((str = PIDS_VAL(ITEM_CMDLINE, str, s, ti->pids)) != NULL)
		snprintf(ti->cmdline, sizeof(ti->cmdline), "%s", str);
	if ((str = PIDS_VAL(ITEM_EUSER, str, s, ti->pids)) != NULL)
		snprintf(ti->user, sizeof(ti->user), "%s", str);
}

void
taskinfo_proc2_free(struct taskinfo *ti)
{
	if (ti->pids != NULL)
		proc2.pids_unref(&ti->pids);
}
