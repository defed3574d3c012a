/* SPDX-License-Identifier: GPL-2.0 */
/* Option values shared by the subcommands, with perf's kind of error line. */
#ifndef NETPMU_CLI_VALUES_H
#define NETPMU_CLI_VALUES_H


/*
 * Bounds of the options the subcommands share. The largest values are far
 * beyond any use, but keep every product (ms * 1e6, KiB * 1024, a deadline)
 * inside its type.
 */
#define CLI_INTERVAL_MAX_MS 86400000UL	/* -I: one day */
#define CLI_COUNT_MAX 4294967295UL	/* --count */
#define CLI_SECONDS_MAX 31536000.0	/* -d: one year */

/*
 * ARG as a whole number from MIN to MAX for option OPT of command CMD
 * ("netpmu stat"). Returns 0, or -1 after one line on stderr: "CMD: OPT
 * wants a whole number from MIN to MAX, not 'ARG'".
 */
int cli_whole_number(const char *cmd, const char *opt, const char *arg, unsigned long min,
		     unsigned long max, unsigned long *value);

/*
 * ARG as a number of seconds above 0 and at most CLI_SECONDS_MAX (e.g.
 * "2.5"); -1 after one line on stderr.
 */
int cli_seconds(const char *cmd, const char *opt, const char *arg, double *value);

#endif
