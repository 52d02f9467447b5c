/* Durations on the command line. */
#include "util/duration.h"
#include "tap.h"

int
main(void)
{
	double v;

	tap_ok(duration_parse("90", &v) == 0 && v == 90, "bare seconds");
	tap_ok(duration_parse("0.5", &v) == 0 && v == 0.5, "fractions");
	tap_ok(duration_parse("90s", &v) == 0 && v == 90, "s");
	tap_ok(duration_parse("5m", &v) == 0 && v == 300, "m");
	tap_ok(duration_parse("1.5h", &v) == 0 && v == 5400, "h");
	tap_ok(duration_parse("2d", &v) == 0 && v == 172800, "d");
	tap_ok(duration_parse("250ms", &v) == 0 && v == 0.25, "ms");
	tap_ok(duration_parse("", &v) < 0, "empty");
	tap_ok(duration_parse("-5", &v) < 0, "negative");
	tap_ok(duration_parse("5x", &v) < 0, "unknown unit");
	tap_ok(duration_parse("5 m", &v) < 0, "space before the unit");
	tap_ok(duration_parse("h", &v) < 0, "unit alone");
	tap_ok(duration_parse("nan", &v) < 0, "nan");
	tap_ok(duration_parse("inf", &v) < 0 && duration_parse("infinity", &v) < 0, "inf");
	tap_ok(duration_parse("1e3", &v) == 0 && v == 1000, "an exponent");
	tap_ok(duration_parse("1e308", &v) == 0 && v == 1e308, "1e308 is finite (ranges are the caller's)");
	tap_ok(duration_parse("1e308d", &v) < 0, "1e308d is not: too large once in seconds");
	tap_ok(duration_parse("1e999", &v) < 0, "1e999 overflows");
	tap_ok(duration_parse(".5", &v) == 0 && v == 0.5, "a leading point");
	tap_ok(duration_parse("5.", &v) == 0 && v == 5, "a trailing point");
	tap_ok(duration_parse(".", &v) < 0 && duration_parse(".s", &v) < 0, "a point alone");
	tap_ok(duration_parse(" 5", &v) < 0, "a leading space");
	tap_ok(duration_parse("+5", &v) < 0, "a plus sign");
	tap_ok(duration_parse("0x10", &v) < 0, "hex");
	tap_ok(duration_parse("5e", &v) < 0, "an exponent without digits");
	tap_ok(duration_parse(NULL, &v) < 0, "NULL");
	v = 7;
	tap_ok(duration_parse("5x", &v) < 0 && v == 7, "*out untouched on an error");
	return tap_done();
}
