// SPDX-License-Identifier: GPL-2.0
#include "cli_values.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int cli_whole_number(const char *cmd, const char *opt, const char *arg, unsigned long min,
		     unsigned long *value)
{
	char *end;

	errno = 0;
	*value = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || *value < min) {
		fprintf(stderr, "%s: %s wants a whole number >= %lu, not '%s'\n", cmd, opt, min, arg);
		return -1;
	}
	return 0;
}

int cli_seconds(const char *cmd, const char *opt, const char *arg, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(arg, &end);
	if (errno || *end || end == arg || !(*value > 0)) {
		fprintf(stderr, "%s: %s wants a positive number of seconds, not '%s'\n", cmd, opt, arg);
		return -1;
	}
	return 0;
}
