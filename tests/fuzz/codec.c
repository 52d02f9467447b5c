/*
 * codec_decode on any bytes, alone or after a previous sample. The input
 * is one byte of mode, then either the sample's bytes (mode bit 0 clear)
 * or a little-endian u16 length, that many bytes of a previous sample
 * decoded whole, and the sample's bytes as written against it.
 *
 * What decodes has its counts within the caps and encodes again, whole
 * and as a delta against the same previous sample; both decode; and every
 * encoding of the same content is the same bytes (one pass through the
 * codec may round a time, after that nothing changes). What does not
 * decode says why. A codec stream (codec_decode_stream, replay's way)
 * reads the same bytes, after the same previous sample, to the same
 * result: the same error, or a sample that encodes to the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptrec/codec.h"
#include "fuzz.h"
#include "ptrec/recfile.h"
#include "source/replay.h"

static struct sample prev, s, s2, s3, sa, sb;
static uint8_t e1[REC_SAMPLE_MAX], e2[REC_SAMPLE_MAX], d1[REC_SAMPLE_MAX];
static struct codec_stream *cs;

static void
check_caps(const struct sample *x)
{
	const struct tasks *t = &x->tasks;

	if ((sample_has(x, SRC_BUDDYINFO) &&
	     (x->buddy.n_orders < 0 || x->buddy.n_orders > MAX_ORDERS || x->buddy.n_zones < 0 ||
	      x->buddy.n_zones > MAX_ZONES)) ||
	    (sample_has(x, SRC_PAGETYPEINFO) &&
	     (x->pti.n_orders < 0 || x->pti.n_orders > MAX_ORDERS || x->pti.n_types < 0 ||
	      x->pti.n_types > MAX_MTYPES || x->pti.n_free < 0 ||
	      x->pti.n_free > MAX_ZONES * MAX_MTYPES || x->pti.n_blocks < 0 ||
	      x->pti.n_blocks > MAX_ZONES || x->pti.n_mixed < 0 || x->pti.n_mixed > MAX_ZONES)) ||
	    (sample_has(x, SRC_VMSTAT) && (x->vm.n < 0 || x->vm.n > MAX_VMSTAT)) ||
	    (sample_has(x, SRC_MEMINFO) && (x->mem.n < 0 || x->mem.n > MAX_MEMINFO)) ||
	    (sample_has(x, SRC_ZONEINFO) && (x->zi.n_zones < 0 || x->zi.n_zones > MAX_ZONES)) ||
	    x->sensors.n < 0 || x->sensors.n > MAX_SENSORS)
		fuzz_fail("codec: a count past its cap");
	if (sample_has(x, SRC_PAGETYPEINFO))
		for (int i = 0; i < x->pti.n_free; i++)
			if (x->pti.free[i].type < 0 || x->pti.free[i].type >= x->pti.n_types)
				fuzz_fail("codec: free row %d of type %d", i, x->pti.free[i].type);
	if (sample_has(x, SRC_TASKS)) {
		if (t->n_blocked < 0 || t->n_blocked > TASKS_MAX_BLOCKED || t->n_stacks < 0 ||
		    t->n_stacks > TASKS_MAX_STACKS)
			fuzz_fail("codec: %d blocked, %d stacks", t->n_blocked, t->n_stacks);
		for (int i = 0; i < t->n_stacks; i++)
			if (tasks_stack_frames(t, i) > STACK_MAX_FRAMES ||
			    t->stack_at[i + 1] < t->stack_at[i] ||
			    t->stack_at[i + 1] > TASKS_STACK_BYTES)
				fuzz_fail("codec: stack %d out of its bytes", i);
		for (int i = 0; i < t->n_blocked; i++)
			if (t->b[i].stack < -1 || t->b[i].stack >= t->n_stacks)
				fuzz_fail("codec: task %d on stack %d", i, t->b[i].stack);
	}
	for (int i = 0; i < SRC_COUNT; i++)
		fuzz_check_name("codec status message", x->status[i].msg,
				sizeof(x->status[i].msg));
}

static size_t
encode(const struct sample *x, const struct sample *base, uint8_t *buf, const char *what)
{
	ssize_t n = codec_encode(x, base, buf, REC_SAMPLE_MAX);

	if (n <= 0)
		fuzz_fail("codec: a decoded sample does not encode %s: %zd", what, n);
	return (size_t)n;
}

static void
decode(const uint8_t *buf, size_t n, const struct sample *base, struct sample *x,
       const char *what)
{
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };

	if (codec_decode(buf, n, base, x, &st, &err) != 0)
		fuzz_fail("codec: %s does not decode: %s", what, err.msg);
	if (st.unknown_fields != 0)
		fuzz_fail("codec: %s has %d unknown fields", what, st.unknown_fields);
}

/* The stream on the same input as codec_decode, which returned r (s when
 * 0): pbuf/plen the previous sample's bytes, if any. */
