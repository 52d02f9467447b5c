/* Temperatures, fans, voltages and power from libsensors. libsensors finds
 * the chips and their labels once; each read then pread()s the sysfs files
 * it named, so sampling does not allocate. */
#ifndef PAGETOP_LIBSENSORS_H
#define PAGETOP_LIBSENSORS_H

#include "model/sensors.h"

struct sensors_source;

/* Finds the chips; never NULL unless out of memory. A failure of
 * libsensors leaves a source whose reads say why. */
struct sensors_source *sensors_open(void);
void sensors_close(struct sensors_source *src);
void sensors_read(struct sensors_source *src, struct sensors *out);

#endif
