#include "cmd/cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "source/replay.h"
#include "util/text.h"

static const struct cmd_entry *const cmd_table[] = {
	&cmd_dashboard_entry,
	&cmd_snapshot_entry,
	&cmd_record_entry,
	&cmd_replay_entry,
	&cmd_mark_entry,
	&cmd_dump_entry,
	&cmd_diff_entry,
	&cmd_report_entry,
	&cmd_compare_entry,
	&cmd_export_entry,
	&cmd_serve_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		if (strcmp((*e)->name, name) == 0)
			return *e;
	return NULL;
}

void
cmd_usage(FILE *f)
{
	fprintf(f, "usage: pagetop [OPTIONS]            the live dashboard\n"
	    "       pagetop COMMAND [ARGS]\n"
	    "       pagetop --version | --help\n\ncommands:\n");
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		fprintf(f, "  %s %s\n      %s\n", (*e)->name, (*e)->usage, (*e)->summary);
	fprintf(f, "\nThe commands that sample this machine (dashboard, snapshot, record, "
	    "serve)\nalso take: --no-probes, --dsleep-min DURATION, --no-delayacct.\n");
	fprintf(f, "\nSee pagetop(1).\n");
}

void
cmd_command_line(const char *name, int argc, char **argv, char *dst, size_t size)
{
	size_t n = (size_t)snprintf(dst, size, "pagetop%s%s", name ? " " : "", name ? name : "");

	for (int i = 1; i < argc && n + 1 < size; i++)
		n += (size_t)snprintf(dst + n, size - n, " %s", argv[i]);
}

void
cmd_print_lines(FILE *f, const char *text)
{
	char shown[TEXT_ESCAPED_SIZE(600)];

	while (*text) {
		size_t n = strcspn(text, "\n");

		/* A note may quote a file: its controls reach no terminal. */
		text_escape(shown, sizeof(shown), text, n);
		fprintf(f, "pagetop: %s\n", shown);
		text += n + (text[n] == '\n');
	}
}

void
cmd_say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	cmd_print_lines(stderr, line);
}

int
cmd_recording_status(const struct replay *rp, const char *path,
		     size_t read, size_t unread, const char *first_why)
{
	char e1[TEXT_ESCAPED_SIZE(256)], e2[TEXT_ESCAPED_SIZE(300)];

	/* Frame damage has its own lines, which explain the samples lost. */
	if (replay_report_damage(rp, path, stderr) == 0 && unread > 0) {
		fprintf(stderr, "pagetop: %s: %s", text_esc(e1, sizeof(e1), path),
			text_esc(e2, sizeof(e2), first_why));
		if (unread > 1)
			fprintf(stderr, " (and %zu more samples that cannot be read)", unread - 1);
		fputc('\n', stderr);
	}
	return read > 0 ? 0 : 1;
}
