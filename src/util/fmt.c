#include "util/fmt.h"
#include "util/arith.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static bool fmt_utf8;

void
fmt_set_utf8(bool utf8)
{
	fmt_utf8 = utf8;
}

const char *
fmt_unknown(void)
{
	return fmt_utf8 ? "\u2013" : "-";
}

void
fmt_count(double v, char *dst, size_t size)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(dst, size, "%s", fmt_unknown());
	else if (a < 1000)
		snprintf(dst, size, a < 9.95 && a != arith_floor(a) ? "%.1f" : "%.0f", v);
	else if (a < 9999.5)
		snprintf(dst, size, "%.1fk", v / 1e3);
	else if (a < 999500)
		snprintf(dst, size, "%.0fk", v / 1e3);
	else if (a < 9999500)
		snprintf(dst, size, "%.1fM", v / 1e6);
	else if (a < 999500000)
		snprintf(dst, size, "%.0fM", v / 1e6);
	else
		snprintf(dst, size, "%.1fG", v / 1e9);
}

void
fmt_kib(uint64_t kib, char *dst, size_t size)
{
	static const char units[] = "KMGTP";
	double v = (double)kib;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(dst, size, u == 0 || v >= 99.95 ? "%.0f%c" : "%.1f%c", v, units[u]);
}

void
fmt_index(int v, char *dst, size_t size)
{
	if (v == -1000)
		snprintf(dst, size, "-1");
	else
		snprintf(dst, size, "%s%d.%03d", v < 0 ? "-" : "", (v < 0 ? -v : v) / 1000,
			 (v < 0 ? -v : v) % 1000);
}

void
fmt_duration(double s, char *dst, size_t size)
{
	long t = (long)s;

	if (isnan(s) || s < 0)
		snprintf(dst, size, "%s", fmt_unknown());
	else if (t < 60)
		snprintf(dst, size, "%lds", t);
	else if (t < 3600)
		snprintf(dst, size, "%ldm%02lds", t / 60, t % 60);
	else if (t < 86400)
		snprintf(dst, size, "%ldh%02ldm", t / 3600, t % 3600 / 60);
	else
		snprintf(dst, size, "%ldd%02ldh", t / 86400, t % 86400 / 3600);
}

void
fmt_moment(double wall, enum fmt_moment_style style, char *dst, size_t size)
{
	static const char *const forms[] = {
		[FMT_CLOCK] = "%H:%M:%S", [FMT_DAY] = "%m-%d %H:%M:%S",
		[FMT_DATE] = "%Y-%m-%d %H:%M:%S",
	};
	double ms;
	time_t s;
	struct tm tm;
	char buf[FMT_MOMENT_SIZE];

	if (!isfinite(wall)) {
		snprintf(dst, size, "%s", fmt_unknown());
		return;
	}
	/* Rounded once, so that 11.9996 is 12.000 and not 11.1000. */
	ms = (double)arith_llround(wall * 1000);
	s = (time_t)arith_floor(ms / 1000);
	if (!localtime_r(&s, &tm) || strftime(buf, sizeof(buf), forms[style], &tm) == 0)
		snprintf(buf, sizeof(buf), "%lld", (long long)s);
	snprintf(dst, size, "%s.%03d", buf, (int)(ms - (double)s * 1000));
}
