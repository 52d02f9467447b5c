/* The vmstat and meminfo names a recording's keyframe refers to by number
 * (codec-names.c). Part of the recording format. */
#ifndef PAGETOP_CODEC_NAMES_H
#define PAGETOP_CODEC_NAMES_H

extern const char *const codec_vmstat_names[];
extern const int codec_vmstat_nnames;
extern const char *const codec_meminfo_names[];
extern const int codec_meminfo_nnames;

#endif
