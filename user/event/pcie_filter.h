/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HiSilicon PCIe PMU driver's filter rules, run in
 * user space before perf_event_open: what the driver refuses (thr_len or
 * trig_len above 10, a bdf whose Root Port is not the PMU's) and what it
 * would silently count as something else (no target: requester 00:00.0;
 * port and bdf: the bdf ignored; trig_mode/thr_mode without a length:
 * ignored; len_mode=0: counted as 3), plus the documentation's rule that the
 * bdf, trigger, threshold and len_mode filters are for bandwidth events.
 */
#ifndef NETPMU_PCIE_FILTER_H
#define NETPMU_PCIE_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "event/parsed_event.h"
#include "event/filter_choice.h"

/* Checks EV (on a PCIe PMU). Returns 0 with CHOICE filled, or -EINVAL with one line in WHY. */
int pcie_filter_check(const struct parsed_event *ev, const char *sysfs_root,
		      struct filter_choice *choice, char *why, size_t why_len);

/* The 64-bit EVENT_CTRL value the driver writes for EV (without EVENT_EN). */
uint64_t pcie_event_ctrl(const struct parsed_event *ev);

#endif
