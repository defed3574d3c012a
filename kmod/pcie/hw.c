// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware backend: PCI driver for the HiSilicon PCIe PMU (19e5:a12d, an
 * RCiEP per PCIe Core of a Hip09), registers in BAR 2, one MSI vector for the
 * overflow interrupt. Untested: no Hip09 was available to this project.
 */

#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "pmu.h"

/*
 * Not upstream's "hisi_pcie_pmu": driver names are unique, and netpmu.ko must
 * load beside the upstream driver (which then keeps the devices it bound).
 */
#define HISI_PCIE_PMU_HW_DRV_NAME	"netpmu_hisi_pcie_pmu"
#define HISI_PCIE_PMU_HW_BAR		2

struct hisi_pcie_pmu_hw {
	struct hisi_pcie_pmu pmu;
	struct netpmu_mmio mmio;
	void __iomem *base;
	int irq;
};

static void hisi_pcie_pmu_hw_set_irq_cpu(struct hisi_pcie_pmu *pcie_pmu,
					 unsigned int cpu)
{
	struct hisi_pcie_pmu_hw *hw = container_of(pcie_pmu,
						   struct hisi_pcie_pmu_hw,
						   pmu);

	if (hw->irq > 0)
		irq_set_affinity(hw->irq, cpumask_of(cpu));
}

static int hisi_pcie_pmu_hw_probe(struct pci_dev *pdev,
				  const struct pci_device_id *id)
{
	struct hisi_pcie_pmu_hw *hw;
	int ret;

	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	ret = pcim_iomap_regions(pdev, BIT(HISI_PCIE_PMU_HW_BAR),
				 HISI_PCIE_PMU_HW_DRV_NAME);
	if (ret)
		return ret;

	pci_set_master(pdev);

	/* Upstream uses a second mapping of BAR 2, unmapped on remove. */
	hw->base = pci_ioremap_bar(pdev, HISI_PCIE_PMU_HW_BAR);
	if (!hw->base)
		return -ENOMEM;

	netpmu_mmio_init(&hw->mmio, hw->base);
	hw->pmu.regs = &hw->mmio.regs;
	hw->pmu.dev = &pdev->dev;
	hw->pmu.pci_domain = pci_domain_nr(pdev->bus);
	hw->pmu.numa_node = dev_to_node(&pdev->dev);
	hw->pmu.local_cpu = -1;	/* upstream: a CPU of the NUMA node */
	hw->pmu.set_irq_cpu = hisi_pcie_pmu_hw_set_irq_cpu;

	hisi_pcie_pmu_init(&hw->pmu);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		goto err_iounmap;

	hw->irq = pci_irq_vector(pdev, 0);
	ret = request_irq(hw->irq, hisi_pcie_pmu_irq_handler,
			  IRQF_NOBALANCING | IRQF_NO_THREAD,
			  HISI_PCIE_PMU_HW_DRV_NAME, &hw->pmu);
	if (ret)
		goto err_free_vectors;

	ret = hisi_pcie_pmu_register(&hw->pmu);
	if (ret)
		goto err_free_irq;

	pci_set_drvdata(pdev, hw);
	return 0;

err_free_irq:
	free_irq(hw->irq, &hw->pmu);
err_free_vectors:
	pci_free_irq_vectors(pdev);
err_iounmap:
	iounmap(hw->base);
	dev_err(&pdev->dev, "no PCIe PMU on this device: %pe\n", ERR_PTR(ret));
	return ret;
}

static void hisi_pcie_pmu_hw_remove(struct pci_dev *pdev)
{
	struct hisi_pcie_pmu_hw *hw = pci_get_drvdata(pdev);

	hisi_pcie_pmu_unregister(&hw->pmu);
	free_irq(hw->irq, &hw->pmu);
	pci_free_irq_vectors(pdev);
	iounmap(hw->base);
	pci_set_drvdata(pdev, NULL);
}

/* No MODULE_DEVICE_TABLE: see hns3/hw.c. */
static const struct pci_device_id hisi_pcie_pmu_hw_ids[] = {
	{ PCI_DEVICE(NETPMU_PCI_VENDOR_HUAWEI, NETPMU_PCI_DEVICE_PCIE_PMU) },
	{ }
};

static struct pci_driver hisi_pcie_pmu_hw_driver = {
	.name = HISI_PCIE_PMU_HW_DRV_NAME,
	.id_table = hisi_pcie_pmu_hw_ids,
	.probe = hisi_pcie_pmu_hw_probe,
	.remove = hisi_pcie_pmu_hw_remove,
};

int hisi_pcie_pmu_hw_init(void)
{
	return pci_register_driver(&hisi_pcie_pmu_hw_driver);
}

void hisi_pcie_pmu_hw_exit(void)
{
	pci_unregister_driver(&hisi_pcie_pmu_hw_driver);
}
