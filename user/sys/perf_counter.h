/* SPDX-License-Identifier: GPL-2.0 */
/* Opening PMU counters and the interval ticks with perf_event_open(2). */
#ifndef NETPMU_PERF_COUNTER_H
#define NETPMU_PERF_COUNTER_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct perf_event_attr;

/* perf_event_attr's exclude_* bits; uncore PMUs take none (core_events.h). */
#define PERF_COUNTER_EXCLUDE_USER	(1u << 0)
#define PERF_COUNTER_EXCLUDE_KERNEL	(1u << 1)
#define PERF_COUNTER_EXCLUDE_HV		(1u << 2)

/* What perf_event_open needs for one counter of a PMU. */
struct perf_counter_spec {
	uint32_t type;		/* the PMU's dynamic type, or PERF_TYPE_HARDWARE/SOFTWARE */
	uint64_t config[4];	/* config, config1, config2, config3 */
	int cpu;		/* the PMU's counting CPU, or the CPU a core event counts */
	uint32_t exclude;	/* PERF_COUNTER_EXCLUDE_* */
	uint64_t sample_period;	/* 0: counting; else sampling, as the interval ticks do */
	bool disabled;		/* a group leader opened stopped, started by ioctl later */
	const char *pmu_name;	/* for the explanation of a refusal; NULL: "the PMU" */
};

/* Counters of one HNS3 or PCIe PMU. */
#define PMU_HW_COUNTERS 8

/* The attr perf_counter_open() opens for SPEC. */
void perf_counter_attr(const struct perf_counter_spec *spec, struct perf_event_attr *attr);

/*
 * Opens SPEC as a system-wide event on spec->cpu, in the group of GROUP_FD
 * (-1: a new group). Returns the fd, or -errno with a one-line explanation of
 * what is wrong and what would be right in WHY (the one errno table of the
 * loader: permission, counters exhausted, a refused filter, ...).
 */
int perf_counter_open(const struct perf_counter_spec *spec, int group_fd,
		      char *why, size_t why_len);

#endif
