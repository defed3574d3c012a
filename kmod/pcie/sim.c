// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU model instance: module parameters, creation and teardown. By
 * default one instance, covering the Root Ports of the lowest PCI domain, is
 * created when no real HiSilicon PCIe PMU was probed.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/slab.h>

#include "sim.h"

static int pcie_sim = -1;
module_param(pcie_sim, int, 0444);
MODULE_PARM_DESC(pcie_sim, "PCIe PMU model: -1 = unless a real HiSilicon PCIe PMU exists (default), 0 = never, 1 = the same, and say why when none is made");

static ushort pcie_sicl_id;
module_param(pcie_sicl_id, ushort, 0444);
MODULE_PARM_DESC(pcie_sicl_id, "Model's SICL id, <sicl> of hisi_pcie<sicl>_core<core> (default 0)");

static ushort pcie_core_id;
module_param(pcie_core_id, ushort, 0444);
MODULE_PARM_DESC(pcie_core_id, "Model's PCIe Core id, <core> of hisi_pcie<sicl>_core<core> (default 0)");

static uint pcie_identifier = 0x30;
module_param(pcie_identifier, uint, 0444);
MODULE_PARM_DESC(pcie_identifier, "Model's VERSION register (default 0x30)");

static uint pcie_clk_freq = 100000000;
module_param(pcie_clk_freq, uint, 0444);
MODULE_PARM_DESC(pcie_clk_freq, "Model's clock in Hz: *_time and latency cycles (default 100000000)");

static uint pcie_mps = 256;
module_param(pcie_mps, uint, 0444);
MODULE_PARM_DESC(pcie_mps, "Model's Max Payload Size in bytes, power of 2, 128-4096 (default 256)");

static uint pcie_mrrs = 512;
module_param(pcie_mrrs, uint, 0444);
MODULE_PARM_DESC(pcie_mrrs, "Model's Max Read Request Size in bytes, power of 2, 128-4096 (default 512)");

static uint pcie_desc_bytes = 16;
module_param(pcie_desc_bytes, uint, 0444);
MODULE_PARM_DESC(pcie_desc_bytes, "Descriptor bytes fetched and written back per frame, 4 to MPS (default 16)");

static uint pcie_lat_base_ns = 500;
module_param(pcie_lat_base_ns, uint, 0444);
MODULE_PARM_DESC(pcie_lat_base_ns, "Model's fixed latency of one TLP in ns (default 500)");

static uint pcie_link_mbps = 32000;
module_param(pcie_link_mbps, uint, 0444);
MODULE_PARM_DESC(pcie_link_mbps, "Model's link rate in Mbit/s for a TLP's serialization latency (default 32000)");

static int pcie_cpu = -1;
module_param(pcie_cpu, int, 0444);
MODULE_PARM_DESC(pcie_cpu, "Model's first counting CPU if online (default -1: the first CPU of the Root Ports' NUMA node)");

static int pcie_node = NUMA_NO_NODE;
module_param(pcie_node, int, 0444);
MODULE_PARM_DESC(pcie_node, "NUMA node of the model's device, as a Hip09 PCIe Core has one (default -1: the Root Ports' node)");

static struct hisi_pcie_sim *hisi_pcie_sim_instance;

/* debugfs "inject": "IDX REG DELTA" advances counter REG (0 CNT, 1 EXT_CNT). */
static ssize_t hisi_pcie_sim_inject_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct hisi_pcie_sim *sim = file->private_data;
	unsigned int idx, reg;
	char buf[64] = "";
	u64 delta;
	ssize_t len;
	int ret;

	len = simple_write_to_buffer(buf, sizeof(buf) - 1, ppos, ubuf, count);
	if (len < 0)
		return len;
	buf[len] = '\0';
	if (sscanf(buf, "%u %u %llu", &idx, &reg, &delta) != 3)
		return -EINVAL;
	ret = hisi_pcie_sim_inject(sim, idx, reg, delta);
	return ret ? ret : count;
}

static const struct file_operations hisi_pcie_sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = hisi_pcie_sim_inject_write,
	.llseek = noop_llseek,
};

/* Test hooks under /sys/kernel/debug/<model device>/. */
static void hisi_pcie_sim_debugfs_init(struct hisi_pcie_sim *sim)
{
	sim->debugfs = debugfs_create_dir(dev_name(sim->dev), NULL);
	debugfs_create_file("inject", 0200, sim->debugfs, sim,
			    &hisi_pcie_sim_inject_fops);
	debugfs_create_atomic_t("irqs", 0444, sim->debugfs,
				&sim->model.irqs_handled);
}

static bool hisi_pcie_sim_size_ok(uint size)
{
	return is_power_of_2(size) && size >= 128 && size <= 4096;
}

