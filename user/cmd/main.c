// SPDX-License-Identifier: GPL-2.0
/* netpmu: subcommand dispatch, --help and --version. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "lib/output_check.h"

#ifndef NETPMU_VERSION
#error "NETPMU_VERSION must be defined by the build (see Makefile)"
#endif

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "list", cmd_list, "list the HNS3 and PCIe PMUs with identifier, perf type and counting CPU" },
	{ "stat", cmd_stat, "count PMU events as perf stat does, with pairs turned into bandwidth, rates, latency" },
	{ "top", cmd_top, "live per-queue table: IRQs, NAPI polls, softirq time beside the NIC's own counters (BPF)" },
	{ "serve", cmd_serve, "serve /metrics to Prometheus: queues, IRQs, softirqs, PMU counters, always on (BPF)" },
	{ "doctor", cmd_doctor, "watch the queues for a while, then say what looks wrong and why (BPF)" },
	{ "trace", cmd_trace, "stream per-queue interval records joined in the kernel, or one per NAPI poll (BPF)" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu COMMAND [ARGS...]\n"
		"       netpmu --help | --version\n"
		"\n"
		"Reads the HiSilicon HNS3 NIC PMU and PCIe PMU counters (perf events).\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     show this text\n"
		"  -V, --version  show the version\n"
		"\n"
		"Run 'netpmu COMMAND --help' for the options of a command.\n");
}

static void print_valid_commands(FILE *out)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "%s%s", i ? ", " : "", commands[i].name);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		printf("netpmu %s\n", NETPMU_VERSION);
		return 0;
	}
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		int status, err;

		if (strcmp(name, commands[i].name))
			continue;
		/*
		 * A reader that went away is a failed write (EPIPE), reported
		 * as one, not a death by SIGPIPE. COMMANDs get it back
		 * (child_command.c).
		 */
		signal(SIGPIPE, SIG_IGN);
		if (output_watch_stdout()) {
			fprintf(stderr, "netpmu %s: out of memory\n", name);
			return 1;
		}
		status = commands[i].run(argc - 1, argv + 1);
		err = output_close(stdout);
		if (!err)
			return status;
		fprintf(stderr, "netpmu %s: cannot write the output: %s\n", name, strerror(err));
		return 1;
	}

	if (name[0] == '-')
		fprintf(stderr, "netpmu: unknown option '%s' (valid: --help, --version, or a command: ", name);
	else
		fprintf(stderr, "netpmu: unknown command '%s' (valid: ", name);
	print_valid_commands(stderr);
	fprintf(stderr, ")\n");
	return EXIT_USAGE;
}
