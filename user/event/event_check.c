// SPDX-License-Identifier: GPL-2.0
/* Checks of events and groups against the PMU drivers' rules, and metric pairing. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "event/event_check.h"
#include "lib/why_line.h"
#include "event/hns3_filter.h"
#include "pmu/metric.h"
#include "event/pcie_filter.h"

int event_check_one(const struct parsed_event *ev, const struct event_parse_ctx *ctx,
		    struct filter_choice *choice, char *why, size_t why_len)
{
	memset(choice, 0, sizeof(*choice));
	if (ev->pmu->name_info.kind == PMU_KIND_HNS3)
		return hns3_filter_check(ev, ctx->sysfs_root, choice, why, why_len);
	return pcie_filter_check(ev, ctx->sysfs_root, choice, why, why_len);
}

/*
 * What makes two events of a group use one hardware slot: HNS3 compares the
 * event bits 0-15 only, PCIe the whole control value (event and filters).
 */
static uint64_t slot_key(const struct parsed_event *ev)
{
	if (ev->pmu->name_info.kind == PMU_KIND_HNS3)
		return ev->spec.config[0] & PAIR_EVENT_MASK;
	return pcie_event_ctrl(ev);
}

static bool same_filters(const struct parsed_event *a, const struct parsed_event *b)
{
	return a->spec.config[1] == b->spec.config[1] && a->spec.config[2] == b->spec.config[2];
}

static int check_group(struct event_list *list, size_t first, size_t end, char *why,
		       size_t why_len)
{
	const struct parsed_event *leader = &list->events[first];
	unsigned int slots = 0;

	for (size_t i = first; i < end; i++) {
		const struct parsed_event *ev = &list->events[i];
		bool shares = false;

		if (ev->pmu != leader->pmu)
			return why_invalid(why, why_len, "the group of %s mixes %s and %s: a group counts "
				      "on one PMU (put the events in separate groups)", leader->text,
				      leader->pmu->name, ev->pmu->name);
		for (size_t j = first; j < i; j++) {
			const struct parsed_event *other = &list->events[j];

			if (slot_key(other) != slot_key(ev))
				continue;
			/* The HNS3 driver counts both with the filter written last. */
			if (!same_filters(other, ev))
				return why_invalid(why, why_len, "%s and %s share one hardware slot in their "
					      "group (same event bits 0-15), so the driver counts both "
					      "with one filter: give them the same filter terms",
					      other->text, ev->text);
			shares = true;
			break;
		}
		slots += !shares;
	}
	if (slots > PMU_HW_COUNTERS)
		return why_invalid(why, why_len, "the group of %s needs %u hardware counters, %s has %d "
			      "(counters exhausted): split it into groups of at most %d", leader->text,
			      slots, leader->pmu->name, PMU_HW_COUNTERS, PMU_HW_COUNTERS);
	return 0;
}

/* Pairs counter 0 and counter 1 of a metric: same group, same filters. */
static void pair_metrics(struct event_list *list, const struct metric_set *metrics)
{
	for (size_t i = 0; i < list->nr_events; i++) {
		struct parsed_event *ev = &list->events[i];
		const struct metric *m;
		unsigned int c;

		ev->partner = -1;
		if (!ev->event || !metrics)
			continue;
		m = metric_of_event(metrics, ev->pmu, ev->event, &c);
		if (!m)
			continue;
		for (size_t j = 0; j < list->nr_events; j++) {
			const struct parsed_event *other = &list->events[j];

			if (j != i && other->group == ev->group && other->pmu == ev->pmu &&
			    other->event == m->counter[!c] && same_filters(other, ev)) {
				ev->partner = j;
				ev->metric = m;
				ev->metric_counter = c;
				break;
			}
		}
	}
}

int event_list_check(struct event_list *list, const struct event_parse_ctx *ctx,
		     char *why, size_t why_len)
{
	struct filter_choice choice;
	size_t first = 0;
	int err;

	for (size_t i = 0; i < list->nr_events; i++) {
		err = event_check_one(&list->events[i], ctx, &choice, why, why_len);
		if (err)
			return err;
	}
	for (size_t i = 1; i <= list->nr_events; i++) {
		if (i < list->nr_events && list->events[i].group == list->events[first].group)
			continue;
		err = check_group(list, first, i, why, why_len);
		if (err)
			return err;
		first = i;
	}
	pair_metrics(list, ctx->metrics);
	return 0;
}
