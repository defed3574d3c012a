// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe PMU's part of module init/exit: its hotplug state, the PCI driver
 * of real PMUs and the device model, in that order.
 */

#include "common/parts.h"
#include "module.h"
#include "pmu.h"
#include "sim.h"

static const struct netpmu_part hisi_pcie_pmu_parts[] = {
	{ .init = hisi_pcie_pmu_cpuhp_init, .exit = hisi_pcie_pmu_cpuhp_exit },
	{ .pci_driver = &hisi_pcie_pmu_hw_driver },
	{ .init = hisi_pcie_sim_init, .exit = hisi_pcie_sim_exit },
};

int hisi_pcie_pmu_module_init(void)
{
	return netpmu_parts_init(hisi_pcie_pmu_parts,
				 ARRAY_SIZE(hisi_pcie_pmu_parts));
}

void hisi_pcie_pmu_module_exit(void)
{
	netpmu_parts_exit(hisi_pcie_pmu_parts, ARRAY_SIZE(hisi_pcie_pmu_parts));
}
