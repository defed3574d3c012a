// SPDX-License-Identifier: GPL-2.0
/*
 * The HNS3 PMU's part of module init/exit: its hotplug state, its sysfs
 * tables, the PCI driver of real PMUs and the device model.
 */

#include <linux/pci.h>

#include "module.h"
#include "pmu.h"
#include "sim.h"

int hns3_pmu_module_init(void)
{
	int ret;

	ret = hns3_pmu_cpuhp_init();
	if (ret)
		return ret;

	ret = hns3_pmu_sysfs_init();
	if (ret)
		goto err_exit_cpuhp;

	ret = pci_register_driver(&hns3_pmu_hw_driver);
	if (ret)
		goto err_exit_sysfs;

	ret = hns3_sim_init();
	if (ret)
		goto err_unregister_driver;
	return 0;

err_unregister_driver:
	pci_unregister_driver(&hns3_pmu_hw_driver);
err_exit_sysfs:
	hns3_pmu_sysfs_exit();
err_exit_cpuhp:
	hns3_pmu_cpuhp_exit();
	return ret;
}

void hns3_pmu_module_exit(void)
{
	hns3_sim_exit();
	pci_unregister_driver(&hns3_pmu_hw_driver);
	hns3_pmu_sysfs_exit();
	hns3_pmu_cpuhp_exit();
}
