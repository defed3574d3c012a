// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu.ko: HiSilicon NIC PMUs with the upstream perf ABI, on real hardware
 * or over a device model fed by real traffic. Module init/exit, the CPU
 * hotplug state and services shared by the PMUs.
 */

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hns3_pmu.h"
#include "hns3_sim.h"
#include "hisi_pcie_pmu.h"
#include "netpmu.h"

enum cpuhp_state hns3_pmu_cpuhp_state;
enum cpuhp_state hisi_pcie_pmu_cpuhp_state;

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
 * The one place that decides whether a model may take a PMU's name: never
 * while a PCI function of the real PMU exists, whichever driver (netpmu's,
 * upstream's, none) has it, so that scripts never read a model as hardware.
 */
bool netpmu_real_pmu_present(enum netpmu_pmu_kind kind)
{
	return netpmu_pretends(kind) ||
	       pci_dev_present(netpmu_real_pmu_ids[kind]);
}

/*
 * The perf core keeps no exported name index, and a duplicate name would
 * only fail deep in sysfs; look where perf itself publishes PMUs.
 */
bool netpmu_pmu_name_taken(const char *name)
{
	struct path path;
	bool taken;
	char *p;

	p = kasprintf(GFP_KERNEL, "/sys/bus/event_source/devices/%s", name);
	if (!p)
		return false;
	taken = !kern_path(p, 0, &path);
	if (taken)
		path_put(&path);
	kfree(p);
	return taken;
}

/*
 * Move the PMU's events from CPU to TARGET. Where the kernel keeps a context
 * per PMU and CPU, perf_pmu_migrate_context() moves only the first group of
 * each of its group trees: its walk of a tree ends at the first group it
 * takes out. Call it until the PMU's context on CPU is empty, or no longer
 * shrinks. The offline callbacks run before the perf core's own migration
 * of a scoped PMU, which then finds nothing left to move.
 */
void netpmu_migrate_context(struct pmu *pmu, unsigned int cpu,
			    unsigned int target)
{
#ifdef NETPMU_HAVE_CPU_PMU_CONTEXT
	struct perf_event_pmu_context *epc =
		&per_cpu_ptr(pmu->cpu_pmu_context, cpu)->epc;
	unsigned int left = READ_ONCE(epc->nr_events), before;

	while (left) {
		perf_pmu_migrate_context(pmu, cpu, target);
		before = left;
		left = READ_ONCE(epc->nr_events);
		if (left >= before)
			break;
	}
#else
	perf_pmu_migrate_context(pmu, cpu, target);
#endif
}

static int __init netpmu_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/netpmu/hns3_pmu:online",
				      hns3_pmu_online_cpu,
				      hns3_pmu_offline_cpu);
	if (ret < 0)
		return ret;
	hns3_pmu_cpuhp_state = ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/netpmu/hisi_pcie_pmu:online",
				      hisi_pcie_pmu_online_cpu,
				      hisi_pcie_pmu_offline_cpu);
	if (ret < 0)
		goto err_remove_cpuhp_state;
	hisi_pcie_pmu_cpuhp_state = ret;

	ret = hns3_pmu_sysfs_init();
	if (ret)
		goto err_remove_pcie_cpuhp_state;

	ret = hns3_pmu_hw_init();
	if (ret)
		goto err_free_sysfs_attrs;

	ret = hns3_sim_init();
	if (ret)
		goto err_unregister_hw_driver;

	ret = hisi_pcie_pmu_hw_init();
	if (ret)
		goto err_exit_hns3_sim;

	ret = hisi_pcie_sim_init();
	if (ret)
		goto err_unregister_pcie_hw_driver;

	return 0;

err_unregister_pcie_hw_driver:
	hisi_pcie_pmu_hw_exit();
err_exit_hns3_sim:
	hns3_sim_exit();
err_unregister_hw_driver:
	hns3_pmu_hw_exit();
err_free_sysfs_attrs:
	hns3_pmu_sysfs_exit();
err_remove_pcie_cpuhp_state:
	cpuhp_remove_multi_state(hisi_pcie_pmu_cpuhp_state);
err_remove_cpuhp_state:
	cpuhp_remove_multi_state(hns3_pmu_cpuhp_state);
	return ret;
}

static void __exit netpmu_exit(void)
{
	hisi_pcie_sim_exit();
	hisi_pcie_pmu_hw_exit();
	hns3_sim_exit();
	hns3_pmu_hw_exit();
	hns3_pmu_sysfs_exit();
	cpuhp_remove_multi_state(hisi_pcie_pmu_cpuhp_state);
	cpuhp_remove_multi_state(hns3_pmu_cpuhp_state);
}

module_init(netpmu_init);
module_exit(netpmu_exit);

MODULE_DESCRIPTION("HiSilicon HNS3 NIC PMU and PCIe PMU: hardware drivers and traffic-driven models");
MODULE_LICENSE("GPL v2");
