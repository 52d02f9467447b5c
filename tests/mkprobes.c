/*
 * mkprobes IN OUT [unavailable]: the samples of recording IN written again
 * to OUT with kernel probes data, for tests and for the screens without
 * root: growing histograms of direct, memcg and compaction stalls,
 * throttling, migratetype fallbacks, kswapd and kcompactd, writes from
 * reclaim, D sleeps; a few stalled tasks and D stacks (vfork,
 * jbd2_log_wait_commit, a read) a tick. The probes reattach (a new epoch,
 * every figure from 0) at sample 30. With "unavailable" every sample says
 * the probes could not load, and why. Deterministic: the same IN gives
 * the same OUT (tests/fixtures/recordings/format-2.2.ptrec is
 * mkprobes format-2.1.ptrec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/probes.h"
#include "ptrec/codec.h"
#include "ptrec/recfile.h"

#define REATTACH	30

static const char *const vfork_stack[] = {
	"__schedule", "schedule", "wait_for_vfork_done", "kernel_clone",
	"__x64_sys_vfork", "do_syscall_64", "entry_SYSCALL_64_after_hwframe",
};
static const char *const jbd2_stack[] = {
	"__schedule", "schedule", "jbd2_log_wait_commit", "ext4_sync_file",
	"vfs_fsync_range", "do_fsync", "__x64_sys_fsync", "do_syscall_64",
	"entry_SYSCALL_64_after_hwframe",
};
static const char *const read_stack[] = {
	"__schedule", "schedule", "io_schedule", "folio_wait_bit_common",
	"filemap_get_pages", "filemap_read", "vfs_read", "ksys_read",
	"do_syscall_64", "entry_SYSCALL_64_after_hwframe",
};

static void
hist_add(struct probe_hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	h->bucket[probe_bucket_of(ns)]++;
}

static void
stall_add(struct probes *p, enum probe_stall_kind k, int order, uint64_t ns,
    uint64_t reclaimed)
{
	struct probe_stall *s = &p->stall[k];

	hist_add(&s->lat, ns);
	s->order_count[order]++;
	s->order_ns[order] += ns;
	s->reclaimed += reclaimed;
	if (ns > s->tick_max_ns)
		s->tick_max_ns = ns;
}

static void
task_add(struct probes *p, int32_t tid, const char *comm,
    enum probe_stall_kind k, uint64_t ns)
{
	struct probe_task *t;
	int i;

	for (i = 0; i < p->n_tasks; i++)
		if (p->task[i].tid == tid)
			break;
	if (i == p->n_tasks) {
		if (p->n_tasks == PROBE_TOP_TASKS)
			return;
		t = &p->task[p->n_tasks++];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	}
	t = &p->task[i];
	t->kinds |= (uint8_t)(1u << k);
	t->count++;
	t->total_ns += ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
}

static void
dstack_add(struct probes *p, const char *const *f, int n, uint32_t count,
    uint64_t each_ns, int32_t tid, const char *comm)
{
	struct probe_dstack *d;
	uint32_t j;
	int i;

	if (p->n_dstacks == PROBE_TOP_STACKS || count == 0)
		return;
	d = &p->dstack[p->n_dstacks++];
	memset(d, 0, sizeof(*d));
	d->stack.n = n < PROBE_STACK_FRAMES ? n : PROBE_STACK_FRAMES;
	for (i = 0; i < d->stack.n; i++)
		snprintf(d->stack.func[i], sizeof(d->stack.func[i]), "%s", f[i]);
	d->last_tid = tid;
	snprintf(d->last_comm, sizeof(d->last_comm), "%s", comm);
	for (j = 0; j < count; j++) {
		uint64_t ns = each_ns + j * 1000000ull;

		d->count++;
		d->total_ns += ns;
		if (ns > d->max_ns)
			d->max_ns = ns;
		hist_add(&p->dsleep, ns);
	}
}

/* Sample i's probes, from the previous sample's p: the figures grow. */
static void
tick(struct probes *p, int i)
{
	int j, t = i >= REATTACH ? i - REATTACH : i;

	if (i == REATTACH || i == 0) {
		memset(p, 0, sizeof(*p));
		p->state = PROBES_ON;
		p->attached = (1u << PROBE_ID_COUNT) - 1;
		p->attached &= ~(1u << PROBE_COMPACT_DEFER);
		p->missing = 1u << PROBE_COMPACT_DEFER;
		snprintf(p->why, sizeof(p->why), "compaction deferrals: "
		    "compaction:mm_compaction_deferred not in this kernel");
		p->epoch = 5000000000ull + (uint64_t)i * 1000000000ull;
		p->dsleep_min_ns = 1000000;
	}
	for (j = 0; j < STALL_KIND_COUNT; j++)
		p->stall[j].tick_max_ns = 0;
	p->n_tasks = 0;
	p->n_dstacks = 0;

	/* Direct reclaim: more as the pressure builds, a few long ones. */
	for (j = 0; j < 3 + t % 7; j++) {
		uint64_t ns = 20000ull * (uint64_t)(1 + (j * 37 + t * 11) % 50);

		if (j == 2 && t % 5 == 4)
			ns = 180000000ull;	/* one stalls 180 ms */
		stall_add(p, STALL_DIRECT, j % 3 == 2 ? 2 : 0, ns, 32);
		task_add(p, j % 2 ? 4243 : 4242,
		    j % 2 ? "stress-ng-vm" : "stress-ng-vm", STALL_DIRECT, ns);
	}
	for (j = 0; j < t % 3; j++) {
		stall_add(p, STALL_MEMCG, 0, 400000ull + 100000ull * j, 16);
		task_add(p, 5151, "cc1", STALL_MEMCG,
		    400000ull + 100000ull * j);
	}
	for (j = 0; j < 1 + t % 4; j++) {
		uint64_t ns = 150000ull * (uint64_t)(1 + j);
		enum probe_compact_result r = j == 0 ? COMPACT_R_SUCCESS :
		    j == 1 ? COMPACT_R_PARTIAL_SKIPPED : COMPACT_R_COMPLETE;

		stall_add(p, STALL_COMPACT, 9, ns, 0);
		task_add(p, 4244, "khugepaged", STALL_COMPACT, ns);
		p->compact_result[r]++;
		hist_add(&p->compact_lat[r], ns);
		p->compact_try[9]++;
	}
	if (t % 4 == 1) {
		p->compact_result[COMPACT_R_DEFERRED]++;
		hist_add(&p->compact_lat[COMPACT_R_DEFERRED], 3000);
	}

	p->throttle_count[THROTTLE_WRITEBACK] += (uint64_t)(t % 3);
	p->throttle_us[THROTTLE_WRITEBACK] += (uint64_t)(t % 3) * 100000;
	if (t % 6 == 5) {
		p->throttle_count[THROTTLE_NOPROGRESS]++;
		p->throttle_us[THROTTLE_NOPROGRESS] += 20000;
	}

	/* Fallbacks: movable (1) asked, unmovable (0) or reclaimable (2)
	 * taken, and the other way; some fragmenting, some stealing. */
	p->fallback[0][0][1] += 5 + (uint64_t)(t % 4);
	p->fallback[0][1][0] += 2;
	p->fallback[3][2][1] += (uint64_t)(t % 2);
	p->fallback[9][1][0] += t % 10 == 3 ? 1 : 0;
	p->fallback_fragmenting[0] += 6;
	p->fallback_fragmenting[3] += (uint64_t)(t % 2);
	p->fallback_owner[0] += 1;
	p->fallback_owner[9] += t % 10 == 3 ? 1 : 0;

	p->kswapd_wakes[0] += 1 + (uint64_t)(t % 2);
	p->kswapd_wake_order[0] += 1;
	p->kswapd_wake_order[2] += (uint64_t)(t % 2);
	p->kswapd_awake_ns[0] += 250000000ull + 1000000ull * (uint64_t)t;
	p->kcompactd_wakes[0] += (uint64_t)(t % 3 == 0);
	p->kcompactd_wake_order[9] += (uint64_t)(t % 3 == 0);
	p->kcompactd_awake_ns[0] += t % 3 == 0 ? 40000000ull : 0;
	p->reclaim_writes += (uint64_t)(t % 4) * 8;

	dstack_add(p, vfork_stack, 7, (uint32_t)(i % 2 ? 2 : 1),
	    200000000ull, 6001, "vfork-helper");
	dstack_add(p, jbd2_stack, 9, (uint32_t)(t % 3), 30000000ull, 6100,
	    "git");
	dstack_add(p, read_stack, 10, (uint32_t)(t % 2 ? 3 : 0), 2000000ull,
	    6200, "cat");
	p->dsleep_lost += t == 12 ? 1 : 0;
}

