/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCI driver of a real PMU, the same for both: a Hip09 RCiEP with its
 * registers in BAR 2 and one MSI vector for the overflow interrupt.
 */
#ifndef NETPMU_COMMON_HW_H
#define NETPMU_COMMON_HW_H

#include <linux/pci.h>

#include "uncore.h"

struct netpmu_hw {
	struct netpmu_uncore *uc;
	struct netpmu_mmio mmio;
	int irq;
};

struct netpmu_hw_desc {
	const char *drv_name;		/* the PCI driver's, owns the BAR */
	const char *what;		/* for the log: "HNS3 PMU" */
	/*
	 * Reads the PMU's identification registers, names it and initializes
	 * its core; the registers, the device and its domain are set by then.
	 */
	void (*identify)(struct netpmu_uncore *uc);
};

int netpmu_hw_probe(struct pci_dev *pdev, struct netpmu_hw *hw,
		    struct netpmu_uncore *uc, const struct netpmu_hw_desc *desc);
void netpmu_hw_remove(struct pci_dev *pdev);

#endif /* NETPMU_COMMON_HW_H */
