/*
 * make check's side of the fuzz targets: every target on each of its seeds
 * and on each input in tests/fuzz/regress/TARGET/ (inputs a fuzzer found),
 * one test point each. Each input runs in a child process in a buffer of
 * exactly its size, so an abort or a sanitizer report fails that point
 * alone. Arguments, if any, name the targets to run.
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tap.h"

struct run {
	const struct fuzz_target *t;
	int inputs;
};

static void
run_one(const char *name, const uint8_t *data, size_t len, void *ctx)
{
	struct run *rn = ctx;
	uint8_t *copy = malloc(len ? len : 1);
	pid_t pid;
	int status;

	if (copy == NULL)
		abort();
	memcpy(copy, data, len);
	rn->inputs++;
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		rn->t->run(copy, len);
		free(copy);
		exit(0);
	}
	free(copy);
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		exit(1);
	}
	if (!tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s (%zu bytes)",
		    rn->t->name, name, len)) {
		if (WIFSIGNALED(status))
			printf("#   killed by signal %d (%s); the reason is on stderr\n",
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			printf("#   exit status %d; the reason is on stderr\n", WEXITSTATUS(status));
	}
}

static bool
wanted(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return true;
	return false;
}

static int
by_name(const void *a, const void *b)
{
	const struct fuzz_target *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int
main(int argc, char **argv)
{
	const struct fuzz_target *list[64];
	size_t n = 0;

	for (const struct fuzz_target *t = fuzz_targets(); t != NULL && n < 64; t = t->next)
		list[n++] = t;
	qsort(list, n, sizeof(list[0]), by_name);
	tap_ok(n > 0 && n < 64, "%zu fuzz targets linked in", n);
	for (size_t i = 0; i < n; i++) {
		struct run rn = { list[i], 0 };
		int r;

		if (!wanted(list[i]->name, argc, argv))
			continue;
		r = fuzz_seeds(list[i], run_one, &rn);
		tap_ok(r == 0 && rn.inputs > 0, "%s: %d seeds and regression inputs, all readable",
		       list[i]->name, rn.inputs);
	}
	return tap_done();
}
