// SPDX-License-Identifier: GPL-2.0
#include "lib/child_command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int child_command_start(struct child_command *child, char *const argv[], char *why, size_t why_len)
{
	int pipefd[2], exec_errno = 0;
	ssize_t n;

	child->exited = false;
	child->status = 0;
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(why, why_len, "cannot start '%s': %s", argv[0], strerror(errno));
		return -1;
	}
	child->pid = fork();
	if (child->pid < 0) {
		snprintf(why, why_len, "cannot start '%s': %s", argv[0], strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (!child->pid) {
		close(pipefd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);	/* main() ignores it; an exec keeps that */
		execvp(argv[0], argv);
		exec_errno = errno;
		if (write(pipefd[1], &exec_errno, sizeof(exec_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	/* The pipe closes on a successful exec; otherwise it carries errno. */
	do {
		n = read(pipefd[0], &exec_errno, sizeof(exec_errno));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(exec_errno)) {
		waitpid(child->pid, NULL, 0);
		child->pid = -1;
		snprintf(why, why_len, "cannot run '%s': %s", argv[0], strerror(exec_errno));
		return -1;
	}
	return 0;
}

bool child_command_done(struct child_command *child)
{
	if (child->exited)
		return true;
	if (child->pid > 0 && waitpid(child->pid, &child->status, WNOHANG) == child->pid)
		child->exited = true;
	return child->exited;
}

int child_command_exit_code(const struct child_command *child)
{
	if (WIFEXITED(child->status))
		return WEXITSTATUS(child->status);
	if (WIFSIGNALED(child->status))
		return 128 + WTERMSIG(child->status);
	return 1;
}

void child_command_stop(struct child_command *child)
{
	if (child->pid <= 0 || child->exited)
		return;
	kill(child->pid, SIGTERM);
	if (waitpid(child->pid, &child->status, 0) == child->pid)
		child->exited = true;
}
