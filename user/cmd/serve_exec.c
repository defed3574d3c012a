// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: runs netpmu-serve, the program installed beside netpmu. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"

#define SERVE_PROGRAM "netpmu-serve"

/* ARGV is serve's: argv[0] "serve", then its options, handed on unchanged. */
int serve_exec(int argc, char **argv)
{
	static char program[] = SERVE_PROGRAM;
	char path[PATH_MAX];
	ssize_t len;
	char *slash;

	len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (len < 0) {
		fprintf(stderr, "netpmu serve: cannot find where netpmu is (/proc/self/exe): %s\n",
			strerror(errno));
		return 1;
	}
	/* readlink truncates silently: a full buffer may be part of the path. */
	if (len == sizeof(path) - 1) {
		fprintf(stderr, "netpmu serve: the path of netpmu (/proc/self/exe) is longer than %zu bytes\n",
			sizeof(path) - 2);
		return 1;
	}
	path[len] = '\0';
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + sizeof(SERVE_PROGRAM) > sizeof(path)) {
		fprintf(stderr, "netpmu serve: cannot place %s beside %s\n", SERVE_PROGRAM, path);
		return 1;
	}
	strcpy(slash + 1, SERVE_PROGRAM);
	argv[0] = program;
	execv(path, argv);
	fprintf(stderr, "netpmu serve: cannot run %s: %s (it is installed beside netpmu)\n",
		path, strerror(errno));
	return 1;
}
