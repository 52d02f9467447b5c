/* src/util/fmt-num.h and the JSON writer against printf, which they replace in export. */
#include <inttypes.h>
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

int
main(void)
{
	test_fixed_edges();
	test_fixed_random();
	test_integers();
	test_metrics_value();
	test_json();
	return tap_done();
}
