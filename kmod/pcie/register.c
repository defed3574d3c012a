// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU core: the PMU's life. Identification, the choice of counting CPU
 * (one of the device's NUMA node) and the ops table through which the
 * uncore core (common/uncore.c) registers the PMU and keeps it counting
 * across CPU hotplug.
 */

#include <linux/cpumask.h>
#include <linux/topology.h>

#include "core.h"

static enum cpuhp_state hisi_pcie_pmu_cpuhp_state;

/*
 * The counting CPU, as upstream: the first online CPU of the device's NUMA
 * node (a model may be local to another), and on hotplug another one of the
 * node, else any.
 */
static unsigned int hisi_pcie_pmu_online_target(struct netpmu_uncore *uc,
						unsigned int cpu)
{
	struct hisi_pcie_pmu *pcie_pmu = container_of(uc, struct hisi_pcie_pmu,
						      uc);
	int local = uc->local_cpu;

	if (local >= 0 && (unsigned int)local < nr_cpu_ids && cpu_online(local))
		return local;
	return cpumask_local_spread(0, pcie_pmu->numa_node);
}

static unsigned int hisi_pcie_pmu_offline_target(struct netpmu_uncore *uc,
						 unsigned int exclude)
{
	struct hisi_pcie_pmu *pcie_pmu = container_of(uc, struct hisi_pcie_pmu,
						      uc);
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

static const struct netpmu_uncore_ops hisi_pcie_pmu_ops = {
	.upstream_driver	= "hisi_pcie_pmu",
	.attr_groups		= hisi_pcie_pmu_attr_groups,
	.event_init		= hisi_pcie_pmu_event_init,
	.pmu_enable		= hisi_pcie_pmu_enable,
	.pmu_disable		= hisi_pcie_pmu_disable,
	.start			= hisi_pcie_pmu_start,
	.stop			= hisi_pcie_pmu_stop,
	.read_counter		= hisi_pcie_pmu_read_counter,
	.related		= hisi_pcie_pmu_related,
	.claim_counter		= hisi_pcie_pmu_claim_counter,
	.handle_irq		= hisi_pcie_pmu_handle_irq,
	.online_target		= hisi_pcie_pmu_online_target,
	.offline_target		= hisi_pcie_pmu_offline_target,
};

/* Read the identification registers, name the PMU, set up its core. */
void hisi_pcie_pmu_init(struct netpmu_uncore *uc)
{
	struct hisi_pcie_pmu *pcie_pmu = container_of(uc, struct hisi_pcie_pmu,
						      uc);
	u32 bdf = netpmu_read32(uc->regs, HISI_PCIE_REG_BDF);
	u32 info = netpmu_read32(uc->regs, HISI_PCIE_REG_INFO);

	uc->bdf_min = bdf & 0xffff;
	uc->bdf_max = bdf >> 16;
	uc->identifier = netpmu_read32(uc->regs, HISI_PCIE_REG_VERSION);
	uc->sicl_id = info >> 16;
	pcie_pmu->core_id = info & 0xffff;
	snprintf(uc->name, sizeof(uc->name), HISI_PCIE_PMU_NAME_FMT,
		 uc->sicl_id, pcie_pmu->core_id);
	netpmu_uncore_init(uc, &hisi_pcie_pmu_ops, hisi_pcie_pmu_cpuhp_state);
}

int hisi_pcie_pmu_cpuhp_init(void)
{
	return netpmu_uncore_cpuhp_setup(&hisi_pcie_pmu_cpuhp_state,
					 "perf/netpmu/hisi_pcie_pmu:online");
}

void hisi_pcie_pmu_cpuhp_exit(void)
{
	netpmu_uncore_cpuhp_remove(hisi_pcie_pmu_cpuhp_state);
}
