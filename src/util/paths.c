#include "util/paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/pagetop"
#endif

void
paths_data(const char *name, char *dst, size_t size)
{
	const char *env = getenv("PAGETOP_DATADIR");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(dst, size, "%s/%s", env, name);
		return;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
		char *slash;

		exe[n] = '\0';
		if ((slash = strrchr(exe, '/'))) {
			*slash = '\0';
			snprintf(dst, size, "%s/data/%s", exe, name);
			if (access(dst, R_OK) == 0)
				return;
		}
	}
	snprintf(dst, size, "%s/%s", PKGDATADIR, name);
}

void
paths_config(const char *name, char *dst, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(dst, size, "%s/pagetop/%s", xdg, name);
	else
		snprintf(dst, size, "%s/.config/pagetop/%s", home && *home ? home : "/", name);
}
