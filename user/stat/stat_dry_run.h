/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu stat --dry-run: the perf_event_attr of every counter netpmu would
 * open, laid out as perf stat -vv prints them, so that the two can be compared.
 */
#ifndef NETPMU_STAT_DRY_RUN_H
#define NETPMU_STAT_DRY_RUN_H

#include <stdio.h>

#include "event/parsed_event.h"

void stat_dry_run_print(FILE *out, const struct event_list *list);

#endif
