/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A parsed event and the list of them (event_parse.h builds them): what the
 * filter checks read, below the parser so that they do not depend on it.
 */
#ifndef NETPMU_PARSED_EVENT_H
#define NETPMU_PARSED_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/metric.h"
#include "pmu/pmu_discovery.h"
#include "sys/perf_counter.h"

struct parsed_event {
	char *text;			/* display name: as written, a metric's counter named */
	char *written;			/* the event string as written, for messages; of a
					 * merged name: with the instance's own PMU name */
	char *merged_text;		/* of a merged name: the display name of the
					 * instances' sum; NULL otherwise */
	unsigned int item;		/* which event string of the list it came from */
	char *pmu_name;
	struct perf_counter_spec spec;	/* type, config words, counting CPU */
	const struct pmu *pmu;		/* in the pmu_set parsed against (event_parse(): its catalog) */
	const struct pmu_event *event;	/* the published event config selects, or NULL */
	uint64_t given[PMU_CONFIG_WORDS];	/* bits the user's own terms set or name */
	char *dev;			/* dev=IFNAME as written, or NULL */
	bool from_metric;		/* a counter of a metric name the user wrote */
	const struct metric *metric;	/* the metric of the pair it is in, or NULL */
	unsigned int metric_counter;	/* which of its counters this is */
	unsigned int group;		/* index of the event's group in the list */
	bool group_leader;
	int partner;			/* index of the pair partner in its group, or -1 (event_check.h) */
};

/* An instance a merged name stands for that cannot count the event string, left out. */
struct event_skip {
	char *text;			/* the event string on that instance */
	char *reason;			/* why it cannot count it */
};

struct event_list {
	struct parsed_event *events;
	size_t nr_events;
	unsigned int nr_groups;
	unsigned int nr_items;		/* event strings parsed */
	struct event_skip *skipped;
	size_t nr_skipped;
};

struct event_parse_ctx {
	const struct pmu_set *pmus;
	const struct metric_set *metrics;
	const char *sysfs_root;		/* for dev= and bdf checks; NULL: /sys */
};

/* Appends an empty event to LIST; NULL without memory. */
struct parsed_event *event_list_add(struct event_list *list);

void event_list_release(struct event_list *list);

void parsed_event_release(struct parsed_event *ev);

/* Both at once, for a filter check: the value (0 without the field) and whether it was given. */
void event_field_read(const struct parsed_event *ev, const char *field, uint64_t *value,
		      bool *given);

#endif