static void
run_stream(const uint8_t *pbuf, size_t plen, const uint8_t *buf, size_t len, int r)
{
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };
	const struct sample *base = NULL;
	size_t n;
	int r2;

	if (cs == NULL && (cs = codec_stream_new()) == NULL)
		fuzz_fail("codec: no stream (out of memory)");
	if (pbuf) {
		if (codec_decode_stream(cs, pbuf, plen, NULL, &sa, &st, &err) != 0)
			fuzz_fail("codec: the stream does not decode the previous sample: %s",
				  err.msg);
		base = &sa;
	}
	memset(&err, 0, sizeof(err));
	r2 = codec_decode_stream(cs, buf, len, base, &sb, &st, &err);
	if (r2 != r)
		fuzz_fail("codec: the stream returned %d \"%s\", codec_decode %d", r2, err.msg, r);
	if (r2 != 0)
		return;
	check_caps(&sb);
	n = encode(&sb, NULL, e2, "whole, from the stream");
	if (n != encode(&s, NULL, e1, "whole") || memcmp(e1, e2, n) != 0)
		fuzz_fail("codec: the stream's sample and codec_decode's encode apart");
}

static void
run(const uint8_t *data, size_t len)
{
	struct parse_error err = { 0, "" };
	struct codec_stats st = { 0 };
	const struct sample *base = NULL;
	const uint8_t *pbuf = NULL;
	size_t n1, n2, nd, plen = 0;
	int r;

	if (len < 1)
		return;
	if ((data[0] & 1) && len >= 3 && (plen = data[1] | (size_t)data[2] << 8) <= len - 3) {
		r = codec_decode(data + 3, plen, NULL, &prev, &st, &err);
		if (r != 0) {
			if (r != -EINVAL || err.msg[0] == '\0')
				fuzz_fail("codec: the previous sample: %d \"%s\"", r, err.msg);
			return;
		}
		check_caps(&prev);
		base = &prev;
		pbuf = data + 3;
		data += 3 + plen;
		len -= 3 + plen;
	} else {
		data++;
		len--;
	}
	memset(&err, 0, sizeof(err));
	r = codec_decode(data, len, base, &s, &st, &err);
	run_stream(pbuf, plen, data, len, r);
	if (r != 0) {
		if (r != -EINVAL || err.msg[0] == '\0')
			fuzz_fail("codec: returned %d \"%s\"", r, err.msg);
		fuzz_check_name("codec error", err.msg, sizeof(err.msg));
		return;
	}
	check_caps(&s);

	n1 = encode(&s, NULL, e1, "whole");
	decode(e1, n1, NULL, &s2, "its whole encoding");
	check_caps(&s2);
	n2 = encode(&s2, NULL, e2, "whole, again");
	if (n2 != n1 || memcmp(e1, e2, n1) != 0)
		fuzz_fail("codec: whole, decoded, whole again: %zu and %zu bytes differ", n1, n2);
	if (base == NULL)
		return;
	nd = encode(&s, base, d1, "as a delta");
	decode(d1, nd, base, &s3, "its delta encoding");
	n2 = encode(&s3, NULL, e2, "whole, after the delta");
	if (n2 != n1 || memcmp(e1, e2, n1) != 0)
		fuzz_fail("codec: as a delta and back, %zu and %zu bytes differ", n1, n2);
}

/* Seeds from the recordings: a few samples whole, and pairs of a sample
 * whole and the next as a delta against it. */
static void
make(fuzz_emit_fn *emit, void *ctx)
{
	/* 2.2's has the probes: their D stacks, by number against the
	 * previous sample's when encoded as a delta. */
	static const char *const files[] = { "tests/fixtures/recordings/format-1.0.ptrec",
					     "data/sample-build-6.18.ptrec",
					     "tests/fixtures/recordings/format-2.2.ptrec" };
	static uint8_t in[2 * REC_SAMPLE_MAX + 3];
	char path[4096], why[300], name[4200];
	struct replay *rp;
	size_t n, count, k, nd;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		fuzz_path(path, sizeof(path), files[f]);
		if ((rp = replay_open(path, why, sizeof(why))) == NULL) {
			fprintf(stderr, "fuzz: codec seeds: %s\n", why);
			continue;
		}
		count = replay_count(rp);
		for (k = 0; k < count && k < 40; k += k < 4 ? 1 : 9) {
			if (replay_seek(rp, k) != 0)
				break;
			in[0] = 0;
			n = encode(rp->cur, NULL, in + 1, "(seed)");
			snprintf(name, sizeof(name), "%s:%zu", files[f], k);
			emit(name, in, n + 1, ctx);
			if (k == 0)
				continue;
			n = encode(rp->prev, NULL, in + 3, "(seed)");
			if (n > 0xffff)
				continue;
			in[0] = 1;
			in[1] = (uint8_t)n;
			in[2] = (uint8_t)(n >> 8);
			nd = encode(rp->cur, rp->prev, in + 3 + n, "(seed)");
			snprintf(name, sizeof(name), "%s:%zu-delta", files[f], k);
			emit(name, in, 3 + n + nd, ctx);
		}
		replay_close(rp);
	}
}

FUZZ_TARGET_MADE(codec, run, make)
