/* The sampler on proc roots made of captured files, and once on the live /proc. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "model/sample.h"
#include "source/sampler.h"
#include "tap.h"

static char tmp[] = "/tmp/pagetop-test-sample-XXXXXX";

static void
put(const char *rel, const char *text, size_t len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	if (strchr(rel, '/')) {
		char dir[4200];

		snprintf(dir, sizeof(dir), "%s/pressure", tmp);
		mkdir(dir, 0755);
	}
	if (!(f = fopen(path, "w"))) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	fwrite(text, 1, len, f);
	fclose(f);
}

static void
put_fixture(const char *rel, const char *fixture)
{
	size_t len;
	char *buf = fixture_load(fixture, &len);

	put(rel, buf, len);
	free(buf);
}

static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

int
main(void)
{
	static struct sample s;
	struct sampler sp;
	char why[200];
	static const char *const live[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo",
		"pressure/cpu", "pressure/memory", "pressure/io", "uptime", NULL
	};

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	tap_eq_int(sampler_init(&sp, "/nonexistent/proc"), -ENOENT, "a missing root is an error");
	tap_eq_int(sampler_init(&sp, "/etc/passwd"), -ENOTDIR, "a file is not a root");

	/* An empty root: every source absent, none an error. */
	tap_eq_int(sampler_init(&sp, tmp), 0, "an empty directory is a root");
	sampler_read(&sp, &s, SRC_ALL);
	tap_eq_int(s.status[SRC_BUDDYINFO].err, ENOENT, "empty root: buddyinfo absent");
	source_reason(&s.status[SRC_PSI_MEMORY], why, sizeof(why));
	tap_eq_str(why, "not present (kernel without it)", "empty root: PSI absent, said plainly");
	tap_ok(s.page_size > 0, "the page size is this machine's");

	/* A full capture of this kernel's files. */
	for (int i = 0; live[i]; i++) {
		char fx[256];

		snprintf(fx, sizeof(fx), "roots/live-6.18-x86_64/%s", live[i]);
		put_fixture(live[i], fx);
	}
	sampler_read(&sp, &s, SRC_ALL);
	for (int i = 0; i < SRC_FILE_COUNT; i++)
		if (i != SRC_PSI_IRQ)
			tap_ok(sample_has(&s, i), "live capture: %s read", source_name(i));
	tap_eq_int(s.status[SRC_TASKS].err, SRC_NOT_READ, "the sampler leaves the task scan to its owner");
	tap_eq_int(s.status[SRC_PSI_IRQ].err, ENOENT, "live capture: no pressure/irq on this kernel");
	tap_eq_int(s.buddy.n_zones, 3, "live capture: 3 zones");
	tap_eq_int(s.pti.pageblock_order, 9, "live capture: pageblock order 9");
	tap_ok(s.psi[PSI_MEMORY].some.present && s.psi[PSI_MEMORY].full.present, "live capture: PSI memory");

	/* Only what the mask asks for is read. */
	sampler_read(&sp, &s, SRC_ALL & ~SRC_BIT(SRC_PAGETYPEINFO));
	tap_eq_int(s.status[SRC_PAGETYPEINFO].err, SRC_NOT_READ, "masked source is marked not read");

	/* A file replaced between ticks is seen (descriptors are not kept outside procfs). */
	put("buddyinfo", "Node 0, zone   Normal 1 2 3\n", 28);
	sampler_read(&sp, &s, SRC_ALL);
	tap_ok(sample_has(&s, SRC_BUDDYINFO) && s.buddy.n_zones == 1 && s.buddy.zones[0].free[2] == 3,
	       "replaced buddyinfo is read anew");

	/* A damaged file marks that source malformed, with its line; the rest stays. */
	put("buddyinfo", "Node 0, zone   Normal 1 2 3\nNode 0, zone Movable 1 2\n", 54);
	sampler_read(&sp, &s, SRC_ALL);
	tap_eq_int(s.status[SRC_BUDDYINFO].err, EINVAL, "damaged buddyinfo is malformed");
	tap_eq_int(s.status[SRC_BUDDYINFO].line, 2, "... on line 2");
	source_reason(&s.status[SRC_BUDDYINFO], why, sizeof(why));
	tap_ok(strncmp(why, "malformed: line 2: ", 19) == 0, "reason names the line: %s", why);
	tap_ok(sample_has(&s, SRC_VMSTAT) && sample_has(&s, SRC_MEMINFO), "other sources unaffected");
	sampler_free(&sp);

	/* The live /proc: descriptors stay open and reads do not leak any. */
	if (sampler_init(&sp, "/proc") == 0) {
		int before;

		tap_ok(sp.fs.is_procfs, "/proc is recognised as procfs");
		sampler_read(&sp, &s, SRC_ALL);
		before = count_fds();
		for (int k = 0; k < 50; k++)
			sampler_read(&sp, &s, SRC_ALL);
		tap_eq_int(count_fds(), before, "50 reads of /proc open no new descriptors");
		tap_ok(sample_has(&s, SRC_BUDDYINFO) && s.buddy.n_zones > 0, "live /proc buddyinfo");
		tap_ok(sample_has(&s, SRC_VMSTAT) && s.vm.n > 50, "live /proc vmstat has %d counters", s.vm.n);
		sampler_free(&sp);
	}
	for (int i = 0; live[i]; i++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", tmp, live[i]);
		unlink(path);
	}
	{
		char path[4200];

		snprintf(path, sizeof(path), "%s/pressure", tmp);
		rmdir(path);
	}
	rmdir(tmp);
	return tap_done();
}
