/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event strings in perf's syntax, resolved against the PMU's sysfs:
 *   PMU/TERM[=VALUE],.../
 * where TERM is an event name of PMU/events (its own terms apply there), a
 * field of PMU/format, or config, config1, config2. VALUE is decimal or 0x
 * hex; a bare field means 1; bdf also takes "BB:DD.F" and "DDDD:BB:DD.F".
 * Later terms override earlier ones, as in perf.
 */
#ifndef NETPMU_EVENT_PARSE_H
#define NETPMU_EVENT_PARSE_H

#include <stddef.h>

#include "perf_counter.h"

struct parsed_event {
	char *text;		/* the event string as given */
	char *pmu_name;
	struct perf_counter_spec spec;
};

/*
 * Parses TEXT against the PMUs under SYSFS_ROOT (NULL: /sys). Returns 0, or
 * -errno with one line in WHY naming the bad part and the valid choices.
 */
int event_parse(const char *text, const char *sysfs_root, struct parsed_event *ev,
		char *why, size_t why_len);
void parsed_event_release(struct parsed_event *ev);

#endif
