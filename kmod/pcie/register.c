// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU core: the PMU's life. Identification, registration with perf,
 * and the CPU the PMU counts on (one of the device's NUMA node), kept across
 * CPU hotplug by the PMU's own dynamic multi-instance hotplug state.
 */

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/topology.h>

#include "core.h"

static enum cpuhp_state hisi_pcie_pmu_cpuhp_state;

static unsigned int hisi_pcie_pmu_pick_cpu(struct hisi_pcie_pmu *pcie_pmu,
					   unsigned int exclude)
{
	int node = pcie_pmu->numa_node;
	unsigned int cpu;

	if (node != NUMA_NO_NODE) {
		for_each_cpu_and(cpu, cpumask_of_node(node), cpu_online_mask)
			if (cpu != exclude)
				return cpu;
	}
	for_each_online_cpu(cpu)
		if (cpu != exclude)
			return cpu;
	return nr_cpu_ids;
}

/*
 * The counting CPU, as upstream: the first online CPU of the device's NUMA
 * node (a model may be local to another), and on hotplug another one of the
 * node, else any. The same on every kernel: remote reads do not give the
 * choice to the perf core (common/netpmu.h).
 */
static int hisi_pcie_pmu_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hisi_pcie_pmu *pcie_pmu = hlist_entry_safe(node,
							  struct hisi_pcie_pmu,
							  node);
	int local;
	unsigned int target;

	if (!pcie_pmu || pcie_pmu->on_cpu >= 0)
		return 0;

	local = pcie_pmu->local_cpu;
	if (local >= 0 && (unsigned int)local < nr_cpu_ids && cpu_online(local))
		target = local;
	else
		target = cpumask_local_spread(0, pcie_pmu->numa_node);

	WRITE_ONCE(pcie_pmu->on_cpu, target);
	pcie_pmu->set_irq_cpu(pcie_pmu, target);
	return 0;
}

static int hisi_pcie_pmu_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hisi_pcie_pmu *pcie_pmu = hlist_entry_safe(node,
							  struct hisi_pcie_pmu,
							  node);
	unsigned int target;

	if (!pcie_pmu || pcie_pmu->on_cpu != cpu)
		return 0;

	WRITE_ONCE(pcie_pmu->on_cpu, -1);
	target = hisi_pcie_pmu_pick_cpu(pcie_pmu, cpu);
	if (target >= nr_cpu_ids) {
		pr_err("%s: there is no CPU to count on\n",
		       pcie_pmu->name);
		return 0;
	}

	/* Before registration there is no perf context to move. */
	if (READ_ONCE(pcie_pmu->registered))
		netpmu_migrate_context(&pcie_pmu->pmu, cpu, target);
	WRITE_ONCE(pcie_pmu->on_cpu, target);
	pcie_pmu->set_irq_cpu(pcie_pmu, target);
	return 0;
}

/* Read the identification registers and name the PMU. */
void hisi_pcie_pmu_init(struct hisi_pcie_pmu *pcie_pmu)
{
	u32 bdf = netpmu_read32(pcie_pmu->regs, HISI_PCIE_REG_BDF);
	u32 info = netpmu_read32(pcie_pmu->regs, HISI_PCIE_REG_INFO);

	pcie_pmu->bdf_min = bdf & 0xffff;
	pcie_pmu->bdf_max = bdf >> 16;
	pcie_pmu->identifier = netpmu_read32(pcie_pmu->regs,
					     HISI_PCIE_REG_VERSION);
	pcie_pmu->sicl_id = info >> 16;
	pcie_pmu->core_id = info & 0xffff;
	snprintf(pcie_pmu->name, sizeof(pcie_pmu->name),
		 HISI_PCIE_PMU_NAME_FMT, pcie_pmu->sicl_id, pcie_pmu->core_id);
	pcie_pmu->on_cpu = -1;
	pcie_pmu->registered = false;
	raw_spin_lock_init(&pcie_pmu->lock);
}

int hisi_pcie_pmu_register(struct hisi_pcie_pmu *pcie_pmu)
{
	int ret;

	if (netpmu_pmu_name_taken(pcie_pmu->name)) {
		pr_err("PMU %s already exists (upstream hisi_pcie_pmu driver bound?), not registering\n",
		       pcie_pmu->name);
		return -EEXIST;
	}

	pcie_pmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.event_init	= hisi_pcie_pmu_event_init,
		.pmu_enable	= hisi_pcie_pmu_enable,
		.pmu_disable	= hisi_pcie_pmu_disable,
		.add		= hisi_pcie_pmu_add,
		.del		= hisi_pcie_pmu_del,
		.start		= hisi_pcie_pmu_start,
		.stop		= hisi_pcie_pmu_stop,
		.read		= hisi_pcie_pmu_read,
		.attr_groups	= hisi_pcie_pmu_attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
#ifdef NETPMU_HAVE_PMU_PARENT
		.parent		= pcie_pmu->dev,
#endif
	};

	ret = cpuhp_state_add_instance(hisi_pcie_pmu_cpuhp_state,
				       &pcie_pmu->node);
	if (ret)
		return ret;

	ret = perf_pmu_register(&pcie_pmu->pmu, pcie_pmu->name, -1);
	if (ret)
		goto err_remove_cpuhp_instance;
	WRITE_ONCE(pcie_pmu->registered, true);
	netpmu_pmu_allow_remote_reads(&pcie_pmu->pmu);
	return 0;

err_remove_cpuhp_instance:
	cpuhp_state_remove_instance_nocalls(hisi_pcie_pmu_cpuhp_state,
					    &pcie_pmu->node);
	return ret;
}

void hisi_pcie_pmu_unregister(struct hisi_pcie_pmu *pcie_pmu)
{
	WRITE_ONCE(pcie_pmu->registered, false);
	perf_pmu_unregister(&pcie_pmu->pmu);
	cpuhp_state_remove_instance_nocalls(hisi_pcie_pmu_cpuhp_state,
					    &pcie_pmu->node);
}

int hisi_pcie_pmu_cpuhp_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/netpmu/hisi_pcie_pmu:online",
				      hisi_pcie_pmu_online_cpu,
				      hisi_pcie_pmu_offline_cpu);
	if (ret < 0)
		return ret;
	hisi_pcie_pmu_cpuhp_state = ret;
	return 0;
}

void hisi_pcie_pmu_cpuhp_exit(void)
{
	cpuhp_remove_multi_state(hisi_pcie_pmu_cpuhp_state);
}
