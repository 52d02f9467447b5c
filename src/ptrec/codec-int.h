/*
 * What the parts of the recording codec share: the field ids, the numbers
 * that name sources, PSI resources, zoneinfo fields and sensor kinds on
 * the wire, the write and read buffers with their primitives
 * (codec-wire.c), the shape comparisons (codec-shape.c) and each source
 * family's encoder and decoder (codec-zones.c, codec-counters.c,
 * codec-tasks.c, codec-events.c), which the frame driver (codec.c) calls.
 * The format itself is specified in pagetop-recording(5), SAMPLE ENCODING;
 * every number here is part of it and never changes.
 */
#ifndef PAGETOP_CODEC_INT_H
#define PAGETOP_CODEC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptrec/codec.h"
#include "util/wire.h"

/* The field ids; tests/format-ids.sh checks them against the man page. */
enum codec_field {
	F_FRAME = 1,
	F_TIME = 2,
	F_PAGE_SIZE = 3,
	F_STATUS = 4,
	F_BUDDYINFO = 10,
	F_PAGETYPEINFO = 11,
	F_VMSTAT = 12,
	F_MEMINFO = 13,
	F_ZONEINFO = 14,
	F_PSI = 15,
	F_UPTIME = 16,
	F_SENSORS = 17,
	F_TASKS = 18,
	F_KMSG = 19,
	/* 10 to 15 and 18 again: differences in DIFFS, predictions, names */
	F_BUDDYINFO2 = 20,
	F_PAGETYPEINFO2 = 21,
	F_VMSTAT2 = 22,
	F_MEMINFO2 = 23,
	F_ZONEINFO2 = 24,
	F_PSI2 = 25,
	F_DIFFS = 26,		/* the differences of 20 to 25 and 27 */
	F_TASKS2 = 27,		/* 18 with its counts as 20 to 25 have them */
	F_BLOCKED_WHY = 28,	/* of each blocked task: why no stack, since what */
	F_PROBES = 29,		/* the kernel probes (format 2.2) */
	F_KMSG_MORE = 30,	/* of each kernel log event: times printed, device */
	F_DELAYS = 31,		/* delay accounting (format 2.2) */
	F_CAPTURE = 32,		/* a capture at an event (format 2.2) */
	F_PROBES2 = 33,		/* 29 with the D stacks against the previous sample's (2.3) */
};

#define DELTA		0x1u	/* frame and chunk flags */

/* Bits of a PSI chunk's "lines". */
#define PSI_SOME	0x1u
#define PSI_FULL	0x2u

/* The enum a number on the wire stands for, whatever the enums become
 * (codec-wire.c checks the counts). */
#define N_WIRE_SOURCES	11
#define N_WIRE_PSI	4
#define N_WIRE_ZI	9
#define N_WIRE_KINDS	4
extern const enum source codec_sources[];
extern const enum psi_resource codec_psi[];
extern const enum zoneinfo_field codec_zi[];
extern const enum sensor_kind codec_kinds[];

struct wbuf {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool full;		/* a write did not fit; len stopped there */
};

struct rbuf {
	const uint8_t *p;
	size_t len;
	size_t off;
	bool bad;		/* read past the end, or a malformed varint */
};

#include "ptrec/codec-predict.h"

/* What a stream keeps (codec.h): the rules of the last sample's vmstat
 * and meminfo delta chunks, each valid (ok) for that sample's names and
 * for the chunks that were deltas with it (zones, with_v). */
struct codec_stream {
	const struct sample *last;	/* decoded last, NULL */
	bool vp_ok, vp_zones;
	bool mp_ok, mp_with_v;
	struct predict vp, mp;
	/*
	 * The names each of the last two samples decoded holds in its vmstat
	 * and meminfo entries, past its counts too (decoding clears only the
	 * counts): a generation for each whole chunk read, 0 unknown. A delta
	 * onto a sample that holds its prev's names copies the values alone.
	 */
	struct codec_held {
		const struct sample *s;
		unsigned vm, mem;	/* generations */
		int vm_n, mem_n;	/* entries of them */
	} held[2];
	unsigned gen;
};

