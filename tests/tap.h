/* A minimal TAP producer for the C tests: automake's tap-driver.sh counts
 * every "ok"/"not ok" line, so each check is one test point. */
#ifndef PAGETOP_TAP_H
#define PAGETOP_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline __attribute__((format(printf, 2, 3))) int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define tap_eq_u64(got, want, ...) do {						\
	uint64_t g_ = (got), w_ = (want);					\
	if (!tap_ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_, w_);	\
} while (0)

#define tap_eq_int(got, want, ...) do {						\
	long long g_ = (got), w_ = (want);					\
	if (!tap_ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %lld, want %lld\n", g_, w_);			\
} while (0)

#define tap_eq_str(got, want, ...) do {						\
	const char *g_ = (got), *w_ = (want);					\
	if (!tap_ok(g_ && w_ && strcmp(g_, w_) == 0, __VA_ARGS__))		\
		printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)",	\
		       w_ ? w_ : "(null)");					\
} while (0)

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	/* A sanitizer that fails at exit does not flush stdio: flush now. */
	fflush(stdout);
	return 0;	/* failures are counted from the "not ok" lines */
}

#endif
