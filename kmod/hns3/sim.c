// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU model instances: module parameters, creation and teardown. By
 * default one instance is created when no real HNS3 PMU was probed. Like
 * netdevsim, instances are devices of their own bus, added and removed at
 * run time through it:
 *
 *   echo "ID [key=value ...]" > /sys/bus/netpmu_sim/new_device
 *   echo ID > /sys/bus/netpmu_sim/del_device
 *
 * ID is the SICL id (PMU hns3_pmu_sicl_<ID>, device netpmu_sim<ID>); the
 * keys are the per-instance module parameters below, which give the
 * defaults.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>

#include "sim.h"

static int sim = -1;
module_param(sim, int, 0444);
MODULE_PARM_DESC(sim, "HNS3 PMU model at load: -1 = unless a real HNS3 PMU exists (default), 0 = never, 1 = the same, and say so when a real one prevents it");

static char *netdevs;
module_param(netdevs, charp, 0444);
MODULE_PARM_DESC(netdevs, "Comma-separated netdevs the model counts (default: every PCI network device present at creation)");

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

static uint rx_drop_every;
module_param(rx_drop_every, uint, 0444);
MODULE_PARM_DESC(rx_drop_every, "Model's RX drops before DMA: for every N frames received it counts one more, received and dropped (0-" __stringify(HNS3_SIM_MAX_DROP_EVERY) ", default 0: none)");

static int local_cpu = -1;
module_param(local_cpu, int, 0444);
MODULE_PARM_DESC(local_cpu, "CPU the model device is local to: the PMU counts there while it is online (default -1: the first online CPU, as upstream)");

static DEFINE_MUTEX(hns3_sim_mutex);	/* the instance list, closing */
static LIST_HEAD(hns3_sim_list);
static bool hns3_sim_closing;

static struct bus_type hns3_sim_bus;

static void hns3_sim_release(struct device *dev)
{
	struct hns3_sim *sim = container_of(dev, struct hns3_sim, dev);

	kfree(sim->netdevs);
	kfree(sim);
}

/* "IDX REG DELTA", fields apart by blanks, nothing else; buf is changed. */
static int hns3_sim_parse_inject(char *buf, unsigned int *idx,
				 unsigned int *reg, u64 *delta)
{
	char *p = strim(buf), *field[3];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(field); i++) {
		field[i] = strsep(&p, " \t");
		if (!field[i] || !*field[i])
			return -EINVAL;
		if (p)
			p = skip_spaces(p);
	}
	if (p)
		return -EINVAL;

	ret = kstrtouint(field[0], 0, idx);
	if (!ret)
		ret = kstrtouint(field[1], 0, reg);
	if (!ret)
		ret = kstrtou64(field[2], 0, delta);
	return ret;
}

/* debugfs "inject": "IDX REG DELTA" advances counter REG (0 COUNTER, 1 EXT). */
static ssize_t hns3_sim_inject_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	struct hns3_sim *sim = file->private_data;
	unsigned int idx, reg;
	char buf[64];
	u64 delta;
	int ret;

	/* One whole line per write. */
	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	ret = hns3_sim_parse_inject(buf, &idx, &reg, &delta);
	if (!ret)
		ret = hns3_sim_inject(sim, idx, reg, delta);
	return ret ? ret : count;
}

static const struct file_operations hns3_sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = hns3_sim_inject_write,
	.llseek = noop_llseek,
};

/* Test hooks under /sys/kernel/debug/<model device>/. */
static void hns3_sim_debugfs_init(struct hns3_sim *sim)
{
	sim->debugfs = debugfs_create_dir(dev_name(&sim->dev), NULL);
	debugfs_create_file("inject", 0200, sim->debugfs, sim,
			    &hns3_sim_inject_fops);
	debugfs_create_atomic_t("irqs", 0444, sim->debugfs,
				&sim->model.irqs_handled);
}

static int hns3_sim_check_config(const struct hns3_sim_config *cfg)
{
	if (!cfg->clock_freq || !cfg->link_mbps || cfg->counter_bits < 16 ||
	    cfg->counter_bits > 64 || cfg->local_cpu < -1 ||
	    cfg->local_cpu >= (int)nr_cpu_ids ||
	    cfg->rx_drop_every > HNS3_SIM_MAX_DROP_EVERY)
		return -EINVAL;
	return 0;
}

