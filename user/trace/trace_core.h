/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu trace's core events (cycles, instructions, ...): which -e strings
 * name them, their per-CPU counters, and their columns in the records.
 */
#ifndef NETPMU_TRACE_CORE_H
#define NETPMU_TRACE_CORE_H

#include <stdbool.h>

#include "session/core_counters.h"
#include "trace/record_view.h"

struct bpf_session;

struct trace_core {
	struct core_event parsed[NETPMU_MAX_CORE_EVENTS];
	unsigned int nr_parsed;
	struct core_counters counters;	/* the events that opened */
	const char *names[NETPMU_MAX_CORE_EVENTS];
	bool per_poll;			/* polls and NAPI instances carry core values */
};

/*
 * Takes the core events out of EVENTS (*NR of them; *NR is updated) and
 * parses them. Returns 0, or -1 after one line on stderr.
 */
int trace_core_parse(struct trace_core *tc, const char **events, unsigned int *nr,
		     const char *sysfs_root);

/*
 * Opens the parsed events on every CPU; one line on stderr for those this
 * machine cannot count, which are left out. Returns 0, or -1 after one line.
 */
int trace_core_open(struct trace_core *tc, const char *sysfs_root);

/* Once the session runs: one line on stderr if polls cannot carry core values. */
void trace_core_started(struct trace_core *tc, const struct bpf_session *s);

/* Shows the core columns the record carries in VIEW. */
void trace_core_view(const struct trace_core *tc, struct record_view *view);

void trace_core_close(struct trace_core *tc);

#endif
