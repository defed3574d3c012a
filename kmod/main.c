// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu.ko: HiSilicon NIC PMUs with the upstream perf ABI, on real hardware
 * or over a device model fed by real traffic. Module init/exit, the CPU
 * hotplug state and services shared by the PMUs.
 */

#include <linux/cpuhotplug.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>

#include "hns3_pmu.h"
#include "hns3_sim.h"
#include "hisi_pcie_pmu.h"
#include "netpmu.h"

enum cpuhp_state hns3_pmu_cpuhp_state;
enum cpuhp_state hisi_pcie_pmu_cpuhp_state;

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
