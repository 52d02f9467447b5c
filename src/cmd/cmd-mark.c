/* pagetop mark TEXT: a note in every running recording of this user. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-opts.h"
#include "source/marks.h"

static int cmd_mark_exec(int, char **);

const struct cmd_entry cmd_mark_entry = {
	.name = "mark",
	.usage = "TEXT",
	.summary = "put a mark (\"mke2fs starts\") into the running recordings of this user",
	.exec = cmd_mark_exec,
};

static int
cmd_mark_exec(int argc, char **argv)
{
	/* Room past the limit: marks_send cuts it on a character boundary. */
	char text[4 * MARK_TEXT_MAX + 1] = "", why[512];
	size_t n = 0;
	int sent;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_opt_usage(&cmd_mark_entry, argc >= 2);
	for (int i = 1; i < argc && n + 1 < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", i > 1 ? " " : "", argv[i]);
	if ((sent = marks_send(text, why, sizeof(why))) < 0) {
		cmd_say("mark: %s", why);
		return 1;
	}
	printf("marked %d recording%s\n", sent, sent == 1 ? "" : "s");
	return 0;
}
