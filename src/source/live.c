/*
 * The live tick. Each next() reads the kernel's files into the sample
 * (pagetypeinfo only every pti_every seconds: it takes the zone lock),
 * then the task scan, sensors and the kernel log, and hands the sample to
 * the tick. Every command that samples the running system goes through
 * here, so they all read the same sources on the same conditions. Nothing
 * is allocated after live_open().
 */
#include "source/live.h"
#include "source/host-read.h"
#include "source/kmsg-source.h"
#include "source/libsensors.h"
#include "source/marks.h"
#include "source/capture.h"
#include "source/delayacct.h"
#include "source/probes.h"
#include "source/psi-trigger.h"
#include "source/sampler.h"
#include "source/taskiter.h"
#include "source/taskscan.h"
#include "util/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct live {
	struct feed f;		/* first: the feed is the live */
	struct live_opts o;
	struct sampler sp;
	bool sp_open;
	struct sample *s;
	struct taskscan *ts;		/* NULL: no task scan (captured files) */
	struct sensors_source *sensors;	/* NULL: not this machine's */
	struct kmsg_rules *krules;
	struct kmsg_source *kmsg;	/* NULL: no kernel log */
	const char *kmsg_path;
	struct probe_source *probes;	/* NULL: not asked for, or not loaded */
	char probes_why[sizeof(((struct probes *)0)->why)];
	struct capture_source *cap;	/* captures at the event */
	struct delayacct *da;		/* NULL: not asked for, or no task scan */
	int ran[TASKSCAN_RAN_MAX];	/* the tasks that ran this tick */
	int mark_fd;
	char mark_path[256];
	struct psi_trigger trig;	/* n == 0: no bursts */
	double burst, burst_for;
	double last_pti;
	size_t ticks;
};

static struct live *
live_of(const struct feed *f)
{
	return (struct live *)f;
}

static void
live_note(struct feed *f, const char *what, int err)
{
	size_t n = strlen(f->note);

	snprintf(f->note + n, sizeof(f->note) - n, "%s%s", n ? "\n" : "", what);
	if (err == EINVAL || !f->note_err)
		f->note_err = err;
}

static int
live_next(struct feed *f)
{
	struct live *l = live_of(f);
	struct sample *s = l->s;
	unsigned mask = SRC_ALL;
	double t = clock_mono();

	/* Fast while a trigger fired within burst_for; pagetypeinfo keeps its beat. */
	psi_trigger_check(&l->trig, t);
	f->burst = l->trig.last_fire >= 0 && t - l->trig.last_fire < l->burst_for;
	f->interval_now = f->burst ? l->burst : f->interval;
	if (l->ticks > 0 && t - l->last_pti < f->pti_every - 0.001)
		mask &= ~SRC_BIT(SRC_PAGETYPEINFO);
	else
		l->last_pti = t;
	sampler_read(&l->sp, s, mask);
	if (l->sensors)
		sensors_read(l->sensors, &s->sensors);
	s->status[SRC_TASKS].err = ENOENT;
	if (l->ts) {
		taskscan_read(l->ts, s->mono, &s->tasks);
		s->status[SRC_TASKS].err = 0;
	}
	/* Delay accounting of the tasks the scan saw run. */
	if (l->da && l->ts) {
		size_t n = taskscan_ran(l->ts, l->ran, TASKSCAN_RAN_MAX);

		delayacct_read(l->da, l->ran, n, &s->delays);
		s->delays.ran = (uint32_t)taskscan_ran_seen(l->ts);
	} else
		s->delays.state = DELAYS_NONE;
	if (l->kmsg) {
		kmsg_source_read(l->kmsg, &s->kmsg);
		if (l->o.once && l->o.kmsg)
			kmsg_source_flush(l->kmsg, &s->kmsg);
	}
	if (l->probes)
		probes_read(l->probes, &s->probes);
	else if (l->probes_why[0])
		probes_unavailable(&s->probes, l->probes_why);
	else
		s->probes.state = PROBES_NONE;
	/* After the kernel log and the probes: either may ask for a capture. */
	capture_source_run(l->cap, s);
	tick_update(&f->tick);
	f->at = l->ticks++;
	return 0;
}