/* What a field decoder needs. */
struct dec {
	const struct sample *prev;	/* NULL in a keyframe */
	struct codec_stream *cs;	/* NULL: none */
	bool prev_last;			/* prev is cs->last */
	struct codec_held held_s;	/* what s held before; zero unknown */
	struct codec_held held_prev;	/* what prev holds; likewise */
	unsigned vm_gen, mem_gen;	/* what s holds after */
	struct sample *s;
	struct parse_error *err;
	struct codec_stats *st;
	unsigned chunks;		/* bit per enum source: chunk seen */
	unsigned delta_chunks;		/* of those, read as deltas */
	bool sensors;			/* SENSORS seen */
	bool blocked_why;		/* BLOCKED_WHY seen */
	/* Bit i: blocked task i's stack was not kept (its bytes did not
	 * fit, model/tasks.h); BLOCKED_WHY leaves it so. */
	uint64_t stack_lost[TASKS_MAX_BLOCKED / 64];
	bool probes;			/* PROBES seen */
	bool kmsg_more;			/* KMSG_MORE seen */
	bool delays;			/* DELAYS seen */
	bool capture;			/* CAPTURE seen */
	bool v2;			/* the field is one of 20 to 25, 27 */
	bool buddy_delta;		/* a delta buddyinfo chunk was read */
	bool zi_delta;			/* likewise zoneinfo */
	bool vm_delta;			/* likewise vmstat */
	struct rbuf diffs;		/* DIFFS, read as chunks need it */
};

/*
 * The numbers of a source chunk: each whole (u or s of the value), or in
 * a delta chunk the differences from the previous sample's. A delta chunk
 * of ids 20 to 25 and 27 has only its runs; its differences go in the DIFFS
 * field, with every other chunk's, so that zstd finds a sample's runs and
 * shapes in one piece like the sample before. An encoder goes over the
 * numbers once for the chunk and once more for DIFFS (diffs):
 *
 *	for (codec_nums_begin(&nw, w, delta, diffs); codec_nums_pass(&nw);)
 *		codec_num_u(&nw, value, base), ...
 */
struct nums {
	struct wbuf *w;
	bool delta;
	int pass;		/* 1: whole numbers or the runs; 2: differences */
	int last;		/* the last pass to make */
	uint64_t zeros;		/* unchanged numbers not yet written */
};

/*
 * The numbers of a source chunk, as nums wrote them. A delta chunk knows
 * from its shape how many there are (left), so it can tell a run of
 * unchanged numbers at the end from one followed by a difference. The
 * differences of ids 20 to 25 and 27 are read from DIFFS (diffs).
 */
struct numr {
	struct rbuf *r;
	bool delta;
	uint64_t left;		/* numbers not yet read */
	uint64_t zeros;		/* unchanged numbers still to give */
	bool in_run;		/* a run was read, its difference not yet */
	struct rbuf *diffs;	/* where the differences are: r or DIFFS */
	uint64_t ndiffs;	/* differences read */
};

/*
 * A name of a whole vmstat or meminfo chunk of ids 22, 23 (name): u k,
 * 0 for the name written out as str after it, else the name of the
 * built-in list (codec-names.c) at place at + 1 + unzigzag(k - 1). The
 * list's order is the kernel's, so k is mostly 1.
 */
struct names_pos {
	const char *const *list;
	int n;
	int at;			/* the place of the last name taken; -1 */
};

