// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware backend: PCI driver for the Hip09 HNS3 PMU (19e5:a22b), registers
 * in BAR 2, one MSI vector for the overflow interrupt.
 */

#include <linux/interrupt.h>
#include <linux/pci.h>

#include "pmu.h"

/*
 * Not upstream's "hns3_pmu": driver names are unique, and netpmu.ko must load
 * beside the upstream driver (which then keeps the device it bound).
 */
#define HNS3_PMU_HW_DRV_NAME	"netpmu_hns3_pmu"
#define HNS3_PMU_HW_BAR		2

struct hns3_pmu_hw {
	struct hns3_pmu pmu;
	struct netpmu_mmio mmio;
	int irq;
};

static void hns3_pmu_hw_set_irq_cpu(struct hns3_pmu *hns3_pmu,
				    unsigned int cpu)
{
	struct hns3_pmu_hw *hw = container_of(hns3_pmu, struct hns3_pmu_hw,
					      pmu);

	if (hw->irq > 0)
		irq_set_affinity(hw->irq, cpumask_of(cpu));
}

static int hns3_pmu_hw_probe(struct pci_dev *pdev,
			     const struct pci_device_id *id)
{
	struct hns3_pmu_hw *hw;
	int ret;

	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	ret = pcim_iomap_regions(pdev, BIT(HNS3_PMU_HW_BAR),
				 HNS3_PMU_HW_DRV_NAME);
	if (ret)
		return ret;

	pci_set_master(pdev);

	netpmu_mmio_init(&hw->mmio, pcim_iomap_table(pdev)[HNS3_PMU_HW_BAR]);
	hw->pmu.regs = &hw->mmio.regs;
	hw->pmu.dev = &pdev->dev;
	hw->pmu.pci_domain = pci_domain_nr(pdev->bus);
	hw->pmu.counter_mask = U64_MAX;
	hw->pmu.local_cpu = -1;	/* upstream: the first online CPU */
	hw->pmu.set_irq_cpu = hns3_pmu_hw_set_irq_cpu;

	hns3_pmu_init(&hw->pmu);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		goto err_clear_master;

	hw->irq = pci_irq_vector(pdev, 0);
	/* Kept on the counting CPU (set_irq_cpu), not moved by irqbalance. */
	ret = devm_request_irq(&pdev->dev, hw->irq, hns3_pmu_irq_handler,
			       IRQF_NOBALANCING | IRQF_NO_THREAD, hw->pmu.name,
			       &hw->pmu);
	if (ret)
		goto err_clear_master;

	ret = hns3_pmu_register(&hw->pmu);
	if (ret)
		goto err_clear_master;

	pci_set_drvdata(pdev, hw);
	return 0;

err_clear_master:
	pci_clear_master(pdev);
	dev_err(&pdev->dev, "no HNS3 PMU on this device: %pe\n", ERR_PTR(ret));
	return ret;
}

static void hns3_pmu_hw_remove(struct pci_dev *pdev)
{
	struct hns3_pmu_hw *hw = pci_get_drvdata(pdev);

	hns3_pmu_unregister(&hw->pmu);
	pci_clear_master(pdev);
	pci_set_drvdata(pdev, NULL);
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

static struct pci_driver hns3_pmu_hw_driver = {
	.name = HNS3_PMU_HW_DRV_NAME,
	.id_table = hns3_pmu_hw_ids,
	.probe = hns3_pmu_hw_probe,
	.remove = hns3_pmu_hw_remove,
};

int hns3_pmu_hw_init(void)
{
	return pci_register_driver(&hns3_pmu_hw_driver);
}

void hns3_pmu_hw_exit(void)
{
	pci_unregister_driver(&hns3_pmu_hw_driver);
}
