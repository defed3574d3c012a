// SPDX-License-Identifier: GPL-2.0
/* netpmu: subcommand dispatch, --help and --version. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"

#ifndef NETPMU_VERSION
#error "NETPMU_VERSION must be defined by the build (see Makefile)"
#endif

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	bool own_program;	/* run is an exec: it needs no command_run() around it */
};

static const struct command commands[] = {
	{ .name = "list", .run = cmd_list,
	  .summary = "list the HNS3 and PCIe PMUs with identifier, perf type and counting CPU" },
	{ .name = "stat", .run = cmd_stat,
	  .summary = "count PMU events as perf stat does, with pairs turned into bandwidth, rates, latency" },
	{ .name = "top", .run = cmd_top,
	  .summary = "live per-queue table: IRQs, NAPI polls, softirq time beside the NIC's own counters (BPF)" },
	{ .name = "serve", .run = serve_exec, .own_program = true,
	  .summary = "serve /metrics to Prometheus: queues, IRQs, softirqs, PMU counters, always on (BPF)" },
	{ .name = "doctor", .run = cmd_doctor,
	  .summary = "watch the queues for a while, then say what looks wrong and why (BPF)" },
	{ .name = "trace", .run = cmd_trace,
	  .summary = "stream per-queue interval records joined in the kernel, or one per NAPI poll (BPF)" },
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
		if (strcmp(name, commands[i].name))
			continue;
		if (commands[i].own_program)
			return commands[i].run(argc - 1, argv + 1);
		return command_run(name, commands[i].run, argc - 1, argv + 1);
	}

	if (name[0] == '-')
		fprintf(stderr, "netpmu: unknown option '%s' (valid: --help, --version, or a command: ", name);
	else
		fprintf(stderr, "netpmu: unknown command '%s' (valid: ", name);
	print_valid_commands(stderr);
	fprintf(stderr, ")\n");
	return EXIT_USAGE;
}
