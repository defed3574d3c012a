/* SPDX-License-Identifier: GPL-2.0 */
/* `-- COMMAND`: run a command while counting or tracing, as perf does. */
#ifndef NETPMU_CHILD_COMMAND_H
#define NETPMU_CHILD_COMMAND_H

#include <stdbool.h>
#include <sys/types.h>

struct child_command {
	pid_t pid;
	int status;		/* wait status, valid once exited */
	bool exited;
};

/*
 * Starts ARGV (argv[0] looked up in PATH). Returns 0, or -1 with WHY (e.g. the
 * command does not exist): the exec error is reported through a pipe so that
 * it is known before tracing starts counting.
 */
int child_command_start(struct child_command *child, char *const argv[], char *why, size_t why_len);

/* True once the command has exited (never blocks). */
bool child_command_done(struct child_command *child);

/* The exit status perf would return: the command's, or 128 + signal. */
int child_command_exit_code(const struct child_command *child);

/* Sends SIGTERM if still running and reaps it. */
void child_command_stop(struct child_command *child);

#endif
