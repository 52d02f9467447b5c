/* Subcommands: a table that main() searches, as tmux does with its commands. */
#ifndef PAGETOP_CMD_H
#define PAGETOP_CMD_H

#include <stdio.h>

struct cmd_entry {
	const char *name;
	const char *usage;	/* the arguments, for --help */
	const char *summary;
	/* argv[0] is the subcommand name; returns the exit status. */
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_dashboard_entry;
extern const struct cmd_entry cmd_snapshot_entry;
extern const struct cmd_entry cmd_record_entry;
extern const struct cmd_entry cmd_mark_entry;
extern const struct cmd_entry cmd_dump_entry;
extern const struct cmd_entry cmd_replay_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_diff_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_serve_entry;

/* The entry named name, or NULL. */
const struct cmd_entry *cmd_find(const char *name);
void cmd_usage(FILE *f);
/* How pagetop was started, for a recording's header: "pagetop record -o x"
 * from the command name (NULL for the dashboard) and its arguments. */
/* Each line of text on f as "pagetop: LINE". */
void cmd_print_lines(FILE *f, const char *text);
/* A line on stderr, "pagetop: " first, formatted then escaped whole:
 * arguments and whys may quote a file or the machine. */
void cmd_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cmd_command_line(const char *name, int argc, char **argv, char *dst, size_t size);

struct replay;

/*
 * How dump, export and report end on a recording, alike: damage (frames
 * skipped, a frame cut short) and samples that do not decode are warnings,
 * a line each on stderr (first_why: what the first unread sample's
 * failure said); the exit status is 0 when read samples of those asked
 * for were output, else 1.
 */
int cmd_recording_status(const struct replay *rp, const char *path,
			 size_t read, size_t unread, const char *first_why);

/* Exit statuses. */
#define EXIT_USAGE	2

#endif
