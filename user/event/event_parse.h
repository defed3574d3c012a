/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event strings in perf's syntax, resolved against the PMUs' sysfs:
 *
 *   EVENTS := ITEM[,ITEM]...        ITEM := EVENT | {EVENT[,EVENT]...}
 *   EVENT  := PMU/TERM[=VALUE][,TERM[=VALUE]].../
 *
 * PMU is a PMU's name or, as in perf 6.12, a merged name standing for every
 * instance whose name is it plus a numeric suffix (pmu_name_match.h): then
 * the event string opens its counters on each instance that can count it
 * (event_build.h).
 *
 * A TERM is an event name of PMU/events (its own terms apply there), a metric
 * name (metric.h: both counters of the pair, in one group), a field of
 * PMU/format, config, config1 or config2, name=DISPLAY-NAME, or
 * dev=IFNAME (the bdf of the netdev's PCI function). VALUE is decimal or 0x
 * hex, as in perf; a bare field means 1. bdf also takes BB:DD.F and
 * DDDD:BB:DD.F. On an HNS3 PMU event= and event_type= stand for each other
 * when only one of them is a format field (the v1 documentation's syntax).
 *
 * The config words are built as perf builds them, so that netpmu opens the
 * attr perf opens: config/config1/config2 terms are assigned (the last one
 * wins), then every format field value is OR'ed in.
 */
#ifndef NETPMU_EVENT_PARSE_H
#define NETPMU_EVENT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/metric.h"
#include "sys/perf_counter.h"
#include "pmu/pmu_discovery.h"

struct parsed_event {
	char *text;			/* display name: as written, a metric's counter named */
	char *written;			/* the event string as written, for messages; of a
					 * merged name: with the instance's own PMU name */
	char *merged_text;		/* of a merged name: the display name of the
					 * instances' sum; NULL otherwise */
	unsigned int item;		/* which event string of the list it came from */
	char *pmu_name;
	struct perf_counter_spec spec;	/* type, config words, counting CPU */
	const struct pmu *pmu;		/* in the pmu_set parsed against; NULL from event_parse() */
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

/*
 * Parses ARG (one -e argument) and appends its events to LIST. Returns 0,
 * -ENOMEM, or -EINVAL with one line in WHY naming the bad part and the
 * valid choices. LIST is unchanged on error.
 */
int event_list_parse(struct event_list *list, const char *arg,
		     const struct event_parse_ctx *ctx, char *why, size_t why_len);

/* perf stat -g: every event of LIST in one group led by the first. */
void event_list_group_all(struct event_list *list);

void event_list_release(struct event_list *list);

/*
 * One counter: discovers the PMUs under SYSFS_ROOT, parses and checks TEXT,
 * which must name exactly one counter. Returns 0 or -errno with one line in
 * WHY.
 */
int event_parse(const char *text, const char *sysfs_root, struct parsed_event *ev,
		char *why, size_t why_len);

/*
 * As event_parse(), but TEXT names one counter per PMU: several when its PMU
 * name is a merged one. Fills EVS (room for MAX) and *NR.
 */
int event_parse_instances(const char *text, const char *sysfs_root, struct parsed_event *evs,
			  size_t max, size_t *nr, char *why, size_t why_len);
void parsed_event_release(struct parsed_event *ev);

/* True if the user's terms set or named any bit of FIELD (format/<name>). */
bool event_field_given(const struct parsed_event *ev, const char *field);

/* The value of format field NAME in EV's config words; false if the PMU has no such field. */
bool event_field_value(const struct parsed_event *ev, const char *field, uint64_t *value);

#endif
