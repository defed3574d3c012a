// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu.ko: HiSilicon NIC PMUs with the upstream perf ABI, on real hardware
 * or over a device model fed by real traffic. The module entry only starts
 * and stops each PMU; each sets up its own hotplug state, drivers and models.
 */

#include <linux/module.h>

#include "common/parts.h"
#include "hns3/module.h"
#include "pcie/module.h"

static const struct netpmu_part netpmu_pmus[] = {
	{ .init = hns3_pmu_module_init, .exit = hns3_pmu_module_exit },
	{ .init = hisi_pcie_pmu_module_init,
	  .exit = hisi_pcie_pmu_module_exit },
};

static int __init netpmu_init(void)
{
	return netpmu_parts_init(netpmu_pmus, ARRAY_SIZE(netpmu_pmus));
}

static void __exit netpmu_exit(void)
{
	netpmu_parts_exit(netpmu_pmus, ARRAY_SIZE(netpmu_pmus));
}

module_init(netpmu_init);
module_exit(netpmu_exit);

MODULE_DESCRIPTION("HiSilicon HNS3 NIC PMU and PCIe PMU: hardware drivers and traffic-driven models");
MODULE_LICENSE("GPL v2");
MODULE_VERSION(NETPMU_VERSION);
