/* src/util/fmt-num.h and the JSON writer against printf, which they replace in export. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json.h"
#include "output/metrics-int.h"
#include "output/openmetrics.h"
#include "util/fmt-num.h"
#include "tap.h"

/* v / 10^d by printf: every digit, then trimmed as asked. */
static void
ref_fixed(int64_t v, int d, int trim, char *dst, size_t size)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, p = 1;
	size_t n;

	for (int i = 0; i < d; i++)
		p *= 10;
	if (d == 0) {
		snprintf(dst, size, "%s%" PRIu64, v < 0 ? "-" : "", a);
		return;
	}
	/* d is 1 to 18: the result fits; said to the compiler by the check. */
	if (snprintf(dst, size, "%s%" PRIu64 ".%0*" PRIu64, v < 0 ? "-" : "", a / p, d & 31,
		     a % p) >= (int)size)
		dst[0] = '\0';
	if (!trim)
		return;
	n = strlen(dst);
	while (dst[n - 1] == '0')
		dst[--n] = '\0';
	if (dst[n - 1] == '.')
		dst[--n] = '\0';
}

static int
check(int64_t v, int d, int trim)
{
	char want[64], got[FMT_NUM_MAX + 1];
	int n = fmt_num_fixed(v, d, trim, got);

	got[n] = '\0';
	ref_fixed(v, d, trim, want, sizeof(want));
	if (strcmp(got, want) == 0 && n <= FMT_NUM_MAX)
		return 0;
	tap_ok(0, "fmt_num_fixed(%" PRId64 ", %d, %d): '%s', want '%s'", v, d, trim, got, want);
	return 1;
}

static void
test_fixed_edges(void)
{
	static const int64_t edge[] = {
		0, 1, -1, 9, 10, 99, 100, 101, 999, 1000, 1001, -1000, -1001, 5, -5, 50, 500,
		123456789, -123456789, 1000000000000000000, -1000000000000000000,
		999999999999999999, INT64_MAX, INT64_MIN + 1, INT64_MIN, METRICS_VALUE_MAX,
		-METRICS_VALUE_MAX, 1764477551123, 4294967295, 18446744073709551 / 10,
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (int d = 0; d <= 18; d++)
			for (int trim = 0; trim < 2; trim++)
				bad += check(edge[i], d, trim);
	tap_ok(bad == 0, "fixed: 0, +-1, powers of ten, INT64_MIN(+1), INT64_MAX, "
	       "METRICS_VALUE_MAX, decimals 0 to 18, trimmed and not");
}

static void
test_fixed_random(void)
{
	unsigned seed = 16;
	int bad = 0;

	for (int i = 0; i < 300000 && bad < 5; i++) {
		/* Every magnitude, not only the large ones a uniform draw gives. */
		uint64_t r = ((uint64_t)rand_r(&seed) << 42) ^ ((uint64_t)rand_r(&seed) << 21) ^
			     (uint64_t)rand_r(&seed);
		int64_t v = (int64_t)(r >> (rand_r(&seed) % 64));

		if (rand_r(&seed) & 1)
			v = -v;
		bad += check(v, rand_r(&seed) % 19, rand_r(&seed) & 1);
	}
	tap_ok(bad == 0, "fixed: 300,000 random values of every magnitude agree with printf");
}

static void
test_integers(void)
{
	static const int64_t edge[] = { 0, 1, -1, 9, 10, -10, 99, 100, INT64_MAX, INT64_MIN,
					INT64_MIN + 1, 1234567890123 };
	char want[32], got[FMT_NUM_MAX + 1];
	int bad = 0;
	unsigned seed = 3;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		got[fmt_num_i64(edge[i], got)] = '\0';
		snprintf(want, sizeof(want), "%" PRId64, edge[i]);
		bad += strcmp(got, want) != 0;
		got[fmt_num_u64((uint64_t)edge[i], got)] = '\0';
		snprintf(want, sizeof(want), "%" PRIu64, (uint64_t)edge[i]);
		bad += strcmp(got, want) != 0;
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t r = ((uint64_t)rand_r(&seed) << 42) ^ ((uint64_t)rand_r(&seed) << 21) ^
			     (uint64_t)rand_r(&seed);

		r >>= rand_r(&seed) % 64;
		got[fmt_num_u64(r, got)] = '\0';
		snprintf(want, sizeof(want), "%" PRIu64, r);
		bad += strcmp(got, want) != 0;
	}
	tap_ok(bad == 0, "u64 and i64: edges (INT64_MIN, UINT64_MAX) and 100,000 random values");
}