static int
live_seek(struct feed *f, size_t i)
{
	(void)f;
	(void)i;
	return -ENOTSUP;
}

static size_t
live_count(const struct feed *f)
{
	return live_of(f)->ticks;
}

/* Live, only the sample in hand has a time. */
static double
live_time_of(const struct feed *f, size_t i)
{
	return i == f->at && live_of(f)->ticks ? f->tick.s->wall : NAN;
}

static size_t
live_find(const struct feed *f, double t)
{
	(void)t;
	return f->at;
}

static int
live_poll_fds(const struct feed *f, struct pollfd *p, int max)
{
	const struct live *l = live_of(f);
	int n = 0;

	if (l->mark_fd >= 0 && max > 0)
		p[n++] = (struct pollfd){ .fd = l->mark_fd, .events = POLLIN };
	return n + psi_trigger_pollfds(&l->trig, p + n, max - n);
}

static bool
live_poll_ready(struct feed *f, int fd, short revents)
{
	return psi_trigger_take(&live_of(f)->trig, fd, revents, clock_mono());
}

static int
live_mark_receive(struct feed *f, char *text, size_t size)
{
	return marks_receive(live_of(f)->mark_fd, text, size);
}

static void
live_marks_taken(struct feed *f, bool on)
{
	struct live *l = live_of(f);

	if (l->mark_fd >= 0)
		marks_taking(l->mark_path, on);
}

static void
live_close(struct feed *f)
{
	struct live *l = live_of(f);

	marks_close(l->mark_fd, l->mark_path);
	psi_trigger_close(&l->trig);
	probes_close(l->probes);
	delayacct_close(l->da);
	capture_source_close(l->cap);
	if (l->ts)
		taskscan_free(l->ts);
	if (l->sensors)
		sensors_close(l->sensors);
	kmsg_source_close(l->kmsg);
	free(l->krules);
	tick_free(&f->tick);
	free(l->s);
	if (l->sp_open)
		sampler_free(&l->sp);
	free(l);
}

static const struct feed_ops live_ops = {
	.next = live_next,
	.seek = live_seek,
	.count = live_count,
	.time_of = live_time_of,
	.find = live_find,
	.poll_fds = live_poll_fds,
	.poll_ready = live_poll_ready,
	.mark_receive = live_mark_receive,
	.marks_taken = live_marks_taken,
	.close = live_close,
};

