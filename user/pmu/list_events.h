/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu list --events: the events of a PMU grouped by kind, each metric once
 * with its pair, the unit of its derived value and the filter modes its
 * events support; events that belong to no pair after them.
 */
#ifndef NETPMU_LIST_EVENTS_H
#define NETPMU_LIST_EVENTS_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/json_writer.h"
#include "pmu/metric.h"
#include "pmu/pmu_discovery.h"

/* Text: a heading for PMU, then one table per kind. */
void list_events_print(FILE *out, const struct pmu *pmu, const struct metric_set *metrics);

/* Into an array W has begun: one object per metric, then one per event without a pair. */
void list_events_print_json(struct json_writer *w, const struct pmu *pmu,
			    const struct metric_set *metrics);

#endif
