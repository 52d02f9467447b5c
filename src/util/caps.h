/* Fixed caps on the shapes read from /proc. Samples are sized from the
 * first read within these, so sampling never allocates. */
#ifndef PAGETOP_CAPS_H
#define PAGETOP_CAPS_H

#define MAX_ORDERS	20	/* kernels print 9 to 17 order columns */
#define MAX_ZONES	64	/* node x zone rows (zoneinfo lists empty zones too) */
#define MAX_MTYPES	12	/* migratetypes in pagetypeinfo */
#define NAME_LEN	16	/* zone and migratetype names */
#define MAX_VMSTAT	512	/* /proc/vmstat counters (about 190 on 6.x) */
#define VMSTAT_NAME_LEN	48
#define MAX_MEMINFO	128	/* /proc/meminfo keys (about 60 on 6.x) */
#define MEMINFO_NAME_LEN 32

#endif
