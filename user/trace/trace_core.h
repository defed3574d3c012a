/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu trace's core events (cycles, instructions, ...): which -e strings
 * name them, their per-CPU counters, and their columns in the records.
 */
#ifndef NETPMU_TRACE_CORE_H
#define NETPMU_TRACE_CORE_H

#include <stdbool.h>

#include "session/core_counters.h"
#include "record/record_view.h"

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
 * parses them. Returns 0, or -1 with one line in WHY.
 */
int trace_core_parse(struct trace_core *tc, const char **events, unsigned int *nr,
		     const char *sysfs_root, char *why, size_t why_len);

/*
 * Opens the parsed events on every CPU, leaving out those this machine cannot
 * count: NOTICE says which ("" if none). Returns 0, or -1 with one line in WHY.
 */
int trace_core_open(struct trace_core *tc, const char *sysfs_root, char *notice, size_t notice_len,
		    char *why, size_t why_len);

/* Once the session runs: a notice if polls cannot carry core values, else NULL. */
const char *trace_core_started(struct trace_core *tc, const struct bpf_session *s);

/* Shows the core columns the record carries in VIEW. */
void trace_core_view(const struct trace_core *tc, struct record_view *view);

void trace_core_close(struct trace_core *tc);

#endif
