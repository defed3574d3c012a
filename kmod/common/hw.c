// SPDX-License-Identifier: GPL-2.0
/*
 * Probe and removal of a real PMU's PCI function, for both PMUs. Compiles
 * everywhere but is untested here: there is no Hip09.
 */

#include <linux/interrupt.h>
#include <linux/pci.h>

#include "hw.h"

#define NETPMU_HW_BAR	2

static irqreturn_t netpmu_hw_irq(int irq, void *data)
{
	struct netpmu_uncore *uc = data;

	return uc->ops->handle_irq(uc);
}

/* The overflow interrupt stays on the counting CPU. */
static void netpmu_hw_set_irq_cpu(struct netpmu_uncore *uc, unsigned int cpu)
{
	struct netpmu_hw *hw = uc->irq_data;

	if (hw->irq > 0)
		irq_set_affinity(hw->irq, cpumask_of(cpu));
}

static int netpmu_hw_setup(struct pci_dev *pdev, struct netpmu_hw *hw,
			   struct netpmu_uncore *uc,
			   const struct netpmu_hw_desc *desc)
{
	int ret;

	/* Managed: undone when the probe fails or the device goes. */
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(NETPMU_HW_BAR), desc->drv_name);
	if (ret)
		return ret;

	pci_set_master(pdev);

	hw->uc = uc;
	netpmu_mmio_init(&hw->mmio, pcim_iomap_table(pdev)[NETPMU_HW_BAR]);
	uc->regs = &hw->mmio.regs;
	uc->dev = &pdev->dev;
	uc->pci_domain = pci_domain_nr(pdev->bus);
	uc->counter_mask = U64_MAX;
	uc->local_cpu = -1;	/* upstream's choice of counting CPU */
	uc->set_irq_cpu = netpmu_hw_set_irq_cpu;
	uc->irq_data = hw;
	desc->identify(uc);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		goto err_clear_master;

	hw->irq = pci_irq_vector(pdev, 0);
	/* Kept on the counting CPU (set_irq_cpu), not moved by irqbalance. */
	ret = request_irq(hw->irq, netpmu_hw_irq,
			  IRQF_NOBALANCING | IRQF_NO_THREAD, uc->name, uc);
	if (ret)
		goto err_free_vectors;

	ret = netpmu_uncore_register(uc);
	if (ret)
		goto err_free_irq;

	pci_set_drvdata(pdev, hw);
	return 0;

err_free_irq:
	free_irq(hw->irq, uc);
err_free_vectors:
	pci_free_irq_vectors(pdev);
err_clear_master:
	pci_clear_master(pdev);
	return ret;
}

int netpmu_hw_probe(struct pci_dev *pdev, struct netpmu_hw *hw,
		    struct netpmu_uncore *uc, const struct netpmu_hw_desc *desc)
{
	int ret = netpmu_hw_setup(pdev, hw, uc, desc);

	if (ret)
		dev_err(&pdev->dev, "no %s on this device: %pe\n", desc->what,
			ERR_PTR(ret));
	return ret;
}

void netpmu_hw_remove(struct pci_dev *pdev)
{
	struct netpmu_hw *hw = pci_get_drvdata(pdev);

	netpmu_uncore_unregister(hw->uc);
	free_irq(hw->irq, hw->uc);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
	pci_set_drvdata(pdev, NULL);
}
