/*
 * Sensors through libsensors, read without allocating.
 *
 * libsensors finds the chips, honours the "ignore" and "label" statements
 * of sensors.conf and names everything; that happens once, in
 * sensors_open(). Its sensors_get_value() then fopen()s and fscanf()s a
 * sysfs file per value, which allocates on every call, and the dashboard
 * must not allocate while it samples. So at open time we note, per reading,
 * the file libsensors itself would read (chip->path "/" subfeature->name,
 * e.g. /sys/class/hwmon/hwmon0/temp1_input), keep it open, and each read
 * is one pread() at offset 0 into a stack buffer, scaled the way libsensors
 * scales it (sysfs counts millidegrees, millivolts and microwatts).
 *
 * What this gives up: the "compute" statements of sensors.conf (voltage
 * dividers on old Super-I/O chips, offsets) are not applied. libsensors
 * evaluates them inside sensors_get_value() and does not hand out the
 * expression, so applying them would mean calling it, and allocating,
 * every tick. Limits are read once, at open, from their raw files too, so
 * a value and its limits always agree with each other.
 *
 * Chips are found once: one that appears later is not seen, one that goes
 * away reads as invalid. libsensors keeps its state in globals, so only
 * one source may be open at a time.
 *
 * Since nothing is asked of libsensors after that, it is loaded with
 * dlopen() for the discovery and unloaded after it, as htop does: it and
 * the libm it pulls in would otherwise stay mapped for the whole run,
 * about 0.6 MB of resident memory for a few milliseconds of work.
 */
#include "source/libsensors.h"

#include "config.h"

#include <sensors/error.h>
#include <sensors/sensors.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_SUBFEATURE	SENSORS_SUBFEATURE_UNKNOWN

/* What we take from each kind of libsensors feature. */
struct sensors_kind_info {
	sensors_feature_type feature;
	enum sensor_kind kind;
	double scale;		/* sysfs units per unit shown */
	/* The first that exists of each pair is used. */
	sensors_subfeature_type input[2];
	sensors_subfeature_type high[2];
	sensors_subfeature_type crit;
};

static const struct sensors_kind_info sensors_kinds[] = {
	{ SENSORS_FEATURE_TEMP, SENSOR_TEMP, 1e3,
	  { SENSORS_SUBFEATURE_TEMP_INPUT, NO_SUBFEATURE },
	  { SENSORS_SUBFEATURE_TEMP_MAX, NO_SUBFEATURE },
	  SENSORS_SUBFEATURE_TEMP_CRIT },
	{ SENSORS_FEATURE_FAN, SENSOR_FAN, 1,
	  { SENSORS_SUBFEATURE_FAN_INPUT, NO_SUBFEATURE },
	  { SENSORS_SUBFEATURE_FAN_MAX, NO_SUBFEATURE },
	  NO_SUBFEATURE },
	{ SENSORS_FEATURE_IN, SENSOR_VOLTAGE, 1e3,
	  { SENSORS_SUBFEATURE_IN_INPUT, NO_SUBFEATURE },
	  { SENSORS_SUBFEATURE_IN_MAX, NO_SUBFEATURE },
	  SENSORS_SUBFEATURE_IN_CRIT },
	{ SENSORS_FEATURE_POWER, SENSOR_POWER, 1e6,
	  { SENSORS_SUBFEATURE_POWER_INPUT, SENSORS_SUBFEATURE_POWER_AVERAGE },
	  { SENSORS_SUBFEATURE_POWER_MAX, SENSORS_SUBFEATURE_POWER_CAP },
	  SENSORS_SUBFEATURE_POWER_CRIT },
};

struct sensors_source {
	struct sensors tmpl;		/* names, kinds, limits; values per read */
	int fd[MAX_SENSORS];		/* the open input file of each reading */
	double scale[MAX_SENSORS];
};

/* The libsensors calls we make, from dlopen(); set only inside sensors_open(). */
static struct {
	int (*init)(FILE *input);
	void (*cleanup)(void);
	const sensors_chip_name *(*get_detected_chips)(const sensors_chip_name *match, int *nr);
	const sensors_feature *(*get_features)(const sensors_chip_name *name, int *nr);
	const sensors_subfeature *(*get_subfeature)(const sensors_chip_name *name,
						    const sensors_feature *feature,
						    sensors_subfeature_type type);
	char *(*get_label)(const sensors_chip_name *name, const sensors_feature *feature);
	int (*snprintf_chip_name)(char *str, size_t size, const sensors_chip_name *chip);
	const char *(*strerror)(int errnum);
	void (**parse_error_wfn)(const char *err, const char *filename, int lineno);
} lib;

