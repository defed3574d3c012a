// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware backend: PCI driver for the Hip09 HNS3 PMU (19e5:a22b); the
 * probe is the one both PMUs share (common/hw.c).
 */

#include <linux/pci.h>

#include "common/hw.h"
#include "pmu.h"

struct hns3_pmu_hw {
	struct hns3_pmu pmu;
	struct netpmu_hw hw;
};

/*
 * Not upstream's "hns3_pmu": driver names are unique, and netpmu.ko must load
 * beside the upstream driver (which then keeps the device it bound).
 */
#define HNS3_PMU_HW_DRV_NAME	"netpmu_hns3_pmu"

static const struct netpmu_hw_desc hns3_pmu_hw_desc = {
	.drv_name = HNS3_PMU_HW_DRV_NAME,
	.what = "HNS3 PMU",
	.identify = hns3_pmu_init,
};

static int hns3_pmu_hw_probe(struct pci_dev *pdev,
			     const struct pci_device_id *id)
{
	struct hns3_pmu_hw *hw;

	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;
	return netpmu_hw_probe(pdev, &hw->hw, &hw->pmu.uc, &hns3_pmu_hw_desc);
}

/*
 * No MODULE_DEVICE_TABLE: udev would load netpmu.ko and upstream's driver for
 * the same device, and which binds it would be a race. netpmu.ko is loaded on
 * purpose (kmod/README.md) and binds only what no driver has.
 */
static const struct pci_device_id hns3_pmu_hw_ids[] = {
	{ PCI_DEVICE(NETPMU_PCI_VENDOR_HUAWEI, NETPMU_PCI_DEVICE_HNS3_PMU) },
	{ }
};

struct pci_driver hns3_pmu_hw_driver = {
	.name = HNS3_PMU_HW_DRV_NAME,
	.id_table = hns3_pmu_hw_ids,
	.probe = hns3_pmu_hw_probe,
	.remove = netpmu_hw_remove,
};
