// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu.ko: HiSilicon NIC PMUs with the upstream perf ABI, on real hardware
 * or over a device model fed by real traffic. The module entry only starts
 * and stops each PMU; each sets up its own hotplug state, drivers and models.
 */

#include <linux/module.h>

#include "hns3/module.h"
#include "pcie/module.h"

static int __init netpmu_init(void)
{
	int ret;

	ret = hns3_pmu_module_init();
	if (ret)
		return ret;

	ret = hisi_pcie_pmu_module_init();
	if (ret)
		goto err_exit_hns3;
	return 0;

err_exit_hns3:
	hns3_pmu_module_exit();
	return ret;
}

static void __exit netpmu_exit(void)
{
	hisi_pcie_pmu_module_exit();
	hns3_pmu_module_exit();
}

module_init(netpmu_init);
module_exit(netpmu_exit);

MODULE_DESCRIPTION("HiSilicon HNS3 NIC PMU and PCIe PMU: hardware drivers and traffic-driven models");
MODULE_LICENSE("GPL v2");
