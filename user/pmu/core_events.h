/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core PMU events in perf's syntax, for netpmu trace: the CPU's own counters
 * (cycles, instructions, ...), counted per CPU and read by the BPF programs
 * at the start and end of every NAPI poll.
 *
 *   EVENT := NAME[:MODIFIERS] | PMU/NAME/[MODIFIERS]
 *
 * NAME is one of perf's legacy hardware event names (cycles, cpu-cycles,
 * instructions, ...), opened as PERF_TYPE_HARDWARE. PMU is a core PMU in
 * sysfs (one with a cpus file, e.g. armv8_pmuv3_0, or x86's cpu): its type
 * goes into the config's upper 32 bits, as perf does (the kernel's extended
 * hardware type). MODIFIERS are u, k and h, with perf's rules: the first of
 * them excludes user, kernel and hypervisor, each then includes its own
 * (cycles:u counts user only, cycles:uk user and kernel). No modifier counts
 * everything; exclude_guest and exclude_host are never set, as perf since
 * 6.13 (earlier perf set exclude_guest on every event).
 */
#ifndef NETPMU_CORE_EVENTS_H
#define NETPMU_CORE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/perf_counter.h"

struct core_event {
	char *text;			/* as written, for columns and messages */
	struct perf_counter_spec spec;	/* type, config, exclusions; cpu set per open */
};

/*
 * Parses TEXT (one -e argument) if it names a core event. SYSFS_ROOT (NULL:
 * /sys) is where PMU/NAME/ looks the PMU up. Returns 1 with EV filled, 0 if
 * TEXT is no core event (an uncore event string, for event_parse()), or
 * -EINVAL with one line in WHY (bad modifier, with its column) or -ENOMEM.
 */
int core_event_parse(const char *text, const char *sysfs_root, struct core_event *ev,
		     char *why, size_t why_len);

void core_event_release(struct core_event *ev);

/* The name of a core PMU under SYSFS_ROOT (NULL: /sys) into NAME; false if there is none. */
bool core_pmu_find(const char *sysfs_root, char *name, size_t name_len);

#endif
