// SPDX-License-Identifier: GPL-2.0
#include "lib/cli_values.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int cli_whole_number(const char *cmd, const char *opt, const char *arg, unsigned long min,
		     unsigned long max, unsigned long *value)
{
	char *end;

	/* strtoul() takes " -1" and "+1" too: a digit first refuses both. */
	errno = 0;
	*value = strtoul(arg, &end, 10);
	if (!isdigit((unsigned char)arg[0]) || errno || *end || *value < min || *value > max) {
		fprintf(stderr, "%s: %s wants a whole number from %lu to %lu, not '%s'\n", cmd, opt,
			min, max, arg);
		return -1;
	}
	return 0;
}

int cli_seconds(const char *cmd, const char *opt, const char *arg, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(arg, &end);
	/* A digit first: strtod() takes "inf", "nan", " 1" and hex floats too. */
	if (!isdigit((unsigned char)arg[0]) || errno || *end || !(*value > 0) ||
	    *value > CLI_SECONDS_MAX || strpbrk(arg, "xX")) {
		fprintf(stderr, "%s: %s wants a number of seconds above 0 and at most %.0f, not '%s'\n",
			cmd, opt, CLI_SECONDS_MAX, arg);
		return -1;
	}
	return 0;
}
