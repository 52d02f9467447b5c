/* libzstd linked (the tests, the benches): it is always there. The binary
 * has zstd-dl.c's instead, found before the archive's. */
#include "ptrec/zstd-dl.h"

#include <stddef.h>

const char *
zstd_dl_why(void)
{
	return NULL;
}
