/* SPDX-License-Identifier: GPL-2.0 */
/* Opening uncore PMU counters with perf_event_open(2). */
#ifndef NETPMU_PERF_COUNTER_H
#define NETPMU_PERF_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/* What perf_event_open needs for one counter of an uncore PMU. */
struct perf_counter_spec {
	uint32_t type;		/* the PMU's dynamic type */
	uint64_t config[4];	/* config, config1, config2, config3 */
	int cpu;		/* the PMU's counting CPU */
};

/*
 * Opens SPEC as a counting (not sampling) system-wide event on spec->cpu, in
 * the group of GROUP_FD (-1: a new group). Returns the fd, or -errno with a
 * one-line explanation of what is wrong and what would be right in WHY.
 */
int perf_counter_open(const struct perf_counter_spec *spec, int group_fd,
		      char *why, size_t why_len);

#endif