/* metrics_format_value: the OpenMetrics and CSV text, decimals 0 to 9. */
static void
test_metrics_value(void)
{
	static const struct {
		int64_t v;
		int d;
		const char *want;
	} cases[] = {
		{ 0, 0, "0" }, { 0, 3, "0" }, { 53, 3, "0.053" }, { -1000, 3, "-1" },
		{ 500, 3, "0.5" }, { 17, 0, "17" }, { 1764477551123, 3, "1764477551.123" },
		{ -5, 9, "-0.000000005" }, { METRICS_VALUE_MAX, 0, "2305843009213693952" },
		{ INT64_MIN + 1, 2, "-92233720368547758.07" }, { 120, 1, "12" },
		{ 123456, 12, "123456" },	/* decimals out of range: as 0 */
	};
	char got[OPENMETRICS_VALUE_MAX];
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = metrics_format_value(cases[i].v, cases[i].d, got);

		if (strcmp(got, cases[i].want) != 0 || n != (int)strlen(cases[i].want)) {
			tap_ok(0, "metrics_format_value(%" PRId64 ", %d): '%s', want '%s'", cases[i].v,
			       cases[i].d, got, cases[i].want);
			bad++;
		}
	}
	tap_ok(bad == 0, "metrics_format_value: trailing zeros trimmed, NUL-terminated");
}

/* The JSON writer's strings and numbers, now without printf, through its
 * buffer: runs longer than its 64-byte steps and documents beyond 16 KiB. */
static void
test_json(void)
{
	char *out = NULL, want[256], *w;
	size_t size = 0, wl;
	FILE *f = open_memstream(&out, &size);
	struct json j;
	int bad = 0;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_str(&j, "a\"b", "x\\y\n\t\x01\x7f\xc2\x85\xff\xe2\x82\xac");
	json_str(&j, "long", "0123456789012345678901234567890123456789012345678901234567890123456789");
	json_int(&j, "i", INT64_MIN);
	json_u64(&j, "u", UINT64_MAX);
	json_fixed(&j, "f", -5, 100);
	json_fixed(&j, "g", 1234, 1000);
	json_fixed(&j, "s", 1500000, 1000000);
	json_fixed(&j, "t", 1000, 1000000);
	json_double(&j, "d", 1.0005, 3);
	json_bool(&j, "b", false);
	json_null(&j, "n");
	json_object_end(&j);
	fflush(f);
	snprintf(want, sizeof(want), "{\"a\\\"b\":\"x\\\\y\\n\\t\\u0001\\u007f\\u0085"
		 "\\ufffd\xe2\x82\xac\",\"long\":\"%s\",\"i\":-9223372036854775808,"
		 "\"u\":18446744073709551615,\"f\":-0.05,\"g\":1.234,\"s\":1.500000,\"t\":0.001000,"
		 "\"d\":%.3f,\"b\":false,\"n\":null}",
		 "0123456789012345678901234567890123456789012345678901234567890123456789", 1.0005);
	tap_ok(out && strcmp(out, want) == 0, "json: escapes, long runs, integer edges, fixed "
	       "as %%0*llu pads, written once complete: %s", out ? out : "(none)");
	/* 3,000 values: the buffer fills and is written out mid-document. */
	json_init(&j, f);
	json_array_begin(&j, NULL);
	for (int i = 0; i < 3000; i++)
		json_str(&j, NULL, "abcdefgh");
	json_array_end(&j);
	fflush(f);
	w = out + strlen(want);
	wl = strlen(w);
	bad = wl != 2 + 3000 * 11 - 1 || w[0] != '[' || w[wl - 1] != ']';
	for (size_t k = 1; !bad && k + 1 < wl; k += 11)
		bad = memcmp(w + k, "\"abcdefgh\"", 10) != 0 || (k + 10 < wl - 1 && w[k + 10] != ',');
	tap_ok(!bad, "json: a 33,000-byte document through the 16 KiB buffer, whole and in order");
	fclose(f);
	free(out);
}


/* fmt_num_double against printf: byte for byte where it answers. */
static int
check_double(double v, int d, int *fast)
{
	char want[512], got[FMT_NUM_MAX + 1];
	int n = fmt_num_double(v, d, got);

	if (n < 0)
		return 0;
	(*fast)++;
	got[n] = '\0';
	snprintf(want, sizeof(want), "%.*f", d, v);
	if (strcmp(got, want) == 0 && n <= FMT_NUM_MAX)
		return 0;
	tap_ok(0, "fmt_num_double(%a, %d): '%s', want '%s'", v, d, got, want);
	return 1;
}

