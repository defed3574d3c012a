// SPDX-License-Identifier: GPL-2.0
/*
 * The model-or-not rule, one for both PMUs: a model never takes a PMU's name
 * while a PCI function of the real PMU of that kind exists.
 */

#include "netpmu.h"

#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/string.h>

static char *pretend_hw = "";
module_param(pretend_hw, charp, 0444);
MODULE_PARM_DESC(pretend_hw, "For tests: act as if real PMUs of these kinds were present (hns3, pcie, comma-separated; default none)");

static const char * const netpmu_pmu_kind_names[] = {
	[NETPMU_HNS3_PMU] = "hns3",
	[NETPMU_PCIE_PMU] = "pcie",
};

static const struct pci_device_id netpmu_real_pmu_ids[][2] = {
	[NETPMU_HNS3_PMU] = {
		{ PCI_DEVICE(NETPMU_PCI_VENDOR_HUAWEI, NETPMU_PCI_DEVICE_HNS3_PMU) },
		{ }
	},
	[NETPMU_PCIE_PMU] = {
		{ PCI_DEVICE(NETPMU_PCI_VENDOR_HUAWEI, NETPMU_PCI_DEVICE_PCIE_PMU) },
		{ }
	},
};

/* QEMU has no function with the real IDs: tests name the kinds instead. */
static bool netpmu_pretends(enum netpmu_pmu_kind kind)
{
	const char *name = netpmu_pmu_kind_names[kind];
	size_t len = strlen(name);
	const char *p = pretend_hw;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * Whichever driver (netpmu's, upstream's, none) has the real function, so
 * that scripts never read a model as hardware.
 */
bool netpmu_real_pmu_present(enum netpmu_pmu_kind kind)
{
	return netpmu_pretends(kind) ||
	       pci_dev_present(netpmu_real_pmu_ids[kind]);
}