/* codec-wire.c: errors, units, and the fields' payload types. */
int codec_fail(struct parse_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int64_t codec_us(double t);
double codec_from_us(int64_t us);
bool codec_milli(double v, int64_t *out);

void codec_put_u(struct wbuf *w, uint64_t v);
void codec_put_s(struct wbuf *w, int64_t v);
void codec_put_d(struct wbuf *w, bool delta, int64_t v, int64_t base);
void codec_put_bytes(struct wbuf *w, const void *src, size_t n);
void codec_put_str(struct wbuf *w, const char *s, size_t size);
void codec_put_name(struct wbuf *w, struct names_pos *np, const char *s,
    size_t size);
void codec_nums_begin(struct nums *nw, struct wbuf *w, bool delta,
    bool diffs);
bool codec_nums_pass(struct nums *nw);
void codec_num_u(struct nums *nw, uint64_t v, uint64_t base);
void codec_num_s(struct nums *nw, int64_t v, int64_t base);
size_t codec_field_begin(struct wbuf *w, enum codec_field id);
void codec_field_end(struct wbuf *w, size_t start);

uint64_t codec_get_u_long(struct rbuf *r);
int64_t codec_get_d(struct rbuf *r, bool delta, int64_t base);
uint32_t codec_get_n32(struct rbuf *r, bool delta, uint32_t base);
bool codec_get_max(struct rbuf *r, uint64_t max, uint64_t *out);
/* An unsigned number of at most 32 bits. */
bool codec_get_u32(struct rbuf *r, uint32_t *out);
bool codec_get_int(struct rbuf *r, int max, int *out);
bool codec_get_sint(struct rbuf *r, int *out);
bool codec_get_str(struct rbuf *r, char *dst, size_t size);
bool codec_get_name(struct rbuf *r, struct names_pos *np, char *dst,
    size_t size);
bool codec_get_bool(struct rbuf *r, bool *out);
bool codec_get_flags(struct rbuf *r, bool *delta);
void codec_numr_begin(struct numr *nr, struct dec *d, struct rbuf *r,
    bool delta, uint64_t left);
uint64_t codec_numr_diff(struct numr *nr);
int64_t codec_numr_s(struct numr *nr, int64_t base);
/* The next n numbers of a delta chunk, added to the uint64_t each stride
 * bytes from dst, which hold the previous sample's values: a delta's
 * numbers are mostly runs of unchanged ones, skipped here at once. */
void codec_numr_add(struct numr *nr, void *dst, size_t stride, size_t n);
int codec_field_done(struct rbuf *r, struct parse_error *err,
    const char *what);

/* Most numbers are one byte: those without a call. */
static inline uint64_t
codec_get_u(struct rbuf *r)
{
	if (!r->bad && r->off < r->len && r->p[r->off] < 0x80)
		return r->p[r->off++];
	return codec_get_u_long(r);
}

static inline int64_t
codec_get_s(struct rbuf *r)
{
	return unzigzag(codec_get_u(r));
}

/* A number of a chunk: whole, or base and its difference; inside a run
 * of unchanged numbers, base. */
static inline uint64_t
codec_numr_u(struct numr *nr, uint64_t base)
{
	if (!nr->delta)
		return codec_get_u(nr->r);
	if (nr->zeros > 0 && nr->left > 0) {
		nr->zeros--;
		nr->left--;
		return base;
	}
	return base + codec_numr_diff(nr);
}

/* A number of at most 32 bits of a chunk, as codec_numr_u. */
static inline uint32_t
codec_numr_u32(struct numr *nr, uint32_t base)
{
	uint64_t v = codec_numr_u(nr, base);

	if (v > UINT32_MAX) {
		nr->r->bad = true;
		return 0;
	}
	return (uint32_t)v;
}

/* A stream's next generation of names (never 0); 0 without a stream. */
static inline unsigned
codec_names_gen(struct dec *d)
{
	if (d->cs == NULL)
		return 0;
	if (++d->cs->gen == 0)
		d->cs->gen = 1;
	return d->cs->gen;
}

/* codec-shape.c: the counts a sample may hold, same shapes, and the flags
 * of a chunk with the previous chunk a delta one needs. */
bool codec_sample_sane(const struct sample *s);
bool codec_prev_has(const struct sample *prev, enum source src);
bool codec_status_same(const struct source_status *a,
    const struct source_status *b);
bool codec_buddy_same(const struct buddyinfo *a, const struct buddyinfo *b);
bool codec_pti_same(const struct pagetypeinfo *a,
    const struct pagetypeinfo *b);
bool codec_vm_same(const struct vmstat *a, const struct vmstat *b);
bool codec_mem_same(const struct meminfo *a, const struct meminfo *b);
bool codec_zi_same(const struct zoneinfo *a, const struct zoneinfo *b);
unsigned codec_psi_lines(const struct psi *p);
bool codec_sensors_same(const struct sensors *a, const struct sensors *b);
bool codec_blocked_same(const struct blocked_task *a,
    const struct blocked_task *b);
int codec_dec_flags(struct dec *d, struct rbuf *r, enum source src,
    const char *what, bool *delta);

/*
 * The families. An encoder writes one chunk's payload; delta: against
 * the previous sample's chunk (the caller checked it may); diffs: only its
 * differences, for DIFFS. A decoder reads one field's payload into d->s:
 * 0, or -EINVAL with d->err set.
 */
struct predict_src;

/* codec-zones.c */
void codec_enc_buddy(struct wbuf *w, const struct buddyinfo *b,
    const struct buddyinfo *pb, bool diffs);
void codec_enc_pti(struct wbuf *w, const struct pagetypeinfo *p,
    const struct pagetypeinfo *pp, bool diffs);
void codec_enc_zi(struct wbuf *w, const struct zoneinfo *z,
    const struct zoneinfo *pz, const struct buddyinfo *b,
    const struct buddyinfo *pb, bool diffs);
int codec_dec_buddy(struct dec *d, struct rbuf *r);
int codec_dec_pti(struct dec *d, struct rbuf *r);
int codec_dec_zi(struct dec *d, struct rbuf *r);

/* codec-counters.c */
uint64_t codec_page_kb(long page_size);
void codec_enc_vm(struct wbuf *w, const struct vmstat *v,
    const struct vmstat *pv, struct predict_src *ps, bool diffs);
void codec_enc_mem(struct wbuf *w, const struct meminfo *m,
    const struct meminfo *pm, struct predict_src *ps, bool diffs);
void codec_enc_psi(struct wbuf *w, size_t wire, const struct psi *p,
    const struct psi *pp, bool diffs);
int codec_dec_vm(struct dec *d, struct rbuf *r);
int codec_dec_mem(struct dec *d, struct rbuf *r);
int codec_dec_psi(struct dec *d, struct rbuf *r);
int codec_dec_uptime(struct dec *d, struct rbuf *r);

/* codec-tasks.c */
void codec_enc_tasks(struct wbuf *w, const struct tasks *t,
    const struct tasks *pt, double mono, bool diffs);
int codec_dec_tasks(struct dec *d, struct rbuf *r);
/* BLOCKED_WHY (28), after the tasks chunk: written when a task is blocked. */
void codec_enc_blocked_why(struct wbuf *w, const struct tasks *t);
int codec_dec_blocked_why(struct dec *d, struct rbuf *r);

/* codec-events.c */
void codec_enc_sensors(struct wbuf *w, const struct sensors *se,
    const struct sensors *pse);
void codec_enc_kmsg(struct wbuf *w, const struct kmsg_sample *k);
int codec_dec_sensors(struct dec *d, struct rbuf *r);
int codec_dec_kmsg(struct dec *d, struct rbuf *r);
/* KMSG_MORE (30), after KMSG: written when an event was printed more than
 * once or names a device; without it, each was printed once. */
bool codec_kmsg_more_needed(const struct kmsg_sample *k);
void codec_enc_kmsg_more(struct wbuf *w, const struct kmsg_sample *k);
int codec_dec_kmsg_more(struct dec *d, struct rbuf *r);

/* codec-delays.c: DELAYS (31), written when the state is not NONE. */
void codec_enc_delays(struct wbuf *w, const struct delays *dl);
int codec_dec_delays(struct dec *d, struct rbuf *r);
/* codec-capture.c: CAPTURE (32), written when the sample has one. */
void codec_enc_capture(struct wbuf *w, const struct capture *c);
int codec_dec_capture(struct dec *d, struct rbuf *r);

/* codec-probes.c: PROBES2 (33), written when the state is not NONE; PROBES
 * (29, format 2.2) is read too (probes2 false). */
size_t codec_probes_cum_count(void);
bool codec_probes_sane(const struct probes *p);
bool codec_probes_delta_ok(const struct probes *p, const struct probes *pp);
void codec_enc_probes(struct wbuf *w, const struct probes *p,
    const struct probes *pp);
int codec_dec_probes(struct dec *d, struct rbuf *r, bool probes2);

#endif
