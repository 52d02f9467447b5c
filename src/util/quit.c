#include "util/quit.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t quit_signal;

static void
quit_on_signal(int sig)
{
	quit_signal = sig;
}

void
quit_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = quit_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool
quit_asked(void)
{
	return quit_signal != 0;
}
