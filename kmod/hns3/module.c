// SPDX-License-Identifier: GPL-2.0
/*
 * The HNS3 PMU's part of module init/exit: its hotplug state, its sysfs
 * tables, the PCI driver of real PMUs and the device model, in that order.
 */

#include "common/parts.h"
#include "module.h"
#include "pmu.h"
#include "sim.h"

static const struct netpmu_part hns3_pmu_parts[] = {
	{ .init = hns3_pmu_cpuhp_init, .exit = hns3_pmu_cpuhp_exit },
	{ .init = hns3_pmu_sysfs_init, .exit = hns3_pmu_sysfs_exit },
	{ .pci_driver = &hns3_pmu_hw_driver },
	{ .init = hns3_sim_init, .exit = hns3_sim_exit },
};

int hns3_pmu_module_init(void)
{
	return netpmu_parts_init(hns3_pmu_parts, ARRAY_SIZE(hns3_pmu_parts));
}

void hns3_pmu_module_exit(void)
{
	netpmu_parts_exit(hns3_pmu_parts, ARRAY_SIZE(hns3_pmu_parts));
}
