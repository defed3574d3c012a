/* SPDX-License-Identifier: GPL-2.0 */
/* The PCIe PMU as the module entry sees it. */
#ifndef NETPMU_PCIE_MODULE_H
#define NETPMU_PCIE_MODULE_H

int hisi_pcie_pmu_module_init(void);
void hisi_pcie_pmu_module_exit(void);

#endif /* NETPMU_PCIE_MODULE_H */
