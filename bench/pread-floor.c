/*
 * The floor for the task scan: open every /proc/[0-9]* /task/[0-9]* /stat
 * once, then on each tick pread() each from offset 0 and do nothing with
 * it. Nothing that reads task states from procfs can be cheaper.
 *
 *	pread-floor [-r] [TICKS [INTERVAL]]
 *
 * -r opens, reads and closes every file on every tick instead (what a
 * scanner without held descriptors does). Prints the CPU time (user +
 * system) per tick, the first tick (the opening) left out:
 *
 *	tasks 5123 ticks 10 cpu_ms_per_tick 19.812
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define READ_SIZE	512	/* what the task scan reads */

struct file {
	char path[48];
	int fd;
};

static struct file *files;
static size_t n_files, cap_files, n_missed;

static double
cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void
add(const char *pid, const char *tid, int keep)
{
	struct file *f;

	if (n_files == cap_files) {
		cap_files = cap_files ? 2 * cap_files : 4096;
		if ((files = realloc(files, cap_files * sizeof(*files))) ==
		    NULL) {
			perror("pread-floor");
			exit(1);
		}
	}
	f = &files[n_files];
	snprintf(f->path, sizeof(f->path), "/proc/%.12s/task/%.12s/stat", pid,
	    tid);
	f->fd = -1;
	if (keep && (f->fd = open(f->path, O_RDONLY | O_CLOEXEC)) < 0) {
		n_missed += errno == EMFILE || errno == ENFILE;
		return;
	}
	n_files++;
}

static void
list(int keep)
{
	char path[64];
	DIR *d, *t;
	struct dirent *de, *te;

	if ((d = opendir("/proc")) == NULL) {
		perror("pread-floor: /proc");
		exit(1);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/task", de->d_name);
		if ((t = opendir(path)) == NULL)
			continue;
		while ((te = readdir(t)) != NULL) {
			if (te->d_name[0] >= '0' && te->d_name[0] <= '9')
				add(de->d_name, te->d_name, keep);
		}
		closedir(t);
	}
	closedir(d);
}

static void
tick(int keep)
{
	char buf[READ_SIZE];
	size_t i;
	int fd;

	for (i = 0; i < n_files; i++) {
		if (keep) {
			if (pread(files[i].fd, buf, sizeof(buf), 0) < 0 &&
			    errno == EBADF)
				abort();
			continue;
		}
		if ((fd = open(files[i].path, O_RDONLY | O_CLOEXEC)) >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				buf[0] = '\0';
			close(fd);
		}
	}
}

int
main(int argc, char **argv)
{
	struct rlimit rl;
	struct timespec iv;
	double interval, c0, ms;
	int keep = 1, ticks, i;

	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		keep = 0;
		argv++;
		argc--;
	}
	ticks = argc > 1 ? atoi(argv[1]) : 10;
	interval = argc > 2 ? atof(argv[2]) : 1;
	if (ticks < 1)
		ticks = 1;
	iv.tv_sec = (time_t)interval;
	iv.tv_nsec = (long)((interval - (double)iv.tv_sec) * 1e9);

	/* A descriptor for every thread: at 50,000 threads the usual hard
	 * limit (20,000 here) would leave most out, so it is raised to
	 * fs.nr_open's 1 Mi where that is allowed (CAP_SYS_RESOURCE). */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		struct rlimit big = { 1 << 20, 1 << 20 };

		rl.rlim_cur = rl.rlim_max;
		if (rl.rlim_max >= big.rlim_max || setrlimit(RLIMIT_NOFILE, &big) != 0)
			setrlimit(RLIMIT_NOFILE, &rl);
	}
	list(keep);
	tick(keep);
	c0 = cpu_seconds();
	for (i = 0; i < ticks; i++) {
		nanosleep(&iv, NULL);
		tick(keep);
	}
	/* Past the descriptors there are (a hard limit that only
	 * CAP_SYS_RESOURCE raises), the rest are counted at the same cost
	 * a task: a pread of a held file costs the same at any count. */
	ms = (cpu_seconds() - c0) * 1e3 / ticks;
	if (n_missed > 0 && n_files > 0) {
		fprintf(stderr, "pread-floor: %zu of %zu tasks held open (no descriptor "
		    "for the rest): %.3f ms a tick for those, scaled to all\n",
		    n_files, n_files + n_missed, ms);
		ms *= (double)(n_files + n_missed) / (double)n_files;
	}
	printf("tasks %zu ticks %d cpu_ms_per_tick %.3f\n", n_files + n_missed, ticks, ms);
	return 0;
}
