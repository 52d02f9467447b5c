/* Numbers in a few characters, the same on the screens and in text output. */
#ifndef PAGETOP_FMT_H
#define PAGETOP_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Unknown values print as an en dash in a UTF-8 terminal, else "-". The
 * screens set this from their locale; text output keeps "-". */
void fmt_set_utf8(bool utf8);
const char *fmt_unknown(void);

/* Short figures: "–" for NAN, "0", "987", "1.2k", "45k", "3.4M". */
void fmt_count(double v, char *dst, size_t size);
/* KiB as "23.5G", "412M", "12K". */
void fmt_kib(uint64_t kib, char *dst, size_t size);
/* Thousandths as "0.074", "-1" for -1000. */
void fmt_index(int v, char *dst, size_t size);
/* Seconds as "42s", "5m03s", "2h04m", "3d04h". */
void fmt_duration(double s, char *dst, size_t size);

/* How fmt_moment() writes a wall time. */
enum fmt_moment_style {
	FMT_CLOCK,	/* "08:21:11.198" */
	FMT_DAY,	/* "11-30 08:21:11.198" */
	FMT_DATE,	/* "2026-11-30 08:21:11.198" */
};
/* Seconds since the epoch as a local time to the millisecond, rounded:
 * every sample and mark is named this way (dump, the report, the Events
 * screen), so that what is printed can be typed back as a time and picks
 * the same moment (util/when.h). At least FMT_MOMENT_SIZE bytes. */
#define FMT_MOMENT_SIZE	32
void fmt_moment(double wall, enum fmt_moment_style style, char *dst, size_t size);

#endif
