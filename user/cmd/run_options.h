/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What netpmu top and netpmu trace share: their common options, spelled and
 * checked the same way (-I/--interval, -d/--duration, --count, --sysfs-root,
 * -h), and a stop on SIGINT or SIGTERM.
 */
#ifndef NETPMU_RUN_OPTIONS_H
#define NETPMU_RUN_OPTIONS_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>

#include "session/kernel_hooks.h"

#define RUN_DEFAULT_INTERVAL_MS 1000
#define RUN_MIN_INTERVAL_MS 10

struct run_options {
	unsigned int interval_ms;	/* RUN_DEFAULT_INTERVAL_MS unless -I */
	bool interval_given;
	double duration_s;		/* 0: no limit */
	unsigned long count;		/* tables or records; 0: no limit */
	const char *sysfs_root;		/* NULL: /sys */
	enum kernel_hooks_mode hooks;	/* --hooks, for the commands that take it */
};

/* getopt_long's values of the shared long options without a short one; a command's own follow. */
enum { RUN_OPT_COUNT = 256, RUN_OPT_SYSFS_ROOT, RUN_OPT_HOOKS, RUN_OPT_NEXT };

#define RUN_SHORT_OPTIONS "I:d:h"
#define RUN_LONG_OPTIONS \
	{ "interval", required_argument, NULL, 'I' }, \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "count", required_argument, NULL, RUN_OPT_COUNT }, \
	{ "sysfs-root", required_argument, NULL, RUN_OPT_SYSFS_ROOT }, \
	{ "help", no_argument, NULL, 'h' }
/* The shared options' -h line, last in each command's usage. */
#define RUN_HELP_USAGE "  -h, --help         this text\n"
/* --hooks MODE: the BPF commands' choice of function hooks (kernel_hooks.h). */
#define RUN_HOOKS_OPTION { "hooks", required_argument, NULL, RUN_OPT_HOOKS }
#define RUN_HOOKS_USAGE \
	"  --hooks MODE       how to hook __napi_poll and __napi_schedule: auto (fentry,\n" \
	"                     else kprobe, else none), fentry, kprobe, or tracepoint\n" \
	"                     (none: no poll time, IRQs joined only through napi->irq)\n"

void run_options_init(struct run_options *o);

/*
 * Takes getopt's C and its ARG when the command has no case of its own for
 * it: a shared option but -h (each command prints its own usage), else an
 * unknown one. Returns 0, or -1 after one line on stderr as CMD (a bad value,
 * or "see CMD --help").
 */
int run_option(const char *cmd, int c, const char *arg, struct run_options *o);

/* Set once SIGINT or SIGTERM arrives after run_catch_stop(), or by the command itself. */
extern volatile sig_atomic_t run_stop_requested;

/* From now on SIGINT and SIGTERM ask the run to stop (run_stop_requested). */
void run_catch_stop(void);

#endif
