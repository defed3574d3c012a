/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HNS3 PMU driver's filter-mode selection, run in user
 * space before perf_event_open so that a string the driver would refuse, or
 * silently count as something else (a bdf without queue counted as port 0 /
 * tc 0, a port without tc counted as tc 0 only, no filter at all counted as
 * port 0 / tc 0), is refused with the reason and the fix.
 */
#ifndef NETPMU_HNS3_FILTER_H
#define NETPMU_HNS3_FILTER_H

#include <stddef.h>

#include "event/parsed_event.h"
#include "event/filter_choice.h"

/*
 * Checks EV (on an HNS3 PMU). Returns 0 with CHOICE filled, or -EINVAL with
 * one line in WHY.
 */
int hns3_filter_check(const struct parsed_event *ev, const char *sysfs_root,
		      struct filter_choice *choice, char *why, size_t why_len);

#endif
