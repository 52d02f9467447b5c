/* Sensor readings of one tick: temperatures, fans, voltages and power.
 * Filled by source/libsensors.c on the live system. */
#ifndef PAGETOP_SENSORS_H
#define PAGETOP_SENSORS_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_SENSORS	64

enum sensor_kind { SENSOR_TEMP, SENSOR_FAN, SENSOR_VOLTAGE, SENSOR_POWER, SENSOR_KIND_COUNT };

struct sensor_reading {
	char chip[32];		/* "coretemp-isa-0000" */
	char label[32];		/* "Package id 0" */
	enum sensor_kind kind;
	bool valid;		/* the last read worked */
	double value;		/* degrees C, RPM, volts, watts */
	double high;		/* NAN when the chip has none */
	double crit;
};

struct sensors {
	int n;
	struct sensor_reading r[MAX_SENSORS];
	bool available;		/* libsensors initialised */
	char why[96];		/* when !available or n == 0: why nothing is shown */
};

#endif
