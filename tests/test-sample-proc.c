/* The kernel's own format: parse a real file, print it back, compare bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "output/sample-proc.h"
#include "tap.h"

static struct sample s;

static void
roundtrip(enum source src, const char *fixture, const char *what)
{
	size_t len, outlen;
	char *buf = fixture_load(fixture, &len), *out = NULL;
	struct parse_error err;
	FILE *f = open_memstream(&out, &outlen);
	int r = -1;

	memset(&s.status, 0, sizeof(s.status));
	switch (src) {
	case SRC_BUDDYINFO:
		r = buddyinfo_parse(buf, len, &s.buddy, &err);
		break;
	case SRC_PAGETYPEINFO:
		r = pagetypeinfo_parse(buf, len, &s.pti, &err);
		break;
	case SRC_VMSTAT:
		r = vmstat_parse(buf, len, &s.vm, &err);
		break;
	case SRC_MEMINFO:
		r = meminfo_parse(buf, len, &s.mem, &err);
		break;
	case SRC_PSI_MEMORY:
		r = psi_parse(buf, len, &s.psi[PSI_MEMORY], &err);
		break;
	default:
		break;
	}
	tap_eq_int(r, 0, "%s parses", what);
	sample_proc_print(f, &s, src);
	fclose(f);
	if (!tap_ok(outlen == len && memcmp(out, buf, len) == 0, "%s prints back byte for byte", what)) {
		size_t i = 0;

		while (i < len && i < outlen && out[i] == buf[i])
			i++;
		printf("#   first difference at byte %zu: got \"%.40s\", want \"%.40s\"\n", i,
		       out + i, buf + i);
	}
	free(out);
	free(buf);
}

int
main(void)
{
	const char *L = "roots/live-6.18-x86_64";
	char p[256];

	snprintf(p, sizeof(p), "%s/buddyinfo", L);
	roundtrip(SRC_BUDDYINFO, p, "6.18 buddyinfo");
	snprintf(p, sizeof(p), "%s/pagetypeinfo", L);
	roundtrip(SRC_PAGETYPEINFO, p, "6.18 pagetypeinfo");
	snprintf(p, sizeof(p), "%s/vmstat", L);
	roundtrip(SRC_VMSTAT, p, "6.18 vmstat");
	snprintf(p, sizeof(p), "%s/meminfo", L);
	roundtrip(SRC_MEMINFO, p, "6.18 meminfo");
	snprintf(p, sizeof(p), "%s/pressure/memory", L);
	roundtrip(SRC_PSI_MEMORY, p, "6.18 pressure/memory");
	/* Verbatim attachments from 3.10 and 4.0: two nodes, the layout repeated. */
	roundtrip(SRC_BUDDYINFO, "proc/buddyinfo/lkml-fb-4.0-x86_64-2node-6digit-count.txt",
		  "4.0 two-node buddyinfo with 6-digit counts");
	roundtrip(SRC_PAGETYPEINFO, "proc/pagetypeinfo/lkml-fb-3.10-x86_64-2node-reserve-isolate.txt",
		  "3.10 two-node pagetypeinfo");
	roundtrip(SRC_PAGETYPEINFO, "proc/pagetypeinfo/lkml-fb-4.0-x86_64-2node-reserve-cma-isolate.txt",
		  "4.0 two-node pagetypeinfo with CMA");

	/* Capped counts print with their '>' as the kernel does since 5.4. */
	{
		char *out = NULL;
		size_t n;
		FILE *f = open_memstream(&out, &n);

		s.pti.free[0].capped = 1;
		s.pti.free[0].free[0] = 100000;
		sample_proc_print(f, &s, SRC_PAGETYPEINFO);
		fclose(f);
		tap_ok(strstr(out, "Unmovable >100000 ") != NULL, "a capped count prints as >100000");
		free(out);
	}
	s.status[SRC_VMSTAT].err = ENOENT;
	tap_ok(!sample_proc_print(stdout, &s, SRC_VMSTAT), "an absent source prints nothing");
	return tap_done();
}
