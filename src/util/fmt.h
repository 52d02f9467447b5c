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

#endif
