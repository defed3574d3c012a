// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu-serve: the exporter on its own, what `netpmu serve` runs
 * (serve_exec.c). Its arguments are serve's.
 */
#include <stdio.h>

#include "cmd/commands.h"

int main(int argc, char **argv)
{
	char serve_name[] = "serve";

	if (argc < 1) {
		fprintf(stderr, "netpmu-serve: run without a program name (argv is empty)\n");
		return EXIT_USAGE;
	}
	/* cmd_serve reads its options after argv[0], as every command does. */
	argv[0] = serve_name;
	return command_run("serve", cmd_serve, argc, argv);
}
