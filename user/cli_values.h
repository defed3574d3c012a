/* SPDX-License-Identifier: GPL-2.0 */
/* Option values shared by the subcommands, with perf's kind of error line. */
#ifndef NETPMU_CLI_VALUES_H
#define NETPMU_CLI_VALUES_H

#include <time.h>

/*
 * ARG as a whole number >= MIN for option OPT of command CMD ("netpmu stat").
 * Returns 0, or -1 after one line on stderr: "CMD: OPT wants a whole number
 * >= MIN, not 'ARG'".
 */
int cli_whole_number(const char *cmd, const char *opt, const char *arg, unsigned long min,
		     unsigned long *value);

/* ARG as a positive number of seconds (e.g. "2.5"); -1 after one line on stderr. */
int cli_seconds(const char *cmd, const char *opt, const char *arg, double *value);

/* For durations and deadlines: the clock bpf_ktime_get_ns() reads too. */
static inline double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
