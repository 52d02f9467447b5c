/* /proc/pressure/{cpu,memory,io,irq}: pressure stall information. */
#ifndef PAGETOP_PSI_H
#define PAGETOP_PSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

struct psi_line {
	bool present;
	uint32_t avg10, avg60, avg300;	/* hundredths of a percent, as printed */
	uint64_t total;			/* microseconds stalled, cumulative */
};

struct psi {
	struct psi_line some;
	struct psi_line full;
};

/* 0 with absent lines marked not present (cpu before 5.13 has no "full",
 * irq has only "full"); -EINVAL with err when a line is malformed or the
 * buffer has neither line. */
int psi_parse(const char *buf, size_t len, struct psi *out, struct parse_error *err);

#endif
