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

/* Each kind: its pretend_hw name, its model's module parameter, for the log. */
static const struct {
	const char *name;
	const char *model_param;
	const char *what;
} netpmu_pmu_kinds[] = {
	[NETPMU_HNS3_PMU] = { "hns3", "sim", "HNS3 PMU" },
	[NETPMU_PCIE_PMU] = { "pcie", "pcie_sim", "PCIe PMU" },
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
	const char *name = netpmu_pmu_kinds[kind].name;
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

/*
 * Is the model of this kind made at load? model_param is the value of its
 * module parameter: -1 unless a real PMU exists, 0 never, 1 as -1 and say
 * so when a real one prevents it.
 */
bool netpmu_model_at_load(enum netpmu_pmu_kind kind, int model_param)
{
	const struct pci_device_id *id = &netpmu_real_pmu_ids[kind][0];

	if (!model_param)
		return false;
	if (!netpmu_real_pmu_present(kind))
		return true;
	if (model_param > 0)
		pr_warn("%s=1 but a real %s (%04x:%04x) exists: no model\n",
			netpmu_pmu_kinds[kind].model_param,
			netpmu_pmu_kinds[kind].what, id->vendor, id->device);
	return false;
}
