/*
 * Sensors: whatever this machine has (often nothing, in a VM), then
 * made-up hwmon chips on a tmpfs mounted over /sys/class in a private
 * mount namespace, so libsensors finds them through its usual path and
 * every read goes through the real pread() code. The second part is
 * skipped where namespaces are not allowed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/libsensors.h"
#include "tap.h"

#define NO_SENSORS_WHY	"no sensors found (none exposed by the kernel: common in VMs)"

#include "alloc-count.h"

static void
skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
}

/* Open descriptors of this process, not counting the one used to list them. */
static int
count_fds(void)
{
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (!(d = opendir("/proc/self/fd")))
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

static bool
dir_has_entries(const char *path)
{
	DIR *d;
	struct dirent *de;
	bool any = false;

	if (!(d = opendir(path)))
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.';
	closedir(d);
	return any;
}

static const struct sensor_reading *
find(const struct sensors *s, const char *chip, const char *label)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->r[i].chip, chip) == 0 && strcmp(s->r[i].label, label) == 0)
			return &s->r[i];
	return NULL;
}

static bool
near(double got, double want)
{
	return fabs(got - want) < 1e-9;
}

static bool
same_names(const struct sensors *a, const struct sensors *b)
{
	if (a->n != b->n || a->available != b->available || strcmp(a->why, b->why) != 0)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->r[i].chip, b->r[i].chip) != 0 ||
		    strcmp(a->r[i].label, b->r[i].label) != 0 ||
		    a->r[i].kind != b->r[i].kind)
			return false;
	return true;
}

static bool
plausible(const struct sensor_reading *r)
{
	if (!r->valid)
		return isnan(r->value);
	switch (r->kind) {
	case SENSOR_TEMP:
		return r->value >= -50 && r->value <= 150;
	case SENSOR_FAN:
		return r->value >= 0 && r->value <= 30000;
	case SENSOR_VOLTAGE:
		return r->value >= -400 && r->value <= 400;
	case SENSOR_POWER:
		return r->value >= 0 && r->value <= 10000;
	default:
		return false;
	}
}

/* This machine's sensors, whatever they are. */
static void
test_live(void)
{
	static struct sensors a, b;
	struct sensors_source *src;
	int before, during, bad = 0;

	before = count_fds();
	if (!tap_ok((src = sensors_open()) != NULL, "live: sensors_open gives a source"))
		return;
	during = count_fds();
	sensors_read(src, &a);
	sensors_read(src, &b);
	if (!a.available) {
		tap_ok(strncmp(a.why, "libsensors could not start: ", 28) == 0,
		    "live: libsensors failed and says why: %s", a.why);
	} else if (a.n == 0) {
		if (!dir_has_entries("/sys/class/hwmon"))
			tap_eq_str(a.why, NO_SENSORS_WHY, "live: no hwmon devices, and why says so");
		else
			tap_ok(strncmp(a.why, "no ", 3) == 0, "live: no readings: %s", a.why);
	} else {
		for (int i = 0; i < a.n; i++) {
			if (!plausible(&a.r[i])) {
				printf("# %s %s: %g\n", a.r[i].chip, a.r[i].label, a.r[i].value);
				bad++;
			}
		}
		tap_ok(bad == 0, "live: all %d readings are plausible", a.n);
	}
	tap_eq_int(during - before, a.n, "live: one open descriptor per reading");
	tap_ok(same_names(&a, &b), "live: a second read has the same readings");
	sensors_close(src);
	tap_eq_int(count_fds(), before, "live: close leaves no descriptor open");

	for (int i = 0; i < 20; i++) {
		src = sensors_open();
		sensors_read(src, &b);
		sensors_close(src);
	}
	tap_eq_int(count_fds(), before, "live: 20 open/read/close cycles leave no descriptor open");
	tap_ok(same_names(&a, &b), "live: reopening finds the same readings");
	sensors_close(NULL);
	tap_ok(1, "live: sensors_close(NULL) is harmless");
}

