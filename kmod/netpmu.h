/* SPDX-License-Identifier: GPL-2.0 */
/* Module-wide services shared by every PMU of netpmu.ko. */
#ifndef NETPMU_H
#define NETPMU_H

#include <linux/cpuhotplug.h>
#include <linux/types.h>

#define NETPMU_MOD_NAME "netpmu"

/* Dynamic multi-instance hotplug state of the HNS3 PMUs. */
extern enum cpuhp_state hns3_pmu_cpuhp_state;

bool netpmu_pmu_name_taken(const char *name);

#endif /* NETPMU_H */
