/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks of parsed events before anything is opened: each event against its
 * driver's filter rules (hns3_filter.h, pcie_filter.h), and each group
 * against the drivers' group rules (one PMU, at most 8 hardware counters,
 * events sharing a counter slot with the same filter). Also pairs the two
 * counters of a metric inside a group, so their ratio can be shown.
 */
#ifndef NETPMU_EVENT_CHECK_H
#define NETPMU_EVENT_CHECK_H

#include <stddef.h>

#include "event/parsed_event.h"
#include "event/filter_choice.h"

/* Checks EV alone; fills CHOICE. Returns 0, or -EINVAL/-ENOMEM with one line in WHY. */
int event_check_one(const struct parsed_event *ev, const struct event_parse_ctx *ctx,
		    struct filter_choice *choice, char *why, size_t why_len);

/*
 * Checks every event and group of LIST and sets the partner of each metric
 * counter whose pair is in the same group with the same filters.
 */
int event_list_check(struct event_list *list, const struct event_parse_ctx *ctx,
		     char *why, size_t why_len);

#endif
