#include "fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
fixture_dir(void)
{
	const char *d = getenv("FIXTURES");

	return d && *d ? d : FIXTURES_DIR;
}

char *
fixture_load(const char *rel, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	snprintf(path, sizeof(path), "%s/%s", fixture_dir(), rel);
	if (!(f = fopen(path, "rb"))) {
		printf("Bail out! cannot open fixture %s\n", path);
		exit(1);
	}
	do {
		if (n + 4096 + 1 > cap) {
			cap = (cap + 4096) * 2;
			if (!(buf = realloc(buf, cap)))
				exit(1);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
fixture_list(const char *dir)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	char **list = NULL;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", fixture_dir(), dir);
	if (!(d = opendir(path))) {
		printf("Bail out! cannot open fixture directory %s\n", path);
		exit(1);
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		list = realloc(list, (n + 2) * sizeof(*list));
		list[n] = malloc(strlen(dir) + strlen(de->d_name) + 2);
		sprintf(list[n], "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	if (!list)
		list = calloc(1, sizeof(*list));
	list[n] = NULL;
	qsort(list, n, sizeof(*list), cmp_str);
	return list;
}

void
fixture_list_free(char **list)
{
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

size_t
fixture_damage(const char *buf, size_t len,
	       int (*parse)(const char *buf, size_t len, void *ctx), void *ctx)
{
	size_t ok = 0;
	unsigned seed = 12345;

	for (size_t cut = 0; cut <= len; cut++) {
		char *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		ok += parse(copy, cut, ctx) == 0;
		free(copy);
	}
	for (int round = 0; round < 200 && len > 0; round++) {
		char *copy = malloc(len);

		memcpy(copy, buf, len);
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % len] = (char)(seed >> 20);
		}
		ok += parse(copy, len, ctx) == 0;
		free(copy);
	}
	return ok;
}
