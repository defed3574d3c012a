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

#include "event/parsed_event.h"

/*
 * Parses ARG (one -e argument) and appends its events to LIST. Returns 0,
 * -ENOMEM, or -EINVAL with one line in WHY naming the bad part and the
 * valid choices. LIST is unchanged on error.
 */
int event_list_parse(struct event_list *list, const char *arg,
		     const struct event_parse_ctx *ctx, char *why, size_t why_len);

/* perf stat -g: every event of LIST in one group led by the first. */
void event_list_group_all(struct event_list *list);

/*
 * The PMUs and metrics of one sysfs discovery, to parse event strings
 * against. The events parsed point into them: release the catalog after.
 */
struct event_catalog {
	struct pmu_set pmus;
	struct metric_set metrics;
	struct event_parse_ctx ctx;	/* the two above, and the sysfs root */
};

/* Discovers the PMUs under SYSFS_ROOT (NULL: /sys). Returns 0 or -errno with WHY. */
int event_catalog_discover(struct event_catalog *cat, const char *sysfs_root,
			   char *why, size_t why_len);
void event_catalog_release(struct event_catalog *cat);

/*
 * One counter: parses and checks TEXT against CAT, which must name exactly
 * one counter. Returns 0 or -errno with one line in WHY.
 */
int event_parse(const char *text, const struct event_catalog *cat, struct parsed_event *ev,
		char *why, size_t why_len);

/*
 * As event_parse(), but TEXT names one counter per PMU: several when its PMU
 * name is a merged one. Fills EVS (room for MAX) and *NR.
 */
int event_parse_instances(const char *text, const struct event_catalog *cat,
			  struct parsed_event *evs, size_t max, size_t *nr,
			  char *why, size_t why_len);

#endif