int
main(int argc, char **argv)
{
	static uint8_t buf[1 << 20];
	struct rec_reader *r;
	struct rec_writer *w;
	struct rec_header h;
	struct sample *s, *prev, *tmp;
	struct parse_error err;
	struct probes pr;
	const uint8_t *b;
	char why[300];
	size_t i, len;
	bool key, unavailable;

	if (argc < 3 || argc > 4 ||
	    (argc == 4 && strcmp(argv[3], "unavailable") != 0)) {
		fprintf(stderr, "usage: mkprobes IN OUT [unavailable]\n");
		return 2;
	}
	unavailable = argc == 4;
	if (!(r = rec_reader_open(argv[1], why, sizeof(why)))) {
		fprintf(stderr, "mkprobes: %s\n", why);
		return 1;
	}
	h = *rec_reader_header(r);
	s = calloc(1, sizeof(*s));
	prev = calloc(1, sizeof(*prev));
	if (!s || !prev || !(w = rec_writer_open(argv[2], &h, why, sizeof(why)))) {
		fprintf(stderr, "mkprobes: %s: %s\n", argv[2], s && prev ? why : "out of memory");
		return 1;
	}
	memset(&pr, 0, sizeof(pr));
	for (i = 0; i < rec_reader_count(r); i++) {
		ssize_t n;

		if (rec_reader_get(r, i, &b, &len, &key) != 0 ||
		    codec_decode(b, len, key ? NULL : prev, s, NULL, &err) != 0) {
			fprintf(stderr, "mkprobes: %s: sample %zu: %s\n", argv[1], i,
				err.msg);
			return 1;
		}
		tick(&pr, (int)i);
		s->probes = pr;
		if (unavailable) {
			memset(&s->probes, 0, sizeof(s->probes));
			s->probes.state = PROBES_UNAVAILABLE;
			snprintf(s->probes.why, sizeof(s->probes.why), "not root: the "
				 "probes need CAP_BPF and CAP_PERFMON");
		}
		n = codec_encode(s, key ? NULL : prev, buf, sizeof(buf));
		if (n < 0 || rec_writer_sample(w, rec_reader_time(r, i), key, buf, (size_t)n) < 0) {
			fprintf(stderr, "mkprobes: %s: sample %zu: %s\n", argv[2], i,
				n < 0 ? "does not encode" : rec_writer_error(w));
			return 1;
		}
		tmp = prev;
		prev = s;
		s = tmp;
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		fprintf(stderr, "mkprobes: %s\n", why);
		return 1;
	}
	rec_reader_close(r);
	free(s);
	free(prev);
	return 0;
}