static int
write_file(const char *path, const char *text)
{
	int fd;
	ssize_t n;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/* Writes "dir/name" under the fake /sys/class/hwmon. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/hwmon/%s/%s", dir, name);
	if (write_file(path, text) < 0)
		printf("Bail out! cannot write %s\n", path);
}

static void
chip(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/hwmon/%s", dir);
	mkdir(path, 0755);
	put(dir, "name", name);
}

/* A fresh, empty /sys/class/hwmon on top of whatever was there. */
static bool
fresh_hwmon(void)
{
	if (mount("pagetop-test", "/sys/class", "tmpfs", 0, "mode=0755") < 0)
		return false;
	return mkdir("/sys/class/hwmon", 0755) == 0;
}

/* A private mount namespace where /sys/class can be replaced. */
static bool
private_mounts(char *why, size_t size)
{
	char map[64];

	if (geteuid() != 0) {
		uid_t uid = getuid();
		gid_t gid = getgid();

		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
			snprintf(why, size, "no user namespace: %s", strerror(errno));
			return false;
		}
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
		write_file("/proc/self/uid_map", map);
		write_file("/proc/self/setgroups", "deny\n");
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
		write_file("/proc/self/gid_map", map);
	} else if (unshare(CLONE_NEWNS) < 0) {
		snprintf(why, size, "no mount namespace: %s", strerror(errno));
		return false;
	}
	/* Without this the tmpfs could propagate back to the real /sys. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0) {
		snprintf(why, size, "cannot make mounts private: %s", strerror(errno));
		return false;
	}
	if (!fresh_hwmon()) {
		snprintf(why, size, "cannot mount a tmpfs on /sys/class: %s", strerror(errno));
		return false;
	}
	return true;
}

static void
test_fake_chips(void)
{
	static struct sensors s;
	const struct sensor_reading *r;
	struct sensors_source *src;
	int before, bad;
	bool eio;

	chip("hwmon0", "fakechip\n");
	put("hwmon0", "in0_input", "1212\n");
	put("hwmon0", "in0_max", "1500\n");
	put("hwmon0", "fan1_input", "1200\n");
	put("hwmon0", "temp1_input", "45000\n");
	put("hwmon0", "temp1_max", "80000\n");
	put("hwmon0", "temp1_crit", "100000\n");
	put("hwmon0", "temp1_label", "Package id 0\n");
	put("hwmon0", "temp2_input", "-5500\n");
	put("hwmon0", "temp2_max", "0\n");
	put("hwmon0", "power1_average", "25300000\n");
	put("hwmon0", "power1_cap", "65000000\n");
	put("hwmon0", "curr1_input", "500\n");
	chip("hwmon1", "broken\n");
	put("hwmon1", "temp1_input", "garbage\n");
	/* A regular file whose pread() fails: /proc/self/mem at offset 0
	 * gives EIO, like a sensor that does not answer. */
	put("hwmon1", "temp2_input", "");
	eio = mount("/proc/self/mem", "/sys/class/hwmon/hwmon1/temp2_input", "none",
	    MS_BIND, NULL) == 0;
	put("hwmon1", "temp3_input", "1234567890123456789012345678901234567890\n");
	chip("hwmon2", "nothing\n");

	before = count_fds();
	src = sensors_open();
	sensors_read(src, &s);
	if (!s.available) {
		skip("libsensors does not start here");
		sensors_close(src);
		return;
	}
	tap_eq_int(s.n, 8, "fake: 5 readings of fakechip, 3 of broken, none of curr1");
	tap_eq_int(count_fds() - before, s.n, "fake: one open descriptor per reading");

	r = find(&s, "fakechip-virtual-0", "Package id 0");
	tap_ok(r && r->kind == SENSOR_TEMP && r->valid && near(r->value, 45.0),
	    "fake: temp1 is 45.000 C, labelled from temp1_label");
	tap_ok(r && near(r->high, 80.0) && near(r->crit, 100.0), "fake: temp1 high 80, crit 100");
	r = find(&s, "fakechip-virtual-0", "temp2");
	tap_ok(r && r->valid && near(r->value, -5.5), "fake: temp2 is -5.5 C");
	tap_ok(r && isnan(r->high) && isnan(r->crit), "fake: temp2 max 0 means no limit");
	r = find(&s, "fakechip-virtual-0", "in0");
	tap_ok(r && r->kind == SENSOR_VOLTAGE && r->valid && near(r->value, 1.212),
	    "fake: in0 is 1.212 V");
	tap_ok(r && near(r->high, 1.5) && isnan(r->crit), "fake: in0 max 1.5 V, no crit");
	r = find(&s, "fakechip-virtual-0", "fan1");
	tap_ok(r && r->kind == SENSOR_FAN && r->valid && near(r->value, 1200),
	    "fake: fan1 is 1200 RPM");
	r = find(&s, "fakechip-virtual-0", "power1");
	tap_ok(r && r->kind == SENSOR_POWER && r->valid && near(r->value, 25.3),
	    "fake: power1 from power1_average is 25.3 W");
	tap_ok(r && near(r->high, 65.0), "fake: power1 cap is its high limit");
	r = find(&s, "broken-virtual-0", "temp1");
	tap_ok(r && !r->valid && isnan(r->value), "fake: a garbled value is invalid");
	r = find(&s, "broken-virtual-0", "temp2");
	tap_ok(r && !r->valid && isnan(r->value), "fake: %s is invalid",
	    eio ? "a pread failing with EIO" : "an empty file (no bind mount for EIO)");
	r = find(&s, "broken-virtual-0", "temp3");
	tap_ok(r && !r->valid, "fake: an overlong value is invalid");

	/* The same descriptors see new values. */
	put("hwmon0", "temp1_input", "46500\n");
	sensors_read(src, &s);
	r = find(&s, "fakechip-virtual-0", "Package id 0");
	tap_ok(r && r->valid && near(r->value, 46.5), "fake: a new value is read through the open file");
	put("hwmon0", "temp1_input", "oops\n");
	sensors_read(src, &s);
	r = find(&s, "fakechip-virtual-0", "Package id 0");
	tap_ok(r && !r->valid, "fake: then a bad value marks it invalid");
	put("hwmon0", "temp1_input", "47000\n");
	sensors_read(src, &s);
	r = find(&s, "fakechip-virtual-0", "Package id 0");
	tap_ok(r && r->valid && near(r->value, 47.0), "fake: and a good one makes it valid again");

#ifdef COUNT_ALLOCS
	{
		long a0 = allocs;

		for (int i = 0; i < 100; i++)
			sensors_read(src, &s);
		tap_eq_int(allocs - a0, 0, "fake: 100 reads allocate nothing");
	}
#else
	skip("allocations are not counted under AddressSanitizer");
#endif
	sensors_close(src);
	tap_eq_int(count_fds(), before, "fake: close closes every descriptor");

	/* Many chips: the first MAX_SENSORS readings are kept. */
	if (!fresh_hwmon()) {
		printf("Bail out! cannot mount a second tmpfs: %s\n", strerror(errno));
		return;
	}
	bad = 0;
	for (int c = 0; c < 3; c++) {
		char dir[16], name[32];

		snprintf(dir, sizeof(dir), "hwmon%d", c);
		chip(dir, "many\n");
		for (int t = 1; t <= 30; t++) {
			snprintf(name, sizeof(name), "temp%d_input", t);
			put(dir, name, "30000\n");
		}
	}
	src = sensors_open();
	sensors_read(src, &s);
	tap_eq_int(s.n, MAX_SENSORS, "fake: 90 temperatures are capped at MAX_SENSORS");
	tap_eq_int(count_fds() - before, MAX_SENSORS, "fake: and only those keep a descriptor");
	for (int i = 0; i < s.n; i++)
		bad += !s.r[i].valid || !near(s.r[i].value, 30.0);
	tap_eq_int(bad, 0, "fake: all of them read 30 C");
	sensors_close(src);

	/* A chip without any reading we show. */
	fresh_hwmon();
	chip("hwmon0", "currentonly\n");
	put("hwmon0", "curr1_input", "1000\n");
	src = sensors_open();
	sensors_read(src, &s);
	tap_ok(s.available && s.n == 0, "fake: a chip with only currents gives no readings");
	tap_eq_str(s.why, "no temperature, fan, voltage or power readings on 1 chip",
	    "fake: and why says so");
	sensors_close(src);

	/* No chip at all. */
	fresh_hwmon();
	src = sensors_open();
	sensors_read(src, &s);
	tap_ok(s.available && s.n == 0, "fake: an empty hwmon class is available with no readings");
	tap_eq_str(s.why, NO_SENSORS_WHY, "fake: and why says none are exposed");
	sensors_close(src);
	tap_eq_int(count_fds(), before, "fake: no descriptor left open at the end");
}

int
main(void)
{
	char why[128];

	test_live();
	/* Last: this process's mounts are not the system's after this. */
	if (private_mounts(why, sizeof(why)))
		test_fake_chips();
	else
		skip(why);
	return tap_done();
}
