/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of one PMU/TERMS/ event string: one, or a metric's two, on the
 * PMU it names; or, for a merged PMU name (pmu_name_match.h), the same on
 * every instance it stands for. An instance that cannot count the string
 * (its terms do not apply there, or its driver would refuse the filter, such
 * as a bdf outside its range) is left out and noted in the list's skipped
 * entries, as perf leaves out the PMUs it cannot add and counts the rest;
 * the string is refused only when no instance can count it.
 *
 * Groups: each instance's counters form their own group, as perf regroups
 * events by PMU, so {hns3_pmu_sicl/a/,hns3_pmu_sicl/b/} becomes one group
 * per instance; a counter on a PMU named exactly joins its PMU's group.
 */
#ifndef NETPMU_EVENT_BUILD_H
#define NETPMU_EVENT_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "event/parsed_event.h"
#include "event/event_terms.h"

/* The groups of one pair of braces, or of one event string outside braces. */
struct pmu_groups {
	unsigned int *of_pmu;		/* per PMU of the set, by index: its group */
	unsigned int base;		/* the number the braces (or the string) got */
	bool base_taken;
	unsigned int *next_group;	/* the list's next unused group number */
};

/* Allocates OF_PMU for SET; returns 0 or -ENOMEM. Release with pmu_groups_release(). */
int pmu_groups_init(struct pmu_groups *g, const struct pmu_set *set, unsigned int base,
		    unsigned int *next_group);
void pmu_groups_release(struct pmu_groups *g);

struct event_build {
	const struct event_parse_ctx *ctx;
	struct event_list *out;		/* the counters are appended here */
	const char *text;		/* the event string as written */
	const char *pmu_name;		/* its PMU name as written */
	const struct event_term *terms;
	size_t nr_terms;
	unsigned int item;		/* the string's number in the list */
	struct pmu_groups *groups;
};

/* Appends B's counters to B->out. Returns 0, -ENOMEM, or -EINVAL with one line in WHY. */
int event_build(const struct event_build *b, char *why, size_t why_len);

#endif