/* Loads libsensors into lib; its handle, or NULL with why. */
static void *
sensors_load(char *why, size_t size)
{
	void *dl = dlopen(SENSORS_SONAME, RTLD_NOW | RTLD_LOCAL);
	struct { void *dst; const char *name; } syms[] = {
		{ &lib.init, "sensors_init" },
		{ &lib.cleanup, "sensors_cleanup" },
		{ &lib.get_detected_chips, "sensors_get_detected_chips" },
		{ &lib.get_features, "sensors_get_features" },
		{ &lib.get_subfeature, "sensors_get_subfeature" },
		{ &lib.get_label, "sensors_get_label" },
		{ &lib.snprintf_chip_name, "sensors_snprintf_chip_name" },
		{ &lib.strerror, "sensors_strerror" },
		{ &lib.parse_error_wfn, "sensors_parse_error_wfn" },
	};

	if (!dl) {
		snprintf(why, size, "libsensors could not be loaded: %s", dlerror());
		return NULL;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *p = dlsym(dl, syms[i].name);

		if (!p) {
			snprintf(why, size, "libsensors lacks %s", syms[i].name);
			dlclose(dl);
			return NULL;
		}
		/* POSIX guarantees a function pointer survives this round trip. */
		memcpy(syms[i].dst, &p, sizeof(p));
	}
	return dl;
}

/* The first parse error libsensors reports while it starts; its default
 * handler would print over the screen. Only written inside sensors_open(). */
static char sensors_init_error[64];

static void
sensors_on_parse_error(const char *err, const char *filename, int lineno)
{
	if (sensors_init_error[0])
		return;
	if (filename && lineno > 0)
		snprintf(sensors_init_error, sizeof(sensors_init_error), "%s:%d: %s",
		    filename, lineno, err);
	else
		snprintf(sensors_init_error, sizeof(sensors_init_error), "%s", err);
}

/*
 * A sysfs hwmon value: an optional minus, decimal digits, an optional
 * newline, nothing else. Converted by hand because strtod() may allocate
 * and accepts far more than the ABI allows.
 */
