/*
 * The kernel's names for addresses (src/source/ksym.c) against
 * /proc/kallsyms, read here apart: 400 functions spread over the table,
 * each at its first byte and one byte in, named as kallsyms names them
 * (any of the names at that address: aliases share one), and an address
 * in no symbol named "". Needs root and a build with the probes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ksym.h"
#include "tap.h"

#define WANT	400
#define NAME	64

struct sym {
	unsigned long long a;
	char name[NAME];
};

static struct sym *all;
static size_t n_all;

static int
by_addr(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a;
}

/* Whether some symbol at address a is called name. */
static int
named_at(unsigned long long a, const char *name)
{
	for (size_t i = 0; i < n_all; i++)
		if (all[i].a == a && strcmp(all[i].name, name) == 0)
			return 1;
	return 0;
}

int
main(void)
{
	static uint64_t ip[2 * WANT + 1];
	static char got[2 * WANT + 1][NAME];
	static size_t pick[WANT];
	char why[200], line[512], type, name[256];
	unsigned long long a;
	size_t cap = 1 << 18, n_text = 0, k = 0;
	struct ksym *ks;
	FILE *f;
	int bad_start = 0, bad_in = 0, r;

	if (!(ks = ksym_open(why, sizeof(why)))) {
		tap_ok(1, "the namer # SKIP %s", why);
		return tap_done();
	}
	if (!(f = fopen("/proc/kallsyms", "r")) || !(all = malloc(cap * sizeof(*all))))
		return 1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || a == 0)
			continue;
		if (n_all == cap && !(all = realloc(all, (cap *= 2) * sizeof(*all))))
			return 1;
		all[n_all].a = a;
		snprintf(all[n_all].name, NAME, "%.*s", NAME - 1, name);
		/* A function's own name: text, not the padding before it. */
		all[n_all].name[NAME - 1] = (type == 't' || type == 'T') &&
		    strncmp(name, "__pfx_", 6) != 0 && strlen(name) < NAME - 1;
		n_all++;
	}
	fclose(f);
	tap_ok(n_all > 1000, "kallsyms read: %zu symbols with addresses", n_all);
	qsort(all, n_all, sizeof(*all), by_addr);
	for (size_t i = 0; i + 1 < n_all; i++)
		n_text += all[i].name[NAME - 1] && all[i + 1].a > all[i].a + 1;
	/* Every so many text symbols whose next symbol is at least 2 bytes on. */
	for (size_t i = 0, t = 0; i + 1 < n_all && k < WANT; i++) {
		if (!all[i].name[NAME - 1] || all[i + 1].a <= all[i].a + 1)
			continue;
		if (t++ % (n_text / WANT + 1) == 0)
			pick[k++] = i;
	}
	for (size_t i = 0; i < n_all; i++)
		all[i].name[NAME - 1] = '\0';
	for (size_t i = 0; i < k; i++) {
		ip[2 * i] = all[pick[i]].a;
		ip[2 * i + 1] = all[pick[i]].a + 1;
	}
	/* Below the kernel's text: no symbol. */
	ip[2 * k] = 0x1000;
	r = ksym_name(ks, ip, (int)(2 * k + 1), &got[0][0], NAME);
	tap_eq_int(r, 0, "%zu addresses named in one call", 2 * k + 1);
	for (size_t i = 0; i < k; i++) {
		if (!named_at(ip[2 * i], got[2 * i])) {
			if (bad_start++ < 5)
				printf("# %llx: '%s', kallsyms '%s'\n", (unsigned long long)ip[2 * i],
				    got[2 * i], all[pick[i]].name);
		}
		if (!named_at(ip[2 * i], got[2 * i + 1])) {
			if (bad_in++ < 5)
				printf("# %llx+1: '%s', kallsyms '%s'\n", (unsigned long long)ip[2 * i],
				    got[2 * i + 1], all[pick[i]].name);
		}
	}
	tap_ok(k >= WANT / 2, "%zu functions picked from kallsyms", k);
	tap_eq_int(bad_start, 0, "each at its first byte: kallsyms' name");
	tap_eq_int(bad_in, 0, "each one byte in: the same name");
	tap_ok(got[2 * k][0] == '\0', "an address in no symbol: \"\" ('%s')", got[2 * k]);
	ksym_close(ks);
	free(all);
	return tap_done();
}
