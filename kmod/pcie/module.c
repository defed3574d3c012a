// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe PMU's part of module init/exit: its hotplug state, the PCI driver
 * of real PMUs and the device model.
 */

#include "module.h"
#include "pmu.h"
#include "sim.h"

int hisi_pcie_pmu_module_init(void)
{
	int ret;

	ret = hisi_pcie_pmu_cpuhp_init();
	if (ret)
		return ret;

	ret = hisi_pcie_pmu_hw_init();
	if (ret)
		goto err_exit_cpuhp;

	ret = hisi_pcie_sim_init();
	if (ret)
		goto err_exit_hw;
	return 0;

err_exit_hw:
	hisi_pcie_pmu_hw_exit();
err_exit_cpuhp:
	hisi_pcie_pmu_cpuhp_exit();
	return ret;
}

void hisi_pcie_pmu_module_exit(void)
{
	hisi_pcie_sim_exit();
	hisi_pcie_pmu_hw_exit();
	hisi_pcie_pmu_cpuhp_exit();
}
