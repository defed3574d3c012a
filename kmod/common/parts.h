/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's parts, started in order and stopped in reverse: the module
 * entry's (each PMU) and each PMU's (hotplug state, sysfs tables, PCI
 * driver, model). One unwinding for all.
 */
#ifndef NETPMU_COMMON_PARTS_H
#define NETPMU_COMMON_PARTS_H

#include <linux/pci.h>

/* A part is an init/exit pair, or a PCI driver to register. */
struct netpmu_part {
	int (*init)(void);
	void (*exit)(void);
	struct pci_driver *pci_driver;
};

/* Start every part; if one fails, stop those started and return its error. */
int netpmu_parts_init(const struct netpmu_part *parts, unsigned int nr);
void netpmu_parts_exit(const struct netpmu_part *parts, unsigned int nr);

#endif /* NETPMU_COMMON_PARTS_H */