static void
test_double(void)
{
	static const double edge[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 0.0005, 1.0005, -0.0004,
		0.05, 0.95, 9.95, 99.5, 1e-9, 5e-10, 4e-10, 1796159577.2005, 1796159577.201,
		39924.875, 39924.865, 9007199254740991.0, 9007199254740992.0, 1e300, -1e300,
		DBL_MIN, DBL_MIN / 4, DBL_MAX, 1.0 / 3, 2.0 / 3, 123456789.987654321,
	};
	unsigned seed = 53;
	int bad = 0, fast = 0, special = 0;
	char got[FMT_NUM_MAX + 1];

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (int d = 0; d <= 9; d++) {
			bad += check_double(edge[i], d, &fast);
			bad += check_double(-edge[i], d, &fast);
		}
	/* What it must leave to printf. */
	special += fmt_num_double(NAN, 3, got) < 0 && fmt_num_double(INFINITY, 3, got) < 0 &&
		   fmt_num_double(DBL_MIN / 4, 3, got) < 0 && fmt_num_double(1e300, 3, got) < 0 &&
		   fmt_num_double(1.5, 10, got) < 0 && fmt_num_double(1.5, -1, got) < 0;
	for (int i = 0; i < 200000 && bad < 5; i++) {
		/* Halves, quarters... of every size: ties to even. */
		double tie = ldexp((double)(rand_r(&seed) % 100000), -(rand_r(&seed) % 24));
		/* Every magnitude from 1e-12 to 1e16. */
		double any = (double)rand_r(&seed) / RAND_MAX * pow(10, rand_r(&seed) % 29 - 12);

		bad += check_double(rand_r(&seed) & 1 ? -tie : tie, rand_r(&seed) % 10, &fast);
		bad += check_double(rand_r(&seed) & 1 ? -any : any, rand_r(&seed) % 10, &fast);
	}
	tap_ok(bad == 0 && special && fast > 300000, "double: as %%.*f of edges, ties, negative "
	       "zero and 400,000 random values (%d written, not printf's); NaN, infinities, "
	       "subnormals, 2^53 and up and decimals past 9 left to printf", fast);
}

/* A plain string is copied whole and checked a word at a time: each byte
 * JSON escapes, at each place in the first three words, is still seen, in
 * a key and in a value; the bytes next to them in value go as they are. */
static void
test_json_words(void)
{
	static const struct {
		const char *bad, *esc;
	} cases[] = {
		{ "\x01", "\\u0001" }, { "\x1f", "\\u001f" }, { "\"", "\\\"" }, { "\\", "\\\\" },
		{ "\x7f", "\\u007f" }, { "\x80", "\\ufffd" }, { "\xff", "\\ufffd" },
		{ "\xc2\x85", "\\u0085" }, { "\n", "\\n" }, { " ", " " }, { "!", "!" },
		{ "#", "#" }, { "[", "[" }, { "]", "]" }, { "~", "~" }, { "\xe2\x82\xac", "\xe2\x82\xac" },
	};
	int bad = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (int at = 0; at < 24; at++) {
			char in[64], esc[64], want[256], *out = NULL;
			size_t size = 0;
			FILE *f = open_memstream(&out, &size);
			struct json j;

			snprintf(in, sizeof(in), "%.*s%s%.*s", at, "abcdefghijklmnopqrstuvwx",
				 cases[c].bad, 24 - at, "ABCDEFGHIJKLMNOPQRSTUVWX");
			snprintf(esc, sizeof(esc), "%.*s%s%.*s", at, "abcdefghijklmnopqrstuvwx",
				 cases[c].esc, 24 - at, "ABCDEFGHIJKLMNOPQRSTUVWX");
			json_init(&j, f);
			json_object_begin(&j, NULL);
			json_u64(&j, "k", 1);
			json_str(&j, in, in);
			json_object_end(&j);
			fclose(f);
			snprintf(want, sizeof(want), "{\"k\":1,\"%s\":\"%s\"}", esc, esc);
			if (!out || strcmp(out, want) != 0) {
				if (!bad)
					tap_ok(0, "json: '%s' gave '%s', want '%s'", in, out ? out : "", want);
				bad++;
			}
			free(out);
		}
	tap_ok(bad == 0, "json: every escaped byte, at every place in a word, in keys and values");
}

int
main(void)
{
	test_fixed_edges();
	test_fixed_random();
	test_integers();
	test_metrics_value();
	test_json();
	test_double();
	test_json_words();
	return tap_done();
}
