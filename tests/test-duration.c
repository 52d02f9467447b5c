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
	return tap_done();
}
