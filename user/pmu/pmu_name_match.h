/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which PMUs a PMU name in an event string stands for, by perf's rule (perf
 * 6.12, tools/perf/util/pmu.c perf_pmu__match() and parse-events.c
 * parse_events_multi_pmu_add_or_add_pmu()): a PMU whose name is exactly the
 * written one, if there is one; otherwise every PMU whose name is the written
 * one followed by an instance suffix, so that hns3_pmu_sicl stands for
 * hns3_pmu_sicl_0, hns3_pmu_sicl_1, ... and hisi_pcie0_core for
 * hisi_pcie0_core0, hisi_pcie0_core1, ... (a "merged" PMU name). A written
 * name with a '*' is a shell pattern over the whole name, as in perf.
 */
#ifndef NETPMU_PMU_NAME_MATCH_H
#define NETPMU_PMU_NAME_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/pmu_discovery.h"

/*
 * True if PMU_NAME is WRITTEN followed by nothing or by a suffix: an optional
 * '_' and then hex digits, of which there must be more than two when any is
 * not a decimal digit (perf's guard against names like S390's cpum_cf); or,
 * when WRITTEN has a '*', if PMU_NAME matches it as a shell pattern.
 */
bool pmu_name_matches(const char *pmu_name, const char *written);

/*
 * The PMUs of SET that WRITTEN stands for, in SET's order, into OUT (room for
 * set->nr_pmus entries). Returns how many; *MERGED tells whether WRITTEN is a
 * merged name (no PMU has exactly that name).
 */
size_t pmu_set_resolve(const struct pmu_set *set, const char *written, const struct pmu **out,
		       bool *merged);

#endif