static int
sensors_parse_raw(const char *buf, size_t len, double scale, double *out)
{
	long long v = 0;
	size_t i = 0;
	bool neg = false;

	if (i < len && buf[i] == '-') {
		neg = true;
		i++;
	}
	if (i == len || buf[i] < '0' || buf[i] > '9')
		return -EINVAL;
	for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (v > (LLONG_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (buf[i] - '0');
	}
	if (i < len && buf[i] == '\n')
		i++;
	if (i != len)
		return -EINVAL;
	*out = (double)(neg ? -v : v) / scale;
	return 0;
}

/* One pread() of a whole attribute: sysfs hands it out in one piece. */
static int
sensors_pread(int fd, double scale, double *out)
{
	char buf[32];
	ssize_t n;

	if ((n = pread(fd, buf, sizeof(buf), 0)) < 0)
		return -errno;
	if ((size_t)n == sizeof(buf))
		return -EINVAL;		/* longer than any hwmon value */
	return sensors_parse_raw(buf, (size_t)n, scale, out);
}

/* A limit, read once. Zero or less means the chip has none set. */
static double
sensors_read_limit(const sensors_chip_name *chip, const sensors_feature *f,
    const sensors_subfeature_type *types, int ntypes, double scale)
{
	const sensors_subfeature *sf = NULL;
	char path[PATH_MAX];
	double v = NAN;
	int fd;

	for (int i = 0; i < ntypes && !sf; i++)
		if (types[i] != NO_SUBFEATURE)
			sf = lib.get_subfeature(chip, f, types[i]);
	if (!sf || !(sf->flags & SENSORS_MODE_R))
		return NAN;
	if (snprintf(path, sizeof(path), "%s/%s", chip->path, sf->name) >= (int)sizeof(path))
		return NAN;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NAN;
	if (sensors_pread(fd, scale, &v) < 0 || v <= 0)
		v = NAN;
	close(fd);
	return v;
}

static const struct sensors_kind_info *
sensors_kind_of(sensors_feature_type type)
{
	for (size_t i = 0; i < sizeof(sensors_kinds) / sizeof(sensors_kinds[0]); i++)
		if (sensors_kinds[i].feature == type)
			return &sensors_kinds[i];
	return NULL;
}

/* Adds one feature as a reading when it has a readable input file. */
static void
sensors_add_feature(struct sensors_source *src, const sensors_chip_name *chip,
    const char *chip_name, const sensors_feature *f)
{
	const struct sensors_kind_info *ki;
	const sensors_subfeature *sf = NULL;
	struct sensor_reading *r;
	char path[PATH_MAX], *label;
	int fd;

	if (!(ki = sensors_kind_of(f->type)))
		return;
	for (int i = 0; i < 2 && !sf; i++)
		if (ki->input[i] != NO_SUBFEATURE)
			sf = lib.get_subfeature(chip, f, ki->input[i]);
	if (!sf || !(sf->flags & SENSORS_MODE_R))
		return;
	if (snprintf(path, sizeof(path), "%s/%s", chip->path, sf->name) >= (int)sizeof(path))
		return;
	/* A file we cannot open now will not open later: leave it out. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;

	r = &src->tmpl.r[src->tmpl.n];
	memset(r, 0, sizeof(*r));
	snprintf(r->chip, sizeof(r->chip), "%s", chip_name);
	if ((label = lib.get_label(chip, f))) {
		snprintf(r->label, sizeof(r->label), "%s", label);
		free(label);
	} else
		snprintf(r->label, sizeof(r->label), "%s", f->name);
	r->kind = ki->kind;
	r->valid = false;
	r->value = NAN;
	r->high = sensors_read_limit(chip, f, ki->high, 2, ki->scale);
	r->crit = sensors_read_limit(chip, f, &ki->crit, 1, ki->scale);
	src->fd[src->tmpl.n] = fd;
	src->scale[src->tmpl.n] = ki->scale;
	src->tmpl.n++;
}

static void
sensors_add_chip(struct sensors_source *src, const sensors_chip_name *chip)
{
	const sensors_feature *f;
	char name[sizeof(src->tmpl.r[0].chip)];
	int nr = 0;

	if (!chip->path)
		return;
	if (lib.snprintf_chip_name(name, sizeof(name), chip) < 0)
		snprintf(name, sizeof(name), "%s", chip->prefix ? chip->prefix : "?");
	while (src->tmpl.n < MAX_SENSORS && (f = lib.get_features(chip, &nr)))
		sensors_add_feature(src, chip, name, f);
}

struct sensors_source *
sensors_open(void)
{
	struct sensors_source *src;
	struct sensors *t;
	const sensors_chip_name *chip;
	int nr = 0, chips = 0, err;
	void *dl;

	if (!(src = calloc(1, sizeof(*src))))
		return NULL;
	t = &src->tmpl;
	for (int i = 0; i < MAX_SENSORS; i++)
		src->fd[i] = -1;

	if (!(dl = sensors_load(t->why, sizeof(t->why))))
		return src;
	sensors_init_error[0] = '\0';
	*lib.parse_error_wfn = sensors_on_parse_error;
	if ((err = lib.init(NULL)) != 0) {
		snprintf(t->why, sizeof(t->why), "libsensors could not start: %s%s%s",
		    lib.strerror(err), sensors_init_error[0] ? ": " : "",
		    sensors_init_error);
		dlclose(dl);
		return src;
	}
	t->available = true;
	while (t->n < MAX_SENSORS && (chip = lib.get_detected_chips(NULL, &nr))) {
		chips++;
		sensors_add_chip(src, chip);
	}
	if (chips == 0)
		snprintf(t->why, sizeof(t->why),
		    "no sensors found (none exposed by the kernel: common in VMs)");
	else if (t->n == 0)
		snprintf(t->why, sizeof(t->why),
		    "no temperature, fan, voltage or power readings on %d chip%s",
		    chips, chips == 1 ? "" : "s");
	/* Everything is noted and the files are open: the library can go. */
	lib.cleanup();
	dlclose(dl);
	return src;
}

void
sensors_close(struct sensors_source *src)
{
	if (!src)
		return;
	for (int i = 0; i < src->tmpl.n; i++)
		if (src->fd[i] >= 0)
			close(src->fd[i]);
	free(src);
}

void
sensors_read(struct sensors_source *src, struct sensors *out)
{
	*out = src->tmpl;
	for (int i = 0; i < out->n; i++) {
		struct sensor_reading *r = &out->r[i];

		/* A failed read (EIO from a sleeping disk, a garbled value)
		 * only marks this tick's reading: the next may work. */
		r->valid = sensors_pread(src->fd[i], src->scale[i], &r->value) == 0;
		if (!r->valid)
			r->value = NAN;
	}
}
