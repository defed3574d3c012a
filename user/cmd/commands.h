/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netpmu subcommands. Each is called with argv[0] set to its own name and
 * returns the process exit status: 0 success, 1 failure, 2 usage error.
 */
#ifndef NETPMU_COMMANDS_H
#define NETPMU_COMMANDS_H

#define EXIT_USAGE 2

int cmd_list(int argc, char **argv);	/* cmd_list.c */
int cmd_trace(int argc, char **argv);	/* cmd_trace.c */
int cmd_stat(int argc, char **argv);	/* cmd_stat.c */
int cmd_top(int argc, char **argv);	/* cmd_top.c */
int cmd_serve(int argc, char **argv);	/* cmd_serve.c, in netpmu-serve */
int cmd_doctor(int argc, char **argv);	/* cmd_doctor.c */

/*
 * netpmu serve runs the program netpmu-serve beside netpmu (serve_exec.c):
 * only the exporter needs the HTTP server, YAML and bcrypt libraries (and
 * GnuTLS under them), so the other commands do not map them.
 */
int serve_exec(int argc, char **argv);

/* Runs COMMAND as NAME with stdout checked: its status, or 1 if the output failed (command_run.c). */
int command_run(const char *name, int (*command)(int argc, char **argv), int argc, char **argv);

#endif
