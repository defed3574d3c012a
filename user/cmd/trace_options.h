/* SPDX-License-Identifier: GPL-2.0 */
/* netpmu trace's command line: its options, --help, and their checks. */
#ifndef NETPMU_TRACE_OPTIONS_H
#define NETPMU_TRACE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "netpmu_records.h"
#include "cmd/run_options.h"
#include "trace/trace_query.h"

#define TRACE_CMD "netpmu trace"

struct trace_options {
	bool per_poll;
	bool json;
	/* --count: records; -I with --per-poll: interval records too; no -d: until Ctrl-C or COMMAND's end */
	struct run_options run;
	unsigned int ringbuf_kb;
	struct trace_query_options query;
	bool explain;			/* --explain: where --where's parts are tested, then exit */
	bool no_kernel_filter;		/* --no-kernel-filter: every part in user space */
	const char *events[NETPMU_MAX_COUNTERS];
	unsigned int nr_events;
	char **command;			/* after "--", NULL if none */
};
void trace_usage(FILE *out);
/* 0: run; 1: --help printed; -1: a usage error, said on stderr. */
int parse_trace_options(int argc, char **argv, struct trace_options *opts);

#endif
