// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "cmd/run_options.h"
#include "lib/cli_values.h"

void run_options_init(struct run_options *o)
{
	*o = (struct run_options){ .interval_ms = RUN_DEFAULT_INTERVAL_MS };
}

int run_option(const char *cmd, int c, const char *arg, struct run_options *o)
{
	unsigned long number;

	switch (c) {
	case 'I':
		if (cli_whole_number(cmd, "-I", arg, RUN_MIN_INTERVAL_MS, CLI_INTERVAL_MAX_MS, &number))
			return -1;
		o->interval_ms = number;
		o->interval_given = true;
		return 0;
	case 'd':
		return cli_seconds(cmd, "-d", arg, &o->duration_s);
	case RUN_OPT_COUNT:
		return cli_whole_number(cmd, "--count", arg, 1, CLI_COUNT_MAX, &o->count);
	case RUN_OPT_SYSFS_ROOT:
		o->sysfs_root = arg;
		return 0;
	case RUN_OPT_HOOKS:
		if (!kernel_hooks_parse(arg, &o->hooks))
			return 0;
		fprintf(stderr, "%s: --hooks wants auto, fentry, kprobe or tracepoint, not '%s'\n", cmd, arg);
		return -1;
	default:
		/* getopt_long said what it did not know. */
		fprintf(stderr, "%s: see %s --help\n", cmd, cmd);
		return -1;
	}
}

volatile sig_atomic_t run_stop_requested;

static void request_stop(int sig)
{
	run_stop_requested = 1;
}

void run_catch_stop(void)
{
	signal(SIGINT, request_stop);
	signal(SIGTERM, request_stop);
}