static int hisi_pcie_sim_create(const struct hisi_pcie_sim_config *cfg,
				struct hisi_pcie_sim **out)
{
	char devname[40];
	struct hisi_pcie_sim *sim;
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->cfg = *cfg;
	INIT_LIST_HEAD(&sim->eps);
	sim->pmu.numa_node = NUMA_NO_NODE;
	sim->pmu.uc.local_cpu = cfg->local_cpu;
	hisi_pcie_sim_dev_init(sim);

	ret = hisi_pcie_sim_find_ports(sim);
	if (ret) {
		if (ret == -ENODEV)
			pr_info("no PCIe Root Port: no PCIe PMU model\n");
		goto err_free_sim;
	}

	snprintf(devname, sizeof(devname), "netpmu_pcie_sim%u_%u",
		 cfg->sicl_id, cfg->core_id);
	sim->dev = root_device_register(devname);
	if (IS_ERR(sim->dev)) {
		ret = PTR_ERR(sim->dev);
		goto err_free_sim;
	}
	if (cfg->node != NUMA_NO_NODE) {
		set_dev_node(sim->dev, cfg->node);
		sim->pmu.numa_node = cfg->node;
	}
	sim->pmu.uc.dev = sim->dev;

	ret = hisi_pcie_sim_net_bind(sim);
	if (ret)
		goto err_unregister_root;

	hisi_pcie_pmu_init(&sim->pmu.uc);
	ret = netpmu_uncore_register(&sim->pmu.uc);
	if (ret)
		goto err_stop_and_unbind;

	hisi_pcie_sim_debugfs_init(sim);
	pr_info("%s is a model (%s), not hardware\n",
		sim->pmu.uc.name, dev_name(sim->dev));
	hisi_pcie_sim_report(sim);
	*out = sim;
	return 0;

err_stop_and_unbind:
	hisi_pcie_sim_dev_stop(sim);
	hisi_pcie_sim_net_unbind(sim);
err_unregister_root:
	root_device_unregister(sim->dev);
err_free_sim:
	kfree(sim);
	return ret;
}

static void hisi_pcie_sim_destroy(struct hisi_pcie_sim *sim)
{
	debugfs_remove_recursive(sim->debugfs);
	netpmu_uncore_unregister(&sim->pmu.uc);
	hisi_pcie_sim_net_unbind(sim);
	hisi_pcie_sim_dev_stop(sim);
	root_device_unregister(sim->dev);
	kfree(sim);
}

int hisi_pcie_sim_init(void)
{
	struct hisi_pcie_sim_config cfg = {
		.sicl_id = pcie_sicl_id,
		.core_id = pcie_core_id,
		.version = pcie_identifier,
		.clk_freq = pcie_clk_freq,
		.mps = pcie_mps,
		.mrrs = pcie_mrrs,
		.desc_bytes = pcie_desc_bytes,
		.lat_base_ns = pcie_lat_base_ns,
		.link_mbps = pcie_link_mbps,
		.local_cpu = pcie_cpu,
		.node = pcie_node,
	};
	int ret;

	if (!netpmu_model_at_load(NETPMU_PCIE_PMU, pcie_sim))
		return 0;

	if (!pcie_clk_freq || !pcie_link_mbps ||
	    !hisi_pcie_sim_size_ok(pcie_mps) ||
	    !hisi_pcie_sim_size_ok(pcie_mrrs) ||
	    pcie_desc_bytes < 4 || pcie_desc_bytes > pcie_mps ||
	    (pcie_node != NUMA_NO_NODE &&
	     (pcie_node < 0 || pcie_node >= MAX_NUMNODES || !node_online(pcie_node)))) {
		pr_err("invalid PCIe model parameters (pcie_clk_freq and pcie_link_mbps > 0, pcie_mps and pcie_mrrs powers of 2 in 128-4096, pcie_desc_bytes 4 to pcie_mps, pcie_node -1 or an online node): no PCIe PMU model\n");
		return 0;
	}

	/* A model that cannot be made leaves the rest of the module working. */
	ret = hisi_pcie_sim_create(&cfg, &hisi_pcie_sim_instance);
	if (ret && ret != -ENODEV)
		pr_err("no PCIe PMU model: %pe\n", ERR_PTR(ret));
	else if (ret && pcie_sim > 0)
		pr_err("pcie_sim=1 but there is no PCIe Root Port to model\n");
	return 0;
}

void hisi_pcie_sim_exit(void)
{
	if (hisi_pcie_sim_instance)
		hisi_pcie_sim_destroy(hisi_pcie_sim_instance);
	hisi_pcie_sim_instance = NULL;
}
