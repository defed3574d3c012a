// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe PMU's part of module init/exit: its hotplug state, the PCI driver
 * of real PMUs and the device model.
 */

#include <linux/pci.h>

#include "module.h"
#include "pmu.h"
#include "sim.h"

int hisi_pcie_pmu_module_init(void)
{
	int ret;

	ret = hisi_pcie_pmu_cpuhp_init();
	if (ret)
		return ret;

	ret = pci_register_driver(&hisi_pcie_pmu_hw_driver);
	if (ret)
		goto err_exit_cpuhp;

	ret = hisi_pcie_sim_init();
	if (ret)
		goto err_unregister_driver;
	return 0;

err_unregister_driver:
	pci_unregister_driver(&hisi_pcie_pmu_hw_driver);
err_exit_cpuhp:
	hisi_pcie_pmu_cpuhp_exit();
	return ret;
}

void hisi_pcie_pmu_module_exit(void)
{
	hisi_pcie_sim_exit();
	pci_unregister_driver(&hisi_pcie_pmu_hw_driver);
	hisi_pcie_pmu_cpuhp_exit();
}
