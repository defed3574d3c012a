// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware backend: PCI driver for the HiSilicon PCIe PMU (19e5:a12d, an
 * RCiEP per PCIe Core of a Hip09); the probe is the one both PMUs share
 * (common/hw.c). Untested: no Hip09 was available to this project.
 */

#include <linux/pci.h>

#include "common/hw.h"
#include "pmu.h"

/*
 * Not upstream's "hisi_pcie_pmu": driver names are unique, and netpmu.ko must
 * load beside the upstream driver (which then keeps the devices it bound).
 */
#define HISI_PCIE_PMU_HW_DRV_NAME	"netpmu_hisi_pcie_pmu"

struct hisi_pcie_pmu_hw {
	struct hisi_pcie_pmu pmu;
	struct netpmu_hw hw;
};

static const struct netpmu_hw_desc hisi_pcie_pmu_hw_desc = {
	.drv_name = HISI_PCIE_PMU_HW_DRV_NAME,
	.what = "PCIe PMU",
	.identify = hisi_pcie_pmu_init,
};

static int hisi_pcie_pmu_hw_probe(struct pci_dev *pdev,
				  const struct pci_device_id *id)
{
	struct hisi_pcie_pmu_hw *hw;

	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;
	/* upstream's counting CPU: one of the device's node */
	hw->pmu.numa_node = dev_to_node(&pdev->dev);
	return netpmu_hw_probe(pdev, &hw->hw, &hw->pmu.uc,
			       &hisi_pcie_pmu_hw_desc);
}

/* No MODULE_DEVICE_TABLE: see hns3/hw.c. */
static const struct pci_device_id hisi_pcie_pmu_hw_ids[] = {
	{ PCI_DEVICE(NETPMU_PCI_VENDOR_HUAWEI, NETPMU_PCI_DEVICE_PCIE_PMU) },
	{ }
};

struct pci_driver hisi_pcie_pmu_hw_driver = {
	.name = HISI_PCIE_PMU_HW_DRV_NAME,
	.id_table = hisi_pcie_pmu_hw_ids,
	.probe = hisi_pcie_pmu_hw_probe,
	.remove = netpmu_hw_remove,
};
