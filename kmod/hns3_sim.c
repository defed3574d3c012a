// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU model instances: module parameters, creation and teardown. By
 * default one instance is created when no real HNS3 PMU was probed.
 */

#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "hns3_sim.h"
#include "netpmu.h"

static int sim = -1;
module_param(sim, int, 0444);
MODULE_PARM_DESC(sim, "HNS3 PMU model: -1 = only without real HNS3 PMUs (default), 0 = never, 1 = always");

static char *netdevs;
module_param(netdevs, charp, 0444);
MODULE_PARM_DESC(netdevs, "Comma-separated netdevs the model counts (default: every PCI network device present at load)");

static ushort sicl_id;
module_param(sicl_id, ushort, 0444);
MODULE_PARM_DESC(sicl_id, "Model's SICL id, N of hns3_pmu_sicl_<N> (default 0)");

static uint hw_clk_freq = 100000000;
module_param(hw_clk_freq, uint, 0444);
MODULE_PARM_DESC(hw_clk_freq, "Model's CLOCK_FREQ in Hz: the rate of *_time cycles (default 100000000)");

static uint identifier = 0x30;
module_param(identifier, uint, 0444);
MODULE_PARM_DESC(identifier, "Model's VERSION register (default 0x30)");

static uint counter_bits = 64;
module_param(counter_bits, uint, 0444);
MODULE_PARM_DESC(counter_bits, "Model's counter width, 16-64, to exercise wrap handling (default 64)");

static uint lat_base_ns = 1000;
module_param(lat_base_ns, uint, 0444);
MODULE_PARM_DESC(lat_base_ns, "Model's fixed per-packet latency in ns (default 1000)");

static uint link_mbps = 10000;
module_param(link_mbps, uint, 0444);
MODULE_PARM_DESC(link_mbps, "Model's link speed in Mbit/s for serialization latency (default 10000)");

static struct hns3_sim *hns3_sim_instance;

static int hns3_sim_create(const struct hns3_sim_config *cfg,
			   const char *netdev_list, struct hns3_sim **out)
{
	char devname[32];
	struct hns3_sim *sim;
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->cfg = *cfg;
	sim->netdevs = netdev_list;
	INIT_LIST_HEAD(&sim->fns);
	snprintf(sim->pmu.name, sizeof(sim->pmu.name), HNS3_PMU_NAME_FMT,
		 cfg->sicl_id);

	snprintf(devname, sizeof(devname), "netpmu_sim%u", cfg->sicl_id);
	sim->dev = root_device_register(devname);
	if (IS_ERR(sim->dev)) {
		ret = PTR_ERR(sim->dev);
		goto err_free_sim;
	}

	hns3_sim_dev_init(sim);
	sim->pmu.dev = sim->dev;

	ret = hns3_sim_net_bind(sim);
	if (ret)
		goto err_unregister_root;

	ret = hns3_pmu_init(&sim->pmu);
	if (ret)
		goto err_unbind_netdevs;

	hns3_sim_dev_start(sim);
	ret = hns3_pmu_register(&sim->pmu);
	if (ret)
		goto err_stop_dev;

	hns3_sim_net_report(sim);
	*out = sim;
	return 0;

err_stop_dev:
	hns3_sim_dev_stop(sim);
err_unbind_netdevs:
	hns3_sim_net_unbind(sim);
err_unregister_root:
	root_device_unregister(sim->dev);
err_free_sim:
	kfree(sim);
	return ret;
}

static void hns3_sim_destroy(struct hns3_sim *sim)
{
	hns3_pmu_unregister(&sim->pmu);
	hns3_sim_net_unbind(sim);
	hns3_sim_dev_stop(sim);
	root_device_unregister(sim->dev);
	kfree(sim);
}

int hns3_sim_init(void)
{
	struct hns3_sim_config cfg = {
		.sicl_id = sicl_id,
		.version = identifier,
		.clock_freq = hw_clk_freq,
		.counter_bits = counter_bits,
		.lat_base_ns = lat_base_ns,
		.link_mbps = link_mbps,
	};

	if (!sim || (sim < 0 && hns3_pmu_hw_count()))
		return 0;

	if (!hw_clk_freq || !link_mbps || counter_bits < 16 ||
	    counter_bits > 64) {
		pr_err(NETPMU_MOD_NAME ": invalid model parameters (hw_clk_freq and link_mbps > 0, counter_bits 16-64)\n");
		return -EINVAL;
	}

	return hns3_sim_create(&cfg, netdevs, &hns3_sim_instance);
}

void hns3_sim_exit(void)
{
	if (hns3_sim_instance)
		hns3_sim_destroy(hns3_sim_instance);
	hns3_sim_instance = NULL;
}