/* Called with hns3_sim_mutex held; takes netdevs. */
static int hns3_sim_create(const struct hns3_sim_config *cfg, char *netdevs)
{
	struct hns3_sim *sim;
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim) {
		kfree(netdevs);
		return -ENOMEM;
	}
	sim->cfg = *cfg;
	sim->netdevs = netdevs;
	INIT_LIST_HEAD(&sim->fns);
	snprintf(sim->pmu.uc.name, sizeof(sim->pmu.uc.name), HNS3_PMU_NAME_FMT,
		 cfg->sicl_id);

	/* From here on the device owns sim: put_device() frees it. */
	device_initialize(&sim->dev);
	sim->dev.bus = &hns3_sim_bus;
	sim->dev.release = hns3_sim_release;
	ret = dev_set_name(&sim->dev, "netpmu_sim%u", cfg->sicl_id);
	if (ret)
		goto err_put_device;
	ret = device_add(&sim->dev);
	if (ret)
		goto err_put_device;

	hns3_sim_dev_init(sim);
	sim->pmu.uc.dev = &sim->dev;
	sim->pmu.uc.local_cpu = cfg->local_cpu;

	ret = hns3_sim_net_bind(sim);
	if (ret)
		goto err_del_device;

	hns3_pmu_init(&sim->pmu.uc);
	hns3_sim_dev_start(sim);
	ret = netpmu_uncore_register(&sim->pmu.uc);
	if (ret)
		goto err_stop_and_unbind;

	hns3_sim_debugfs_init(sim);
	pr_info("%s is a model (%s), not hardware\n",
		sim->pmu.uc.name, dev_name(&sim->dev));
	hns3_sim_net_report(sim);
	list_add_tail(&sim->node, &hns3_sim_list);
	return 0;

err_stop_and_unbind:
	hns3_sim_dev_stop(sim);
	hns3_sim_net_unbind(sim);
err_del_device:
	device_del(&sim->dev);
err_put_device:
	put_device(&sim->dev);
	return ret;
}

/* Called with hns3_sim_mutex held, after the PMU was unregistered. */
static void hns3_sim_teardown(struct hns3_sim *sim)
{
	debugfs_remove_recursive(sim->debugfs);
	list_del(&sim->node);
	hns3_sim_net_unbind(sim);
	hns3_sim_dev_stop(sim);
	device_unregister(&sim->dev);
}

static struct hns3_sim *hns3_sim_find(u16 id)
{
	struct hns3_sim *sim;

	list_for_each_entry(sim, &hns3_sim_list, node)
		if (sim->cfg.sicl_id == id)
			return sim;
	return NULL;
}

static void hns3_sim_default_config(struct hns3_sim_config *cfg)
{
	*cfg = (struct hns3_sim_config) {
		.sicl_id = sicl_id,
		.version = identifier,
		.clock_freq = hw_clk_freq,
		.counter_bits = counter_bits,
		.lat_base_ns = lat_base_ns,
		.link_mbps = link_mbps,
		.local_cpu = local_cpu,
		.rx_drop_every = rx_drop_every,
	};
}

/* One key=value of new_device; netdevs is returned allocated. */
static int hns3_sim_parse_opt(char *opt, struct hns3_sim_config *cfg,
			      char **netdev_list)
{
	char *val = strchr(opt, '=');

	if (!val)
		return -EINVAL;
	*val++ = '\0';

	if (!strcmp(opt, "netdevs")) {
		kfree(*netdev_list);
		*netdev_list = kstrdup(val, GFP_KERNEL);
		return *netdev_list ? 0 : -ENOMEM;
	}
	if (!strcmp(opt, "hw_clk_freq"))
		return kstrtou32(val, 0, &cfg->clock_freq);
	if (!strcmp(opt, "identifier"))
		return kstrtou32(val, 0, &cfg->version);
	if (!strcmp(opt, "counter_bits"))
		return kstrtou32(val, 0, &cfg->counter_bits);
	if (!strcmp(opt, "lat_base_ns"))
		return kstrtou32(val, 0, &cfg->lat_base_ns);
	if (!strcmp(opt, "link_mbps"))
		return kstrtou32(val, 0, &cfg->link_mbps);
	if (!strcmp(opt, "local_cpu"))
		return kstrtoint(val, 0, &cfg->local_cpu);
	if (!strcmp(opt, "rx_drop_every"))
		return kstrtou32(val, 0, &cfg->rx_drop_every);
	return -EINVAL;
}

#ifdef NETPMU_HAVE_CONST_BUS_ATTR
#define HNS3_SIM_BUS_TYPE	const struct bus_type
#else
#define HNS3_SIM_BUS_TYPE	struct bus_type
#endif

