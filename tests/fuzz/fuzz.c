/* What every fuzz target shares: the registry, failing, seeds, and, built
 * with FUZZ_LIBFUZZER, libFuzzer's entry points. */
#include "fuzz.h"
#include "util/text.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/sample-proc.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static struct fuzz_target *registered;

void
fuzz_register(struct fuzz_target *t)
{
	t->next = registered;
	registered = t;
}

struct fuzz_target *
fuzz_targets(void)
{
	return registered;
}

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

const char *
fuzz_srcdir(void)
{
	const char *d = getenv("PAGETOP_SRCDIR");

	return d && *d ? d : TOP_SRCDIR;
}

void
fuzz_path(char *dst, size_t size, const char *rel)
{
	snprintf(dst, size, "%s/%s", fuzz_srcdir(), rel);
}

void
fuzz_check_name(const char *what, const char *s, size_t size)
{
	if (memchr(s, '\0', size) == NULL)
		fuzz_fail("%s: no NUL within its %zu bytes", what, size);
}

int
fuzz_lines(const uint8_t *data, size_t len)
{
	struct text_cursor c;
	struct span line;

	text_cursor_init(&c, (const char *)data, len);
	while (text_next_line(&c, &line))
		;
	return c.line;
}

void
fuzz_check_error(const char *what, const struct parse_error *err, const uint8_t *data,
		 size_t len)
{
	fuzz_check_name(what, err->msg, sizeof(err->msg));
	if (err->msg[0] == '\0')
		fuzz_fail("%s: rejected without a message", what);
	if (err->line < 0 || err->line > fuzz_lines(data, len))
		fuzz_fail("%s: error on line %d of %d", what, err->line, fuzz_lines(data, len));
}

char *
fuzz_with_newline(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, len);
	s[len] = '\n';
	return s;
}

char *
fuzz_print_proc(const struct sample *s, int src, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (f == NULL)
		abort();
	if (!sample_proc_print(f, s, (enum source)src))
		fuzz_fail("sample_proc_print: source %d not printed", src);
	if (fclose(f) != 0)
		abort();
	return out;
}

/* The whole of a file, malloc'd; NULL if it cannot be read. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *nb;
	size_t cap = 0, n = 0, r;

	if (f == NULL)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path: a file, or a directory whose files (sorted) are each a seed. */
static int
emit_path(const char *path, const char *name, bool missing_ok, fuzz_emit_fn *emit, void *ctx)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL, **nn, sub[4096], subname[4096];
	size_t n = 0, i, len;
	uint8_t *buf;
	DIR *d;
	int r = 0;

	if (stat(path, &st) != 0) {
		if (missing_ok && errno == ENOENT)
			return 0;
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if ((buf = slurp(path, &len)) == NULL) {
			fprintf(stderr, "fuzz: %s: cannot read it\n", path);
			return -1;
		}
		emit(name, buf, len, ctx);
		free(buf);
		return 0;
	}
	if ((d = opendir(path)) == NULL) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((nn = realloc(names, (n + 1) * sizeof(*names))) == NULL ||
		    (nn[n] = strdup(de->d_name)) == NULL)
			abort();
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", path, names[i]);
		snprintf(subname, sizeof(subname), "%s/%s", name, names[i]);
		if (emit_path(sub, subname, false, emit, ctx) < 0)
			r = -1;
		free(names[i]);
	}
	free(names);
	return r;
}

int
fuzz_emit_path(const char *rel, fuzz_emit_fn *emit, void *ctx)
{
	char path[4096];

	fuzz_path(path, sizeof(path), rel);
	return emit_path(path, rel, false, emit, ctx);
}

int
fuzz_seeds(const struct fuzz_target *t, fuzz_emit_fn *emit, void *ctx)
{
	char path[4096], rel[512];
	int r = 0;

	for (const char *const *s = t->seeds; *s != NULL; s++)
		if (fuzz_emit_path(*s, emit, ctx) < 0)
			r = -1;
	if (t->make_seeds != NULL)
		t->make_seeds(emit, ctx);
	snprintf(rel, sizeof(rel), "tests/fuzz/regress/%s", t->name);
	fuzz_path(path, sizeof(path), rel);
	if (emit_path(path, rel, true, emit, ctx) < 0)
		r = -1;
	return r;
}

#ifdef FUZZ_LIBFUZZER

static struct fuzz_target *only;

struct seed_dir {
	const char *dir;
	int n;
	int err;
};

static void
write_seed(const char *name, const uint8_t *data, size_t len, void *ctx)
{
	struct seed_dir *sd = ctx;
	char path[4096];
	const char *base = strrchr(name, '/');
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%03d-%.200s", sd->dir, sd->n++,
		 base ? base + 1 : name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(data, 1, len, f) != len ||
	    fclose(f) != 0) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		sd->err = 1;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* With PAGETOP_FUZZ_SEEDS=DIR, writes the seeds into DIR and exits:
 * tests/fuzz/run.sh fills each run's corpus so. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct seed_dir sd = { getenv("PAGETOP_FUZZ_SEEDS"), 0, 0 };

	(void)argc;
	(void)argv;
	only = fuzz_targets();
	if (only == NULL || only->next != NULL) {
		fprintf(stderr, "fuzz: a fuzzer is built with exactly one target\n");
		exit(2);
	}
	if (sd.dir == NULL)
		return 0;
	if (fuzz_seeds(only, write_seed, &sd) < 0 || sd.err)
		exit(1);
	printf("%s: %d seeds in %s\n", only->name, sd.n, sd.dir);
	exit(0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	only->run(data, len);
	return 0;
}

#endif

bool
fuzz_plain(const char *name)
{
	char esc[TEXT_ESCAPED_SIZE(256)];

	return strlen(name) < 256 && strcmp(text_esc(esc, sizeof(esc), name), name) == 0;
}