struct feed *
live_open(const struct live_opts *o, char *why, size_t size)
{
	struct live *l = calloc(1, sizeof(*l));
	struct taskiter *it = NULL;
	char what[512], iwhy[96] = "--no-probes";
	int r;

	if (!l) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	l->o = *o;
	l->mark_fd = -1;
	l->trig = (struct psi_trigger){ .fd = { -1, -1 }, .last_fire = -1 };
	l->f.ops = &live_ops;
	l->f.live = true;
	l->f.interval = l->f.interval_now = o->interval;
	l->f.pti_every = o->pti_every > 0 ? o->pti_every : LIVE_PTI_EVERY;
	if ((r = sampler_init(&l->sp, o->root)) < 0) {
		snprintf(why, size, "%s: %s", o->root, strerror(-r));
		free(l);
		return NULL;
	}
	l->sp_open = true;
	host_read(&l->f.host, o->root);
	if (!(l->s = calloc(1, sizeof(*l->s))))
		goto nomem;
	if ((r = tick_init(&l->f.tick, what, sizeof(what))) == -ENOMEM)
		goto nomem;
	/* A malformed table is bad input; a missing one, a broken install
	 * that leaves tasks explained by their first frame. */
	if (r < 0)
		live_note(&l->f, what, -r);
	l->f.tick.s = l->s;
	if (!(l->cap = capture_source_open(&l->sp.fs)))
		goto nomem;
	/* The kernel probes belong to this machine too; without them the
	 * sample says why and everything else goes on. */
	if (!o->no_probes && l->sp.fs.is_procfs) {
		struct probes_opts po = { .dsleep_min_ns = o->dsleep_min_ns };

		if (!(l->probes = probes_open(&po, l->probes_why, sizeof(l->probes_why))) &&
		    !l->probes_why[0])
			snprintf(l->probes_why, sizeof(l->probes_why), "not loaded");
	} else if (o->no_probes)
		snprintf(l->probes_why, sizeof(l->probes_why), "off (--no-probes)");
	/* The task iterator loads, or not, apart from the probes; the
	 * scan owns it, and reads /proc without it. Both load in a fork
	 * (bpf-child.c), made here before the scan's worker thread starts:
	 * a fork copies no other thread, and a lock one held would stay
	 * held in the child. */
	if (!o->no_probes && l->sp.fs.is_procfs)
		it = taskiter_open(iwhy, sizeof(iwhy));
	if (l->probes)
		probes_name_by_kernel(l->probes);
	/* Tasks, sensors and the kernel log belong to this machine: a tree
	 * of captured files has none (--kmsg names a log anyway). */
	if (l->sp.fs.is_procfs) {
		if (!(l->ts = taskscan_new(o->root)) || !(l->sensors = sensors_open()))
			goto nomem;
	}
	if (o->kmsg || l->sp.fs.is_procfs) {
		l->kmsg_path = o->kmsg ? o->kmsg : KMSG_DEVICE;
		if (!(l->krules = calloc(1, sizeof(*l->krules))))
			goto nomem;
		if ((r = kmsg_rules_load_installed(l->krules, what, sizeof(what))) < 0)
			live_note(&l->f, what, -r);
		if (!(l->kmsg = kmsg_source_open(l->kmsg_path, l->krules)))
			goto nomem;
	}
	if (l->ts)
		taskscan_set_iter(l->ts, it, iwhy);
	else if (it)
		taskiter_close(it);
	it = NULL;	/* the scan's now */
	/* Delay accounting needs the scan's list of the tasks that ran; what
	 * stops it (not root, the sysctl off) is said in each sample. */
	if (!o->no_delayacct && l->ts && l->sp.fs.is_procfs) {
		if (!(l->da = delayacct_open(what, sizeof(what))))
			live_note(&l->f, what, ENOMEM);
	}
	/* PSI triggers for bursts of fast samples, on this machine's
	 * pressure files (a tree of captured files has none); without them
	 * the header says why and the interval stays. */
	l->burst = o->burst > 0 ? o->burst : LIVE_BURST;
	l->burst_for = o->burst_for > 0 ? o->burst_for : LIVE_BURST_FOR;
	if (!o->no_burst && !o->once && l->burst < o->interval &&
	    (l->sp.fs.is_procfs || getenv("PAGETOP_PSI_TRIGGER")) &&
	    psi_trigger_open(&l->trig, o->root, o->burst_trigger, l->f.burst_why,
			     sizeof(l->f.burst_why)) < 0 &&
	    !l->f.burst_why[0])
		snprintf(l->f.burst_why, sizeof(l->f.burst_why), "no trigger");
	/* `pagetop mark` reaches every feed that takes marks; without the
	 * socket, sampling goes on with no marks from scripts. */
	if (o->marks &&
	    (l->mark_fd = marks_listen(l->mark_path, sizeof(l->mark_path), what, sizeof(what))) < 0) {
		char line[600];

		snprintf(line, sizeof(line), "marks: %s", what);
		live_note(&l->f, line, EAGAIN);
	}
	return &l->f;
nomem:
	snprintf(why, size, "out of memory");
	if (it)
		taskiter_close(it);
	live_close(&l->f);
	return NULL;
}

uint32_t
live_kmsg_bad(const struct feed *f, const char **first)
{
	const struct live *l = live_of(f);

	*first = "";
	return l->kmsg ? kmsg_source_bad(l->kmsg, first) : 0;
}

const char *
live_kmsg_path(const struct feed *f)
{
	return live_of(f)->kmsg_path;
}