/* "ID [key=value ...]": a new instance hns3_pmu_sicl_<ID>. */
static ssize_t new_device_store(HNS3_SIM_BUS_TYPE *bus, const char *buf,
				size_t count)
{
	struct hns3_sim_config cfg;
	char *args, *p, *tok, *netdev_list = NULL;
	bool have_id = false;
	int ret = 0;

	hns3_sim_default_config(&cfg);
	if (netdevs && *netdevs) {
		netdev_list = kstrdup(netdevs, GFP_KERNEL);
		if (!netdev_list)
			return -ENOMEM;
	}

	args = kstrndup(buf, count, GFP_KERNEL);
	if (!args) {
		kfree(netdev_list);
		return -ENOMEM;
	}
	p = args;
	while (!ret && (tok = strsep(&p, " \t\n"))) {
		if (!*tok)
			continue;
		if (!have_id) {
			ret = kstrtou16(tok, 0, &cfg.sicl_id);
			have_id = true;
		} else {
			ret = hns3_sim_parse_opt(tok, &cfg, &netdev_list);
		}
	}
	kfree(args);
	if (!ret && (!have_id || hns3_sim_check_config(&cfg)))
		ret = -EINVAL;
	if (ret) {
		kfree(netdev_list);
		return ret;
	}

	mutex_lock(&hns3_sim_mutex);
	if (hns3_sim_closing) {
		kfree(netdev_list);
		ret = -ENODEV;
	} else if (netpmu_real_pmu_present(NETPMU_HNS3_PMU)) {
		kfree(netdev_list);
		ret = -EBUSY;
	} else if (hns3_sim_find(cfg.sicl_id)) {
		kfree(netdev_list);
		ret = -EEXIST;
	} else {
		ret = hns3_sim_create(&cfg, netdev_list);
	}
	mutex_unlock(&hns3_sim_mutex);

	return ret ? ret : count;
}
static BUS_ATTR_WO(new_device);

/* "ID": remove instance hns3_pmu_sicl_<ID>; -EBUSY while events use it. */
static ssize_t del_device_store(HNS3_SIM_BUS_TYPE *bus, const char *buf,
				size_t count)
{
	struct hns3_sim *sim;
	u16 id;
	int ret;

	ret = kstrtou16(buf, 0, &id);
	if (ret)
		return ret;

	mutex_lock(&hns3_sim_mutex);
	sim = hns3_sim_find(id);
	if (!sim || hns3_sim_closing) {
		ret = -ENOENT;
	} else {
		ret = hns3_pmu_unregister_idle(&sim->pmu);
		if (!ret)
			hns3_sim_teardown(sim);
	}
	mutex_unlock(&hns3_sim_mutex);

	return ret ? ret : count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *hns3_sim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(hns3_sim_bus);

static struct bus_type hns3_sim_bus = {
	.name		= "netpmu_sim",
	.bus_groups	= hns3_sim_bus_groups,
};

/*
 * The bus, and the model of the module parameters unless a real HNS3 PMU
 * exists. A model that cannot be made is said in the log and leaves the rest
 * of the module (the hardware driver) working.
 */
int hns3_sim_init(void)
{
	struct hns3_sim_config cfg;
	char *netdev_list = NULL;
	int ret;

	ret = bus_register(&hns3_sim_bus);
	if (ret)
		return ret;

	if (!netpmu_model_at_load(NETPMU_HNS3_PMU, sim))
		return 0;

	hns3_sim_default_config(&cfg);
	if (hns3_sim_check_config(&cfg)) {
		pr_err("invalid model parameters (hw_clk_freq and link_mbps > 0, counter_bits 16-64, local_cpu -1 or a possible CPU, rx_drop_every 0-" __stringify(HNS3_SIM_MAX_DROP_EVERY) "): no HNS3 PMU model\n");
		return 0;
	}

	if (netdevs && *netdevs) {
		netdev_list = kstrdup(netdevs, GFP_KERNEL);
		if (!netdev_list)
			return 0;
	}
	mutex_lock(&hns3_sim_mutex);
	ret = hns3_sim_create(&cfg, netdev_list);
	mutex_unlock(&hns3_sim_mutex);
	/* A taken name was said where it was found. */
	if (ret && ret != -EEXIST)
		pr_err("no HNS3 PMU model: %pe\n", ERR_PTR(ret));
	return 0;
}

void hns3_sim_exit(void)
{
	struct hns3_sim *sim, *tmp;

	/* No event is open: each holds a reference on the module. */
	mutex_lock(&hns3_sim_mutex);
	hns3_sim_closing = true;
	list_for_each_entry_safe(sim, tmp, &hns3_sim_list, node) {
		netpmu_uncore_unregister(&sim->pmu.uc);
		hns3_sim_teardown(sim);
	}
	mutex_unlock(&hns3_sim_mutex);

	bus_unregister(&hns3_sim_bus);
}
