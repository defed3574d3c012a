// SPDX-License-Identifier: GPL-2.0
/* What every command runs inside, in netpmu and netpmu-serve alike. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "lib/output_check.h"

int command_run(const char *name, int (*command)(int argc, char **argv), int argc, char **argv)
{
	int status, err;

	/*
	 * A reader that went away is a failed write (EPIPE), reported as
	 * one, not a death by SIGPIPE. COMMANDs get it back (child_command.c).
	 */
	signal(SIGPIPE, SIG_IGN);
	if (output_watch_stdout()) {
		fprintf(stderr, "netpmu %s: out of memory\n", name);
		return 1;
	}
	status = command(argc, argv);
	err = output_close(stdout);
	if (!err)
		return status;
	fprintf(stderr, "netpmu %s: cannot write the output: %s\n", name, strerror(err));
	return 1;
}
